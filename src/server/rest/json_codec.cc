#include "server/rest/json_codec.h"

#include <nlohmann/json.hpp>

#include "basalt/base64.h"
#include "server/rest/cell_set.h"
#include "server/rest/rest_util.h"

namespace basalt::server::rest {

// Sorted keys: what every resource but the CellSet has always answered.
using nlohmann::json;

std::string ToJson(const VersionModel& m) {
  return Dump(json{{"REST", m.rest},
                   {"JVM", m.jvm},
                   {"OS", m.os},
                   {"Server", m.server},
                   {"Jersey", m.jersey},
                   {"Version", m.version}});
}

std::string ToJson(const ClusterVersionModel& m) {
  return Dump(json{{"Version", m.version}});
}

std::string ToJson(const ClusterStatusModel& m) {
  json nodes = json::array();
  for (const auto& n : m.live_nodes) {
    json regions = json::array();
    for (const auto& r : n.regions) {
      json region = {{"name", Base64Encode(r.name)}, {"stores", r.stores}};
      for (const char* zero :
           {"storefiles", "storefileSizeMB", "memStoreSizeMB", "storefileIndexSizeKB",
            "readRequestsCount", "writeRequestsCount", "rootIndexSizeKB", "totalStaticIndexSizeKB",
            "totalStaticBloomSizeKB", "totalCompactingKVs", "currentCompactedKVs"}) {
        region[zero] = 0;
      }
      regions.push_back(std::move(region));
    }
    nodes.push_back({{"name", n.name},
                     {"startCode", n.start_code},
                     {"requests", 0},
                     {"heapSizeMB", 0},
                     {"maxHeapSizeMB", 0},
                     {"Region", regions}});
  }
  return Dump(json{{"regions", m.regions},
                   {"requests", 0},
                   {"averageLoad", m.average_load},
                   {"LiveNodes", nodes},
                   {"DeadNodes", json::array()}});
}

std::string ToJson(const TableListModel& m) {
  json list = json::array();
  for (const auto& name : m.names) list.push_back({{"name", name}});
  return Dump(json{{"table", list}});
}

std::string ToJson(const NamespacesModel& m) {
  json list = json::array();
  for (const auto& name : m.names) list.push_back(name);
  return Dump(json{{"Namespace", list}});
}

std::string ToJson(const NamespacePropertiesModel& m) {
  // Jackson writes HBase's unset map as null.
  if (m.properties.empty()) return Dump(json{{"properties", nullptr}});
  json props = json::object();
  for (const auto& [k, v] : m.properties) props[k] = v;
  return Dump(json{{"properties", props}});
}

std::string ToJson(const TableSchemaModel& m) {
  json families = json::array();
  for (const auto& c : m.columns) {
    json f = {{"name", c.name}};
    for (const auto& [k, v] : c.attributes) f[k] = v;
    families.push_back(std::move(f));
  }
  json j = {{"name", m.name}};
  for (const auto& [k, v] : m.attributes) j[k] = v;
  j["ColumnSchema"] = std::move(families);
  return Dump(j);
}

std::string ToJson(const TableInfoModel& m) {
  json regions = json::array();
  for (const auto& r : m.regions) {
    regions.push_back({{"id", r.id},
                       {"startKey", Base64Encode(r.start_key)},
                       {"endKey", Base64Encode(r.end_key)},
                       {"location", r.location},
                       {"name", r.name}});
  }
  return Dump(json{{"name", m.name}, {"Region", regions}});
}

namespace {

// A ColumnSchema or TableSchema attribute as text: HBase writes strings; numbers and booleans
// are accepted.
Result<std::string> AttributeText(const json& v, const std::string& key) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_boolean()) return std::string(v.get<bool>() ? "true" : "false");
  return Status::InvalidArgument("ColumnSchema attribute " + key + " must be a string");
}

// HBase's Scanner model parses these fields into ints and longs, as Jackson does: a JSON
// number or a string of digits ("batch":"10", which node-hbase passes on as an application gave
// it).
Result<int64_t> IntField(const json& j, const char* field) {
  if (j[field].is_number_integer()) return j[field].get<int64_t>();
  if (j[field].is_string()) {
    Result<int64_t> v = ParseInt64(j[field].get<std::string>(), field);
    if (v.ok()) return v;
  }
  return Status::InvalidArgument(std::string("Scanner field ") + field + " must be an integer");
}

}  // namespace

Status FromJson(const std::string& body, TableSchemaModel* out) {
  json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::InvalidArgument("malformed JSON in the request body");
  if (!j.is_object() || !j.contains("ColumnSchema") || !j["ColumnSchema"].is_array()) {
    return Status::InvalidArgument("a TableSchema needs a \"ColumnSchema\" array");
  }
  if (j.contains("name") && j["name"].is_string()) out->name = j["name"].get<std::string>();
  for (const json& c : j["ColumnSchema"]) {
    if (!c.is_object() || !c.contains("name") || !c["name"].is_string()) {
      return Status::InvalidArgument("each ColumnSchema needs a \"name\"");
    }
    ColumnSchemaModel column;
    column.name = c["name"].get<std::string>();
    for (const auto& [key, v] : c.items()) {
      if (key == "name") continue;
      BASALT_ASSIGN_OR_RETURN(column.attributes[key], AttributeText(v, key));
    }
    out->columns.push_back(std::move(column));
  }
  return Status::OK();
}

Status FromJson(const std::string& body, ScannerModel* m) {
  if (body.empty()) return Status::OK();
  json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::InvalidArgument("malformed JSON in the request body");
  if (!j.is_object()) return Status::InvalidArgument("a Scanner must be a JSON object");
  auto bytes = [&](const char* field) -> Result<std::string> {
    if (!j[field].is_string()) {
      return Status::InvalidArgument(std::string("Scanner field ") + field + " must be base64");
    }
    return Base64Decode(j[field].get<std::string>(), field);
  };
  if (j.contains("includeStartRow")) m->include_start_row = j["includeStartRow"] == true;
  if (j.contains("includeStopRow")) m->include_stop_row = j["includeStopRow"] == true;
  if (j.contains("startRow")) {
    BASALT_ASSIGN_OR_RETURN(m->start_row, bytes("startRow"));
  }
  if (j.contains("endRow")) {
    BASALT_ASSIGN_OR_RETURN(m->end_row, bytes("endRow"));
  }
  if (j.contains("column")) {
    if (!j["column"].is_array()) return Status::InvalidArgument("column must be an array");
    for (const json& c : j["column"]) {
      if (!c.is_string()) return Status::InvalidArgument("columns must be base64 strings");
      BASALT_ASSIGN_OR_RETURN(std::string name, Base64Decode(c.get<std::string>(), "column"));
      m->columns.push_back(std::move(name));
    }
  }
  for (auto [field, target] : {std::pair{"batch", &m->batch},
                               {"startTime", &m->start_time},
                               {"endTime", &m->end_time},
                               {"maxVersions", &m->max_versions},
                               {"caching", &m->caching},
                               {"limit", &m->limit}}) {
    if (j.contains(field)) {
      BASALT_ASSIGN_OR_RETURN(*target, IntField(j, field));
    }
  }
  if (j.contains("reversed")) m->reversed = j["reversed"] == true;
  if (j.contains("filter") && !j["filter"].is_null()) {
    if (!j["filter"].is_string()) return Status::InvalidArgument("filter must be a string");
    m->filter = j["filter"].get<std::string>();
  }
  return Status::OK();
}

Status FromJson(const std::string& body, NamespacePropertiesModel* out) {
  json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return Status::InvalidArgument("malformed JSON in the request body");
  }
  if (j.contains("properties") && !j["properties"].is_null()) {
    if (!j["properties"].is_object())
      return Status::InvalidArgument("properties must be an object");
    for (const auto& [k, v] : j["properties"].items()) {
      if (!v.is_string()) return Status::InvalidArgument("property values must be strings");
      out->properties[k] = v.get<std::string>();
    }
  }
  return Status::OK();
}

Status FromJson(const std::string& body, std::vector<RowModel>* out) {
  BASALT_ASSIGN_OR_RETURN(*out, ParseCellSet(body));
  return Status::OK();
}

}  // namespace basalt::server::rest
