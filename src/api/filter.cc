#include "basalt/filter.h"

#include <algorithm>

#include "util/coding.h"

namespace basalt {
namespace {

// Filters are compared by value; children by their own Equals.
bool SameFilter(const FilterPtr& a, const FilterPtr& b) {
  if (a == nullptr || b == nullptr) return a == b;
  return *a == *b;
}

template <class T>
std::vector<T> SortedUnique(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

}  // namespace

ByteComparator ByteComparator::Long(int64_t operand) {
  std::string bytes;
  util::PutFixed64BE(&bytes, static_cast<uint64_t>(operand));
  return {Kind::kLong, std::move(bytes)};
}

int64_t ByteComparator::long_operand() const {
  if (operand_.size() != 8) return 0;
  return static_cast<int64_t>(util::DecodeFixed64BE(operand_.data()));
}

std::string_view ByteComparator::TypeName(Kind kind) {
  switch (kind) {
    case Kind::kBinary:
      return "binary";
    case Kind::kBinaryPrefix:
      return "binaryprefix";
    case Kind::kRegexString:
      return "regexstring";
    case Kind::kSubstring:
      return "substring";
    case Kind::kLong:
      return "long";
  }
  return "unknown";
}

std::string_view Filter::TypeName(Type type) {
  switch (type) {
    case Type::kPrefix:
      return "PrefixFilter";
    case Type::kPage:
      return "PageFilter";
    case Type::kColumnPrefix:
      return "ColumnPrefixFilter";
    case Type::kMultipleColumnPrefix:
      return "MultipleColumnPrefixFilter";
    case Type::kColumnCountGet:
      return "ColumnCountGetFilter";
    case Type::kColumnPagination:
      return "ColumnPaginationFilter";
    case Type::kColumnRange:
      return "ColumnRangeFilter";
    case Type::kFirstKeyOnly:
      return "FirstKeyOnlyFilter";
    case Type::kKeyOnly:
      return "KeyOnlyFilter";
    case Type::kInclusiveStop:
      return "InclusiveStopFilter";
    case Type::kTimestamps:
      return "TimestampsFilter";
    case Type::kRow:
      return "RowFilter";
    case Type::kFamily:
      return "FamilyFilter";
    case Type::kQualifier:
      return "QualifierFilter";
    case Type::kValue:
      return "ValueFilter";
    case Type::kSingleColumnValue:
      return "SingleColumnValueFilter";
    case Type::kSingleColumnValueExclude:
      return "SingleColumnValueExcludeFilter";
    case Type::kDependentColumn:
      return "DependentColumnFilter";
    case Type::kFuzzyRow:
      return "FuzzyRowFilter";
    case Type::kSkip:
      return "SkipFilter";
    case Type::kWhileMatch:
      return "WhileMatchFilter";
    case Type::kFilterList:
      return "FilterList";
  }
  return "UnknownFilter";
}

MultipleColumnPrefixFilter::MultipleColumnPrefixFilter(std::vector<std::string> prefixes)
    : Filter(Type::kMultipleColumnPrefix), prefixes_(SortedUnique(std::move(prefixes))) {}

TimestampsFilter::TimestampsFilter(std::vector<int64_t> timestamps)
    : Filter(Type::kTimestamps), timestamps_(SortedUnique(std::move(timestamps))) {}

bool PrefixFilter::SameArguments(const Filter& o) const {
  return prefix_ == static_cast<const PrefixFilter&>(o).prefix_;
}

bool PageFilter::SameArguments(const Filter& o) const {
  return page_size_ == static_cast<const PageFilter&>(o).page_size_;
}

bool ColumnPrefixFilter::SameArguments(const Filter& o) const {
  return prefix_ == static_cast<const ColumnPrefixFilter&>(o).prefix_;
}

bool MultipleColumnPrefixFilter::SameArguments(const Filter& o) const {
  return prefixes_ == static_cast<const MultipleColumnPrefixFilter&>(o).prefixes_;
}

bool ColumnCountGetFilter::SameArguments(const Filter& o) const {
  return limit_ == static_cast<const ColumnCountGetFilter&>(o).limit_;
}

bool ColumnPaginationFilter::SameArguments(const Filter& o) const {
  const auto& other = static_cast<const ColumnPaginationFilter&>(o);
  return limit_ == other.limit_ && offset_ == other.offset_;
}

bool ColumnRangeFilter::SameArguments(const Filter& o) const {
  const auto& other = static_cast<const ColumnRangeFilter&>(o);
  return min_ == other.min_ && min_inclusive_ == other.min_inclusive_ && max_ == other.max_ &&
         max_inclusive_ == other.max_inclusive_;
}

bool KeyOnlyFilter::SameArguments(const Filter& o) const {
  return length_as_value_ == static_cast<const KeyOnlyFilter&>(o).length_as_value_;
}

bool InclusiveStopFilter::SameArguments(const Filter& o) const {
  return stop_row_ == static_cast<const InclusiveStopFilter&>(o).stop_row_;
}

bool TimestampsFilter::SameArguments(const Filter& o) const {
  return timestamps_ == static_cast<const TimestampsFilter&>(o).timestamps_;
}

bool CompareFilter::SameArguments(const Filter& o) const {
  const auto& other = static_cast<const CompareFilter&>(o);
  return op_ == other.op_ && comparator_ == other.comparator_;
}

bool SingleColumnValueFilter::SameArguments(const Filter& o) const {
  const auto& other = static_cast<const SingleColumnValueFilter&>(o);
  return family_ == other.family_ && qualifier_ == other.qualifier_ && op_ == other.op_ &&
         comparator_ == other.comparator_ && filter_if_missing_ == other.filter_if_missing_ &&
         latest_version_only_ == other.latest_version_only_;
}

bool DependentColumnFilter::SameArguments(const Filter& o) const {
  const auto& other = static_cast<const DependentColumnFilter&>(o);
  return family_ == other.family_ && qualifier_ == other.qualifier_ &&
         drop_dependent_column_ == other.drop_dependent_column_ && op_ == other.op_ &&
         comparator_ == other.comparator_;
}

bool FuzzyRowFilter::SameArguments(const Filter& o) const {
  return keys_ == static_cast<const FuzzyRowFilter&>(o).keys_;
}

bool SkipFilter::SameArguments(const Filter& o) const {
  return SameFilter(filter_, static_cast<const SkipFilter&>(o).filter_);
}

bool WhileMatchFilter::SameArguments(const Filter& o) const {
  return SameFilter(filter_, static_cast<const WhileMatchFilter&>(o).filter_);
}

bool FilterList::SameArguments(const Filter& o) const {
  const auto& other = static_cast<const FilterList&>(o);
  if (op_ != other.op_ || filters_.size() != other.filters_.size()) return false;
  for (size_t i = 0; i < filters_.size(); ++i) {
    if (!SameFilter(filters_[i], other.filters_[i])) return false;
  }
  return true;
}

}  // namespace basalt
