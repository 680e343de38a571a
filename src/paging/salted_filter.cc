#include "paging/salted_filter.h"

#include <memory>
#include <string>
#include <vector>

namespace basalt::paging {
namespace {

std::string Salted(char salt, const std::string& key) {
  std::string out(1, salt);
  out += key;
  return out;
}

Status EndsTheScan(Filter::Type type) {
  return Status::InvalidArgument(
      std::string(Filter::TypeName(type)) +
      " cannot be used in a salted scan: it would end each bucket's scan separately; use "
      "Scan::SetLimit or ReadPage (paging.h)");
}

}  // namespace

Result<FilterPtr> SaltFilter(const FilterPtr& filter, char salt, SaltedRead read) {
  if (filter == nullptr) return FilterPtr();
  switch (filter->type()) {
    case Filter::Type::kPrefix: {
      const auto& f = static_cast<const PrefixFilter&>(*filter);
      return FilterPtr(std::make_shared<PrefixFilter>(Salted(salt, f.prefix())));
    }
    case Filter::Type::kInclusiveStop: {
      const auto& f = static_cast<const InclusiveStopFilter&>(*filter);
      return FilterPtr(std::make_shared<InclusiveStopFilter>(Salted(salt, f.stop_row())));
    }
    case Filter::Type::kRow: {
      // Binary comparisons of salt+row with salt+operand order as row with operand, and the
      // first 1+n bytes of salt+row are salt + the first n bytes of row. The other comparators
      // look inside the key, where the salt byte would change the answer.
      const auto& f = static_cast<const RowFilter&>(*filter);
      const ByteComparator& c = f.comparator();
      switch (c.kind()) {
        case ByteComparator::Kind::kBinary:
          return FilterPtr(std::make_shared<RowFilter>(
              f.op(), ByteComparator::Binary(Salted(salt, c.operand()))));
        case ByteComparator::Kind::kBinaryPrefix:
          return FilterPtr(std::make_shared<RowFilter>(
              f.op(), ByteComparator::BinaryPrefix(Salted(salt, c.operand()))));
        default:
          return Status::InvalidArgument(
              "RowFilter with a " + std::string(ByteComparator::TypeName(c.kind())) +
              " comparator cannot be used on a salted table: it would see the salt byte; use "
              "binary or binaryprefix, or the scan's bounds and prefix");
      }
    }
    case Filter::Type::kFuzzyRow: {
      // The salt byte is one more fixed position (mask 0) in front of every pattern.
      const auto& f = static_cast<const FuzzyRowFilter&>(*filter);
      std::vector<FuzzyRowFilter::FuzzyKey> keys;
      keys.reserve(f.keys().size());
      for (const auto& k : f.keys()) {
        keys.push_back({Salted(salt, k.pattern), Salted('\0', k.mask)});
      }
      return FilterPtr(std::make_shared<FuzzyRowFilter>(std::move(keys)));
    }
    case Filter::Type::kSkip: {
      const auto& f = static_cast<const SkipFilter&>(*filter);
      BASALT_ASSIGN_OR_RETURN(FilterPtr inner, SaltFilter(f.filter(), salt, read));
      return FilterPtr(std::make_shared<SkipFilter>(std::move(inner)));
    }
    case Filter::Type::kWhileMatch: {
      if (read == SaltedRead::kScan) return EndsTheScan(filter->type());
      const auto& f = static_cast<const WhileMatchFilter&>(*filter);
      BASALT_ASSIGN_OR_RETURN(FilterPtr inner, SaltFilter(f.filter(), salt, read));
      return FilterPtr(std::make_shared<WhileMatchFilter>(std::move(inner)));
    }
    case Filter::Type::kFilterList: {
      const auto& f = static_cast<const FilterList&>(*filter);
      std::vector<FilterPtr> filters;
      filters.reserve(f.filters().size());
      for (const auto& inner : f.filters()) {
        BASALT_ASSIGN_OR_RETURN(FilterPtr salted, SaltFilter(inner, salt, read));
        filters.push_back(std::move(salted));
      }
      return FilterPtr(std::make_shared<FilterList>(f.op(), std::move(filters)));
    }
    case Filter::Type::kPage:
    case Filter::Type::kColumnCountGet:
      if (read == SaltedRead::kScan) return EndsTheScan(filter->type());
      return filter;
    case Filter::Type::kColumnPrefix:
    case Filter::Type::kMultipleColumnPrefix:
    case Filter::Type::kColumnPagination:
    case Filter::Type::kColumnRange:
    case Filter::Type::kFirstKeyOnly:
    case Filter::Type::kKeyOnly:
    case Filter::Type::kTimestamps:
    case Filter::Type::kFamily:
    case Filter::Type::kQualifier:
    case Filter::Type::kValue:
    case Filter::Type::kSingleColumnValue:
    case Filter::Type::kSingleColumnValueExclude:
    case Filter::Type::kDependentColumn:
      return filter;  // these never look at the row key
  }
  return Status::Internal("unknown filter type");
}

}  // namespace basalt::paging
