#include "filter/filter_registry.h"

#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <utility>

namespace basalt::filter {
namespace {

bool EqualsIgnoringAsciiCase(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

// The argument list of one filter term, with typed accessors whose errors name the argument.
class Arguments {
 public:
  Arguments(const Token& name, std::string_view usage, const std::vector<Token>& args)
      : name_(name), usage_(usage), args_(args) {}

  size_t size() const { return args_.size(); }

  Status ExpectCount(std::initializer_list<size_t> counts) const {
    if (std::find(counts.begin(), counts.end(), args_.size()) != counts.end()) return Status::OK();
    return WrongCount();
  }

  Status WrongCount() const {
    return Status::InvalidArgument(
        "wrong number of arguments for " + name_.text + " at position " +
        std::to_string(name_.position) + ": got " + std::to_string(args_.size()) +
        (args_.size() == 1 ? " argument" : " arguments") + ", expected " + std::string(usage_));
  }

  // "invalid argument 2 of ColumnRangeFilter at position 20: <reason>".
  Status Invalid(size_t i, std::string_view reason) const {
    return Status::InvalidArgument("invalid argument " + std::to_string(i + 1) + " of " +
                                   name_.text + " at position " +
                                   std::to_string(args_[i].position) + ": " + std::string(reason));
  }

  Result<std::string> String(size_t i) const {
    if (args_[i].kind != Token::Kind::kString) {
      return Invalid(i, "expected a quoted string, found " + Describe(args_[i]));
    }
    return args_[i].text;
  }

  Result<bool> Bool(size_t i) const {
    if (args_[i].kind == Token::Kind::kWord) {
      if (EqualsIgnoringAsciiCase(args_[i].text, "true")) return true;
      if (EqualsIgnoringAsciiCase(args_[i].text, "false")) return false;
    }
    return Invalid(i, "expected true or false, found " + Describe(args_[i]));
  }

  Result<int64_t> Integer(size_t i, int64_t min, int64_t max) const {
    if (args_[i].kind != Token::Kind::kWord) {
      return Invalid(i, "expected an integer, found " + Describe(args_[i]));
    }
    int64_t value = 0;
    switch (ParseDecimal(args_[i].text, &value)) {
      case Decimal::kOk:
        break;
      case Decimal::kNotANumber:
        return Invalid(i, "expected an integer, found " + Describe(args_[i]));
      case Decimal::kOutOfRange:
        return Invalid(i, "integer out of range: " + Excerpt(args_[i].text));
    }
    if (value < min || value > max) {
      std::string range =
          max == std::numeric_limits<int64_t>::max()
              ? "must be at least " + std::to_string(min)
              : "must be between " + std::to_string(min) + " and " + std::to_string(max);
      return Invalid(i, range + ", found " + std::to_string(value));
    }
    return value;
  }

  Result<int32_t> NonNegativeInt32(size_t i) const {
    BASALT_ASSIGN_OR_RETURN(int64_t v, Integer(i, 0, std::numeric_limits<int32_t>::max()));
    return static_cast<int32_t>(v);
  }

  Result<int64_t> NonNegativeInt64(size_t i) const {
    return Integer(i, 0, std::numeric_limits<int64_t>::max());
  }

  Result<CompareOp> Op(size_t i) const {
    if (args_[i].kind == Token::Kind::kWord) {
      for (CompareOp op : {CompareOp::kLess, CompareOp::kLessOrEqual, CompareOp::kEqual,
                           CompareOp::kNotEqual, CompareOp::kGreaterOrEqual, CompareOp::kGreater}) {
        if (args_[i].text == CompareOpSymbol(op)) return op;
      }
    }
    return Invalid(
        i, "expected a compare operator (<, <=, =, !=, >=, >), found " + Describe(args_[i]));
  }

  // A quoted 'type:value', split at the first colon. regexstring and substring comparators work
  // only with = and != (`op` is the filter's operator), as in HBase.
  Result<ByteComparator> Comparator(size_t i, CompareOp op) const {
    static constexpr std::string_view kExpected =
        "expected a comparator 'type:value' (type binary, binaryprefix, regexstring, substring "
        "or long)";
    if (args_[i].kind != Token::Kind::kString) {
      return Invalid(i, std::string(kExpected) + ", found " + Describe(args_[i]));
    }
    const std::string& text = args_[i].text;
    const size_t colon = text.find(':');
    if (colon == std::string::npos) {
      return Invalid(i, std::string(kExpected) + ", found '" + Excerpt(text) + "'");
    }
    const std::string_view type = std::string_view(text).substr(0, colon);
    std::string value = text.substr(colon + 1);
    if (type == "binary") return ByteComparator::Binary(std::move(value));
    if (type == "binaryprefix") return ByteComparator::BinaryPrefix(std::move(value));
    if (type == "long") {
      int64_t n = 0;
      if (ParseDecimal(value, &n) != Decimal::kOk) {
        return Invalid(
            i, "a long comparator takes a decimal 64-bit integer, found '" + Excerpt(value) + "'");
      }
      return ByteComparator::Long(n);
    }
    if (type != "regexstring" && type != "substring") {
      return Invalid(i, "unknown comparator type '" + Excerpt(type) +
                            "' (binary, binaryprefix, regexstring, substring or long)");
    }
    if (op != CompareOp::kEqual && op != CompareOp::kNotEqual) {
      return Invalid(i, "a " + std::string(type) + " comparator works only with = and !=, not " +
                            std::string(CompareOpSymbol(op)));
    }
    if (type == "substring") return ByteComparator::Substring(std::move(value));
    BASALT_RETURN_IF_ERROR(CheckRegex(i, value));
    return ByteComparator::RegexString(std::move(value));
  }

 private:
  enum class Decimal { kOk, kNotANumber, kOutOfRange };

  // An optional '-' and one or more ASCII digits, nothing else, within int64.
  static Decimal ParseDecimal(std::string_view text, int64_t* value) {
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, *value);
    if (ec == std::errc::result_out_of_range) return Decimal::kOutOfRange;
    if (ec != std::errc() || ptr != end) return Decimal::kNotANumber;
    return Decimal::kOk;
  }

  // The engine decides how it reads patterns; here a pattern is refused only when RE2 cannot
  // compile it as UTF-8 nor as Latin-1, so the parser never rejects one the engine could use.
  Status CheckRegex(size_t i, const std::string& pattern) const {
    RE2::Options options;
    options.set_log_errors(false);
    options.set_dot_nl(true);
    RE2 utf8(pattern, options);
    if (utf8.ok()) return Status::OK();
    options.set_encoding(RE2::Options::EncodingLatin1);
    RE2 latin1(pattern, options);
    if (latin1.ok()) return Status::OK();
    return Invalid(i, "invalid regular expression: " + Excerpt(utf8.error()));
  }

  const Token& name_;
  std::string_view usage_;
  const std::vector<Token>& args_;
};

using Builder = Result<FilterPtr> (*)(const Arguments&);

template <class T, class... Args>
FilterPtr New(Args&&... args) {
  return std::make_shared<T>(std::forward<Args>(args)...);
}

struct FilterSpec {
  std::string_view name;
  std::string_view usage;
  Builder build;
};

Result<FilterPtr> BuildKeyOnly(const Arguments& a) {
  BASALT_RETURN_IF_ERROR(a.ExpectCount({0, 1}));
  bool length_as_value = false;
  if (a.size() == 1) {
    BASALT_ASSIGN_OR_RETURN(length_as_value, a.Bool(0));
  }
  return New<KeyOnlyFilter>(length_as_value);
}

Result<FilterPtr> BuildFirstKeyOnly(const Arguments& a) {
  BASALT_RETURN_IF_ERROR(a.ExpectCount({0}));
  return New<FirstKeyOnlyFilter>();
}

Result<FilterPtr> BuildPrefix(const Arguments& a) {
  BASALT_RETURN_IF_ERROR(a.ExpectCount({1}));
  BASALT_ASSIGN_OR_RETURN(std::string prefix, a.String(0));
  return New<PrefixFilter>(std::move(prefix));
}

Result<FilterPtr> BuildColumnPrefix(const Arguments& a) {
  BASALT_RETURN_IF_ERROR(a.ExpectCount({1}));
  BASALT_ASSIGN_OR_RETURN(std::string prefix, a.String(0));
  return New<ColumnPrefixFilter>(std::move(prefix));
}

// Any number of prefixes, none twice (HBase: "prefixes must be distinct").
Result<FilterPtr> BuildMultipleColumnPrefix(const Arguments& a) {
  std::vector<std::string> prefixes;
  std::set<std::string> seen;  // a set, so a huge list is not quadratic
  for (size_t i = 0; i < a.size(); ++i) {
    BASALT_ASSIGN_OR_RETURN(std::string prefix, a.String(i));
    if (!seen.insert(prefix).second) {
      return a.Invalid(i, "prefix '" + Excerpt(prefix) + "' is given twice");
    }
    prefixes.push_back(std::move(prefix));
  }
  return New<MultipleColumnPrefixFilter>(std::move(prefixes));
}

Result<FilterPtr> BuildColumnCountGet(const Arguments& a) {
  BASALT_RETURN_IF_ERROR(a.ExpectCount({1}));
  BASALT_ASSIGN_OR_RETURN(int32_t limit, a.NonNegativeInt32(0));
  return New<ColumnCountGetFilter>(limit);
}

Result<FilterPtr> BuildPage(const Arguments& a) {
  BASALT_RETURN_IF_ERROR(a.ExpectCount({1}));
  BASALT_ASSIGN_OR_RETURN(int64_t page_size, a.NonNegativeInt64(0));
  return New<PageFilter>(page_size);
}

Result<FilterPtr> BuildColumnPagination(const Arguments& a) {
  BASALT_RETURN_IF_ERROR(a.ExpectCount({2}));
  BASALT_ASSIGN_OR_RETURN(int32_t limit, a.NonNegativeInt32(0));
  BASALT_ASSIGN_OR_RETURN(int32_t offset, a.NonNegativeInt32(1));
  return New<ColumnPaginationFilter>(limit, offset);
}

Result<FilterPtr> BuildInclusiveStop(const Arguments& a) {
  BASALT_RETURN_IF_ERROR(a.ExpectCount({1}));
  BASALT_ASSIGN_OR_RETURN(std::string stop_row, a.String(0));
  return New<InclusiveStopFilter>(std::move(stop_row));
}

// Zero or more timestamps, each >= 0.
Result<FilterPtr> BuildTimestamps(const Arguments& a) {
  std::vector<int64_t> timestamps;
  for (size_t i = 0; i < a.size(); ++i) {
    BASALT_ASSIGN_OR_RETURN(int64_t ts, a.NonNegativeInt64(i));
    timestamps.push_back(ts);
  }
  return New<TimestampsFilter>(std::move(timestamps));
}

template <class T>
Result<FilterPtr> BuildCompare(const Arguments& a) {
  BASALT_RETURN_IF_ERROR(a.ExpectCount({2}));
  BASALT_ASSIGN_OR_RETURN(CompareOp op, a.Op(0));
  BASALT_ASSIGN_OR_RETURN(ByteComparator comparator, a.Comparator(1, op));
  return New<T>(op, std::move(comparator));
}

Result<FilterPtr> BuildColumnRange(const Arguments& a) {
  BASALT_RETURN_IF_ERROR(a.ExpectCount({4}));
  BASALT_ASSIGN_OR_RETURN(std::string min, a.String(0));
  BASALT_ASSIGN_OR_RETURN(bool min_inclusive, a.Bool(1));
  BASALT_ASSIGN_OR_RETURN(std::string max, a.String(2));
  BASALT_ASSIGN_OR_RETURN(bool max_inclusive, a.Bool(3));
  return New<ColumnRangeFilter>(std::move(min), min_inclusive, std::move(max), max_inclusive);
}

// ('f', 'q'), ('f', 'q', drop) or ('f', 'q', drop, op, 'comparator').
Result<FilterPtr> BuildDependentColumn(const Arguments& a) {
  BASALT_RETURN_IF_ERROR(a.ExpectCount({2, 3, 5}));
  BASALT_ASSIGN_OR_RETURN(std::string family, a.String(0));
  BASALT_ASSIGN_OR_RETURN(std::string qualifier, a.String(1));
  bool drop = false;
  if (a.size() >= 3) {
    BASALT_ASSIGN_OR_RETURN(drop, a.Bool(2));
  }
  if (a.size() == 5) {
    BASALT_ASSIGN_OR_RETURN(CompareOp op, a.Op(3));
    BASALT_ASSIGN_OR_RETURN(ByteComparator comparator, a.Comparator(4, op));
    return New<DependentColumnFilter>(std::move(family), std::move(qualifier), drop, op,
                                      std::move(comparator));
  }
  return New<DependentColumnFilter>(std::move(family), std::move(qualifier), drop);
}

// ('f', 'q', op, 'comparator') or the same plus filter_if_missing, latest_version_only.
template <class T>
Result<FilterPtr> BuildSingleColumnValue(const Arguments& a) {
  BASALT_RETURN_IF_ERROR(a.ExpectCount({4, 6}));
  BASALT_ASSIGN_OR_RETURN(std::string family, a.String(0));
  BASALT_ASSIGN_OR_RETURN(std::string qualifier, a.String(1));
  BASALT_ASSIGN_OR_RETURN(CompareOp op, a.Op(2));
  BASALT_ASSIGN_OR_RETURN(ByteComparator comparator, a.Comparator(3, op));
  bool filter_if_missing = false;
  bool latest_version_only = true;
  if (a.size() == 6) {
    BASALT_ASSIGN_OR_RETURN(filter_if_missing, a.Bool(4));
    BASALT_ASSIGN_OR_RETURN(latest_version_only, a.Bool(5));
  }
  return New<T>(std::move(family), std::move(qualifier), op, std::move(comparator),
                filter_if_missing, latest_version_only);
}

// basalt's extension: ('pattern', 'mask', ...), one or more pairs of equal length; mask bytes
// are 0 (the row's byte must equal the pattern's) or 1 (any byte).
Result<FilterPtr> BuildFuzzyRow(const Arguments& a) {
  if (a.size() == 0 || a.size() % 2 != 0) return a.WrongCount();
  std::vector<FuzzyRowFilter::FuzzyKey> keys;
  for (size_t i = 0; i < a.size(); i += 2) {
    BASALT_ASSIGN_OR_RETURN(std::string pattern, a.String(i));
    BASALT_ASSIGN_OR_RETURN(std::string mask, a.String(i + 1));
    if (mask.size() != pattern.size()) {
      return a.Invalid(i + 1, "mask has " + std::to_string(mask.size()) + " bytes, its pattern " +
                                  std::to_string(pattern.size()) + "; they must be equally long");
    }
    for (size_t j = 0; j < mask.size(); ++j) {
      if (mask[j] != '\0' && mask[j] != '\1') {
        return a.Invalid(i + 1, "mask byte " + std::to_string(j) + " is '" +
                                    Excerpt(mask.substr(j, 1)) +
                                    "'; mask bytes are \\x00 (fixed) or \\x01 (any)");
      }
    }
    keys.push_back({std::move(pattern), std::move(mask)});
  }
  return New<FuzzyRowFilter>(std::move(keys));
}

constexpr std::array<FilterSpec, 19> kFilters = {{
    {"KeyOnlyFilter", "KeyOnlyFilter() or KeyOnlyFilter(length_as_value)", BuildKeyOnly},
    {"FirstKeyOnlyFilter", "FirstKeyOnlyFilter()", BuildFirstKeyOnly},
    {"PrefixFilter", "PrefixFilter('prefix')", BuildPrefix},
    {"ColumnPrefixFilter", "ColumnPrefixFilter('prefix')", BuildColumnPrefix},
    {"MultipleColumnPrefixFilter", "MultipleColumnPrefixFilter('prefix', ...)",
     BuildMultipleColumnPrefix},
    {"ColumnCountGetFilter", "ColumnCountGetFilter(limit)", BuildColumnCountGet},
    {"PageFilter", "PageFilter(page_size)", BuildPage},
    {"ColumnPaginationFilter", "ColumnPaginationFilter(limit, offset)", BuildColumnPagination},
    {"InclusiveStopFilter", "InclusiveStopFilter('stop_row')", BuildInclusiveStop},
    {"TimestampsFilter", "TimestampsFilter(timestamp, ...)", BuildTimestamps},
    {"RowFilter", "RowFilter(op, 'comparator')", BuildCompare<RowFilter>},
    {"FamilyFilter", "FamilyFilter(op, 'comparator')", BuildCompare<FamilyFilter>},
    {"QualifierFilter", "QualifierFilter(op, 'comparator')", BuildCompare<QualifierFilter>},
    {"ValueFilter", "ValueFilter(op, 'comparator')", BuildCompare<ValueFilter>},
    {"ColumnRangeFilter", "ColumnRangeFilter('min', min_inclusive, 'max', max_inclusive)",
     BuildColumnRange},
    {"SingleColumnValueFilter",
     "SingleColumnValueFilter('family', 'qualifier', op, 'comparator'[, filter_if_missing, "
     "latest_version_only])",
     BuildSingleColumnValue<SingleColumnValueFilter>},
    {"SingleColumnValueExcludeFilter",
     "SingleColumnValueExcludeFilter('family', 'qualifier', op, 'comparator'[, "
     "filter_if_missing, latest_version_only])",
     BuildSingleColumnValue<SingleColumnValueExcludeFilter>},
    {"DependentColumnFilter",
     "DependentColumnFilter('family', 'qualifier'[, drop_dependent_column[, op, "
     "'comparator']])",
     BuildDependentColumn},
    {"FuzzyRowFilter", "FuzzyRowFilter('pattern', 'mask'[, 'pattern', 'mask']...)", BuildFuzzyRow},
}};

const FilterSpec* Find(std::string_view name) {
  for (const FilterSpec& spec : kFilters) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

}  // namespace

Status CheckFilterName(const Token& name) {
  const std::string at = " at position " + std::to_string(name.position);
  const std::string quoted = "'" + Excerpt(name.text) + "'";
  const FilterSpec* spec = Find(name.text);
  if (spec != nullptr) return Status::OK();
  if (name.text == "FilterList") {
    return Status::InvalidArgument(quoted + at +
                                   " is not written as a filter: combine filters with AND and "
                                   "OR (an empty FilterList has no form in the language)");
  }
  if (name.text == "SkipFilter" || name.text == "WhileMatchFilter") {
    return Status::InvalidArgument(quoted + at + " is not written as a filter: write " +
                                   (name.text == "SkipFilter" ? "SKIP" : "WHILE") +
                                   " before the filter it wraps");
  }
  if (name.text == "ColumnValueFilter") {
    return Status::InvalidArgument("filter " + quoted + at + " is not supported by basalt");
  }
  std::string hint = KeywordCaseHint(name.text);
  for (const FilterSpec& s : kFilters) {
    if (EqualsIgnoringAsciiCase(name.text, s.name)) {
      hint = " (filter names are case-sensitive: " + std::string(s.name) + ")";
    }
  }
  return Status::InvalidArgument("unknown filter " + quoted + at + hint);
}

Result<FilterPtr> BuildFilter(const Token& name, const std::vector<Token>& args) {
  const FilterSpec* spec = Find(name.text);
  if (spec == nullptr) {
    Status unknown = CheckFilterName(name);
    return unknown.ok() ? Status::Internal("no builder for filter " + name.text) : unknown;
  }
  return spec->build(Arguments(name, spec->usage, args));
}

}  // namespace basalt::filter
