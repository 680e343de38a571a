// Table schema, regions and existence: /{table}/schema, /{table}/regions, /{table}/exists.

#include <climits>

#include "server/rest/codecs.h"
#include "server/rest/rest_service.h"
#include "server/rest/rest_util.h"
#include "util/bytes_format.h"

namespace basalt::server::rest {

namespace bh = boost::beast::http;

namespace {

ColumnSchemaModel FamilyModel(const FamilyDescriptor& f) {
  ColumnSchemaModel c;
  c.name = f.name;
  c.attributes = {{"VERSIONS", std::to_string(f.max_versions)},
                  {"MIN_VERSIONS", std::to_string(f.min_versions)},
                  {"TTL", std::to_string(f.ttl_seconds)},
                  {"KEEP_DELETED_CELLS", std::string(KeepDeletedCellsName(f.keep_deleted_cells))},
                  {"COMPRESSION", std::string(CompressionName(f.compression))},
                  {"BLOOMFILTER", std::string(BloomFilterName(f.bloom_filter))},
                  {"BLOCKSIZE", std::to_string(f.block_size)},
                  // HBase's defaults, unless the family says otherwise below.
                  {"IN_MEMORY", "false"},
                  {"BLOCKCACHE", "true"}};
  for (const auto& [key, value] : f.attributes) c.attributes[key] = value;
  return c;
}

Result<int32_t> AttributeInt(const std::string& text, const std::string& key) {
  BASALT_ASSIGN_OR_RETURN(int64_t v, ParseInt64(text, key));
  if (v < INT32_MIN || v > INT32_MAX) {
    return Status::InvalidArgument(key + " is out of range: " + text);
  }
  return static_cast<int32_t>(v);
}

// HBase's ColumnSchema into a FamilyDescriptor; attribute names in any case. Attributes basalt
// has no setting for (IN_MEMORY, BLOCKCACHE, REPLICATION_SCOPE, ...) are kept in
// FamilyDescriptor::attributes and read back.
Result<FamilyDescriptor> ParseFamily(const ColumnSchemaModel& c) {
  FamilyDescriptor f(c.name);
  for (const auto& [raw_key, text] : c.attributes) {
    std::string key = raw_key;
    for (char& ch : key) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
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

Result<std::vector<FamilyDescriptor>> ParseTableSchema(Representation r, const std::string& body) {
  BASALT_ASSIGN_OR_RETURN(TableSchemaModel schema, Decode<TableSchemaModel>(r, body));
  std::vector<FamilyDescriptor> families;
  for (const ColumnSchemaModel& c : schema.columns) {
    BASALT_ASSIGN_OR_RETURN(FamilyDescriptor f, ParseFamily(c));
    families.push_back(std::move(f));
  }
  return families;
}

}  // namespace

Result<http::Response> RestService::GetSchema(const Ctx& ctx) {
  const auto& req = ctx.request;
  std::optional<Negotiated> repr = NegotiateResponse(req, {.text = true});
  if (!repr) return NotAcceptable(req);
  BASALT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, OpenTable(conn_, ctx));
  BASALT_ASSIGN_OR_RETURN(TableInfo info, conn_.admin().DescribeTable(table->name()));
  TableSchemaModel schema;
  schema.name = table->name().ToString();
  schema.attributes = {{"IS_META", "false"},
                       {"DURABILITY", std::string(DurabilityName(info.descriptor.durability))}};
  for (const auto& f : info.descriptor.families) schema.columns.push_back(FamilyModel(f));
  return Ok(req, *repr, Encode(repr->representation, schema));
}

Result<http::Response> RestService::PutSchema(const Ctx& ctx, bool replace) {
  const auto& req = ctx.request;
  std::optional<Representation> body = BodyRepresentation(req);
  if (!body || *body == Representation::kOctetStream) return UnsupportedMediaType(req);
  BASALT_ASSIGN_OR_RETURN(std::string name_text, DecodeSegment(ctx.Param("table")));
  BASALT_ASSIGN_OR_RETURN(TableName name, TableName::Parse(name_text));
  BASALT_ASSIGN_OR_RETURN(std::vector<FamilyDescriptor> families,
                          ParseTableSchema(*body, req.body()));
  Admin& admin = conn_.admin();
  auto info = admin.DescribeTable(name);
  if (!info.ok() && !info.status().IsNotFound()) return info.status();
  // 201 with the schema's Location for a table created, and for one replaced (PUT), as HBase's
  // SchemaResource answers; 200 for families added or changed (POST).
  auto created = [&] {
    auto res = Empty(req, bh::status::created);
    auto host = req.find(bh::field::host);
    if (host != req.end()) {
      res.set(bh::field::location,
              "http://" + std::string(host->value()) + "/" + ctx.Param("table") + "/schema");
    }
    return res;
  };
  if (!info.ok()) {
    TableDescriptor desc(name);
    for (auto& f : families) desc.AddFamily(f);
    BASALT_RETURN_IF_ERROR(admin.CreateTable(desc));
    return created();
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
  if (replace) return created();
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
  std::optional<Negotiated> repr = NegotiateResponse(req, {.text = true});
  if (!repr) return NotAcceptable(req);
  BASALT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, OpenTable(conn_, ctx));
  BASALT_ASSIGN_OR_RETURN(TableInfo info, conn_.admin().DescribeTable(table->name()));
  std::string name = table->name().ToString();
  std::vector<std::string> bounds = {""};
  for (const auto& k : info.split_keys) bounds.push_back(k);
  bounds.push_back("");
  TableInfoModel model;
  model.name = name;
  for (size_t i = 0; i + 1 < bounds.size(); ++i) {
    model.regions.push_back(
        {.id = static_cast<int64_t>(i),
         .start_key = bounds[i],
         .end_key = bounds[i + 1],
         .location = listen_address_,
         // Split keys may be any bytes: printed as HBase prints region names.
         .name = name + "," + util::ToStringBinary(bounds[i]) + "," + std::to_string(i)});
  }
  return Ok(req, *repr, Encode(repr->representation, model));
}

Result<http::Response> RestService::Exists(const Ctx& ctx) {
  // No body, but HBase's ExistsResource still refuses an Accept none of its types meets.
  if (!NegotiateResponse(ctx.request, {.octet_stream = true, .text = true})) {
    return NotAcceptable(ctx.request);
  }
  BASALT_RETURN_IF_ERROR(OpenTable(conn_, ctx).status());
  return Empty(ctx.request, bh::status::ok);
}

}  // namespace basalt::server::rest
