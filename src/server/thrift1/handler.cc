#include "server/thrift1/handler.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "server/reserved_namespaces.h"
#include "server/thrift1/errors.h"
#include "thrift1/codec.h"

namespace basalt::server {

using thrift1::BatchMutation;
using thrift1::ColumnDescriptor;
using thrift1::ScannerID;
using thrift1::TAccessControlEntity;
using thrift1::TAppend;
using thrift1::TCell;
using thrift1::TIncrement;
using thrift1::TRegionInfo;
using thrift1::TRowResult;
using thrift1::TScan;
using thrift1::TThriftServerType;
using thrift1_errors::ArgumentOrThrow;
using thrift1_errors::ThrowIfError;
using thrift1_errors::ThrowIllegalArgument;
using thrift1_errors::ThrowIOError;
using thrift1_errors::ValueOrThrow;

namespace {

// The upper bound of a "Ts" read: HBase's setTimeRange(0, timestamp), which refuses a negative
// one.
TimeRange ReadUpTo(int64_t timestamp) {
  if (timestamp < 0) {
    ThrowIOError(
        Status::InvalidArgument("timestamp " + std::to_string(timestamp) + " is negative"));
  }
  return TimeRange{0, timestamp};
}

size_t ResultBytes(const RowResult& r) {
  size_t bytes = 0;
  for (const Cell& cell : r.cells()) {
    bytes += cell.family.size() + cell.qualifier.size() + cell.value.size() + 16;
  }
  return bytes + r.row().size();
}

// The table part of compact's argument, which HBase takes as a table or a region name; a
// region name ("table,startKey,id", as getTableRegions answers) names its table first, and a
// table name has no ','.
std::string TableOfRegionName(const std::string& table_or_region) {
  return table_or_region.substr(0, table_or_region.find(','));
}

}  // namespace

Thrift1Handler::Thrift1Handler(Connection& conn, ScannerRegistry& scanners, std::string host,
                               const std::atomic<int>* port,
                               std::vector<std::string> reserved_namespaces, std::string client)
    : conn_(conn),
      scanners_(scanners),
      host_(std::move(host)),
      port_(port),
      reserved_namespaces_(std::move(reserved_namespaces)),
      client_(std::move(client)) {}

TableName Thrift1Handler::TableNameOrThrow(const Text& table) const {
  TableName name = ValueOrThrow(TableName::Parse(table));
  if (IsReservedNamespace(reserved_namespaces_, name.ns)) {
    thrift1_errors::ThrowPermissionDenied(ReservedNamespaceMessage(name.ns));
  }
  return name;
}

std::unique_ptr<Table> Thrift1Handler::OpenTable(const Text& table) {
  return ValueOrThrow(conn_.GetTable(TableNameOrThrow(table)));
}

// ---- Tables ----

void Thrift1Handler::enableTable(const Text& table) {
  ThrowIfError(conn_.admin().EnableTable(TableNameOrThrow(table)));
}

void Thrift1Handler::disableTable(const Text& table) {
  ThrowIfError(conn_.admin().DisableTable(TableNameOrThrow(table)));
}

bool Thrift1Handler::isTableEnabled(const Text& table) {
  return ValueOrThrow(conn_.admin().IsTableEnabled(TableNameOrThrow(table)));
}

void Thrift1Handler::compact(const Text& table_or_region) {
  // basalt's store compacts by itself (RocksDB's background compactions, which drop what the
  // compaction filter says is dead); what an HBase minor compaction request can start here is
  // writing the memtables out, which is where those compactions begin.
  ThrowIfError(conn_.admin().Flush(TableNameOrThrow(TableOfRegionName(table_or_region))));
}

void Thrift1Handler::majorCompact(const Text& table_or_region) {
  ThrowIfError(conn_.admin().MajorCompact(TableNameOrThrow(TableOfRegionName(table_or_region))));
}

void Thrift1Handler::getTableNames(std::vector<Text>& out) {
  // HBase's listTableNames: the user tables, system ones left out.
  for (const auto& name : ValueOrThrow(conn_.admin().ListTables())) {
    if (name.ns != kSystemNamespace) out.push_back(name.ToString());
  }
}

void Thrift1Handler::getTableNamesWithIsTableEnabled(std::map<Text, bool>& out) {
  for (const auto& name : ValueOrThrow(conn_.admin().ListTables())) {
    if (name.ns == kSystemNamespace) continue;
    Result<bool> enabled = conn_.admin().IsTableEnabled(name);
    if (!enabled.ok() && enabled.status().IsNotFound()) continue;  // dropped since the listing
    out[name.ToString()] = ValueOrThrow(std::move(enabled));
  }
}

void Thrift1Handler::getColumnDescriptors(std::map<Text, ColumnDescriptor>& out,
                                          const Text& table) {
  TableInfo info = ValueOrThrow(conn_.admin().DescribeTable(TableNameOrThrow(table)));
  for (const auto& family : info.descriptor.families) {
    ColumnDescriptor d = thrift1::ToThrift(family);
    out[d.name] = std::move(d);
  }
}

std::vector<TRegionInfo> Thrift1Handler::Regions(const TableName& name) {
  TableInfo info = ValueOrThrow(conn_.admin().DescribeTable(name));
  std::vector<TRegionInfo> out;
  for (size_t i = 0; i <= info.split_keys.size(); ++i) {
    out.push_back(thrift1::RegionInfo(name, info.split_keys, i, host_, port_->load()));
  }
  return out;
}

void Thrift1Handler::getTableRegions(std::vector<TRegionInfo>& out, const Text& table) {
  TableName name = TableNameOrThrow(table);
  // As HBase: a table that does not exist has no regions, which is not an error.
  if (!ValueOrThrow(conn_.admin().TableExists(name))) return;
  out = Regions(name);
}

void Thrift1Handler::createTable(const Text& table, const std::vector<ColumnDescriptor>& families) {
  Result<TableName> parsed = TableName::Parse(table);
  if (!parsed.ok()) ThrowIllegalArgument(parsed.status().ToString());
  TableName name = TableNameOrThrow(table);
  if (ValueOrThrow(conn_.admin().TableExists(name))) {
    thrift1::AlreadyExists exists;
    exists.__set_message("table name already in use");
    throw exists;
  }
  TableDescriptor desc(name);
  for (const auto& family : families) desc.AddFamily(ArgumentOrThrow(thrift1::FromThrift(family)));
  Status s = desc.Validate();
  if (s.ok()) s = conn_.admin().CreateTable(desc);
  if (s.IsAlreadyExists()) {
    thrift1::AlreadyExists exists;
    exists.__set_message(s.ToString());
    throw exists;
  }
  if (!s.ok()) thrift1_errors::ThrowArgumentOrIOError(s);
}

void Thrift1Handler::deleteTable(const Text& table) {
  ThrowIfError(conn_.admin().DeleteTable(TableNameOrThrow(table)));
}

// ---- Reads ----

void Thrift1Handler::ReadCells(std::vector<TCell>& out, const Text& table, const Text& row,
                               const Text& column, int32_t versions, int64_t timestamp) {
  auto t = OpenTable(table);
  Get get(row);
  ThrowIfError(thrift1::AddColumns({column}, &get));
  if (versions < 1) {
    ThrowIOError(
        Status::InvalidArgument("numVersions must be at least 1, not " + std::to_string(versions)));
  }
  get.ReadVersions(versions);
  TimeRange range = ReadUpTo(timestamp);
  get.SetTimeRange(range.min, range.max);
  out = thrift1::ToCells(ValueOrThrow(t->Get(get)));
}

void Thrift1Handler::get(std::vector<TCell>& out, const Text& table, const Text& row,
                         const Text& column, const Attributes& /*attributes*/) {
  ReadCells(out, table, row, column, 1, kLatestTimestamp);
}

void Thrift1Handler::getVer(std::vector<TCell>& out, const Text& table, const Text& row,
                            const Text& column, int32_t versions,
                            const Attributes& /*attributes*/) {
  ReadCells(out, table, row, column, versions, kLatestTimestamp);
}

void Thrift1Handler::getVerTs(std::vector<TCell>& out, const Text& table, const Text& row,
                              const Text& column, int64_t timestamp, int32_t versions,
                              const Attributes& /*attributes*/) {
  ReadCells(out, table, row, column, versions, timestamp);
}

void Thrift1Handler::ReadRows(std::vector<TRowResult>& out, const char* method, const Text& table,
                              const std::vector<Text>& rows, const std::vector<Text>& columns,
                              int64_t timestamp) {
  auto t = OpenTable(table);
  TimeRange range = ReadUpTo(timestamp);
  std::vector<Get> gets;
  gets.reserve(rows.size());
  for (const auto& row : rows) {
    Get& get = gets.emplace_back(row);
    ThrowIfError(thrift1::AddColumns(columns, &get));
    get.SetTimeRange(range.min, range.max);
  }
  // One row at a time into one RowResult, counted as a scanner's rows are, so that the call
  // holds about the cap at most however many rows (or repeats of one row) it names: a multi-get
  // would build every row first. Only rows with cells count, and answer; a short answer would
  // drop rows silently, so past the cap the call is refused.
  size_t bytes = 0;
  RowResult r;
  for (const Get& get : gets) {
    ThrowIfError(t->GetInto(get, &r));
    if (r.empty()) continue;
    if (bytes >= kMaxResultBytes) {
      out.clear();
      ThrowIOError(Status::InvalidArgument(
          std::string(method) + ": the " + std::to_string(rows.size()) +
          " rows asked for take more than " + std::to_string(kMaxResultBytes >> 20) +
          " MiB; ask for fewer rows per call"));
    }
    bytes += ResultBytes(r);
    out.push_back(thrift1::ToThrift(r));
  }
}

void Thrift1Handler::getRow(std::vector<TRowResult>& out, const Text& table, const Text& row,
                            const Attributes& /*attributes*/) {
  ReadRows(out, "getRow", table, {row}, {}, kLatestTimestamp);
}

void Thrift1Handler::getRowWithColumns(std::vector<TRowResult>& out, const Text& table,
                                       const Text& row, const std::vector<Text>& columns,
                                       const Attributes& /*attributes*/) {
  ReadRows(out, "getRowWithColumns", table, {row}, columns, kLatestTimestamp);
}

void Thrift1Handler::getRowTs(std::vector<TRowResult>& out, const Text& table, const Text& row,
                              int64_t timestamp, const Attributes& /*attributes*/) {
  ReadRows(out, "getRowTs", table, {row}, {}, timestamp);
}

void Thrift1Handler::getRowWithColumnsTs(std::vector<TRowResult>& out, const Text& table,
                                         const Text& row, const std::vector<Text>& columns,
                                         int64_t timestamp, const Attributes& /*attributes*/) {
  ReadRows(out, "getRowWithColumnsTs", table, {row}, columns, timestamp);
}

void Thrift1Handler::getRows(std::vector<TRowResult>& out, const Text& table,
                             const std::vector<Text>& rows, const Attributes& /*attributes*/) {
  ReadRows(out, "getRows", table, rows, {}, kLatestTimestamp);
}

void Thrift1Handler::getRowsWithColumns(std::vector<TRowResult>& out, const Text& table,
                                        const std::vector<Text>& rows,
                                        const std::vector<Text>& columns,
                                        const Attributes& /*attributes*/) {
  ReadRows(out, "getRowsWithColumns", table, rows, columns, kLatestTimestamp);
}

void Thrift1Handler::getRowsTs(std::vector<TRowResult>& out, const Text& table,
                               const std::vector<Text>& rows, int64_t timestamp,
                               const Attributes& /*attributes*/) {
  ReadRows(out, "getRowsTs", table, rows, {}, timestamp);
}

void Thrift1Handler::getRowsWithColumnsTs(std::vector<TRowResult>& out, const Text& table,
                                          const std::vector<Text>& rows,
                                          const std::vector<Text>& columns, int64_t timestamp,
                                          const Attributes& /*attributes*/) {
  ReadRows(out, "getRowsWithColumnsTs", table, rows, columns, timestamp);
}

// ---- Writes ----

void Thrift1Handler::mutateRow(const Text& table, const Text& row,
                               const std::vector<thrift1::Mutation>& mutations,
                               const Attributes& attributes) {
  mutateRowTs(table, row, mutations, kLatestTimestamp, attributes);
}

void Thrift1Handler::mutateRowTs(const Text& table, const Text& row,
                                 const std::vector<thrift1::Mutation>& mutations, int64_t timestamp,
                                 const Attributes& /*attributes*/) {
  auto t = OpenTable(table);
  thrift1::RowChange change =
      ArgumentOrThrow(thrift1::FromThrift(row, mutations, timestamp, /*strict=*/false));
  // HBase applies the deletes, then the puts; here both go in one atomic MutateRow, in that
  // order.
  RowMutations both(row);
  bool any = false;
  if (!change.del.entries().empty()) {
    both.Add(std::move(change.del));
    any = true;
  }
  if (!change.put.entries().empty()) {
    both.Add(std::move(change.put));
    any = true;
  }
  if (any) ThrowIfError(t->MutateRow(both));
}

void Thrift1Handler::ApplyBatches(const Text& table, const std::vector<BatchMutation>& batches,
                                  int64_t timestamp) {
  // HBase puts every row's cells, then applies every row's deletes: the same order here, as
  // one basalt batch (atomic on an embedded store; HBase promises nothing across rows).
  std::vector<basalt::Mutation> puts;
  std::vector<basalt::Mutation> deletes;
  for (const auto& batch : batches) {
    thrift1::RowChange change =
        ArgumentOrThrow(thrift1::FromThrift(batch.row, batch.mutations, timestamp,
                                            /*strict=*/true));
    if (!change.put.entries().empty()) puts.emplace_back(std::move(change.put));
    if (!change.del.entries().empty()) deletes.emplace_back(std::move(change.del));
  }
  for (auto& d : deletes) puts.push_back(std::move(d));
  if (puts.empty()) return;
  auto t = OpenTable(table);
  ValueOrThrow(t->Batch(puts));
}

void Thrift1Handler::mutateRows(const Text& table, const std::vector<BatchMutation>& batches,
                                const Attributes& /*attributes*/) {
  ApplyBatches(table, batches, kLatestTimestamp);
}

void Thrift1Handler::mutateRowsTs(const Text& table, const std::vector<BatchMutation>& batches,
                                  int64_t timestamp, const Attributes& /*attributes*/) {
  ApplyBatches(table, batches, timestamp);
}

int64_t Thrift1Handler::atomicIncrement(const Text& table, const Text& row, const Text& column,
                                        int64_t value) {
  auto t = OpenTable(table);
  ColumnName name = ValueOrThrow(thrift1::ParseColumn(column));
  // A family alone is its empty qualifier, as HBase's atomicIncrement.
  return ValueOrThrow(
      t->IncrementColumnValue(row, std::move(name.family), name.qualifier.value_or(""), value));
}

void Thrift1Handler::DeleteColumn(const Text& table, const Text& row, const Text& column,
                                  int64_t timestamp) {
  auto t = OpenTable(table);
  ColumnName name = ValueOrThrow(thrift1::ParseColumn(column));
  Delete del(row);
  if (name.qualifier) {
    del.AddColumns(std::move(name.family), std::move(*name.qualifier), timestamp);
  } else {
    del.AddFamily(std::move(name.family), timestamp);
  }
  ThrowIfError(t->Delete(del));
}

void Thrift1Handler::deleteAll(const Text& table, const Text& row, const Text& column,
                               const Attributes& /*attributes*/) {
  DeleteColumn(table, row, column, kLatestTimestamp);
}

void Thrift1Handler::deleteAllTs(const Text& table, const Text& row, const Text& column,
                                 int64_t timestamp, const Attributes& /*attributes*/) {
  DeleteColumn(table, row, column, timestamp);
}

void Thrift1Handler::deleteAllRow(const Text& table, const Text& row,
                                  const Attributes& attributes) {
  deleteAllRowTs(table, row, kLatestTimestamp, attributes);
}

void Thrift1Handler::deleteAllRowTs(const Text& table, const Text& row, int64_t timestamp,
                                    const Attributes& /*attributes*/) {
  ThrowIfError(OpenTable(table)->Delete(Delete(row, timestamp)));
}

void Thrift1Handler::increment(const TIncrement& increment) {
  Increment inc = ValueOrThrow(thrift1::FromThrift(increment));
  inc.SetReturnResults(false);
  ValueOrThrow(OpenTable(increment.table)->Increment(inc));
}

void Thrift1Handler::incrementRows(const std::vector<TIncrement>& increments) {
  // One after another, as HBase's: each is atomic, the list is not.
  for (const auto& inc : increments) increment(inc);
}

// ---- Scanners ----

ScannerID Thrift1Handler::OpenScanner(const Text& table, const Scan& scan, bool sort_columns) {
  auto t = OpenTable(table);
  auto scanner = ValueOrThrow(t->GetScanner(scan));
  return ValueOrThrow(scanners_.Add(client_, std::move(t), std::move(scanner), sort_columns));
}

ScannerID Thrift1Handler::scannerOpenWithScan(const Text& table, const TScan& scan,
                                              const Attributes& /*attributes*/) {
  TableNameOrThrow(table);
  return OpenScanner(table, ValueOrThrow(thrift1::FromThrift(scan)),
                     scan.__isset.sortColumns && scan.sortColumns);
}

ScannerID Thrift1Handler::scannerOpen(const Text& table, const Text& start_row,
                                      const std::vector<Text>& columns,
                                      const Attributes& attributes) {
  return scannerOpenWithStopTs(table, start_row, "", columns, kLatestTimestamp, attributes);
}

ScannerID Thrift1Handler::scannerOpenWithStop(const Text& table, const Text& start_row,
                                              const Text& stop_row,
                                              const std::vector<Text>& columns,
                                              const Attributes& attributes) {
  return scannerOpenWithStopTs(table, start_row, stop_row, columns, kLatestTimestamp, attributes);
}

ScannerID Thrift1Handler::scannerOpenWithPrefix(const Text& table, const Text& prefix,
                                                const std::vector<Text>& columns,
                                                const Attributes& /*attributes*/) {
  // HBase starts at the prefix and stops at the first row without it (a WhileMatchFilter of a
  // PrefixFilter): the rows with the prefix.
  TableNameOrThrow(table);
  Scan scan;
  scan.SetRowPrefix(prefix);
  ThrowIfError(thrift1::AddColumns(columns, &scan));
  return OpenScanner(table, scan, false);
}

ScannerID Thrift1Handler::scannerOpenTs(const Text& table, const Text& start_row,
                                        const std::vector<Text>& columns, int64_t timestamp,
                                        const Attributes& attributes) {
  return scannerOpenWithStopTs(table, start_row, "", columns, timestamp, attributes);
}

ScannerID Thrift1Handler::scannerOpenWithStopTs(const Text& table, const Text& start_row,
                                                const Text& stop_row,
                                                const std::vector<Text>& columns, int64_t timestamp,
                                                const Attributes& /*attributes*/) {
  TableNameOrThrow(table);
  Scan scan;
  thrift1::SetRowRange(start_row, stop_row, &scan);
  TimeRange range = ReadUpTo(timestamp);
  scan.SetTimeRange(range.min, range.max);
  ThrowIfError(thrift1::AddColumns(columns, &scan));
  return OpenScanner(table, scan, false);
}

void Thrift1Handler::scannerGet(std::vector<TRowResult>& out, ScannerID id) {
  scannerGetList(out, id, 1);
}

void Thrift1Handler::scannerGetList(std::vector<TRowResult>& out, ScannerID id, int32_t rows) {
  // Another client's scanner answers as an unknown one: an id tells nothing about others'.
  auto entry = scanners_.Find(id, client_);
  if (!entry) ThrowIllegalArgument(thrift1_errors::kInvalidScannerId);
  ScannerRegistry::Lease lease(std::move(entry));
  ScannerRegistry::Entry& scanner = lease.entry();
  if (scanner.broken) {
    ThrowIOError(Status::FailedPrecondition(
        "this scanner dropped rows when an earlier call asked for more than " +
        std::to_string(kMaxResultBytes >> 20) +
        " MiB of rows at once; close it and open a new one"));
  }
  size_t bytes = 0;
  RowResult r;
  // HBase's ResultScanner.next(n): n rows unless the scan ends first (none for n <= 0).
  while (static_cast<int64_t>(out.size()) < rows) {
    if (!scanner.scanner->Next(&r)) break;
    bytes += ResultBytes(r);
    out.push_back(thrift1::ToThrift(r, scanner.sort_columns));
    if (bytes < kMaxResultBytes || static_cast<int64_t>(out.size()) >= rows) continue;
    // Past the cap with rows still asked for: a shorter answer would read as the end of the
    // scan, so the answer is complete only if the scan has ended.
    if (!scanner.scanner->Next(&r)) break;
    scanner.broken = true;
    out.clear();
    ThrowIOError(Status::InvalidArgument(
        "scannerGetList: the " + std::to_string(rows) + " rows asked for take more than " +
        std::to_string(kMaxResultBytes >> 20) +
        " MiB; open the scanner again and ask for fewer rows per call (happybase: a smaller "
        "batch_size)"));
  }
  ThrowIfError(scanner.scanner->status());
}

void Thrift1Handler::scannerClose(ScannerID id) {
  // HBase's Thrift1 handler, unlike its Thrift2 one, refuses an unknown id.
  if (!scanners_.Remove(id, client_)) ThrowIllegalArgument(thrift1_errors::kInvalidScannerId);
}

// ---- Other ----

void Thrift1Handler::getRegionInfo(TRegionInfo& out, const Text& row) {
  // HBase looks `row` up in hbase:meta, whose keys are region names: "table,row,..." finds the
  // region of `row` in `table`.
  size_t first = row.find(',');
  size_t last = row.rfind(',');
  if (first == std::string::npos) {
    ThrowIOError(Status::NotFound("Cannot find row in hbase:meta, row=" + row +
                                  " (expected table,row,...)"));
  }
  TableName name = TableNameOrThrow(row.substr(0, first));
  std::string key = last > first ? row.substr(first + 1, last - first - 1) : row.substr(first + 1);
  for (auto& region : Regions(name)) {
    if (region.endKey.empty() || key < region.endKey) {
      out = std::move(region);
      return;
    }
  }
  ThrowIOError(Status::Internal("no region holds the row"));
}

void Thrift1Handler::append(std::vector<TCell>& out, const TAppend& append) {
  Append app = ValueOrThrow(thrift1::FromThrift(append));
  out = thrift1::ToCells(ValueOrThrow(OpenTable(append.table)->Append(app)));
}

bool Thrift1Handler::checkAndPut(const Text& table, const Text& row, const Text& column,
                                 const Text& value, const thrift1::Mutation& put,
                                 const Attributes& /*attributes*/) {
  // As HBase: the mutation is always a put (isDelete is not read), of a family:qualifier.
  ColumnName target = ArgumentOrThrow(thrift1::ParseQualifiedColumn(put.column));
  ColumnName checked = ArgumentOrThrow(thrift1::ParseQualifiedColumn(column));
  auto t = OpenTable(table);
  Put p(row);
  p.Add(std::move(target.family), std::move(*target.qualifier), put.value);
  p.SetDurability(put.writeToWAL ? Durability::kSyncWal : Durability::kSkipWal);
  CheckAndMutate cam(row);
  // An unset value means "the cell must not exist"; the handler cannot see whether it was set,
  // but the check rule treats an empty expected value exactly as a missing one.
  std::optional<std::string> expected;
  if (!value.empty()) expected = value;
  cam.IfMatches(std::move(checked.family), std::move(*checked.qualifier), CompareOp::kEqual,
                std::move(expected))
      .Then(std::move(p));
  return ValueOrThrow(t->CheckAndMutate(cam));
}

TThriftServerType::type Thrift1Handler::getThriftServerType() {
  return TThriftServerType::ONE;
}

void Thrift1Handler::getClusterId(std::string& out) {
  out = ValueOrThrow(conn_.admin().ClusterId());
}

bool Thrift1Handler::grant(const TAccessControlEntity& /*info*/) {
  thrift1_errors::ThrowUnsupported("grant", "basalt has no users or permissions");
}

bool Thrift1Handler::revoke(const TAccessControlEntity& /*info*/) {
  thrift1_errors::ThrowUnsupported("revoke", "basalt has no users or permissions");
}

}  // namespace basalt::server
