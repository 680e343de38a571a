// Rows and cells: GET / PUT / POST / DELETE /{table}/{rowspec}[/{columns}[/{time}]], the
// stateless scan /{table}/{prefix}*, check-and-put / check-and-delete, and multiget.

#include <algorithm>
#include <climits>
#include <cstdint>
#include <unordered_map>

#include "basalt/base64.h"
#include "basalt/cell.h"
#include "basalt/filter_language.h"
#include "server/rest/cell_set_cost.h"
#include "server/rest/codecs.h"
#include "server/rest/rest_service.h"
#include "server/rest/rest_util.h"
#include "server/rest/result_budget.h"

namespace basalt::server::rest {

namespace bh = boost::beast::http;

namespace {

// HBase's RowSpec: the path after the table.
struct RowSpec {
  enum class Kind { kRow, kRange, kPrefix } kind = Kind::kRow;
  std::string row;  // the row, the range start, or the prefix
  std::string end;  // the range end (exclusive)
  std::vector<ColumnName> columns;
  std::optional<TimeRange> time;         // what a read covers
  int64_t timestamp = kLatestTimestamp;  // what a delete removes up to (see ParseRowSpec)
  int32_t versions = 1;
};

Result<RowSpec> ParseRowSpec(const http::RequestContext& ctx) {
  RowSpec spec;
  // As HBase's RowSpec: a range is START,END split at the first comma (the end may hold more),
  // and a start ending in '*' is a prefix, which cannot have an end.
  std::string raw_row = ctx.Param("row");
  size_t comma = raw_row.find(',');
  std::string raw_start = raw_row.substr(0, comma);
  if (!raw_start.empty() && raw_start.back() == '*') {
    if (comma != std::string::npos) {
      return Status::InvalidArgument("invalid path: start row specified with wildcard");
    }
    spec.kind = RowSpec::Kind::kPrefix;
    BASALT_ASSIGN_OR_RETURN(spec.row, DecodeSegment(raw_start.substr(0, raw_start.size() - 1)));
  } else if (comma != std::string::npos) {
    spec.kind = RowSpec::Kind::kRange;
    BASALT_ASSIGN_OR_RETURN(spec.row, DecodeSegment(raw_start));
    BASALT_ASSIGN_OR_RETURN(spec.end, DecodeSegment(raw_row.substr(comma + 1)));
  } else {
    BASALT_ASSIGN_OR_RETURN(spec.row, DecodeSegment(raw_row));
  }
  auto cols = ctx.params.find("columns");
  if (cols != ctx.params.end()) {
    BASALT_ASSIGN_OR_RETURN(auto names, SplitDecoded(cols->second));
    // HBase keeps the columns in a sorted set: repeats count once, and "the first" (a write's
    // column for cells without one) is the smallest. A trailing comma adds nothing.
    if (names.size() > 1 && names.back().empty()) names.pop_back();
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    for (const auto& n : names) {
      if (n.empty()) return Status::InvalidArgument("empty column in the path");
      spec.columns.push_back(ParseColumnName(n));
    }
  }
  auto time = ctx.params.find("time");
  if (time != ctx.params.end()) {
    BASALT_ASSIGN_OR_RETURN(auto parts, SplitDecoded(time->second));
    if (parts.size() > 2) return Status::InvalidArgument("a time is TS or START,END");
    BASALT_ASSIGN_OR_RETURN(int64_t a, ParseInt64(parts[0], "timestamp"));
    if (a < 0) return Status::InvalidArgument("timestamp must not be negative");
    if (parts.size() == 1) {
      // HBase reads the versions before TS ([0, TS)), and deletes those at or before it.
      spec.time = TimeRange{0, a};
      spec.timestamp = a;
    } else {
      BASALT_ASSIGN_OR_RETURN(int64_t b, ParseInt64(parts[1], "end timestamp"));
      if (b < a) return Status::InvalidArgument("time range end is before its start");
      spec.time = TimeRange{a, b};
      // HBase's hasTimestamp(): a delete is bounded by a range's end only when it starts at 0.
      if (a == 0) spec.timestamp = b;
    }
  }
  if (auto v = ctx.Query("v")) {
    BASALT_ASSIGN_OR_RETURN(int64_t n, ParseInt64(*v, "v"));
    if (n < 1 || n > INT32_MAX) return Status::InvalidArgument("v must be at least 1");
    spec.versions = static_cast<int32_t>(n);
  }
  return spec;
}

template <typename Read>
void SelectColumns(const std::vector<ColumnName>& columns, Read* read) {
  for (const auto& c : columns) {
    if (c.qualifier) {
      read->AddColumn(c.family, *c.qualifier);
    } else {
      read->AddFamily(c.family);
    }
  }
}

// Every row of `scan`, in one response, at most a ResultBudget of them (a larger read is refused
// and pointed at a scanner, which pages).
Result<std::vector<RowResult>> ReadAll(Table& table, const Scan& scan) {
  BASALT_ASSIGN_OR_RETURN(auto scanner, table.GetScanner(scan));
  ResultBudget budget(
      "ask for fewer (limit=N) or page through them with a scanner (POST /{table}/scanner)");
  std::vector<RowResult> out;
  RowResult r;
  while (scanner->Next(&r)) {
    BASALT_RETURN_IF_ERROR(budget.Take(RowBytes(r)));
    out.push_back(std::move(r));
  }
  BASALT_RETURN_IF_ERROR(scanner->status());
  return out;
}

Result<std::vector<RowResult>> ReadRowSpec(Table& table, const RowSpec& spec) {
  if (spec.kind == RowSpec::Kind::kRow) {
    Get get(spec.row);
    SelectColumns(spec.columns, &get);
    get.ReadVersions(spec.versions);
    if (spec.time) get.SetTimeRange(spec.time->min, spec.time->max);
    BASALT_ASSIGN_OR_RETURN(RowResult r, table.Get(get));
    std::vector<RowResult> out;
    if (!r.empty()) out.push_back(std::move(r));
    return out;
  }
  Scan scan;
  if (spec.kind == RowSpec::Kind::kPrefix) {
    scan.SetRowPrefix(spec.row);
  } else {
    scan.WithStartRow(spec.row).WithStopRow(spec.end);
  }
  SelectColumns(spec.columns, &scan);
  scan.ReadVersions(spec.versions);
  if (spec.time) scan.SetTimeRange(spec.time->min, spec.time->max);
  return ReadAll(table, scan);
}

// TableScanResource: GET /{table}/{prefix}* with query parameters. `*limit` is the rows asked
// for (HBase's default: Integer.MAX_VALUE).
Result<std::vector<RowResult>> StatelessScan(Table& table, const std::string& prefix,
                                             const http::RequestContext& ctx, int64_t* limit) {
  *limit = INT32_MAX;
  Scan scan;
  if (!prefix.empty()) scan.SetRowPrefix(prefix);
  if (auto v = ctx.Query("startrow")) scan.WithStartRow(*v);
  if (auto v = ctx.Query("endrow")) scan.WithStopRow(*v);
  for (const auto& c : ctx.QueryAll("column")) {
    ColumnName col = ParseColumnName(c);
    if (col.qualifier) {
      scan.AddColumn(col.family, *col.qualifier);
    } else {
      scan.AddFamily(col.family);
    }
  }
  int64_t start = 0, end = kLatestTimestamp;
  if (auto v = ctx.Query("starttime")) {
    BASALT_ASSIGN_OR_RETURN(start, ParseInt64(*v, "starttime"));
  }
  if (auto v = ctx.Query("endtime")) {
    BASALT_ASSIGN_OR_RETURN(end, ParseInt64(*v, "endtime"));
  }
  if (start < 0 || end < start) return Status::InvalidArgument("bad starttime / endtime");
  scan.SetTimeRange(start, end);
  if (auto v = ctx.Query("maxversions")) {
    BASALT_ASSIGN_OR_RETURN(int64_t n, ParseInt64(*v, "maxversions"));
    if (n < 1 || n > INT32_MAX) return Status::InvalidArgument("maxversions must be at least 1");
    scan.ReadVersions(static_cast<int32_t>(n));
  }
  if (auto v = ctx.Query("batchsize")) {
    BASALT_ASSIGN_OR_RETURN(int64_t n, ParseInt64(*v, "batchsize"));
    if (n < 0 || n > INT32_MAX) return Status::InvalidArgument("bad batchsize");
    scan.SetBatch(static_cast<int32_t>(n));
  }
  if (auto v = ctx.Query("limit")) {
    BASALT_ASSIGN_OR_RETURN(int64_t n, ParseInt64(*v, "limit"));
    if (n < 0) return Status::InvalidArgument("limit must not be negative");
    *limit = n;
    if (n == 0) return std::vector<RowResult>{};  // HBase sends none (basalt's 0 is no limit)
    scan.SetLimit(n);
  }
  if (auto v = ctx.Query("reversed")) scan.SetReversed(*v == "true");
  if (auto v = ctx.Query("filter")) {
    BASALT_ASSIGN_OR_RETURN(FilterPtr f, ParseFilter(*v));
    scan.SetFilter(std::move(f));
  }
  return ReadAll(table, scan);
}

}  // namespace

namespace {

// The path names one of HBase's table sub-resources with more segments than it has
// (/{table}/schema/x): HBase matches no resource, where basalt's row routes would read it as a
// row.
bool NamesSubResource(const http::RequestContext& ctx) {
  const std::string& row = ctx.Param("row");
  return row == "schema" || row == "regions" || row == "exists" || row == "scanner" ||
         row == "multiget";
}

// /{table}/{prefix}* alone is HBase's TableScanResource, which serves GET only.
bool IsTableScan(const http::RequestContext& ctx) {
  const std::string& row = ctx.Param("row");
  return !row.empty() && row.back() == '*' && ctx.params.find("columns") == ctx.params.end();
}

http::Response MethodNotAllowed(const http::Request& req, const char* allow) {
  auto res = http::MakeResponse(req, bh::status::method_not_allowed, "text/plain",
                                "Method not allowed\r\n");
  res.set(bh::field::allow, allow);
  return res;
}

}  // namespace

Result<http::Response> RestService::GetRows(const Ctx& ctx) {
  const auto& req = ctx.request;
  if (NamesSubResource(ctx)) return NotFound(req);
  if (IsTableScan(ctx)) {
    // XML, JSON or protobuf; never one raw cell.
    std::optional<Negotiated> repr = NegotiateResponse(req);
    if (!repr) return NotAcceptable(req);
    BASALT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, OpenTable(conn_, ctx));
    BASALT_ASSIGN_OR_RETURN(RowSpec spec, ParseRowSpec(ctx));
    int64_t limit = 0;
    BASALT_ASSIGN_OR_RETURN(std::vector<RowResult> rows,
                            StatelessScan(*table, spec.row, ctx, &limit));
    if (repr->representation == Representation::kProtobuf) {
      BASALT_ASSIGN_OR_RETURN(std::string stream, ToProtobufScanStream(rows, limit));
      return Ok(req, *repr, std::move(stream));
    }
    return Ok(req, *repr, Encode(repr->representation, rows));
  }
  std::optional<Negotiated> repr = NegotiateResponse(req, {.octet_stream = true});
  if (!repr) return NotAcceptable(req);
  bool octet = repr->representation == Representation::kOctetStream;
  BASALT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, OpenTable(conn_, ctx));
  BASALT_ASSIGN_OR_RETURN(RowSpec spec, ParseRowSpec(ctx));
  // As HBase's binary GET: exactly one column in the path (a glob or a range answers the first
  // row's cell).
  if (octet && spec.columns.size() != 1) {
    // HBase's words, which a wildcard Accept (curl's) gets for a whole row.
    return http::MakeResponse(
        req, bh::status::bad_request, "text/plain",
        "Bad request: Default 'GET' method only works if there is exactly 1 column in the row. "
        "Using the 'Accept' header with one of these formats lets you retrieve the entire row "
        "if it has multiple columns: text/xml, application/json, application/x-protobuf, "
        "application/protobuf\r\n");
  }
  // A family the table lacks is the engine's NotFound, so 404 as HBase's REST server answers
  // its NoSuchColumnFamilyException, with no schema read.
  BASALT_ASSIGN_OR_RETURN(std::vector<RowResult> rows, ReadRowSpec(*table, spec));
  if (rows.empty()) return NotFound(req);
  if (octet) {
    const Cell& cell = rows.front().cells().front();
    auto res = http::MakeResponse(req, bh::status::ok, "application/octet-stream", cell.value);
    res.set("X-Timestamp", std::to_string(cell.timestamp));
    return res;
  }
  return Ok(req, *repr, Encode(repr->representation, rows));
}

Result<http::Response> RestService::PutRows(const Ctx& ctx) {
  const auto& req = ctx.request;
  if (NamesSubResource(ctx)) return NotFound(req);
  if (IsTableScan(ctx)) return MethodNotAllowed(req, "GET");
  std::optional<Representation> type = BodyRepresentation(req);
  if (!type) return UnsupportedMediaType(req, /*octet_stream=*/true);
  BASALT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, OpenTable(conn_, ctx));
  BASALT_ASSIGN_OR_RETURN(RowSpec spec, ParseRowSpec(ctx));
  if (spec.kind != RowSpec::Kind::kRow) {
    return Status::InvalidArgument("writes need a single row in the path");
  }
  // As HBase's RowResource: a cell without a column of its own takes the path's first column. A
  // timestamp in the path is not read: cells without one are written at the server's clock.
  std::optional<std::string> path_column;
  if (!spec.columns.empty()) {
    const ColumnName& c = spec.columns.front();
    path_column = c.qualifier ? c.family + ":" + *c.qualifier : c.family;
  }

  // What the body decodes into is reserved before it is decoded (cell_set_cost.h).
  if (auto refused = ctx.ReserveMemory(CellSetMemoryCost(*type, req.body()), "the cells")) {
    return std::move(*refused);
  }
  std::vector<RowModel> rows;
  if (*type == Representation::kOctetStream) {
    RowModel row;
    auto header = [&](const char* name) -> std::optional<std::string> {
      auto it = req.find(name);
      if (it == req.end()) return std::nullopt;
      return std::string(it->value());
    };
    row.key = header("X-Row").value_or(spec.row);
    CellModel cell;
    cell.column = header("X-Column");
    if (!cell.column) cell.column = path_column;
    if (auto ts = header("X-Timestamp")) {
      BASALT_ASSIGN_OR_RETURN(int64_t v, ParseInt64(*ts, "X-Timestamp"));
      if (v < 0) return Status::InvalidArgument("X-Timestamp must not be negative");
      cell.timestamp = v;
    }
    cell.value = req.body();
    row.cells.push_back(std::move(cell));
    rows.push_back(std::move(row));
  } else {
    BASALT_ASSIGN_OR_RETURN(rows, Decode<std::vector<RowModel>>(*type, req.body()));
  }

  // Resolve every row and column before writing anything.
  for (auto& row : rows) {
    if (!row.key) row.key = spec.row;
    if (row.key->empty()) return Status::InvalidArgument("empty row key");
    for (auto& cell : row.cells) {
      if (!cell.column) cell.column = path_column;
      if (!cell.column) return Status::InvalidArgument("a cell without a column");
    }
  }

  auto check = ctx.Query("check");
  if (check && (*check == "increment" || *check == "append")) {
    // Newer HBase: one Row; each Cell names a column and holds the amount (a decimal string)
    // or the bytes to append. returnResult=true answers the new values (304 when none).
    if (rows.size() != 1 || rows[0].cells.empty()) {
      return Status::InvalidArgument("check=" + *check + " takes exactly one Row");
    }
    const RowModel& row = rows[0];
    bool return_result = ctx.Query("returnResult").value_or("false") == "true";
    Result<RowResult> result = Status::Internal("unreachable");
    if (*check == "increment") {
      Increment inc(*row.key);
      for (const auto& c : row.cells) {
        ColumnName col = ParseColumnName(*c.column);
        BASALT_ASSIGN_OR_RETURN(int64_t amount, ParseInt64(c.value, "increment amount"));
        inc.AddColumn(col.family, col.qualifier.value_or(""), amount);
      }
      inc.SetReturnResults(return_result);
      result = table->Increment(inc);
    } else {
      Append app(*row.key);
      for (const auto& c : row.cells) {
        ColumnName col = ParseColumnName(*c.column);
        app.Add(col.family, col.qualifier.value_or(""), c.value);
      }
      app.SetReturnResults(return_result);
      result = table->Append(app);
    }
    if (!result.ok()) return result.status();
    RowResult values = std::move(*result);
    if (!return_result) return Empty(req, bh::status::ok);
    if (values.empty()) return Empty(req, bh::status::not_modified);
    // Answered in the body's own representation (HBase answers JSON or XML as Accept says).
    std::optional<Negotiated> repr = NegotiateResponse(req);
    if (!repr) return NotAcceptable(req);
    return Ok(req, *repr, Encode(repr->representation, std::vector<RowResult>{values}));
  }
  if (check) {
    if (rows.size() != 1 || rows[0].cells.empty()) {
      return Status::InvalidArgument("check=" + *check + " takes exactly one Row");
    }
    const RowModel& row = rows[0];
    const CellModel& check_cell = row.cells.back();
    ColumnName check_col = ParseColumnName(*check_cell.column);
    CheckAndMutate cam(*row.key);
    std::optional<std::string> expected;
    if (!check_cell.value.empty()) expected = check_cell.value;
    cam.IfMatches(check_col.family, check_col.qualifier.value_or(""), CompareOp::kEqual, expected);
    if (*check == "put") {
      if (row.cells.size() < 2) {
        return Status::InvalidArgument(
            "check=put needs the cells to put and then the cell to "
            "check");
      }
      Put put(*row.key);
      bool same_column = false;
      for (size_t i = 0; i + 1 < row.cells.size(); ++i) {
        const CellModel& c = row.cells[i];
        ColumnName col = ParseColumnName(*c.column);
        put.Add(col.family, col.qualifier.value_or(""), c.timestamp.value_or(kLatestTimestamp),
                c.value);
        if (*c.column == *check_cell.column) same_column = true;
      }
      if (!same_column) {
        return Status::InvalidArgument("The column to put and check do not match.");
      }
      cam.Then(std::move(put));
    } else if (*check == "delete") {
      Delete del(*row.key);
      if (row.cells.size() == 1) {
        del.AddColumns(check_col.family, check_col.qualifier.value_or(""));
      }
      for (size_t i = 0; i + 1 < row.cells.size(); ++i) {
        const CellModel& c = row.cells[i];
        ColumnName col = ParseColumnName(*c.column);
        if (!col.qualifier) {
          del.AddFamily(col.family, c.timestamp.value_or(kLatestTimestamp));
        } else {
          del.AddColumn(col.family, *col.qualifier, c.timestamp.value_or(kLatestTimestamp));
        }
      }
      cam.Then(std::move(del));
    } else {
      return Status::InvalidArgument("unsupported check '" + *check +
                                     "' (put, delete, increment or append)");
    }
    Result<bool> passed = table->CheckAndMutate(cam);
    if (!passed.ok()) return passed.status();
    return Empty(req, *passed ? bh::status::ok : bh::status::not_modified);
  }

  // As HBase: a CellSet of no rows writes nothing and succeeds, a row of no cells is refused, and
  // each cell names a family and a qualifier (the qualifier may be empty: "cf:").
  std::vector<Mutation> mutations;
  for (const auto& row : rows) {
    if (row.cells.empty()) return Status::InvalidArgument("No columns to insert");
    Put put(*row.key);
    for (const auto& c : row.cells) {
      ColumnName col = ParseColumnName(*c.column);
      if (!col.qualifier) {
        return Status::InvalidArgument("column '" + *c.column +
                                       "' must be family:qualifier (the qualifier may be empty)");
      }
      put.Add(col.family, *col.qualifier, c.timestamp.value_or(kLatestTimestamp), c.value);
    }
    mutations.emplace_back(std::move(put));
  }
  if (mutations.empty()) return Empty(req, bh::status::ok);
  BASALT_RETURN_IF_ERROR(table->Batch(mutations).status());
  return Empty(req, bh::status::ok);
}

Result<http::Response> RestService::DeleteRows(const Ctx& ctx) {
  const auto& req = ctx.request;
  if (NamesSubResource(ctx)) return NotFound(req);
  if (IsTableScan(ctx)) return MethodNotAllowed(req, "GET");
  BASALT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, OpenTable(conn_, ctx));
  BASALT_ASSIGN_OR_RETURN(RowSpec spec, ParseRowSpec(ctx));
  if (spec.kind != RowSpec::Kind::kRow) {
    return Status::InvalidArgument("deletes need a single row in the path");
  }
  int64_t ts = spec.timestamp;
  Delete del(spec.row, ts);
  // As HBase's RowResource: "cf:" (an empty qualifier) deletes the family, as "cf" does.
  for (const auto& c : spec.columns) {
    if (c.qualifier && !c.qualifier->empty()) {
      del.AddColumns(c.family, *c.qualifier, ts);
    } else {
      del.AddFamily(c.family, ts);
    }
  }
  BASALT_RETURN_IF_ERROR(table->Delete(del));
  return Empty(req, bh::status::ok);
}

Result<http::Response> RestService::MultiGet(const Ctx& ctx) {
  const auto& req = ctx.request;
  std::optional<Negotiated> repr = NegotiateResponse(req);
  if (!repr) return NotAcceptable(req);
  BASALT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, OpenTable(conn_, ctx));
  std::vector<ColumnName> columns;
  auto cols = ctx.params.find("columns");
  if (cols != ctx.params.end()) {
    BASALT_ASSIGN_OR_RETURN(std::vector<std::string> names, SplitDecoded(cols->second));
    for (const auto& n : names) columns.push_back(ParseColumnName(n));
  }
  int32_t versions = 1;
  if (auto v = ctx.Query("v")) {
    BASALT_ASSIGN_OR_RETURN(int64_t n, ParseInt64(*v, "v"));
    if (n < 1 || n > INT32_MAX) return Status::InvalidArgument("bad v");
    versions = static_cast<int32_t>(n);
  }
  std::vector<std::string> keys = ctx.QueryAll("row");
  if (keys.empty()) return NotFound(req, "No rows found.");
  // As HBase's MultiRowResource, every row named is answered, in order, as often as it is
  // named; each answer counts against the budget, so naming one large row many times is refused
  // as a large read is. The rows are read one at a time, each distinct row once, so that
  // nothing is read past the budget (a multi-get of the Table API reads every row first).
  ResultBudget budget(
      "ask for fewer rows (a row named N times counts N times) or page through them with a "
      "scanner (POST /{table}/scanner)");
  constexpr size_t kAbsent = SIZE_MAX;
  std::unordered_map<std::string, size_t> answered;  // row key -> its index in `rows`, or kAbsent
  std::vector<RowResult> rows;
  for (const std::string& key : keys) {
    if (auto it = answered.find(key); it != answered.end()) {
      if (it->second == kAbsent) continue;
      BASALT_RETURN_IF_ERROR(budget.Take(RowBytes(rows[it->second])));
      RowResult again = rows[it->second];
      rows.push_back(std::move(again));
      continue;
    }
    Get get(key);
    SelectColumns(columns, &get);
    get.ReadVersions(versions);
    BASALT_ASSIGN_OR_RETURN(RowResult row, table->Get(get));
    if (row.empty()) {
      answered.emplace(key, kAbsent);
      continue;
    }
    BASALT_RETURN_IF_ERROR(budget.Take(RowBytes(row)));
    answered.emplace(key, rows.size());
    rows.push_back(std::move(row));
  }
  if (rows.empty()) return NotFound(req, "No rows found.");
  return Ok(req, *repr, Encode(repr->representation, rows));
}

}  // namespace basalt::server::rest
