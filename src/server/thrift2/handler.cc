#include "server/thrift2/handler.h"

#include <algorithm>
#include <optional>

#include <re2/re2.h>

#include "server/namespace_modification.h"
#include "server/reserved_namespaces.h"
#include "server/table_name_pattern.h"
#include "server/thrift2/errors.h"
#include "thrift2/codec.h"

namespace basalt::server {

using thrift2::TAccessControlEntity;
using thrift2::TAppend;
using thrift2::TColumnFamilyDescriptor;
using thrift2::TCompareOperator;
using thrift2::TDelete;
using thrift2::TGet;
using thrift2::THRegionLocation;
using thrift2::TIllegalArgument;
using thrift2::TIncrement;
using thrift2::TLogQueryFilter;
using thrift2::TNamespaceDescriptor;
using thrift2::TOnlineLogRecord;
using thrift2::TPut;
using thrift2::TResult;
using thrift2::TRowMutations;
using thrift2::TScan;
using thrift2::TServerName;
using thrift2::TTableDescriptor;
using thrift2::TTableName;
using thrift2::TThriftServerType;

namespace {

// HBase's checkAndPut/checkAndDelete/checkAndMutate take an optional value whose absence means
// "the cell must not exist". The handler cannot see whether the argument was set, but the check
// rule treats an empty expected value exactly as an absent one (check_and_mutate.h), so empty
// is mapped to absent.
std::optional<std::string> ExpectedValue(const std::string& value) {
  if (value.empty()) return std::nullopt;
  return value;
}

size_t ResultBytes(const RowResult& r) {
  size_t bytes = 0;
  for (const Cell& cell : r.cells()) {
    bytes += cell.row.size() + cell.family.size() + cell.qualifier.size() + cell.value.size() + 16;
  }
  return bytes;
}

// Rows of one call that ReadRows makes room for before reading any (a scanner's page is 100 rows
// unless the client says otherwise).
constexpr int32_t kRowsReservedPerCall = 256;

// Reads up to `num_rows` results from `scanner` (HBase's numRows; fewer than 1 reads one),
// stopping after the row that reaches Thrift2Handler::kMaxResultBytes. Whether it stopped there
// with rows left is `*more`.
void ReadRows(ResultScanner& scanner, int32_t num_rows, std::vector<TResult>* out,
              bool* more = nullptr) {
  int32_t n = std::max(num_rows, 1);
  size_t bytes = 0;
  RowResult r;
  if (more != nullptr) *more = false;
  // A TResult has no move constructor: each one a growing vector moves is copied whole. Room for
  // a usual page up front, and each row built in its place (codec.h).
  out->reserve(static_cast<size_t>(std::min(n, kRowsReservedPerCall)));
  while (static_cast<int32_t>(out->size()) < n) {
    if (bytes >= Thrift2Handler::kMaxResultBytes) {
      if (more != nullptr) *more = scanner.Next(&r);
      break;
    }
    if (!scanner.Next(&r)) break;
    bytes += ResultBytes(r);
    thrift2::ToThrift(r, &out->emplace_back());
  }
  ThrowIfError(scanner.status());
}

// A caller's table name pattern (table_name_pattern.h), or the TIOError of a bad one.
std::unique_ptr<re2::RE2> CompileNamePattern(const std::string& regex) {
  return ValueOrThrow(CompileTableNamePattern(regex));
}

}  // namespace

Thrift2Handler::Thrift2Handler(Connection& conn, ScannerRegistry& scanners, std::string host,
                               const std::atomic<int>* port,
                               std::vector<std::string> reserved_namespaces, std::string client)
    : conn_(conn),
      scanners_(scanners),
      host_(std::move(host)),
      port_(port),
      reserved_namespaces_(std::move(reserved_namespaces)),
      client_(std::move(client)) {}

void Thrift2Handler::RefuseReserved(std::string_view ns) const {
  if (IsReservedNamespace(reserved_namespaces_, ns)) {
    ThrowPermissionDenied(ReservedNamespaceMessage(ns));
  }
}

TableName Thrift2Handler::TableNameOrThrow(const TTableName& name) const {
  TableName parsed = ValueOrThrow(thrift2::FromThrift(name));
  RefuseReserved(parsed.ns);
  return parsed;
}

TableName Thrift2Handler::TableNameOrThrow(const std::string& table) const {
  TableName parsed = ValueOrThrow(thrift2::ParseTableArgument(table));
  RefuseReserved(parsed.ns);
  return parsed;
}

std::unique_ptr<Table> Thrift2Handler::OpenTable(const std::string& table) {
  return ValueOrThrow(conn_.GetTable(TableNameOrThrow(table)));
}

// ---- Data methods ----

bool Thrift2Handler::exists(const std::string& table, const TGet& tget) {
  auto t = OpenTable(table);
  return ValueOrThrow(t->Exists(ValueOrThrow(thrift2::FromThrift(tget))));
}

void Thrift2Handler::existsAll(std::vector<bool>& out, const std::string& table,
                               const std::vector<TGet>& tgets) {
  auto t = OpenTable(table);
  for (const auto& tget : tgets) {
    out.push_back(ValueOrThrow(t->Exists(ValueOrThrow(thrift2::FromThrift(tget)))));
  }
}

void Thrift2Handler::get(TResult& out, const std::string& table, const TGet& tget) {
  auto t = OpenTable(table);
  Get get = ValueOrThrow(thrift2::FromThrift(tget));
  if (tget.__isset.existence_only && tget.existence_only) {
    // HBase answers an existence-only Get with an empty result that only says whether the row
    // has cells; basalt returns the row key with no cells in that case.
    if (ValueOrThrow(t->Exists(get))) out.__set_row(tget.row);
    return;
  }
  thrift2::ToThrift(ValueOrThrow(t->Get(get)), &out);
}

void Thrift2Handler::getMultiple(std::vector<TResult>& out, const std::string& table,
                                 const std::vector<TGet>& tgets) {
  auto t = OpenTable(table);
  std::vector<Get> gets;
  gets.reserve(tgets.size());
  for (const auto& tget : tgets) gets.push_back(ValueOrThrow(thrift2::FromThrift(tget)));
  // One row at a time into one RowResult, counted as a scanner's rows are, so that the call
  // holds about the cap at most however many rows (or repeats of one row) it names: a multi-get
  // would build every row first. The answer has a result per Get, so past the cap the call is
  // refused rather than cut short.
  out.reserve(gets.size());
  size_t bytes = 0;
  RowResult r;
  for (const Get& get : gets) {
    ThrowIfError(t->GetInto(get, &r));
    if (!r.empty() && bytes >= kMaxResultBytes) {
      out.clear();
      ThrowTIOError(Status::InvalidArgument(
          "getMultiple: the " + std::to_string(gets.size()) + " rows asked for take more than " +
          std::to_string(kMaxResultBytes >> 20) + " MiB; ask for fewer rows per call"));
    }
    bytes += ResultBytes(r);
    thrift2::ToThrift(r, &out.emplace_back());
  }
}

void Thrift2Handler::put(const std::string& table, const TPut& tput) {
  ThrowIfError(OpenTable(table)->Put(ValueOrThrow(thrift2::FromThrift(tput))));
}

bool Thrift2Handler::checkAndPut(const std::string& table, const std::string& row,
                                 const std::string& family, const std::string& qualifier,
                                 const std::string& value, const TPut& tput) {
  auto t = OpenTable(table);
  CheckAndMutate cam(row);
  cam.IfMatches(family, qualifier, CompareOp::kEqual, ExpectedValue(value))
      .Then(ValueOrThrow(thrift2::FromThrift(tput)));
  return ValueOrThrow(t->CheckAndMutate(cam));
}

void Thrift2Handler::putMultiple(const std::string& table, const std::vector<TPut>& tputs) {
  auto t = OpenTable(table);
  std::vector<Mutation> puts;
  puts.reserve(tputs.size());
  for (const auto& tput : tputs) puts.emplace_back(ValueOrThrow(thrift2::FromThrift(tput)));
  ValueOrThrow(t->Batch(puts));
}

void Thrift2Handler::deleteSingle(const std::string& table, const TDelete& tdelete) {
  ThrowIfError(OpenTable(table)->Delete(ValueOrThrow(thrift2::FromThrift(tdelete))));
}

void Thrift2Handler::deleteMultiple(std::vector<TDelete>& out, const std::string& table,
                                    const std::vector<TDelete>& tdeletes) {
  // As HBase: the answer is always empty, and a failure throws.
  out.clear();
  auto t = OpenTable(table);
  std::vector<Mutation> deletes;
  deletes.reserve(tdeletes.size());
  for (const auto& d : tdeletes) deletes.emplace_back(ValueOrThrow(thrift2::FromThrift(d)));
  ValueOrThrow(t->Batch(deletes));
}

bool Thrift2Handler::checkAndDelete(const std::string& table, const std::string& row,
                                    const std::string& family, const std::string& qualifier,
                                    const std::string& value, const TDelete& tdelete) {
  auto t = OpenTable(table);
  CheckAndMutate cam(row);
  cam.IfMatches(family, qualifier, CompareOp::kEqual, ExpectedValue(value))
      .Then(ValueOrThrow(thrift2::FromThrift(tdelete)));
  return ValueOrThrow(t->CheckAndMutate(cam));
}

void Thrift2Handler::increment(TResult& out, const std::string& table,
                               const TIncrement& tincrement) {
  auto t = OpenTable(table);
  thrift2::ToThrift(ValueOrThrow(t->Increment(ValueOrThrow(thrift2::FromThrift(tincrement)))),
                    &out);
}

void Thrift2Handler::append(TResult& out, const std::string& table, const TAppend& tappend) {
  auto t = OpenTable(table);
  thrift2::ToThrift(ValueOrThrow(t->Append(ValueOrThrow(thrift2::FromThrift(tappend)))), &out);
}

int32_t Thrift2Handler::openScanner(const std::string& table, const TScan& tscan) {
  auto t = OpenTable(table);
  auto scanner = ValueOrThrow(t->GetScanner(ValueOrThrow(thrift2::FromThrift(tscan))));
  return ValueOrThrow(scanners_.Add(client_, std::move(t), std::move(scanner)));
}

void Thrift2Handler::getScannerRows(std::vector<TResult>& out, int32_t scanner_id,
                                    int32_t num_rows) {
  // Another client's scanner answers as an unknown one: an id tells nothing about others'.
  auto entry = scanners_.Find(scanner_id, client_);
  if (!entry) {
    TIllegalArgument ia;
    ia.__set_message(kInvalidScannerId);
    throw ia;
  }
  ScannerRegistry::Lease lease(std::move(entry));
  ReadRows(lease.scanner(), num_rows, &out);
}

void Thrift2Handler::closeScanner(int32_t scanner_id) {
  // As HBase's handler: closing a scanner that is unknown (or expired already) is not an error;
  // another client's is left open, and answered the same.
  scanners_.Remove(scanner_id, client_);
}

void Thrift2Handler::mutateRow(const std::string& table, const TRowMutations& trow_mutations) {
  auto t = OpenTable(table);
  ThrowIfError(t->MutateRow(ValueOrThrow(thrift2::FromThrift(trow_mutations))));
}

void Thrift2Handler::getScannerResults(std::vector<TResult>& out, const std::string& table,
                                       const TScan& tscan, int32_t num_rows) {
  auto t = OpenTable(table);
  auto scanner = ValueOrThrow(t->GetScanner(ValueOrThrow(thrift2::FromThrift(tscan))));
  bool more = false;
  ReadRows(*scanner, num_rows, &out, &more);
  if (more) {
    out.clear();
    ThrowTIOError(Status::InvalidArgument(
        "getScannerResults: the rows asked for take more than " +
        std::to_string(kMaxResultBytes >> 20) +
        " MiB; ask for fewer rows, or page through them with openScanner and getScannerRows"));
  }
}

std::vector<THRegionLocation> Thrift2Handler::RegionLocations(const std::string& table) {
  TableName name = TableNameOrThrow(table);
  TableInfo info = ValueOrThrow(conn_.admin().DescribeTable(name));
  // basalt keeps one region per split range: N split keys give N + 1 regions.
  std::vector<THRegionLocation> out;
  for (size_t i = 0; i <= info.split_keys.size(); ++i) {
    THRegionLocation loc;
    loc.serverName.hostName = host_;
    loc.serverName.__set_port(port_->load());
    loc.serverName.__set_startCode(0);
    loc.regionInfo.regionId = static_cast<int64_t>(i);
    loc.regionInfo.tableName = name.ToString();
    loc.regionInfo.__set_startKey(i == 0 ? std::string() : info.split_keys[i - 1]);
    loc.regionInfo.__set_endKey(i == info.split_keys.size() ? std::string() : info.split_keys[i]);
    loc.regionInfo.__set_offline(false);
    loc.regionInfo.__set_split(false);
    loc.regionInfo.__set_replicaId(0);
    out.push_back(std::move(loc));
  }
  return out;
}

void Thrift2Handler::getRegionLocation(THRegionLocation& out, const std::string& table,
                                       const std::string& row, bool /*reload*/) {
  for (auto& loc : RegionLocations(table)) {
    const std::string& end = loc.regionInfo.endKey;
    if (end.empty() || row < end) {
      out = std::move(loc);
      return;
    }
  }
  ThrowTIOError(Status::Internal("no region holds the row"));
}

void Thrift2Handler::getAllRegionLocations(std::vector<THRegionLocation>& out,
                                           const std::string& table) {
  out = RegionLocations(table);
}

bool Thrift2Handler::checkAndMutate(const std::string& table, const std::string& row,
                                    const std::string& family, const std::string& qualifier,
                                    TCompareOperator::type compare_operator,
                                    const std::string& value, const TRowMutations& row_mutations) {
  auto t = OpenTable(table);
  CheckAndMutate cam(row);
  cam.IfMatches(family, qualifier, ValueOrThrow(thrift2::FromThrift(compare_operator)),
                ExpectedValue(value))
      .Then(ValueOrThrow(thrift2::FromThrift(row_mutations)));
  return ValueOrThrow(t->CheckAndMutate(cam));
}

// ---- Admin methods ----

void Thrift2Handler::getTableDescriptor(TTableDescriptor& out, const TTableName& table) {
  out = thrift2::ToThrift(
      ValueOrThrow(conn_.admin().DescribeTable(TableNameOrThrow(table))).descriptor);
}

void Thrift2Handler::getTableDescriptors(std::vector<TTableDescriptor>& out,
                                         const std::vector<TTableName>& tables) {
  for (const auto& t : tables) {
    TTableDescriptor d;
    getTableDescriptor(d, t);
    out.push_back(std::move(d));
  }
}

bool Thrift2Handler::tableExists(const TTableName& table_name) {
  return ValueOrThrow(conn_.admin().TableExists(TableNameOrThrow(table_name)));
}

std::vector<TableName> Thrift2Handler::MatchingTables(const std::string& regex,
                                                      bool include_sys_tables) {
  std::unique_ptr<re2::RE2> pattern;
  if (!regex.empty()) pattern = CompileNamePattern(regex);
  std::vector<TableName> out;
  for (auto& name : ValueOrThrow(conn_.admin().ListTables())) {
    if (!include_sys_tables && name.ns == kSystemNamespace) continue;
    if (pattern && !re2::RE2::FullMatch(name.ToString(), *pattern)) continue;
    out.push_back(std::move(name));
  }
  return out;
}

void Thrift2Handler::getTableDescriptorsByPattern(std::vector<TTableDescriptor>& out,
                                                  const std::string& regex,
                                                  bool include_sys_tables) {
  for (const auto& name : MatchingTables(regex, include_sys_tables)) {
    // A listing shows a reserved table's name, but its schema is refused like its rows.
    if (IsReservedNamespace(reserved_namespaces_, name.ns)) continue;
    out.push_back(thrift2::ToThrift(ValueOrThrow(conn_.admin().DescribeTable(name)).descriptor));
  }
}

void Thrift2Handler::getTableDescriptorsByNamespace(std::vector<TTableDescriptor>& out,
                                                    const std::string& name) {
  RefuseReserved(name);
  ValueOrThrow(conn_.admin().GetNamespace(name));
  for (const auto& t : ValueOrThrow(conn_.admin().ListTables(name))) {
    out.push_back(thrift2::ToThrift(ValueOrThrow(conn_.admin().DescribeTable(t)).descriptor));
  }
}

void Thrift2Handler::getTableNamesByPattern(std::vector<TTableName>& out, const std::string& regex,
                                            bool include_sys_tables) {
  for (const auto& name : MatchingTables(regex, include_sys_tables)) {
    out.push_back(thrift2::ToThrift(name));
  }
}

void Thrift2Handler::getTableNamesByNamespace(std::vector<TTableName>& out,
                                              const std::string& name) {
  RefuseReserved(name);
  ValueOrThrow(conn_.admin().GetNamespace(name));
  for (const auto& t : ValueOrThrow(conn_.admin().ListTables(name))) {
    out.push_back(thrift2::ToThrift(t));
  }
}

void Thrift2Handler::createTable(const TTableDescriptor& desc,
                                 const std::vector<std::string>& split_keys) {
  TableDescriptor wanted = ValueOrThrow(thrift2::FromThrift(desc));
  RefuseReserved(wanted.name.ns);
  ThrowIfError(conn_.admin().CreateTable(wanted, split_keys));
}

void Thrift2Handler::deleteTable(const TTableName& table_name) {
  ThrowIfError(conn_.admin().DeleteTable(TableNameOrThrow(table_name)));
}

void Thrift2Handler::truncateTable(const TTableName& table_name, bool preserve_splits) {
  ThrowIfError(conn_.admin().TruncateTable(TableNameOrThrow(table_name), preserve_splits));
}

void Thrift2Handler::enableTable(const TTableName& table_name) {
  ThrowIfError(conn_.admin().EnableTable(TableNameOrThrow(table_name)));
}

void Thrift2Handler::disableTable(const TTableName& table_name) {
  ThrowIfError(conn_.admin().DisableTable(TableNameOrThrow(table_name)));
}

bool Thrift2Handler::isTableEnabled(const TTableName& table_name) {
  return ValueOrThrow(conn_.admin().IsTableEnabled(TableNameOrThrow(table_name)));
}

bool Thrift2Handler::isTableDisabled(const TTableName& table_name) {
  return !isTableEnabled(table_name);
}

bool Thrift2Handler::isTableAvailable(const TTableName& table_name) {
  // Every basalt region is always online: a table is available when it exists.
  return tableExists(table_name);
}

bool Thrift2Handler::isTableAvailableWithSplit(const TTableName& table_name,
                                               const std::vector<std::string>& /*split_keys*/) {
  return isTableAvailable(table_name);
}

void Thrift2Handler::addColumnFamily(const TTableName& table_name,
                                     const TColumnFamilyDescriptor& column) {
  ThrowIfError(conn_.admin().AddFamily(TableNameOrThrow(table_name),
                                       ValueOrThrow(thrift2::FromThrift(column))));
}

void Thrift2Handler::deleteColumnFamily(const TTableName& table_name, const std::string& column) {
  ThrowIfError(conn_.admin().DeleteFamily(TableNameOrThrow(table_name), column));
}

void Thrift2Handler::modifyColumnFamily(const TTableName& table_name,
                                        const TColumnFamilyDescriptor& column) {
  ThrowIfError(conn_.admin().ModifyFamily(TableNameOrThrow(table_name),
                                          ValueOrThrow(thrift2::FromThrift(column))));
}

void Thrift2Handler::modifyTable(const TTableDescriptor& desc) {
  // basalt's Admin changes a table family by family: apply the difference.
  TableDescriptor wanted = ValueOrThrow(thrift2::FromThrift(desc));
  RefuseReserved(wanted.name.ns);
  ThrowIfError(wanted.Validate());
  Admin& admin = conn_.admin();
  TableDescriptor current = ValueOrThrow(admin.DescribeTable(wanted.name)).descriptor;
  for (const auto& f : wanted.families) {
    const FamilyDescriptor* old = current.FindFamily(f.name);
    if (old == nullptr) {
      ThrowIfError(admin.AddFamily(wanted.name, f));
    } else if (!(*old == f)) {
      ThrowIfError(admin.ModifyFamily(wanted.name, f));
    }
  }
  for (const auto& f : current.families) {
    if (wanted.FindFamily(f.name) == nullptr) ThrowIfError(admin.DeleteFamily(wanted.name, f.name));
  }
  if (desc.__isset.durability && wanted.durability != current.durability) {
    ThrowIfError(admin.SetDurability(wanted.name, wanted.durability));
  }
}

void Thrift2Handler::createNamespace(const TNamespaceDescriptor& namespace_desc) {
  RefuseReserved(namespace_desc.name);
  ThrowIfError(conn_.admin().CreateNamespace(thrift2::FromThrift(namespace_desc)));
}

void Thrift2Handler::modifyNamespace(const TNamespaceDescriptor& namespace_desc) {
  RefuseReserved(namespace_desc.name);
  ThrowIfError(ValidateNamespaceName(namespace_desc.name));
  // As HBase: a missing namespace is an error.
  NamespaceDescriptor current = ValueOrThrow(conn_.admin().GetNamespace(namespace_desc.name));
  ThrowIfError(CheckNamespaceModification(current, FromThrift(namespace_desc)));
}

void Thrift2Handler::deleteNamespace(const std::string& name) {
  RefuseReserved(name);
  ThrowIfError(conn_.admin().DeleteNamespace(name));
}

namespace {

// As HBase's gateway: a namespace without configuration answers none, not an empty map.
TNamespaceDescriptor NamespaceAnswer(const NamespaceDescriptor& ns) {
  TNamespaceDescriptor out = thrift2::ToThrift(ns);
  if (out.configuration.empty()) out.__isset.configuration = false;
  return out;
}

}  // namespace

void Thrift2Handler::getNamespaceDescriptor(TNamespaceDescriptor& out, const std::string& name) {
  RefuseReserved(name);
  out = NamespaceAnswer(ValueOrThrow(conn_.admin().GetNamespace(name)));
}

void Thrift2Handler::listNamespaceDescriptors(std::vector<TNamespaceDescriptor>& out) {
  for (const auto& ns : ValueOrThrow(conn_.admin().ListNamespaces())) {
    out.push_back(NamespaceAnswer(ns));
  }
}

void Thrift2Handler::listNamespaces(std::vector<std::string>& out) {
  for (const auto& ns : ValueOrThrow(conn_.admin().ListNamespaces())) out.push_back(ns.name);
}

TThriftServerType::type Thrift2Handler::getThriftServerType() {
  return TThriftServerType::TWO;
}

void Thrift2Handler::getClusterId(std::string& out) {
  out = ValueOrThrow(conn_.admin().ClusterId());
}

// ---- Slow logs and permissions: answered as an HBase without them ----

void Thrift2Handler::getSlowLogResponses(std::vector<TOnlineLogRecord>& out,
                                         const std::set<TServerName>& /*server_names*/,
                                         const TLogQueryFilter& /*log_query_filter*/) {
  // An HBase region server keeps slow and large RPC logs only with
  // hbase.regionserver.slowlog.buffer.enabled, false by default; without it every server named
  // answers no records, and no server named means no records either. Basalt keeps none.
  out.clear();
}

void Thrift2Handler::clearSlowLogResponses(std::vector<bool>& out,
                                           const std::set<TServerName>& server_names) {
  // HBase answers one flag per server named: whether that server's slow log buffer was cleared,
  // false for a server without one.
  out.assign(server_names.size(), false);
}

namespace {

// What HBase's gateway answers for grant and revoke when its master runs without the access
// controller (HBase's default): the master refuses with a DoNotRetryIOException naming the
// coprocessor, which the gateway passes on as a TIOError that cannot be retried.
[[noreturn]] void ThrowNoAccessController(const std::string& method) {
  thrift2::TIOError error;
  error.__set_message(
      Status::NotSupported(method +
                           ": org.apache.hadoop.hbase.security.access.AccessController is not "
                           "loaded (basalt has no users or permissions)")
          .ToString());
  error.__set_canRetry(false);
  throw error;
}

}  // namespace

void Thrift2Handler::RefuseReservedScope(const TAccessControlEntity& info) const {
  // HBase parses a table scope's name before it asks the master.
  if (info.scope == thrift2::TPermissionScope::TABLE) {
    TableNameOrThrow(info.tableName);
  } else if (info.scope == thrift2::TPermissionScope::NAMESPACE) {
    RefuseReserved(info.nsName);
  }
}

bool Thrift2Handler::grant(const TAccessControlEntity& info) {
  RefuseReservedScope(info);
  ThrowNoAccessController("grant");
}

bool Thrift2Handler::revoke(const TAccessControlEntity& info) {
  RefuseReservedScope(info);
  ThrowNoAccessController("revoke");
}

}  // namespace basalt::server
