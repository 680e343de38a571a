// Table schema, regions and existence: /{table}/schema, /{table}/regions, /{table}/exists.

#include <nlohmann/json.hpp>

#include "basalt/base64.h"
#include "server/rest/rest_service.h"
#include "server/rest/rest_util.h"
#include "util/bytes_format.h"

namespace basalt::server::rest {

namespace bh = boost::beast::http;
using nlohmann::json;

namespace {

json FamilyJson(const FamilyDescriptor& f) {
  json j = {{"name", f.name},
            {"VERSIONS", std::to_string(f.max_versions)},
            {"MIN_VERSIONS", std::to_string(f.min_versions)},
            {"TTL", std::to_string(f.ttl_seconds)},
            {"KEEP_DELETED_CELLS", std::string(KeepDeletedCellsName(f.keep_deleted_cells))},
            {"COMPRESSION", std::string(CompressionName(f.compression))},
            {"BLOOMFILTER", std::string(BloomFilterName(f.bloom_filter))},
            {"BLOCKSIZE", std::to_string(f.block_size)},
            // HBase's defaults, unless the family says otherwise below.
            {"IN_MEMORY", "false"},
            {"BLOCKCACHE", "true"}};
  for (const auto& [key, value] : f.attributes) j[key] = value;
  return j;
}

// A ColumnSchema attribute as text: HBase writes strings; numbers and booleans are accepted.
Result<std::string> AttributeText(const json& v, const std::string& key) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_boolean()) return std::string(v.get<bool>() ? "true" : "false");
  return Status::InvalidArgument("ColumnSchema attribute " + key + " must be a string");
}

Result<int32_t> AttributeInt(const std::string& text, const std::string& key) {
  BASALT_ASSIGN_OR_RETURN(int64_t v, ParseInt64(text, key));
  if (v < INT32_MIN || v > INT32_MAX) {
    return Status::InvalidArgument(key + " is out of range: " + text);
  }
  return static_cast<int32_t>(v);
}

// HBase's ColumnSchema into a FamilyDescriptor. Attributes basalt has no setting for (IN_MEMORY,
// BLOCKCACHE, REPLICATION_SCOPE, ...) are kept in FamilyDescriptor::attributes and read back.
Result<FamilyDescriptor> ParseFamily(const json& c) {
  if (!c.is_object() || !c.contains("name") || !c["name"].is_string()) {
    return Status::InvalidArgument("each ColumnSchema needs a \"name\"");
  }
  FamilyDescriptor f(c["name"].get<std::string>());
  for (const auto& [raw_key, v] : c.items()) {
    if (raw_key == "name") continue;
    std::string key = raw_key;
    for (char& ch : key) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    BASALT_ASSIGN_OR_RETURN(std::string text, AttributeText(v, raw_key));
    if (key == "VERSIONS") {
      BASALT_ASSIGN_OR_RETURN(f.max_versions, AttributeInt(text, key));
    } else if (key == "MIN_VERSIONS") {
      BASALT_ASSIGN_OR_RETURN(f.min_versions, AttributeInt(text, key));
    } else if (key == "TTL") {
      if (text == "FOREVER") {
        f.ttl_seconds = kForeverTtl;
      } else {
        BASALT_ASSIGN_OR_RETURN(f.ttl_seconds, AttributeInt(text, key));
      }
    } else if (key == "KEEP_DELETED_CELLS") {
      BASALT_ASSIGN_OR_RETURN(f.keep_deleted_cells, ParseKeepDeletedCells(text));
    } else if (key == "COMPRESSION") {
      BASALT_ASSIGN_OR_RETURN(f.compression, ParseCompression(text));
    } else if (key == "BLOOMFILTER") {
      BASALT_ASSIGN_OR_RETURN(f.bloom_filter, ParseBloomFilter(text));
    } else if (key == "BLOCKSIZE") {
      BASALT_ASSIGN_OR_RETURN(f.block_size, AttributeInt(text, key));
    } else {
      f.attributes[key] = text;
    }
  }
  BASALT_RETURN_IF_ERROR(f.Validate());
  return f;
}

Result<std::vector<FamilyDescriptor>> ParseTableSchema(const std::string& body) {
  json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::InvalidArgument("malformed JSON in the request body");
  if (!j.is_object() || !j.contains("ColumnSchema") || !j["ColumnSchema"].is_array()) {
    return Status::InvalidArgument("a TableSchema needs a \"ColumnSchema\" array");
  }
  std::vector<FamilyDescriptor> families;
  for (const json& c : j["ColumnSchema"]) {
    BASALT_ASSIGN_OR_RETURN(FamilyDescriptor f, ParseFamily(c));
    families.push_back(std::move(f));
  }
  return families;
}

}  // namespace

Result<http::Response> RestService::GetSchema(const Ctx& ctx) {
  const auto& req = ctx.request;
  if (!AcceptsJson(req)) return NotAcceptable(req);
  BASALT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, OpenTable(conn_, ctx));
  BASALT_ASSIGN_OR_RETURN(TableInfo info, conn_.admin().DescribeTable(table->name()));
  json families = json::array();
  for (const auto& f : info.descriptor.families) families.push_back(FamilyJson(f));
  return JsonOk(req,
                Dump(json{{"name", table->name().ToString()},
                          {"IS_META", "false"},
                          {"DURABILITY", std::string(DurabilityName(info.descriptor.durability))},
                          {"ColumnSchema", families}}));
}

Result<http::Response> RestService::PutSchema(const Ctx& ctx, bool replace) {
  const auto& req = ctx.request;
  if (RequestBodyType(req) != BodyType::kJson) {
    return http::MakeResponse(req, bh::status::unsupported_media_type, "text/plain",
                              "Unsupported media type: send application/json\r\n");
  }
  BASALT_ASSIGN_OR_RETURN(std::string name_text, DecodeSegment(ctx.Param("table")));
  BASALT_ASSIGN_OR_RETURN(TableName name, TableName::Parse(name_text));
  BASALT_ASSIGN_OR_RETURN(std::vector<FamilyDescriptor> families, ParseTableSchema(req.body()));
  Admin& admin = conn_.admin();
  auto info = admin.DescribeTable(name);
  if (!info.ok() && !info.status().IsNotFound()) return info.status();
  if (!info.ok()) {
    TableDescriptor desc(name);
    for (auto& f : families) desc.AddFamily(f);
    BASALT_RETURN_IF_ERROR(admin.CreateTable(desc));
    auto res = Empty(req, bh::status::created);
    auto host = req.find(bh::field::host);
    if (host != req.end()) {
      res.set(bh::field::location,
              "http://" + std::string(host->value()) + "/" + ctx.Param("table") + "/schema");
    }
    return res;
  }
  // Validate the whole change before applying any of it.
  TableDescriptor target = info->descriptor;
  for (const auto& f : families) {
    bool found = false;
    for (auto& existing : target.families) {
      if (existing.name == f.name) {
        existing = f;
        found = true;
      }
    }
    if (!found) target.AddFamily(f);
  }
  if (replace) {
    std::erase_if(target.families, [&](const FamilyDescriptor& f) {
      return std::none_of(families.begin(), families.end(),
                          [&](const FamilyDescriptor& g) { return g.name == f.name; });
    });
  }
  BASALT_RETURN_IF_ERROR(target.Validate());
  for (const auto& f : target.families) {
    const FamilyDescriptor* old = info->descriptor.FindFamily(f.name);
    if (old == nullptr) {
      BASALT_RETURN_IF_ERROR(admin.AddFamily(name, f));
    } else if (!(*old == f)) {
      BASALT_RETURN_IF_ERROR(admin.ModifyFamily(name, f));
    }
  }
  for (const auto& f : info->descriptor.families) {
    if (target.FindFamily(f.name) == nullptr) {
      BASALT_RETURN_IF_ERROR(admin.DeleteFamily(name, f.name));
    }
  }
  return Empty(req, bh::status::ok);
}

Result<http::Response> RestService::DeleteSchema(const Ctx& ctx) {
  const auto& req = ctx.request;
  BASALT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, OpenTable(conn_, ctx));
  TableName name = table->name();
  table.reset();
  // DeleteTable needs the table disabled; one disabled already (FailedPrecondition) will do.
  Status disabled = conn_.admin().DisableTable(name);
  if (!disabled.IsFailedPrecondition()) BASALT_RETURN_IF_ERROR(disabled);
  BASALT_RETURN_IF_ERROR(conn_.admin().DeleteTable(name));
  return Empty(req, bh::status::ok);
}

Result<http::Response> RestService::Regions(const Ctx& ctx) {
  const auto& req = ctx.request;
  if (!AcceptsJson(req)) return NotAcceptable(req);
  BASALT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, OpenTable(conn_, ctx));
  BASALT_ASSIGN_OR_RETURN(TableInfo info, conn_.admin().DescribeTable(table->name()));
  std::string name = table->name().ToString();
  std::vector<std::string> bounds = {""};
  for (const auto& k : info.split_keys) bounds.push_back(k);
  bounds.push_back("");
  json regions = json::array();
  for (size_t i = 0; i + 1 < bounds.size(); ++i) {
    regions.push_back(
        {{"id", static_cast<int64_t>(i)},
         {"startKey", Base64Encode(bounds[i])},
         {"endKey", Base64Encode(bounds[i + 1])},
         {"location", listen_address_},
         // Split keys may be any bytes: printed as HBase prints region names.
         {"name", name + "," + util::ToStringBinary(bounds[i]) + "," + std::to_string(i)}});
  }
  return JsonOk(req, Dump(json{{"name", name}, {"Region", regions}}));
}

Result<http::Response> RestService::Exists(const Ctx& ctx) {
  BASALT_RETURN_IF_ERROR(OpenTable(conn_, ctx).status());
  return Empty(ctx.request, bh::status::ok);
}

}  // namespace basalt::server::rest
