// Stateful scanners: POST/PUT /{table}/scanner, GET and DELETE /{table}/scanner/{id}.

#include <climits>

#include "basalt/base64.h"
#include "basalt/cell.h"
#include "server/rest/codecs.h"
#include "server/rest/filter_json.h"
#include "server/rest/rest_service.h"
#include "server/rest/rest_util.h"

namespace basalt::server::rest {

namespace bh = boost::beast::http;

namespace {

// Cells per GET when the Scanner model sets no batch. HBase sends the whole scan at once
// (Integer.MAX_VALUE); basalt caps a chunk so one response stays bounded.
constexpr int32_t kDefaultChunkCells = 10000;

struct ScanSettings {
  Scan scan;
  int32_t batch = kDefaultChunkCells;
};

// The Scanner model as a Scan, checked.
Result<ScanSettings> ToScan(const ScannerModel& m) {
  ScanSettings out;
  Scan& scan = out.scan;
  scan.ReadAllVersions();  // ScannerModel's maxVersions defaults to Integer.MAX_VALUE
  if (m.start_row) scan.WithStartRow(*m.start_row, m.include_start_row.value_or(true));
  if (m.end_row) scan.WithStopRow(*m.end_row, m.include_stop_row.value_or(false));
  for (const std::string& name : m.columns) {
    ColumnName col = ParseColumnName(name);
    if (col.qualifier && !col.qualifier->empty()) {
      scan.AddColumn(col.family, *col.qualifier);
    } else {
      scan.AddFamily(col.family);
    }
  }
  if (m.batch) {
    if (*m.batch < 1 || *m.batch > INT32_MAX) {
      return Status::InvalidArgument("batch must be at least 1");
    }
    out.batch = static_cast<int32_t>(*m.batch);
  }
  int64_t start = m.start_time.value_or(0), end = m.end_time.value_or(kLatestTimestamp);
  if (start < 0 || end < start) return Status::InvalidArgument("bad startTime / endTime");
  scan.SetTimeRange(start, end);
  if (m.max_versions) {
    if (*m.max_versions < 1 || *m.max_versions > INT32_MAX) {
      return Status::InvalidArgument("maxVersions must be at least 1");
    }
    scan.ReadVersions(static_cast<int32_t>(*m.max_versions));
  }
  if (m.caching && *m.caching > 0 && *m.caching <= INT32_MAX) {
    scan.SetCaching(static_cast<int32_t>(*m.caching));
  }
  if (m.limit && *m.limit > 0) scan.SetLimit(*m.limit);
  if (m.reversed) scan.SetReversed(*m.reversed);
  if (m.filter) {
    BASALT_ASSIGN_OR_RETURN(FilterPtr f, ParseScannerFilter(*m.filter));
    scan.SetFilter(std::move(f));
  }
  return out;
}

}  // namespace

ScannerOwner RestService::ScannerOwnerOf(const Ctx& ctx) const {
  return {.admin = CarriesAdminToken(ctx), .address = ctx.client_address()};
}

std::string RestService::ScannerTableOf(const Ctx& ctx) {
  // A path naming no valid table finds no scanner: no scanner's table is "".
  Result<std::string> text = DecodeSegment(ctx.Param("table"));
  if (!text.ok()) return "";
  Result<TableName> name = TableName::Parse(*text);
  return name.ok() ? name->ToString() : "";
}

Result<http::Response> RestService::CreateScanner(const Ctx& ctx) {
  const auto& req = ctx.request;
  std::optional<Representation> body = BodyRepresentation(req);
  if (!body || *body == Representation::kOctetStream) return UnsupportedMediaType(req);
  BASALT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, OpenTable(conn_, ctx));
  BASALT_ASSIGN_OR_RETURN(ScannerModel scanner_model, Decode<ScannerModel>(*body, req.body()));
  BASALT_ASSIGN_OR_RETURN(ScanSettings model, ToScan(scanner_model));
  BASALT_ASSIGN_OR_RETURN(auto scanner, table->GetScanner(model.scan));
  std::string table_name = table->name().ToString();
  auto registered =
      std::make_shared<RestScanner>(std::move(table), std::move(scanner), model.batch);
  BASALT_ASSIGN_OR_RETURN(std::string id, scanners_.Add(ScannerOwnerOf(ctx), std::move(table_name),
                                                        std::move(registered)));
  auto res = Empty(req, bh::status::created);
  std::string host = listen_address_;
  auto it = req.find(bh::field::host);
  if (it != req.end()) host = std::string(it->value());
  res.set(bh::field::location, "http://" + host + "/" + ctx.Param("table") + "/scanner/" + id);
  return res;
}

Result<http::Response> RestService::NextScannerChunk(const Ctx& ctx) {
  const auto& req = ctx.request;
  std::optional<Negotiated> repr = NegotiateResponse(req, {.octet_stream = true});
  if (!repr) return NotAcceptable(req);
  bool octet = repr->representation == Representation::kOctetStream;
  const std::string table = ScannerTableOf(ctx);
  const ScannerOwner asker = ScannerOwnerOf(ctx);
  auto scanner = scanners_.Find(ctx.Param("id"), asker, table);
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
    scanners_.Remove(ctx.Param("id"), asker, table);
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
  return Ok(req, *repr, Encode(repr->representation, *chunk));
}

Result<http::Response> RestService::DeleteScanner(const Ctx& ctx) {
  if (!scanners_.Remove(ctx.Param("id"), ScannerOwnerOf(ctx), ScannerTableOf(ctx))) {
    return NotFound(ctx.request);
  }
  return Empty(ctx.request, bh::status::ok);
}

}  // namespace basalt::server::rest
