#include "server/rest/cell_set.h"

#include <nlohmann/json.hpp>

#include "basalt/base64.h"
#include "server/rest/rest_util.h"

namespace basalt::server::rest {

using json = nlohmann::ordered_json;

Result<std::vector<RowModel>> ParseCellSet(const std::string& body) {
  json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::InvalidArgument("malformed JSON in the request body");
  if (!j.is_object() || !j.contains("Row") || !j["Row"].is_array()) {
    return Status::InvalidArgument("a CellSet needs a \"Row\" array");
  }
  std::vector<RowModel> rows;
  for (const json& r : j["Row"]) {
    if (!r.is_object()) return Status::InvalidArgument("each Row must be an object");
    RowModel row;
    if (r.contains("key")) {
      if (!r["key"].is_string()) return Status::InvalidArgument("Row key must be a string");
      BASALT_ASSIGN_OR_RETURN(row.key, Base64Decode(r["key"].get<std::string>(), "row key"));
    }
    if (!r.contains("Cell") || !r["Cell"].is_array()) {
      return Status::InvalidArgument("each Row needs a \"Cell\" array");
    }
    for (const json& c : r["Cell"]) {
      if (!c.is_object()) return Status::InvalidArgument("each Cell must be an object");
      CellModel cell;
      if (c.contains("column")) {
        if (!c["column"].is_string()) return Status::InvalidArgument("column must be a string");
        BASALT_ASSIGN_OR_RETURN(cell.column,
                                Base64Decode(c["column"].get<std::string>(), "column"));
      }
      if (c.contains("timestamp")) {
        // HBase's REST model parses the timestamp into a long, so clients that send it as a
        // string of digits (node-hbase always does) work there: accept both.
        const json& ts = c["timestamp"];
        int64_t value = -1;
        if (ts.is_number_integer()) {
          value = ts.get<int64_t>();
        } else if (ts.is_string()) {
          Result<int64_t> parsed = ParseInt64(ts.get<std::string>(), "timestamp");
          if (parsed.ok()) value = *parsed;
        }
        if (value < 0) {
          return Status::InvalidArgument(
              "timestamp must be a non-negative integer (a JSON number or a string of digits)");
        }
        cell.timestamp = value;
      }
      if (c.contains("$")) {
        if (!c["$"].is_string()) return Status::InvalidArgument("cell value must be a string");
        BASALT_ASSIGN_OR_RETURN(cell.value, Base64Decode(c["$"].get<std::string>(), "value"));
      }
      row.cells.push_back(std::move(cell));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string CellSetJson(const std::vector<RowResult>& rows) {
  json out_rows = json::array();
  for (const RowResult& r : rows) {
    if (r.empty()) continue;
    json cells = json::array();
    for (const Cell& c : r.cells()) {
      cells.push_back({{"column", Base64Encode(c.family + ":" + c.qualifier)},
                       {"timestamp", c.timestamp},
                       {"$", Base64Encode(c.value)}});
    }
    out_rows.push_back({{"key", Base64Encode(r.row())}, {"Cell", std::move(cells)}});
  }
  return json{{"Row", std::move(out_rows)}}.dump();
}

}  // namespace basalt::server::rest
