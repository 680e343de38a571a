// Filters: server-side selection of rows and cells during a Get or Scan, with HBase's filter
// set and semantics. A filter is an immutable description; the store evaluates it inside its
// read path (with seek hints, so a filter that can skip keys does not read them) and keeps the
// per-scan state (rows counted, columns seen) itself, so one FilterPtr can serve many reads
// from many threads at once.
//
//   scan.SetFilter(std::make_shared<PrefixFilter>("user42#"));
//   scan.SetFilter(FilterList::And({std::make_shared<KeyOnlyFilter>(),
//                                   std::make_shared<PageFilter>(10)}));
//
// The filter language (HBase's string form) is in filter_language.h.
//
// What a filter sees: the cells a read without the filter would consider, after delete
// markers, TTL and the family's VERSIONS have been applied, newest version first. The read's own
// version limit (Get/Scan ReadVersions) counts only cells the filter includes, as in HBase 2, so
// a ValueFilter with ReadVersions(1) returns the newest version that matches.
//
// Comparisons follow HBase: RowFilter, FamilyFilter, QualifierFilter, ValueFilter and the
// column-value filters KEEP a cell or row when `stored OP operand` holds (the reverse of
// CheckAndMutate's reading).

#ifndef BASALT_FILTER_H_
#define BASALT_FILTER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "basalt/types.h"

namespace basalt {

// What a compare filter compares the stored bytes (row, family, qualifier or value) with.
class ByteComparator {
 public:
  // Values match the filter language's comparator type names (see TypeName).
  enum class Kind : uint8_t {
    kBinary,        // unsigned bytewise comparison with the whole stored value
    kBinaryPrefix,  // compares only the first size(operand) bytes of the stored value
    kRegexString,   // "matches" when the RE2 pattern is found anywhere in the value (DOTALL)
    kSubstring,     // "matches" when the value contains the operand, ignoring ASCII case
    kLong,          // the stored value read as an 8-byte big-endian signed integer
  };

  static ByteComparator Binary(std::string operand) { return {Kind::kBinary, std::move(operand)}; }
  static ByteComparator BinaryPrefix(std::string operand) {
    return {Kind::kBinaryPrefix, std::move(operand)};
  }
  // REQUIRES for a usable filter: a valid RE2 pattern (reads with an invalid one fail with
  // InvalidArgument). Only kEqual and kNotEqual make sense with it, as in HBase.
  static ByteComparator RegexString(std::string pattern) {
    return {Kind::kRegexString, std::move(pattern)};
  }
  // Only kEqual and kNotEqual make sense with it, as in HBase.
  static ByteComparator Substring(std::string operand) {
    return {Kind::kSubstring, std::move(operand)};
  }
  // A stored value that is not exactly 8 bytes never passes a long comparison.
  static ByteComparator Long(int64_t operand);

  Kind kind() const { return kind_; }
  // The operand: bytes, a pattern, or for kLong the 8-byte big-endian encoding.
  const std::string& operand() const { return operand_; }
  // The integer of a kLong comparator.
  int64_t long_operand() const;

  // "binary", "binaryprefix", "regexstring", "substring", "long": the prefix of the
  // comparator's string form 'type:operand' in the filter language.
  static std::string_view TypeName(Kind kind);

  friend bool operator==(const ByteComparator&, const ByteComparator&) = default;

 private:
  ByteComparator(Kind kind, std::string operand) : kind_(kind), operand_(std::move(operand)) {}

  Kind kind_;
  std::string operand_;
};

class Filter;
using FilterPtr = std::shared_ptr<const Filter>;

class Filter {
 public:
  // Names match HBase's filter class names (see TypeName). Never renumber: the REST and
  // Thrift layers may carry these values.
  enum class Type : uint8_t {
    kPrefix,
    kPage,
    kColumnPrefix,
    kMultipleColumnPrefix,
    kColumnCountGet,
    kColumnPagination,
    kColumnRange,
    kFirstKeyOnly,
    kKeyOnly,
    kInclusiveStop,
    kTimestamps,
    kRow,
    kFamily,
    kQualifier,
    kValue,
    kSingleColumnValue,
    kSingleColumnValueExclude,
    kDependentColumn,
    kFuzzyRow,
    kSkip,
    kWhileMatch,
    kFilterList,
  };

  virtual ~Filter() = default;

  Type type() const { return type_; }
  // HBase's class name, e.g. "PrefixFilter"; also the name in the filter language.
  static std::string_view TypeName(Type type);

  // Deep structural equality (same type and the same arguments, recursively).
  friend bool operator==(const Filter& a, const Filter& b) { return a.Equals(b); }

 protected:
  explicit Filter(Type type) : type_(type) {}
  // REQUIRES: other.type() == type().
  virtual bool SameArguments(const Filter& other) const = 0;

 private:
  bool Equals(const Filter& other) const { return type_ == other.type_ && SameArguments(other); }

  Type type_;
};

// Rows whose key starts with `prefix`. Seeks to the prefix and ends the scan after it, so it
// costs no more than a start/stop-row scan.
class PrefixFilter final : public Filter {
 public:
  explicit PrefixFilter(std::string prefix) : Filter(Type::kPrefix), prefix_(std::move(prefix)) {}
  const std::string& prefix() const { return prefix_; }

 private:
  bool SameArguments(const Filter& o) const override;
  std::string prefix_;
};

// At most `page_size` rows, counted per region as in HBase (basalt's embedded store is one
// region per table, so per scan). It needs whole rows: a scan with a batch size rejects it. For
// paging that is right across regions and requests, use the page API (paging.h).
class PageFilter final : public Filter {
 public:
  explicit PageFilter(int64_t page_size) : Filter(Type::kPage), page_size_(page_size) {}
  int64_t page_size() const { return page_size_; }

 private:
  bool SameArguments(const Filter& o) const override;
  int64_t page_size_;
};

// Cells whose qualifier starts with `prefix`; seeks to it within each row.
class ColumnPrefixFilter final : public Filter {
 public:
  explicit ColumnPrefixFilter(std::string prefix)
      : Filter(Type::kColumnPrefix), prefix_(std::move(prefix)) {}
  const std::string& prefix() const { return prefix_; }

 private:
  bool SameArguments(const Filter& o) const override;
  std::string prefix_;
};

// Cells whose qualifier starts with any of `prefixes`; seeks from one prefix to the next.
class MultipleColumnPrefixFilter final : public Filter {
 public:
  explicit MultipleColumnPrefixFilter(std::vector<std::string> prefixes);
  // Sorted, without duplicates.
  const std::vector<std::string>& prefixes() const { return prefixes_; }

 private:
  bool SameArguments(const Filter& o) const override;
  std::vector<std::string> prefixes_;
};

// The first `limit` columns; after that the WHOLE SCAN ends (HBase's filterAllRemaining: the
// filter is meant for Get).
class ColumnCountGetFilter final : public Filter {
 public:
  explicit ColumnCountGetFilter(int32_t limit) : Filter(Type::kColumnCountGet), limit_(limit) {}
  int32_t limit() const { return limit_; }

 private:
  bool SameArguments(const Filter& o) const override;
  int32_t limit_;
};

// Per row: skips the first `offset` columns and returns the next `limit`, one version each.
class ColumnPaginationFilter final : public Filter {
 public:
  ColumnPaginationFilter(int32_t limit, int32_t offset)
      : Filter(Type::kColumnPagination), limit_(limit), offset_(offset) {}
  int32_t limit() const { return limit_; }
  int32_t offset() const { return offset_; }

 private:
  bool SameArguments(const Filter& o) const override;
  int32_t limit_;
  int32_t offset_;
};

// Cells whose qualifier lies between min and max; an empty bound is unbounded. Seeks to min in
// each row and leaves the row after max.
class ColumnRangeFilter final : public Filter {
 public:
  ColumnRangeFilter(std::string min, bool min_inclusive, std::string max, bool max_inclusive)
      : Filter(Type::kColumnRange),
        min_(std::move(min)),
        min_inclusive_(min_inclusive),
        max_(std::move(max)),
        max_inclusive_(max_inclusive) {}
  const std::string& min() const { return min_; }
  bool min_inclusive() const { return min_inclusive_; }
  const std::string& max() const { return max_; }
  bool max_inclusive() const { return max_inclusive_; }

 private:
  bool SameArguments(const Filter& o) const override;
  std::string min_;
  bool min_inclusive_;
  std::string max_;
  bool max_inclusive_;
};

// Only the first cell of each row (the classic row counter).
class FirstKeyOnlyFilter final : public Filter {
 public:
  FirstKeyOnlyFilter() : Filter(Type::kFirstKeyOnly) {}

 private:
  bool SameArguments(const Filter&) const override { return true; }
};

// Strips values. With `length_as_value`, a cell's value becomes the 4-byte big-endian length of
// its original value.
class KeyOnlyFilter final : public Filter {
 public:
  explicit KeyOnlyFilter(bool length_as_value = false)
      : Filter(Type::kKeyOnly), length_as_value_(length_as_value) {}
  bool length_as_value() const { return length_as_value_; }

 private:
  bool SameArguments(const Filter& o) const override;
  bool length_as_value_;
};

// Rows up to and including `stop_row`; the scan ends after it (forward scans; a reversed scan
// ends before a row smaller than it).
class InclusiveStopFilter final : public Filter {
 public:
  explicit InclusiveStopFilter(std::string stop_row)
      : Filter(Type::kInclusiveStop), stop_row_(std::move(stop_row)) {}
  const std::string& stop_row() const { return stop_row_; }

 private:
  bool SameArguments(const Filter& o) const override;
  std::string stop_row_;
};

// Only cells whose timestamp is one of `timestamps`.
class TimestampsFilter final : public Filter {
 public:
  explicit TimestampsFilter(std::vector<int64_t> timestamps);
  // Sorted, without duplicates.
  const std::vector<int64_t>& timestamps() const { return timestamps_; }

 private:
  bool SameArguments(const Filter& o) const override;
  std::vector<int64_t> timestamps_;
};

// RowFilter, FamilyFilter, QualifierFilter, ValueFilter: keep what satisfies
// `stored op comparator`. RowFilter keeps or drops whole rows; the others single cells.
class CompareFilter : public Filter {
 public:
  CompareOp op() const { return op_; }
  const ByteComparator& comparator() const { return comparator_; }

 protected:
  CompareFilter(Type type, CompareOp op, ByteComparator comparator)
      : Filter(type), op_(op), comparator_(std::move(comparator)) {}
  bool SameArguments(const Filter& o) const override;

 private:
  CompareOp op_;
  ByteComparator comparator_;
};

class RowFilter final : public CompareFilter {
 public:
  RowFilter(CompareOp op, ByteComparator c) : CompareFilter(Type::kRow, op, std::move(c)) {}
};
class FamilyFilter final : public CompareFilter {
 public:
  FamilyFilter(CompareOp op, ByteComparator c) : CompareFilter(Type::kFamily, op, std::move(c)) {}
};
class QualifierFilter final : public CompareFilter {
 public:
  QualifierFilter(CompareOp op, ByteComparator c)
      : CompareFilter(Type::kQualifier, op, std::move(c)) {}
};
class ValueFilter final : public CompareFilter {
 public:
  ValueFilter(CompareOp op, ByteComparator c) : CompareFilter(Type::kValue, op, std::move(c)) {}
};

// Keeps or drops whole rows by the value of family:qualifier. A row without the column passes
// unless `filter_if_missing`. With `latest_version_only` (the default) only the newest version
// is tested; otherwise a row passes when any version read matches. As in HBase, the read must
// select the tested column (or its whole family), or the filter never sees it and every row
// passes.
class SingleColumnValueFilter : public Filter {
 public:
  SingleColumnValueFilter(std::string family, std::string qualifier, CompareOp op,
                          ByteComparator comparator, bool filter_if_missing = false,
                          bool latest_version_only = true)
      : SingleColumnValueFilter(Type::kSingleColumnValue, std::move(family), std::move(qualifier),
                                op, std::move(comparator), filter_if_missing, latest_version_only) {
  }

  const std::string& family() const { return family_; }
  const std::string& qualifier() const { return qualifier_; }
  CompareOp op() const { return op_; }
  const ByteComparator& comparator() const { return comparator_; }
  bool filter_if_missing() const { return filter_if_missing_; }
  bool latest_version_only() const { return latest_version_only_; }

 protected:
  SingleColumnValueFilter(Type type, std::string family, std::string qualifier, CompareOp op,
                          ByteComparator comparator, bool filter_if_missing,
                          bool latest_version_only)
      : Filter(type),
        family_(std::move(family)),
        qualifier_(std::move(qualifier)),
        op_(op),
        comparator_(std::move(comparator)),
        filter_if_missing_(filter_if_missing),
        latest_version_only_(latest_version_only) {}
  bool SameArguments(const Filter& o) const override;

 private:
  std::string family_;
  std::string qualifier_;
  CompareOp op_;
  ByteComparator comparator_;
  bool filter_if_missing_;
  bool latest_version_only_;
};

// As SingleColumnValueFilter, but the tested column is left out of the rows returned.
class SingleColumnValueExcludeFilter final : public SingleColumnValueFilter {
 public:
  SingleColumnValueExcludeFilter(std::string family, std::string qualifier, CompareOp op,
                                 ByteComparator comparator, bool filter_if_missing = false,
                                 bool latest_version_only = true)
      : SingleColumnValueFilter(Type::kSingleColumnValueExclude, std::move(family),
                                std::move(qualifier), op, std::move(comparator), filter_if_missing,
                                latest_version_only) {}
};

// Keeps only the cells whose timestamp equals that of a version of the reference column
// family:qualifier (whose value satisfies `op comparator`, when given); rows without the
// reference column come back empty, so they are dropped. With `drop_dependent_column` the
// reference column itself is left out.
class DependentColumnFilter final : public Filter {
 public:
  DependentColumnFilter(std::string family, std::string qualifier,
                        bool drop_dependent_column = false, CompareOp op = CompareOp::kNoOp,
                        std::optional<ByteComparator> comparator = std::nullopt)
      : Filter(Type::kDependentColumn),
        family_(std::move(family)),
        qualifier_(std::move(qualifier)),
        drop_dependent_column_(drop_dependent_column),
        op_(op),
        comparator_(std::move(comparator)) {}

  const std::string& family() const { return family_; }
  const std::string& qualifier() const { return qualifier_; }
  bool drop_dependent_column() const { return drop_dependent_column_; }
  CompareOp op() const { return op_; }
  // nullopt: every version of the reference column counts.
  const std::optional<ByteComparator>& comparator() const { return comparator_; }

 private:
  bool SameArguments(const Filter& o) const override;
  std::string family_;
  std::string qualifier_;
  bool drop_dependent_column_;
  CompareOp op_;
  std::optional<ByteComparator> comparator_;
};

// Rows that match any of the fuzzy keys. A fuzzy key is a byte pattern and a mask of the same
// length: mask byte 0 means the row's byte at that position must equal the pattern's, 1 means
// any byte. A row matches when it is at least as long as the pattern and matches it on its first
// size(pattern) bytes. The scan seeks from one possible match to the next.
class FuzzyRowFilter final : public Filter {
 public:
  struct FuzzyKey {
    std::string pattern;
    std::string mask;
    friend bool operator==(const FuzzyKey&, const FuzzyKey&) = default;
  };
  explicit FuzzyRowFilter(std::vector<FuzzyKey> keys)
      : Filter(Type::kFuzzyRow), keys_(std::move(keys)) {}
  const std::vector<FuzzyKey>& keys() const { return keys_; }

 private:
  bool SameArguments(const Filter& o) const override;
  std::vector<FuzzyKey> keys_;
};

// Drops a whole row when the wrapped filter excludes any of its cells (filter language SKIP).
class SkipFilter final : public Filter {
 public:
  explicit SkipFilter(FilterPtr filter) : Filter(Type::kSkip), filter_(std::move(filter)) {}
  const FilterPtr& filter() const { return filter_; }

 private:
  bool SameArguments(const Filter& o) const override;
  FilterPtr filter_;
};

// Ends the whole scan at the first row or cell the wrapped filter excludes (filter language
// WHILE).
class WhileMatchFilter final : public Filter {
 public:
  explicit WhileMatchFilter(FilterPtr filter)
      : Filter(Type::kWhileMatch), filter_(std::move(filter)) {}
  const FilterPtr& filter() const { return filter_; }

 private:
  bool SameArguments(const Filter& o) const override;
  FilterPtr filter_;
};

// Combines filters: kMustPassAll keeps what every filter keeps (AND), kMustPassOne what any
// filter keeps (OR). An empty list keeps everything. Values match HBase's FilterList.Operator.
class FilterList final : public Filter {
 public:
  enum class Operator : uint8_t { kMustPassAll = 0, kMustPassOne = 1 };

  FilterList(Operator op, std::vector<FilterPtr> filters)
      : Filter(Type::kFilterList), op_(op), filters_(std::move(filters)) {}
  static FilterPtr And(std::vector<FilterPtr> filters) {
    return std::make_shared<FilterList>(Operator::kMustPassAll, std::move(filters));
  }
  static FilterPtr Or(std::vector<FilterPtr> filters) {
    return std::make_shared<FilterList>(Operator::kMustPassOne, std::move(filters));
  }

  Operator op() const { return op_; }
  const std::vector<FilterPtr>& filters() const { return filters_; }

 private:
  bool SameArguments(const Filter& o) const override;
  Operator op_;
  std::vector<FilterPtr> filters_;
};

}  // namespace basalt

#endif  // BASALT_FILTER_H_
