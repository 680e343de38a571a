// Stateful scanners: POST/PUT /{table}/scanner, GET and DELETE /{table}/scanner/{id}.

#include <climits>
#include <nlohmann/json.hpp>

#include "basalt/base64.h"
#include "basalt/cell.h"
#include "server/rest/cell_set.h"
#include "server/rest/filter_json.h"
#include "server/rest/rest_service.h"
#include "server/rest/rest_util.h"

namespace basalt::server::rest {

namespace bh = boost::beast::http;
using nlohmann::json;

namespace {

// Cells per GET when the Scanner model sets no batch. HBase sends the whole scan at once
// (Integer.MAX_VALUE); basalt caps a chunk so one response stays bounded.
constexpr int32_t kDefaultChunkCells = 10000;

struct ScannerModel {
  Scan scan;
  int32_t batch = kDefaultChunkCells;
};

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

Result<ScannerModel> ParseScannerModel(const std::string& body) {
  ScannerModel m;
  m.scan.ReadAllVersions();  // ScannerModel's maxVersions defaults to Integer.MAX_VALUE
  if (body.empty()) return m;
  json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::InvalidArgument("malformed JSON in the request body");
  if (!j.is_object()) return Status::InvalidArgument("a Scanner must be a JSON object");
  auto bytes = [&](const char* field) -> Result<std::string> {
    if (!j[field].is_string()) {
      return Status::InvalidArgument(std::string("Scanner field ") + field + " must be base64");
    }
    return Base64Decode(j[field].get<std::string>(), field);
  };
  bool include_start = true, include_stop = false;
  if (j.contains("includeStartRow")) include_start = j["includeStartRow"] == true;
  if (j.contains("includeStopRow")) include_stop = j["includeStopRow"] == true;
  if (j.contains("startRow")) {
    BASALT_ASSIGN_OR_RETURN(std::string v, bytes("startRow"));
    m.scan.WithStartRow(std::move(v), include_start);
  }
  if (j.contains("endRow")) {
    BASALT_ASSIGN_OR_RETURN(std::string v, bytes("endRow"));
    m.scan.WithStopRow(std::move(v), include_stop);
  }
  if (j.contains("column")) {
    if (!j["column"].is_array()) return Status::InvalidArgument("column must be an array");
    for (const json& c : j["column"]) {
      if (!c.is_string()) return Status::InvalidArgument("columns must be base64 strings");
      BASALT_ASSIGN_OR_RETURN(std::string name, Base64Decode(c.get<std::string>(), "column"));
      ColumnName col = ParseColumnName(name);
      if (col.qualifier && !col.qualifier->empty()) {
        m.scan.AddColumn(col.family, *col.qualifier);
      } else {
        m.scan.AddFamily(col.family);
      }
    }
  }
  if (j.contains("batch")) {
    BASALT_ASSIGN_OR_RETURN(int64_t v, IntField(j, "batch"));
    if (v < 1 || v > INT32_MAX) return Status::InvalidArgument("batch must be at least 1");
    m.batch = static_cast<int32_t>(v);
  }
  int64_t start = 0, end = kLatestTimestamp;
  if (j.contains("startTime")) {
    BASALT_ASSIGN_OR_RETURN(start, IntField(j, "startTime"));
  }
  if (j.contains("endTime")) {
    BASALT_ASSIGN_OR_RETURN(end, IntField(j, "endTime"));
  }
  if (start < 0 || end < start) return Status::InvalidArgument("bad startTime / endTime");
  m.scan.SetTimeRange(start, end);
  if (j.contains("maxVersions")) {
    BASALT_ASSIGN_OR_RETURN(int64_t v, IntField(j, "maxVersions"));
    if (v < 1 || v > INT32_MAX) return Status::InvalidArgument("maxVersions must be at least 1");
    m.scan.ReadVersions(static_cast<int32_t>(v));
  }
  if (j.contains("caching")) {
    BASALT_ASSIGN_OR_RETURN(int64_t v, IntField(j, "caching"));
    if (v > 0 && v <= INT32_MAX) m.scan.SetCaching(static_cast<int32_t>(v));
  }
  if (j.contains("limit")) {
    BASALT_ASSIGN_OR_RETURN(int64_t v, IntField(j, "limit"));
    if (v > 0) m.scan.SetLimit(v);
  }
  if (j.contains("reversed")) m.scan.SetReversed(j["reversed"] == true);
  if (j.contains("filter") && !j["filter"].is_null()) {
    if (!j["filter"].is_string()) return Status::InvalidArgument("filter must be a string");
    BASALT_ASSIGN_OR_RETURN(FilterPtr f, ParseScannerFilter(j["filter"].get<std::string>()));
    m.scan.SetFilter(std::move(f));
  }
  return m;
}

}  // namespace

Result<http::Response> RestService::CreateScanner(const Ctx& ctx) {
  const auto& req = ctx.request;
  if (RequestBodyType(req) != BodyType::kJson) {
    return http::MakeResponse(req, bh::status::unsupported_media_type, "text/plain",
                              "Unsupported media type: send application/json\r\n");
  }
  BASALT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, OpenTable(conn_, ctx));
  BASALT_ASSIGN_OR_RETURN(ScannerModel model, ParseScannerModel(req.body()));
  BASALT_ASSIGN_OR_RETURN(auto scanner, table->GetScanner(model.scan));
  auto registered =
      std::make_shared<RestScanner>(std::move(table), std::move(scanner), model.batch);
  BASALT_ASSIGN_OR_RETURN(std::string id,
                          scanners_.Add(ctx.client_address(), std::move(registered)));
  auto res = Empty(req, bh::status::created);
  std::string host = listen_address_;
  auto it = req.find(bh::field::host);
  if (it != req.end()) host = std::string(it->value());
  res.set(bh::field::location, "http://" + host + "/" + ctx.Param("table") + "/scanner/" + id);
  return res;
}

Result<http::Response> RestService::NextScannerChunk(const Ctx& ctx) {
  const auto& req = ctx.request;
  bool octet = WantsOctetStream(req);
  if (!octet && !AcceptsJson(req)) return NotAcceptable(req);
  auto scanner = scanners_.Find(ctx.Param("id"));
  if (scanner == nullptr) return NotFound(req);
  int64_t cells = 0, rows = 0;
  if (auto c = ctx.Query("c")) {
    BASALT_ASSIGN_OR_RETURN(cells, ParseInt64(*c, "c"));
  }
  if (auto n = ctx.Query("n")) {
    BASALT_ASSIGN_OR_RETURN(rows, ParseInt64(*n, "n"));
  }
  if (octet) cells = rows = 1;
  auto chunk = scanner->NextChunk(cells, rows);
  if (!chunk.ok()) {
    scanners_.Remove(ctx.Param("id"));
    return http::MakeResponse(req, bh::status::gone, "text/plain",
                              "Gone: " + chunk.status().ToString() + "\r\n");
  }
  if (chunk->empty()) return Empty(req, bh::status::no_content);
  if (octet) {
    const Cell& cell = chunk->front().cells().front();
    auto res = http::MakeResponse(req, bh::status::ok, "application/octet-stream", cell.value);
    res.set("X-Row", Base64Encode(cell.row));
    res.set("X-Column", Base64Encode(cell.family + ":" + cell.qualifier));
    res.set("X-Timestamp", std::to_string(cell.timestamp));
    return res;
  }
  return JsonOk(req, CellSetJson(*chunk));
}

Result<http::Response> RestService::DeleteScanner(const Ctx& ctx) {
  if (!scanners_.Remove(ctx.Param("id"))) return NotFound(ctx.request);
  return Empty(ctx.request, bh::status::ok);
}

}  // namespace basalt::server::rest
