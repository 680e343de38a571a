#include "server/rest/filter_json.h"

#include <charconv>
#include <nlohmann/json.hpp>

#include "basalt/base64.h"
#include "basalt/filter_language.h"

namespace basalt::server::rest {
namespace {

using nlohmann::json;

constexpr int kMaxDepth = 100;

Status Bad(const std::string& what) {
  return Status::InvalidArgument("filter: " + what);
}

Result<std::string> Bytes(const json& j, const char* field) {
  if (!j.contains(field) || !j[field].is_string()) {
    return Bad(std::string("missing base64 field '") + field + "'");
  }
  return Base64Decode(j[field].get<std::string>(), std::string("filter field ") + field);
}

Result<std::string> OptionalBytes(const json& j, const char* field) {
  if (!j.contains(field) || j[field].is_null()) return std::string();
  return Bytes(j, field);
}

Result<int64_t> Int(const json& j, const char* field) {
  if (!j.contains(field) || !j[field].is_number_integer()) {
    return Bad(std::string("missing integer field '") + field + "'");
  }
  return j[field].get<int64_t>();
}

Result<int32_t> Int32(const json& j, const char* field) {
  BASALT_ASSIGN_OR_RETURN(int64_t v, Int(j, field));
  if (v < INT32_MIN || v > INT32_MAX) return Bad(std::string(field) + " is out of range");
  return static_cast<int32_t>(v);
}

Result<bool> Bool(const json& j, const char* field, bool fallback) {
  if (!j.contains(field) || j[field].is_null()) return fallback;
  if (!j[field].is_boolean()) return Bad(std::string(field) + " must be true or false");
  return j[field].get<bool>();
}

Result<CompareOp> Op(const json& j) {
  if (!j.contains("op") || !j["op"].is_string()) return Bad("missing 'op'");
  std::string op = j["op"].get<std::string>();
  static const std::pair<const char*, CompareOp> kOps[] = {
      {"LESS", CompareOp::kLess},
      {"LESS_OR_EQUAL", CompareOp::kLessOrEqual},
      {"EQUAL", CompareOp::kEqual},
      {"NOT_EQUAL", CompareOp::kNotEqual},
      {"GREATER_OR_EQUAL", CompareOp::kGreaterOrEqual},
      {"GREATER", CompareOp::kGreater},
      {"NO_OP", CompareOp::kNoOp}};
  for (const auto& [name, value] : kOps) {
    if (op == name) return value;
  }
  return Bad("unknown op '" + op + "'");
}

Result<ByteComparator> Comparator(const json& j) {
  if (!j.contains("comparator") || !j["comparator"].is_object()) return Bad("missing comparator");
  const json& c = j["comparator"];
  if (!c.contains("type") || !c["type"].is_string()) return Bad("comparator without a type");
  std::string type = c["type"].get<std::string>();
  if (type == "BinaryComparator" || type == "BinaryPrefixComparator") {
    BASALT_ASSIGN_OR_RETURN(std::string v, Bytes(c, "value"));
    return type == "BinaryComparator" ? ByteComparator::Binary(std::move(v))
                                      : ByteComparator::BinaryPrefix(std::move(v));
  }
  if (type == "RegexStringComparator" || type == "SubstringComparator") {
    if (!c.contains("value") || !c["value"].is_string()) return Bad("comparator without a value");
    std::string v = c["value"].get<std::string>();
    return type == "RegexStringComparator" ? ByteComparator::RegexString(std::move(v))
                                           : ByteComparator::Substring(std::move(v));
  }
  if (type == "LongComparator") {
    BASALT_ASSIGN_OR_RETURN(std::string v, Bytes(c, "value"));
    if (v.size() != 8) return Bad("LongComparator value must be 8 bytes");
    int64_t n = 0;
    for (char ch : v) n = static_cast<int64_t>((static_cast<uint64_t>(n) << 8) | uint8_t(ch));
    return ByteComparator::Long(n);
  }
  return Bad("unsupported comparator type '" + type + "'");
}

// As in HBase and the filter language: regexstring and substring only say equal or not.
Status CheckOpFits(CompareOp op, const ByteComparator& c) {
  bool text = c.kind() == ByteComparator::Kind::kRegexString ||
              c.kind() == ByteComparator::Kind::kSubstring;
  if (text && op != CompareOp::kEqual && op != CompareOp::kNotEqual) {
    return Bad("RegexStringComparator and SubstringComparator take only EQUAL and NOT_EQUAL");
  }
  return Status::OK();
}

Result<FilterPtr> Convert(const json& j, int depth);

Result<FilterPtr> Child(const json& j, int depth) {
  if (!j.contains("filters") || !j["filters"].is_array() || j["filters"].size() != 1) {
    return Bad("needs exactly one filter in 'filters'");
  }
  return Convert(j["filters"][0], depth + 1);
}

Result<FilterPtr> Convert(const json& j, int depth) {
  if (depth > kMaxDepth) return Bad("nested too deeply");
  if (!j.is_object()) return Bad("a filter must be a JSON object");
  if (!j.contains("type") || !j["type"].is_string()) return Bad("missing 'type'");
  const std::string type = j["type"].get<std::string>();
  if (type == "ColumnCountGetFilter") {
    BASALT_ASSIGN_OR_RETURN(int32_t limit, Int32(j, "limit"));
    return FilterPtr(std::make_shared<ColumnCountGetFilter>(limit));
  }
  if (type == "ColumnPaginationFilter") {
    BASALT_ASSIGN_OR_RETURN(int32_t limit, Int32(j, "limit"));
    BASALT_ASSIGN_OR_RETURN(int32_t offset, Int32(j, "offset"));
    return FilterPtr(std::make_shared<ColumnPaginationFilter>(limit, offset));
  }
  if (type == "ColumnPrefixFilter") {
    BASALT_ASSIGN_OR_RETURN(std::string v, Bytes(j, "value"));
    return FilterPtr(std::make_shared<ColumnPrefixFilter>(std::move(v)));
  }
  if (type == "ColumnRangeFilter") {
    BASALT_ASSIGN_OR_RETURN(std::string min, OptionalBytes(j, "minColumn"));
    BASALT_ASSIGN_OR_RETURN(bool min_incl, Bool(j, "minColumnInclusive", true));
    BASALT_ASSIGN_OR_RETURN(std::string max, OptionalBytes(j, "maxColumn"));
    BASALT_ASSIGN_OR_RETURN(bool max_incl, Bool(j, "maxColumnInclusive", false));
    return FilterPtr(
        std::make_shared<ColumnRangeFilter>(std::move(min), min_incl, std::move(max), max_incl));
  }
  if (type == "DependentColumnFilter") {
    BASALT_ASSIGN_OR_RETURN(std::string family, Bytes(j, "family"));
    BASALT_ASSIGN_OR_RETURN(std::string qualifier, OptionalBytes(j, "qualifier"));
    BASALT_ASSIGN_OR_RETURN(bool drop, Bool(j, "dropDependentColumn", false));
    CompareOp op = CompareOp::kNoOp;
    std::optional<ByteComparator> comparator;
    if (j.contains("comparator") && !j["comparator"].is_null()) {
      BASALT_ASSIGN_OR_RETURN(op, Op(j));
      BASALT_ASSIGN_OR_RETURN(comparator, Comparator(j));
      BASALT_RETURN_IF_ERROR(CheckOpFits(op, *comparator));
    }
    return FilterPtr(std::make_shared<DependentColumnFilter>(
        std::move(family), std::move(qualifier), drop, op, std::move(comparator)));
  }
  if (type == "FamilyFilter" || type == "QualifierFilter" || type == "RowFilter" ||
      type == "ValueFilter") {
    BASALT_ASSIGN_OR_RETURN(CompareOp op, Op(j));
    BASALT_ASSIGN_OR_RETURN(ByteComparator c, Comparator(j));
    BASALT_RETURN_IF_ERROR(CheckOpFits(op, c));
    if (type == "FamilyFilter") return FilterPtr(std::make_shared<FamilyFilter>(op, c));
    if (type == "QualifierFilter") return FilterPtr(std::make_shared<QualifierFilter>(op, c));
    if (type == "RowFilter") return FilterPtr(std::make_shared<RowFilter>(op, c));
    return FilterPtr(std::make_shared<ValueFilter>(op, c));
  }
  if (type == "FilterList") {
    if (!j.contains("op") || !j["op"].is_string()) return Bad("FilterList without 'op'");
    std::string op = j["op"].get<std::string>();
    FilterList::Operator list_op;
    if (op == "MUST_PASS_ALL") {
      list_op = FilterList::Operator::kMustPassAll;
    } else if (op == "MUST_PASS_ONE") {
      list_op = FilterList::Operator::kMustPassOne;
    } else {
      return Bad("unknown FilterList op '" + op + "'");
    }
    std::vector<FilterPtr> children;
    if (j.contains("filters")) {
      if (!j["filters"].is_array()) return Bad("'filters' must be an array");
      for (const json& child : j["filters"]) {
        BASALT_ASSIGN_OR_RETURN(FilterPtr f, Convert(child, depth + 1));
        children.push_back(std::move(f));
      }
    }
    return FilterPtr(std::make_shared<FilterList>(list_op, std::move(children)));
  }
  if (type == "FirstKeyOnlyFilter") return FilterPtr(std::make_shared<FirstKeyOnlyFilter>());
  if (type == "KeyOnlyFilter") {
    BASALT_ASSIGN_OR_RETURN(bool len, Bool(j, "lenAsVal", false));
    return FilterPtr(std::make_shared<KeyOnlyFilter>(len));
  }
  if (type == "InclusiveStopFilter") {
    BASALT_ASSIGN_OR_RETURN(std::string v, Bytes(j, "value"));
    return FilterPtr(std::make_shared<InclusiveStopFilter>(std::move(v)));
  }
  if (type == "MultipleColumnPrefixFilter") {
    if (!j.contains("prefixes") || !j["prefixes"].is_array()) return Bad("missing 'prefixes'");
    std::vector<std::string> prefixes;
    for (const json& p : j["prefixes"]) {
      if (!p.is_string()) return Bad("prefixes must be base64 strings");
      BASALT_ASSIGN_OR_RETURN(std::string v, Base64Decode(p.get<std::string>(), "prefix"));
      prefixes.push_back(std::move(v));
    }
    return FilterPtr(std::make_shared<MultipleColumnPrefixFilter>(std::move(prefixes)));
  }
  if (type == "PageFilter") {
    int64_t size = 0;
    if (j.contains("value") && j["value"].is_string()) {
      std::string v = j["value"].get<std::string>();
      auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), size);
      if (ec != std::errc() || end != v.data() + v.size()) {
        return Bad("PageFilter value must be a decimal string");
      }
    } else if (j.contains("value") && j["value"].is_number_integer()) {
      size = j["value"].get<int64_t>();
    } else {
      return Bad("PageFilter needs a 'value'");
    }
    if (size < 0) return Bad("PageFilter size must be at least 0");
    return FilterPtr(std::make_shared<PageFilter>(size));
  }
  if (type == "PrefixFilter") {
    BASALT_ASSIGN_OR_RETURN(std::string v, Bytes(j, "value"));
    return FilterPtr(std::make_shared<PrefixFilter>(std::move(v)));
  }
  if (type == "SingleColumnValueFilter" || type == "SingleColumnValueExcludeFilter") {
    BASALT_ASSIGN_OR_RETURN(std::string family, Bytes(j, "family"));
    BASALT_ASSIGN_OR_RETURN(std::string qualifier, OptionalBytes(j, "qualifier"));
    BASALT_ASSIGN_OR_RETURN(CompareOp op, Op(j));
    BASALT_ASSIGN_OR_RETURN(ByteComparator c, Comparator(j));
    BASALT_RETURN_IF_ERROR(CheckOpFits(op, c));
    BASALT_ASSIGN_OR_RETURN(bool if_missing, Bool(j, "ifMissing", false));
    BASALT_ASSIGN_OR_RETURN(bool latest, Bool(j, "latestVersion", true));
    if (type == "SingleColumnValueFilter") {
      return FilterPtr(std::make_shared<SingleColumnValueFilter>(
          std::move(family), std::move(qualifier), op, std::move(c), if_missing, latest));
    }
    return FilterPtr(std::make_shared<SingleColumnValueExcludeFilter>(
        std::move(family), std::move(qualifier), op, std::move(c), if_missing, latest));
  }
  if (type == "SkipFilter") {
    BASALT_ASSIGN_OR_RETURN(FilterPtr child, Child(j, depth));
    return FilterPtr(std::make_shared<SkipFilter>(std::move(child)));
  }
  if (type == "WhileMatchFilter") {
    BASALT_ASSIGN_OR_RETURN(FilterPtr child, Child(j, depth));
    return FilterPtr(std::make_shared<WhileMatchFilter>(std::move(child)));
  }
  if (type == "TimestampsFilter") {
    if (!j.contains("timestamps") || !j["timestamps"].is_array()) {
      return Bad("missing 'timestamps'");
    }
    std::vector<int64_t> ts;
    for (const json& t : j["timestamps"]) {
      if (!t.is_number_integer() || t.get<int64_t>() < 0) {
        return Bad("timestamps must be non-negative integers");
      }
      ts.push_back(t.get<int64_t>());
    }
    return FilterPtr(std::make_shared<TimestampsFilter>(std::move(ts)));
  }
  if (type == "FuzzyRowFilter") {
    if (!j.contains("fuzzyKeys") || !j["fuzzyKeys"].is_array() || j["fuzzyKeys"].empty()) {
      return Bad("missing 'fuzzyKeys'");
    }
    std::vector<FuzzyRowFilter::FuzzyKey> keys;
    for (const json& k : j["fuzzyKeys"]) {
      if (!k.is_object()) return Bad("fuzzyKeys must be objects");
      BASALT_ASSIGN_OR_RETURN(std::string key, Bytes(k, "key"));
      BASALT_ASSIGN_OR_RETURN(std::string mask, Bytes(k, "mask"));
      if (key.size() != mask.size()) return Bad("fuzzy key and mask differ in length");
      for (char m : mask) {
        if (m != 0 && m != 1) return Bad("fuzzy mask bytes must be 0 or 1");
      }
      keys.push_back({std::move(key), std::move(mask)});
    }
    return FilterPtr(std::make_shared<FuzzyRowFilter>(std::move(keys)));
  }
  return Bad("unsupported filter type '" + type + "'");
}

}  // namespace

Result<FilterPtr> ParseJsonFilter(const std::string& text) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Bad("malformed JSON");
  return Convert(j, 0);
}

Result<FilterPtr> ParseScannerFilter(const std::string& text) {
  size_t i = text.find_first_not_of(" \t\r\n");
  if (i != std::string::npos && text[i] == '{') return ParseJsonFilter(text);
  return ParseFilter(text);
}

}  // namespace basalt::server::rest
