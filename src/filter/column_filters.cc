// Filters that decide cell by cell: qualifier ranges and prefixes, column counts, first key,
// key only, timestamps, and the family / qualifier / value comparisons.

#include <algorithm>

#include "filter/comparator.h"
#include "filter/states.h"
#include "util/coding.h"

namespace basalt::filter {
namespace {

class ColumnPrefixState final : public FilterState {
 public:
  explicit ColumnPrefixState(std::string prefix) : prefix_(std::move(prefix)) {}

  CellVerdict FilterCell(const Cell& cell, std::string* next_qualifier) override {
    if (cell.qualifier.starts_with(prefix_)) return CellVerdict::kInclude;
    if (cell.qualifier < prefix_) {
      *next_qualifier = prefix_;
      return CellVerdict::kSeekColumn;
    }
    return CellVerdict::kNextRow;  // past every qualifier with the prefix in this family
  }

 private:
  std::string prefix_;
};

class MultipleColumnPrefixState final : public FilterState {
 public:
  explicit MultipleColumnPrefixState(std::vector<std::string> sorted_prefixes)
      : prefixes_(std::move(sorted_prefixes)) {}

  CellVerdict FilterCell(const Cell& cell, std::string* next_qualifier) override {
    // The last prefix <= qualifier is the only one the qualifier can start with.
    auto it = std::upper_bound(prefixes_.begin(), prefixes_.end(), cell.qualifier);
    if (it != prefixes_.begin() && cell.qualifier.starts_with(*std::prev(it))) {
      return CellVerdict::kInclude;
    }
    if (it == prefixes_.end()) return CellVerdict::kNextRow;
    *next_qualifier = *it;
    return CellVerdict::kSeekColumn;
  }

 private:
  std::vector<std::string> prefixes_;
};

// HBase counts per row and, once a row has more columns than the limit, ends the scan.
class ColumnCountGetState final : public FilterState {
 public:
  explicit ColumnCountGetState(int32_t limit) : limit_(limit) {}

  void Reset() override { count_ = 0; }
  bool FilterAllRemaining() override { return count_ > limit_; }
  CellVerdict FilterCell(const Cell&, std::string*) override {
    ++count_;
    return FilterAllRemaining() ? CellVerdict::kNextColumn : CellVerdict::kIncludeAndNextColumn;
  }

 private:
  int32_t limit_;
  int32_t count_ = 0;
};

class ColumnPaginationState final : public FilterState {
 public:
  ColumnPaginationState(int32_t limit, int32_t offset) : limit_(limit), offset_(offset) {}

  void Reset() override { count_ = 0; }
  CellVerdict FilterCell(const Cell&, std::string*) override {
    if (count_ >= static_cast<int64_t>(offset_) + limit_) return CellVerdict::kNextRow;
    CellVerdict v =
        count_ < offset_ ? CellVerdict::kNextColumn : CellVerdict::kIncludeAndNextColumn;
    ++count_;
    return v;
  }

 private:
  int32_t limit_;
  int32_t offset_;
  int64_t count_ = 0;
};

class ColumnRangeState final : public FilterState {
 public:
  explicit ColumnRangeState(const ColumnRangeFilter& f)
      : min_(f.min()),
        min_inclusive_(f.min_inclusive()),
        max_(f.max()),
        max_inclusive_(f.max_inclusive()),
        ceiling_{f.max(), f.max_inclusive(), f.min().empty()} {}

  // An empty max is no ceiling (HBase: null or empty, no upper limit).
  const QualifierCeiling* Ceiling() const override { return max_.empty() ? nullptr : &ceiling_; }
  bool Stateless() const override { return true; }

  CellVerdict FilterCell(const Cell& cell, std::string* next_qualifier) override {
    const std::string& q = cell.qualifier;
    if (!min_.empty()) {
      int cmp = q.compare(min_);
      if (cmp < 0) {
        *next_qualifier = min_;
        return CellVerdict::kSeekColumn;
      }
      if (cmp == 0 && !min_inclusive_) return CellVerdict::kNextColumn;
    }
    if (max_.empty()) return CellVerdict::kInclude;
    int cmp = q.compare(max_);
    if (cmp < 0 || (cmp == 0 && max_inclusive_)) return CellVerdict::kInclude;
    return CellVerdict::kNextRow;
  }

 private:
  std::string min_;
  bool min_inclusive_;
  std::string max_;
  bool max_inclusive_;
  QualifierCeiling ceiling_;
};

class FirstKeyOnlyState final : public FilterState {
 public:
  void Reset() override { found_ = false; }
  CellVerdict FilterCell(const Cell&, std::string*) override {
    if (found_) return CellVerdict::kNextRow;
    found_ = true;
    return CellVerdict::kInclude;
  }

 private:
  bool found_ = false;
};

class KeyOnlyState final : public FilterState {
 public:
  explicit KeyOnlyState(bool length_as_value) : length_as_value_(length_as_value) {}

  bool Stateless() const override { return true; }

  void TransformCell(Cell* cell) override {
    if (length_as_value_) {
      auto size = static_cast<uint32_t>(cell->value.size());
      cell->value.clear();
      util::PutFixed32BE(&cell->value, size);
    } else {
      cell->value.clear();
    }
  }

 private:
  bool length_as_value_;
};

class TimestampsState final : public FilterState {
 public:
  explicit TimestampsState(std::vector<int64_t> sorted) : timestamps_(std::move(sorted)) {}

  CellVerdict FilterCell(const Cell& cell, std::string*) override {
    if (std::binary_search(timestamps_.begin(), timestamps_.end(), cell.timestamp)) {
      return CellVerdict::kInclude;
    }
    // Versions come newest first: below the smallest wanted timestamp nothing can match.
    if (timestamps_.empty() || cell.timestamp < timestamps_.front())
      return CellVerdict::kNextColumn;
    return CellVerdict::kSkip;
  }

 private:
  std::vector<int64_t> timestamps_;
};

class CellCompareState final : public FilterState {
 public:
  CellCompareState(Filter::Type type, CompiledComparator c)
      : type_(type), comparator_(std::move(c)) {}

  CellVerdict FilterCell(const Cell& cell, std::string*) override {
    switch (type_) {
      case Filter::Type::kFamily:
        // HBase leaves the family at the first cell that fails: the answer is the same for all.
        return comparator_.Passes(cell.family) ? CellVerdict::kInclude : CellVerdict::kNextRow;
      case Filter::Type::kQualifier:
        return comparator_.Passes(cell.qualifier) ? CellVerdict::kInclude : CellVerdict::kSkip;
      default:
        return comparator_.Passes(cell.value) ? CellVerdict::kInclude : CellVerdict::kSkip;
    }
  }

 private:
  Filter::Type type_;
  CompiledComparator comparator_;
};

}  // namespace

std::unique_ptr<FilterState> NewColumnPrefixState(const ColumnPrefixFilter& f) {
  return std::make_unique<ColumnPrefixState>(f.prefix());
}

std::unique_ptr<FilterState> NewMultipleColumnPrefixState(const MultipleColumnPrefixFilter& f) {
  return std::make_unique<MultipleColumnPrefixState>(f.prefixes());
}

std::unique_ptr<FilterState> NewColumnCountGetState(const ColumnCountGetFilter& f) {
  return std::make_unique<ColumnCountGetState>(f.limit());
}

std::unique_ptr<FilterState> NewColumnPaginationState(const ColumnPaginationFilter& f) {
  return std::make_unique<ColumnPaginationState>(f.limit(), f.offset());
}

std::unique_ptr<FilterState> NewColumnRangeState(const ColumnRangeFilter& f) {
  return std::make_unique<ColumnRangeState>(f);
}

std::unique_ptr<FilterState> NewFirstKeyOnlyState() {
  return std::make_unique<FirstKeyOnlyState>();
}

std::unique_ptr<FilterState> NewKeyOnlyState(const KeyOnlyFilter& f) {
  return std::make_unique<KeyOnlyState>(f.length_as_value());
}

std::unique_ptr<FilterState> NewTimestampsState(const TimestampsFilter& f) {
  return std::make_unique<TimestampsState>(f.timestamps());
}

Result<std::unique_ptr<FilterState>> NewCellCompareState(const CompareFilter& f) {
  BASALT_ASSIGN_OR_RETURN(CompiledComparator c,
                          CompiledComparator::Compile(f.comparator(), f.op()));
  return std::unique_ptr<FilterState>(std::make_unique<CellCompareState>(f.type(), std::move(c)));
}

}  // namespace basalt::filter
