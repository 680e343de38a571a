#include "shell/operations.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <regex>

#include "basalt/cell.h"
#include "basalt/filter_language.h"
#include "basalt/snapshot.h"
#include "basalt/table.h"
#include "shell/arguments.h"
#include "shell/family_options.h"
#include "util/bytes_format.h"

namespace basalt::shell {
namespace {

using util::ToStringBinary;
using Kind = Parameter::Kind;
using Cli = Parameter::Cli;
using Shell = Parameter::Shell;

// ---- reading the arguments -------------------------------------------------------------------

Result<TableName> TableArg(const OperationArgs& args, std::string_view name = "table") {
  return AsTableName(*args.Get(name));
}

Result<std::string> BytesArg(const OperationArgs& args, std::string_view name) {
  return AsBytes(*args.Get(name), args.What(name));
}

// Every string given for `name`, each value a string or an array of them.
Result<std::vector<std::string>> StringsArg(const OperationArgs& args, std::string_view name) {
  std::vector<std::string> all;
  for (const Value& v : args.All(name)) {
    BASALT_ASSIGN_OR_RETURN(auto some, AsStringList(v, args.What(name)));
    all.insert(all.end(), some.begin(), some.end());
  }
  return all;
}

// Keeps the items of `items` whose name (`name_of`) matches the optional pattern of `list` and
// friends: it must match a whole name, as in HBase's shell.
template <class T, class NameOf>
Status KeepMatching(const OperationArgs& args, std::vector<T>* items, NameOf name_of) {
  if (!args.Has("pattern")) return Status::OK();
  BASALT_ASSIGN_OR_RETURN(std::optional<std::regex> pattern, NamePatternArg(args.All("pattern")));
  if (!pattern) return Status::OK();
  std::erase_if(*items, [&](const T& item) { return !std::regex_match(name_of(item), *pattern); });
  return Status::OK();
}

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

Result<Durability> DurabilityArg(const OperationArgs& args) {
  BASALT_ASSIGN_OR_RETURN(std::string text, AsWord(*args.Get("durability"), "durability"));
  for (Durability d : {Durability::kUseDefault, Durability::kSkipWal, Durability::kAsyncWal,
                       Durability::kSyncWal, Durability::kFsyncWal}) {
    if (Upper(text) == DurabilityName(d)) return d;
  }
  return Status::InvalidArgument("unknown durability '" + ToStringBinary(text) +
                                 "' (USE_DEFAULT, SKIP_WAL, ASYNC_WAL, SYNC_WAL or FSYNC_WAL)");
}

Result<FilterPtr> FilterArg(const OperationArgs& args) {
  const Value* v = args.Get("filter");
  if (v == nullptr) return FilterPtr();
  if (v->kind != Value::Kind::kString) {
    return Status::InvalidArgument(
        "FILTER must be a string in the filter language, e.g. "
        "FILTER => \"PrefixFilter('r') AND KeyOnlyFilter()\"");
  }
  return ParseFilter(v->text);
}

// [MIN, MAX] (the shell's) or "MIN,MAX" (the command line's).
Result<TimeRange> TimeRangeArg(const OperationArgs& args) {
  const Value& v = *args.Get("time-range");
  const std::string what = args.What("time-range");
  if (v.kind != Value::Kind::kString) return AsTimeRange(v, what);
  auto comma = v.text.find(',');
  if (comma == std::string::npos) {
    return Status::InvalidArgument("time range must be MIN,MAX, not '" + v.text + "'");
  }
  Value range;
  range.kind = Value::Kind::kArray;
  range.items = {StringValue(v.text.substr(0, comma)), StringValue(v.text.substr(comma + 1))};
  return AsTimeRange(range, "time range");
}

// The options get and scan share: columns, versions, a timestamp or a time range, a filter.
template <class Read>
Status ApplyReadArgs(const OperationArgs& args, Read* read) {
  for (const Value& v : args.All("columns")) {
    BASALT_ASSIGN_OR_RETURN(std::string text, AsBytes(v, "a column"));
    ColumnName c = ParseColumnName(text);
    if (c.qualifier) {
      read->AddColumn(c.family, *c.qualifier);
    } else {
      read->AddFamily(c.family);
    }
  }
  if (args.Has("versions")) {
    BASALT_ASSIGN_OR_RETURN(int32_t versions,
                            AsInt32(*args.Get("versions"), args.What("versions"), 1));
    read->ReadVersions(versions);
  }
  if (args.Has("ts") && args.Has("time-range")) {
    return Status::InvalidArgument("give " + args.What("ts") + " or " + args.What("time-range") +
                                   ", not both");
  }
  if (args.Has("ts")) {
    BASALT_ASSIGN_OR_RETURN(int64_t ts, AsInteger(*args.Get("ts"), args.What("ts")));
    read->SetTimestamp(ts);
  }
  if (args.Has("time-range")) {
    BASALT_ASSIGN_OR_RETURN(TimeRange r, TimeRangeArg(args));
    read->SetTimeRange(r.min, r.max);
  }
  BASALT_ASSIGN_OR_RETURN(FilterPtr filter, FilterArg(args));
  if (filter) read->SetFilter(std::move(filter));
  return Status::OK();
}

Result<int64_t> TimestampArg(const OperationArgs& args) {
  if (!args.Has("ts")) return kLatestTimestamp;
  return AsInteger(*args.Get("ts"), args.What("ts"));
}

// ---- the parameters several operations share -------------------------------------------------

// A positional parameter: a value in the shell, a word on the command line.
Parameter Positional(std::string_view name, std::string_view help, Kind kind, Cli cli,
                     Shell shell) {
  return {.name = name, .help = help, .kind = kind, .cli = cli, .shell = shell};
}

// A parameter the shell takes from its option hash, by `keys` (none: not in the shell), and the
// command line in form `cli` (kNone: not there).
Parameter Option(std::string_view name, std::string_view help, Kind kind, Cli cli,
                 std::vector<std::string_view> keys = {}) {
  return {.name = name,
          .help = help,
          .kind = kind,
          .cli = cli,
          .shell = keys.empty() ? Shell::kNone : Shell::kKey,
          .shell_keys = std::move(keys)};
}

const Parameter kTable = Positional("table", "table, as NAME or NAMESPACE:NAME", Kind::kTable,
                                    Cli::kArgument, Shell::kArgument);
const Parameter kRow =
    Positional("row", "the row key", Kind::kBytes, Cli::kArgument, Shell::kArgument);
const Parameter kPattern = Positional("pattern", "only names this regular expression matches whole",
                                      Kind::kText, Cli::kOption, Shell::kOptionalArgument);
const Parameter kVersions = Option("versions", "versions per column (default 1)", Kind::kInteger,
                                   Cli::kOption, {"VERSIONS"});
const Parameter kReadTimestamp = Option("ts", "only the version at this timestamp (ms)",
                                        Kind::kInteger, Cli::kOption, {"TIMESTAMP"});
const Parameter kTimeRange = Option("time-range", "only versions with MIN <= ts < MAX", Kind::kText,
                                    Cli::kOption, {"TIMERANGE"});
const Parameter kFilter = Option("filter",
                                 "keep what this filter keeps, in HBase's filter language "
                                 "(docs/filters.md); \\xHH escapes are decoded first",
                                 Kind::kBytes, Cli::kOption, {"FILTER"});
const Parameter kDurability =
    Option("durability", "table default: USE_DEFAULT, SKIP_WAL, ASYNC_WAL, SYNC_WAL, FSYNC_WAL",
           Kind::kText, Cli::kOption, {"DURABILITY"});
const Parameter kCache =
    Option("cache", "rows fetched per round trip", Kind::kInteger, Cli::kNone, {"CACHE"});

// ---- tables ----------------------------------------------------------------------------------

// HBase's HexStringSplit: n regions over the 8-digit hex keys 00000000..ffffffff.
std::vector<std::string> HexStringSplits(int32_t regions) {
  std::vector<std::string> splits;
  const uint64_t step = 0xFFFFFFFFull / static_cast<uint64_t>(regions);
  for (int32_t i = 1; i < regions; ++i) {
    char buf[17];
    std::snprintf(buf, sizeof(buf), "%08llx",
                  static_cast<unsigned long long>(step * static_cast<uint64_t>(i)));
    splits.emplace_back(buf);
  }
  return splits;
}

Status CreateOperation(Connection& conn, const OperationArgs& args, OperationOutput& out) {
  BASALT_ASSIGN_OR_RETURN(TableName name, TableArg(args));
  TableDescriptor desc(name);
  for (const Value& v : args.All("families")) {
    if (!v.is_hash()) {
      BASALT_ASSIGN_OR_RETURN(std::string family, AsBytes(v, "a column family"));
      FamilyDescriptor f(family);
      BASALT_RETURN_IF_ERROR(f.Validate());
      desc.AddFamily(std::move(f));
      continue;
    }
    Options options(&v, "a column family", FamilyHashKeys());
    BASALT_ASSIGN_OR_RETURN(std::string family, AsBytes(*options.Take("NAME"), "NAME"));
    if (options.Has("METHOD")) {
      return Status::InvalidArgument("METHOD belongs to alter, not create");
    }
    FamilyDescriptor f(family);
    BASALT_RETURN_IF_ERROR(ApplyFamilyHash(options, &f));
    desc.AddFamily(std::move(f));
  }
  if (desc.families.empty()) {
    return Status::InvalidArgument("create needs at least one column family");
  }
  BASALT_ASSIGN_OR_RETURN(std::vector<std::string> splits, StringsArg(args, "split"));
  if (args.Has("numregions") != args.Has("splitalgo")) {
    return Status::InvalidArgument("NUMREGIONS and SPLITALGO go together");
  }
  if (args.Has("numregions")) {
    BASALT_ASSIGN_OR_RETURN(int32_t regions, AsInt32(*args.Get("numregions"), "NUMREGIONS", 2));
    BASALT_ASSIGN_OR_RETURN(std::string algo, AsWord(*args.Get("splitalgo"), "SPLITALGO"));
    if (algo != "HexStringSplit") {
      return Status::NotSupported("SPLITALGO '" + ToStringBinary(algo) +
                                  "': basalt computes only HexStringSplit; give SPLITS => "
                                  "[...] for other boundaries");
    }
    splits = HexStringSplits(regions);
  }
  if (args.Has("durability")) {
    BASALT_ASSIGN_OR_RETURN(desc.durability, DurabilityArg(args));
  }
  BASALT_RETURN_IF_ERROR(conn.admin().CreateTable(desc, splits));
  out.Done("created table " + name.ToString());
  return Status::OK();
}

// One change of an alter, checked before any is applied.
struct FamilyChange {
  enum class Kind { kAddOrModify, kDelete } kind;
  FamilyDescriptor family;
};

// Modifies each named family that exists (only the options given change), adds the others,
// deletes those asked; every change is checked before the first is made.
Status AlterOperation(Connection& conn, const OperationArgs& args, OperationOutput& out) {
  BASALT_ASSIGN_OR_RETURN(TableName name, TableArg(args));
  BASALT_ASSIGN_OR_RETURN(TableInfo info, conn.admin().DescribeTable(name));
  if (!args.Has("families") && !args.Has("drop-family") && !args.Has("durability")) {
    return Status::InvalidArgument(
        "nothing to alter: give a family (with its options), one to delete or a durability, "
        "e.g. FAMILY[:options], --drop-family or --durability");
  }
  TableDescriptor planned = info.descriptor;
  std::vector<FamilyChange> changes;
  auto plan_delete = [&](const std::string& family) -> Status {
    auto it = std::find_if(planned.families.begin(), planned.families.end(),
                           [&](const FamilyDescriptor& f) { return f.name == family; });
    if (it == planned.families.end()) {
      return Status::NotFound("table " + name.ToString() + " has no column family '" +
                              ToStringBinary(family) + "'");
    }
    planned.families.erase(it);
    changes.push_back({FamilyChange::Kind::kDelete, FamilyDescriptor(family)});
    return Status::OK();
  };
  auto plan_family = [&](FamilyDescriptor f) {
    auto it = std::find_if(planned.families.begin(), planned.families.end(),
                           [&](const FamilyDescriptor& g) { return g.name == f.name; });
    if (it == planned.families.end()) {
      planned.families.push_back(f);
    } else {
      *it = f;
    }
    changes.push_back({FamilyChange::Kind::kAddOrModify, std::move(f)});
  };
  auto existing_or_new = [&](const std::string& family) {
    const FamilyDescriptor* f = planned.FindFamily(family);
    return f != nullptr ? *f : FamilyDescriptor(family);
  };

  for (const Value& v : args.All("families")) {
    if (!v.is_hash()) {
      BASALT_ASSIGN_OR_RETURN(std::string family, AsBytes(v, "a column family"));
      FamilyDescriptor f = existing_or_new(family);
      BASALT_RETURN_IF_ERROR(f.Validate());
      plan_family(std::move(f));
      continue;
    }
    if (Options(&v, "alter", {}).Has("delete")) {
      Options options(&v, "alter", {"delete"});
      BASALT_ASSIGN_OR_RETURN(std::string family, AsBytes(*options.Take("delete"), "'delete'"));
      BASALT_RETURN_IF_ERROR(options.Finish());
      BASALT_RETURN_IF_ERROR(plan_delete(family));
      continue;
    }
    Options options(&v, "alter", FamilyHashKeys());
    BASALT_ASSIGN_OR_RETURN(std::string family, AsBytes(*options.Take("NAME"), "NAME"));
    if (const Value* method = options.Take("METHOD")) {
      BASALT_ASSIGN_OR_RETURN(std::string m, AsBytes(*method, "METHOD"));
      if (m != "delete") {
        return Status::InvalidArgument("METHOD with NAME must be 'delete', not '" +
                                       ToStringBinary(m) + "'");
      }
      BASALT_RETURN_IF_ERROR(options.Finish());
      BASALT_RETURN_IF_ERROR(plan_delete(family));
      continue;
    }
    FamilyDescriptor f = existing_or_new(family);
    BASALT_RETURN_IF_ERROR(ApplyFamilyHash(options, &f));
    plan_family(std::move(f));
  }
  BASALT_ASSIGN_OR_RETURN(std::vector<std::string> drops, StringsArg(args, "drop-family"));
  for (const std::string& family : drops) BASALT_RETURN_IF_ERROR(plan_delete(family));
  if (const Value* method = args.Get("method")) {
    BASALT_ASSIGN_OR_RETURN(std::string m, AsBytes(*method, "METHOD"));
    if (m != "table_att") {
      return Status::InvalidArgument("METHOD without NAME must be 'table_att', not '" +
                                     ToStringBinary(m) + "'");
    }
  }
  std::optional<Durability> durability;
  if (args.Has("durability")) {
    BASALT_ASSIGN_OR_RETURN(durability, DurabilityArg(args));
  }
  if (planned.families.empty()) {
    return Status::FailedPrecondition("alter would delete every column family of " +
                                      name.ToString() + "; a table needs at least one");
  }
  Admin& admin = conn.admin();
  for (const FamilyChange& change : changes) {
    if (change.kind == FamilyChange::Kind::kDelete) {
      BASALT_RETURN_IF_ERROR(admin.DeleteFamily(name, change.family.name));
    } else if (info.descriptor.FindFamily(change.family.name) != nullptr) {
      BASALT_RETURN_IF_ERROR(admin.ModifyFamily(name, change.family));
    } else {
      BASALT_RETURN_IF_ERROR(admin.AddFamily(name, change.family));
      info.descriptor.AddFamily(change.family);
    }
  }
  if (durability) BASALT_RETURN_IF_ERROR(admin.SetDurability(name, *durability));
  out.Done("altered table " + name.ToString());
  return Status::OK();
}

Status DescribeOperation(Connection& conn, const OperationArgs& args, OperationOutput& out) {
  BASALT_ASSIGN_OR_RETURN(TableName name, TableArg(args));
  BASALT_ASSIGN_OR_RETURN(TableInfo info, conn.admin().DescribeTable(name));
  // Where HBase's describe says whether quotas are on: how many snapshots the table has, on the
  // backends that have snapshots (not Thrift2), read only for a front end that prints it.
  std::optional<size_t> count;
  if (out.ShowsSnapshotCount()) {
    auto snapshots = conn.admin().ListSnapshots();
    if (!snapshots.status().IsNotSupported()) {
      BASALT_RETURN_IF_ERROR(snapshots.status());
      count = 0;
      for (const SnapshotInfo& s : *snapshots) *count += s.table == name ? 1 : 0;
    }
  }
  out.Table(info, count);
  return Status::OK();
}

Status ListOperation(Connection& conn, const OperationArgs& args, OperationOutput& out) {
  std::string ns;
  if (args.Has("namespace")) {
    BASALT_ASSIGN_OR_RETURN(ns, BytesArg(args, "namespace"));
  }
  BASALT_ASSIGN_OR_RETURN(auto tables, conn.admin().ListTables(ns));
  BASALT_RETURN_IF_ERROR(
      KeepMatching(args, &tables, [](const TableName& t) { return t.ToString(); }));
  out.Tables(tables);
  return Status::OK();
}

Status EnableOperation(Connection& conn, const OperationArgs& args, OperationOutput& out) {
  BASALT_ASSIGN_OR_RETURN(TableName table, TableArg(args));
  BASALT_RETURN_IF_ERROR(conn.admin().EnableTable(table));
  out.Done("enabled table " + table.ToString());
  return Status::OK();
}

Status DisableOperation(Connection& conn, const OperationArgs& args, OperationOutput& out) {
  BASALT_ASSIGN_OR_RETURN(TableName table, TableArg(args));
  BASALT_RETURN_IF_ERROR(conn.admin().DisableTable(table));
  out.Done("disabled table " + table.ToString());
  return Status::OK();
}

Status DropOperation(Connection& conn, const OperationArgs& args, OperationOutput& out) {
  BASALT_ASSIGN_OR_RETURN(TableName name, TableArg(args));
  Admin& admin = conn.admin();
  BASALT_ASSIGN_OR_RETURN(bool enabled, admin.IsTableEnabled(name));
  if (enabled && !args.Has("disable-first")) {
    return Status::FailedPrecondition("Table " + name.ToString() +
                                      " is enabled. Disable it first: disable '" + name.ToString() +
                                      "'");
  }
  if (enabled) BASALT_RETURN_IF_ERROR(admin.DisableTable(name));
  BASALT_RETURN_IF_ERROR(admin.DeleteTable(name));
  out.Done("dropped table " + name.ToString());
  return Status::OK();
}

// As HBase's shell: disables the table, then truncates it (which enables it again).
Status TruncateOperation(Connection& conn, const OperationArgs& args, OperationOutput& out) {
  BASALT_ASSIGN_OR_RETURN(TableName name, TableArg(args));
  Admin& admin = conn.admin();
  BASALT_ASSIGN_OR_RETURN(bool enabled, admin.IsTableEnabled(name));
  out.Progress("Truncating '" + name.ToString() + "' table (it may take a while):");
  if (enabled) {
    out.Progress("Disabling table...");
    BASALT_RETURN_IF_ERROR(admin.DisableTable(name));
  }
  out.Progress("Truncating table...");
  BASALT_RETURN_IF_ERROR(admin.TruncateTable(name, args.Has("preserve-splits")));
  out.Done("truncated table " + name.ToString());
  return Status::OK();
}

// ---- namespaces ------------------------------------------------------------------------------

Status CreateNamespaceOperation(Connection& conn, const OperationArgs& args, OperationOutput& out) {
  NamespaceDescriptor ns;
  BASALT_ASSIGN_OR_RETURN(ns.name, BytesArg(args, "namespace"));
  if (const Value* properties = args.Get("properties")) {
    if (!properties->is_hash()) {
      return Status::InvalidArgument("namespace properties must be a hash, e.g. {'k' => 'v'}");
    }
    for (const HashEntry& e : properties->entries) {
      std::string key = KeyName(e.key);
      if (key.empty()) return Status::InvalidArgument("namespace property names are strings");
      BASALT_ASSIGN_OR_RETURN(ns.configuration[key], AsBytes(e.value, "a property value"));
    }
  }
  BASALT_RETURN_IF_ERROR(conn.admin().CreateNamespace(ns));
  out.Done("created namespace " + ns.name);
  return Status::OK();
}

Status DropNamespaceOperation(Connection& conn, const OperationArgs& args, OperationOutput& out) {
  BASALT_ASSIGN_OR_RETURN(std::string ns, BytesArg(args, "namespace"));
  BASALT_RETURN_IF_ERROR(conn.admin().DeleteNamespace(ns));
  out.Done("dropped namespace " + ns);
  return Status::OK();
}

Status ListNamespaceOperation(Connection& conn, const OperationArgs& args, OperationOutput& out) {
  BASALT_ASSIGN_OR_RETURN(auto namespaces, conn.admin().ListNamespaces());
  BASALT_RETURN_IF_ERROR(
      KeepMatching(args, &namespaces, [](const NamespaceDescriptor& ns) { return ns.name; }));
  out.Namespaces(namespaces);
  return Status::OK();
}

// ---- data ------------------------------------------------------------------------------------

// One atomic Put of COLUMN VALUE pairs.
Status PutOperation(Connection& conn, const OperationArgs& args, OperationOutput& out) {
  const std::vector<Value>& cells = args.All("cells");
  if (cells.empty() || cells.size() % 2 != 0) {
    return Status::InvalidArgument("put needs FAMILY:QUALIFIER VALUE pairs");
  }
  BASALT_ASSIGN_OR_RETURN(int64_t ts, TimestampArg(args));
  BASALT_ASSIGN_OR_RETURN(std::string row, BytesArg(args, "row"));
  basalt::Put put(row, ts);
  for (size_t i = 0; i < cells.size(); i += 2) {
    BASALT_ASSIGN_OR_RETURN(ColumnName column, AsWriteColumn(cells[i]));
    BASALT_ASSIGN_OR_RETURN(std::string value, AsBytes(cells[i + 1], "the value"));
    put.Add(column.family, column.qualifier.value_or(""), value);
  }
  BASALT_ASSIGN_OR_RETURN(TableName name, TableArg(args));
  BASALT_ASSIGN_OR_RETURN(auto table, conn.GetTable(name));
  BASALT_RETURN_IF_ERROR(table->Put(put));
  out.Done("put " + std::to_string(cells.size() / 2) + " cell(s)");
  return Status::OK();
}

Status GetOperation(Connection& conn, const OperationArgs& args, OperationOutput& out) {
  BASALT_ASSIGN_OR_RETURN(std::string row, BytesArg(args, "row"));
  basalt::Get get(row);
  BASALT_RETURN_IF_ERROR(ApplyReadArgs(args, &get));
  BASALT_ASSIGN_OR_RETURN(TableName name, TableArg(args));
  BASALT_ASSIGN_OR_RETURN(auto table, conn.GetTable(name));
  BASALT_ASSIGN_OR_RETURN(RowResult result, table->Get(get));
  out.Row(result);
  return Status::OK();
}

Status ScanOperation(Connection& conn, const OperationArgs& args, OperationOutput& out) {
  basalt::Scan scan;
  if (args.Has("start")) {
    BASALT_ASSIGN_OR_RETURN(std::string row, BytesArg(args, "start"));
    scan.WithStartRow(row);
  }
  if (args.Has("stop")) {
    BASALT_ASSIGN_OR_RETURN(std::string row, BytesArg(args, "stop"));
    scan.WithStopRow(row);
  }
  if (args.Has("prefix")) {
    BASALT_ASSIGN_OR_RETURN(std::string prefix, BytesArg(args, "prefix"));
    scan.SetRowPrefix(prefix);
  }
  if (args.Has("limit")) {  // 0: no limit
    BASALT_ASSIGN_OR_RETURN(int64_t limit, AsInteger(*args.Get("limit"), args.What("limit")));
    if (limit < 0) return Status::InvalidArgument(args.What("limit") + " must be at least 0");
    if (limit > 0) scan.SetLimit(limit);
  }
  if (args.Has("reverse")) {
    BASALT_ASSIGN_OR_RETURN(bool reversed, AsBoolean(*args.Get("reverse"), args.What("reverse")));
    scan.SetReversed(reversed);
  }
  BASALT_RETURN_IF_ERROR(ApplyReadArgs(args, &scan));
  if (args.Has("raw")) {
    BASALT_ASSIGN_OR_RETURN(bool raw, AsBoolean(*args.Get("raw"), args.What("raw")));
    scan.SetRaw(raw);
  }
  if (args.Has("cache")) {
    BASALT_ASSIGN_OR_RETURN(int32_t caching, AsInt32(*args.Get("cache"), args.What("cache"), 1));
    scan.SetCaching(caching);
  }
  if (args.Has("batch")) {  // 0: whole rows
    BASALT_ASSIGN_OR_RETURN(int32_t batch, AsInt32(*args.Get("batch"), args.What("batch"), 0));
    if (batch > 0) scan.SetBatch(batch);
  }
  BASALT_ASSIGN_OR_RETURN(TableName name, TableArg(args));
  BASALT_ASSIGN_OR_RETURN(auto table, conn.GetTable(name));
  BASALT_ASSIGN_OR_RETURN(auto scanner, table->GetScanner(scan));
  out.BeginRows();
  RowResult row;
  int64_t rows = 0;
  bool continuing = false;  // the previous piece was part of this row (batch)
  while (scanner->Next(&row)) {
    if (!continuing) ++rows;
    continuing = row.partial();
    out.NextRow(row);
    BASALT_RETURN_IF_ERROR(out.CheckInterrupted());
  }
  // The rows printed so far stay printed; the error follows them.
  BASALT_RETURN_IF_ERROR(scanner->status());
  out.EndRows(rows);
  return Status::OK();
}

// The marker deleteall writes for one row: whole row, a family ('f') or a column ('f:q'), at
// or before ts; or, with a version, the column's version at that timestamp alone.
Result<basalt::Delete> DeleteOf(std::string row, const std::optional<ColumnName>& column,
                                int64_t ts, std::optional<int64_t> version,
                                const std::string& version_what) {
  basalt::Delete del(std::move(row), ts);
  if (version && !(column && column->qualifier)) {
    return Status::InvalidArgument(version_what + " needs FAMILY:QUALIFIER");
  }
  if (version) {
    del.AddColumn(column->family, *column->qualifier, *version);
  } else if (column && column->qualifier) {
    del.AddColumns(column->family, *column->qualifier, ts);
  } else if (column) {
    del.AddFamily(column->family, ts);
  }
  return del;
}

// Rows are deleted in batches of this many when deleteall is given a prefix.
constexpr size_t kDeleteBatchRows = 1000;

Status DeleteAllOperation(Connection& conn, const OperationArgs& args, OperationOutput& out) {
  std::optional<ColumnName> column;
  if (args.Has("column")) {
    BASALT_ASSIGN_OR_RETURN(column, AsWriteColumn(*args.Get("column")));
  }
  BASALT_ASSIGN_OR_RETURN(int64_t ts, TimestampArg(args));
  std::optional<int64_t> version;
  if (args.Has("version")) {
    BASALT_ASSIGN_OR_RETURN(version, AsInteger(*args.Get("version"), args.What("version")));
  }
  if (args.Has("row") == args.Has("prefix")) {
    return Status::InvalidArgument("deleteall takes a row or ROWPREFIXFILTER => 'prefix'");
  }
  BASALT_ASSIGN_OR_RETURN(TableName name, TableArg(args));
  if (args.Has("row")) {
    BASALT_ASSIGN_OR_RETURN(std::string row, BytesArg(args, "row"));
    BASALT_ASSIGN_OR_RETURN(basalt::Delete del,
                            DeleteOf(row, column, ts, version, args.What("version")));
    BASALT_ASSIGN_OR_RETURN(auto table, conn.GetTable(name));
    BASALT_RETURN_IF_ERROR(table->Delete(del));
    out.Done("deleted");
    return Status::OK();
  }
  BASALT_ASSIGN_OR_RETURN(std::string prefix, BytesArg(args, "prefix"));
  BASALT_ASSIGN_OR_RETURN(auto table, conn.GetTable(name));
  basalt::Scan scan;
  scan.SetRowPrefix(prefix).SetFilter(std::make_shared<FirstKeyOnlyFilter>());
  BASALT_ASSIGN_OR_RETURN(auto scanner, table->GetScanner(scan));
  std::vector<Mutation> batch;
  RowResult row;
  while (scanner->Next(&row)) {
    BASALT_ASSIGN_OR_RETURN(basalt::Delete del,
                            DeleteOf(row.row(), column, ts, version, args.What("version")));
    batch.emplace_back(std::move(del));
    if (batch.size() == kDeleteBatchRows) {
      BASALT_RETURN_IF_ERROR(out.CheckInterrupted());
      BASALT_RETURN_IF_ERROR(table->Batch(batch).status());
      batch.clear();
    }
  }
  BASALT_RETURN_IF_ERROR(scanner->status());
  if (!batch.empty()) BASALT_RETURN_IF_ERROR(table->Batch(batch).status());
  out.Done("deleted");
  return Status::OK();
}

Status IncrOperation(Connection& conn, const OperationArgs& args, OperationOutput& out) {
  BASALT_ASSIGN_OR_RETURN(std::string row, BytesArg(args, "row"));
  BASALT_ASSIGN_OR_RETURN(ColumnName column, AsWriteColumn(*args.Get("column")));
  int64_t amount = 1;
  if (args.Has("amount")) {
    BASALT_ASSIGN_OR_RETURN(amount, AsInteger(*args.Get("amount"), args.What("amount")));
  }
  BASALT_ASSIGN_OR_RETURN(TableName name, TableArg(args));
  BASALT_ASSIGN_OR_RETURN(auto table, conn.GetTable(name));
  BASALT_ASSIGN_OR_RETURN(
      int64_t value,
      table->IncrementColumnValue(row, column.family, column.qualifier.value_or(""), amount));
  out.Counter(value);
  return Status::OK();
}

// Counts rows from their first cells; the shell prints a progress line every INTERVAL rows.
Status CountOperation(Connection& conn, const OperationArgs& args, OperationOutput& out) {
  int64_t interval = 1000;
  if (args.Has("interval")) {
    BASALT_ASSIGN_OR_RETURN(interval, AsInt32(*args.Get("interval"), args.What("interval"), 1));
  }
  basalt::Scan scan;
  if (args.Has("cache")) {
    BASALT_ASSIGN_OR_RETURN(int32_t caching, AsInt32(*args.Get("cache"), args.What("cache"), 1));
    scan.SetCaching(caching);
  }
  if (args.Has("prefix")) {
    BASALT_ASSIGN_OR_RETURN(std::string prefix, BytesArg(args, "prefix"));
    scan.SetRowPrefix(prefix);
  }
  BASALT_ASSIGN_OR_RETURN(FilterPtr filter, FilterArg(args));
  scan.SetFilter(filter ? filter : std::make_shared<FirstKeyOnlyFilter>());
  BASALT_ASSIGN_OR_RETURN(TableName name, TableArg(args));
  BASALT_ASSIGN_OR_RETURN(auto table, conn.GetTable(name));
  BASALT_ASSIGN_OR_RETURN(auto scanner, table->GetScanner(scan));
  RowResult row;
  int64_t rows = 0;
  while (scanner->Next(&row)) {
    ++rows;
    BASALT_RETURN_IF_ERROR(out.CheckInterrupted());
    if (rows % interval == 0) {
      out.Progress("Current count: " + std::to_string(rows) +
                   ", row: " + ToStringBinary(row.row()));
    }
  }
  BASALT_RETURN_IF_ERROR(scanner->status());
  out.Count(rows);
  return Status::OK();
}

// ---- snapshots -------------------------------------------------------------------------------

Status SnapshotOperation(Connection& conn, const OperationArgs& args, OperationOutput& out) {
  BASALT_ASSIGN_OR_RETURN(TableName table, TableArg(args));
  BASALT_ASSIGN_OR_RETURN(std::string snapshot, BytesArg(args, "name"));
  BASALT_RETURN_IF_ERROR(conn.admin().Snapshot(table, snapshot));
  out.Done("snapshot " + snapshot + " of " + table.ToString() + " taken");
  return Status::OK();
}

Status ListSnapshotsOperation(Connection& conn, const OperationArgs& args, OperationOutput& out) {
  BASALT_ASSIGN_OR_RETURN(auto snapshots, conn.admin().ListSnapshots());
  BASALT_RETURN_IF_ERROR(
      KeepMatching(args, &snapshots, [](const SnapshotInfo& s) { return s.name; }));
  out.Snapshots(snapshots);
  return Status::OK();
}

Status CloneSnapshotOperation(Connection& conn, const OperationArgs& args, OperationOutput& out) {
  BASALT_ASSIGN_OR_RETURN(std::string snapshot, BytesArg(args, "name"));
  BASALT_ASSIGN_OR_RETURN(TableName table, TableArg(args, "new_table"));
  BASALT_RETURN_IF_ERROR(conn.admin().CloneSnapshot(snapshot, table));
  out.Done("cloned snapshot " + snapshot + " into " + table.ToString());
  return Status::OK();
}

Status RestoreSnapshotOperation(Connection& conn, const OperationArgs& args, OperationOutput& out) {
  BASALT_ASSIGN_OR_RETURN(std::string snapshot, BytesArg(args, "name"));
  BASALT_RETURN_IF_ERROR(conn.admin().RestoreSnapshot(snapshot));
  out.Done("restored snapshot " + snapshot);
  return Status::OK();
}

Status DeleteSnapshotOperation(Connection& conn, const OperationArgs& args, OperationOutput& out) {
  BASALT_ASSIGN_OR_RETURN(std::string snapshot, BytesArg(args, "name"));
  BASALT_RETURN_IF_ERROR(conn.admin().DeleteSnapshot(snapshot));
  out.Done("deleted snapshot " + snapshot);
  return Status::OK();
}

const Parameter kSnapshotName =
    Positional("name", "the snapshot", Kind::kSnapshot, Cli::kArgument, Shell::kArgument);

}  // namespace

void OperationArgs::Add(std::string_view name, std::string_view what, Value value) {
  Given& given = given_[std::string(name)];
  if (given.what.empty()) given.what = std::string(what);
  given.values.push_back(std::move(value));
}

const OperationArgs::Given* OperationArgs::Find(std::string_view name) const {
  auto it = given_.find(name);
  return it == given_.end() ? nullptr : &it->second;
}

const Value* OperationArgs::Get(std::string_view name) const {
  const Given* given = Find(name);
  return given == nullptr ? nullptr : &given->values.front();
}

const std::vector<Value>& OperationArgs::All(std::string_view name) const {
  static const std::vector<Value> kNone;
  const Given* given = Find(name);
  return given == nullptr ? kNone : given->values;
}

std::string OperationArgs::What(std::string_view name) const {
  const Given* given = Find(name);
  return given == nullptr ? std::string() : given->what;
}

const std::vector<Operation>& Operations() {
  static const std::vector<Operation> operations = {
      {.shell_name = "create",
       .cli_name = "create",
       .group = "ddl",
       .summary = "create a table",
       .shell_usage =
           "create 't1', 'f1', 'f2'\n"
           "create 'ns1:t1', {NAME => 'f1', VERSIONS => 5, TTL => 86400, MIN_VERSIONS => 1,\n"
           "  KEEP_DELETED_CELLS => true, COMPRESSION => 'SNAPPY', BLOOMFILTER => 'ROW',\n"
           "  BLOCKSIZE => 65536, IN_MEMORY => true}   # other attributes are kept, not acted on\n"
           "create 't1', 'f1', SPLITS => ['10', '20', '30']\n"
           "create 't1', 'f1', {NUMREGIONS => 16, SPLITALGO => 'HexStringSplit'}\n"
           "create 't1', 'f1', DURABILITY => 'ASYNC_WAL'",
       .parameters = {kTable,
                      Positional("families",
                                 "FAMILY[:versions=N,min_versions=N,ttl=SECONDS|FOREVER,"
                                 "keep_deleted_cells=false|true|ttl,compression=none|snappy|lz4|"
                                 "zstd|gz,bloom=none|row|rowcol,blocksize=BYTES]",
                                 Kind::kFamily, Cli::kArguments, Shell::kArguments),
                      Option("split", "a split key (repeatable)", Kind::kBytes, Cli::kOptions,
                             {"SPLITS"}),
                      Option("numregions", "regions, with splitalgo", Kind::kInteger, Cli::kNone,
                             {"NUMREGIONS"}),
                      Option("splitalgo", "HexStringSplit", Kind::kText, Cli::kNone, {"SPLITALGO"}),
                      kDurability},
       .run = &CreateOperation,
       .shell_prints_done = true},
      {.shell_name = "alter",
       .cli_name = "alter",
       .group = "ddl",
       .summary = "add, change or delete column families; set the durability",
       .shell_usage = "alter 't1', NAME => 'f1', VERSIONS => 5     # change f1, or add it\n"
                      "alter 't1', 'f2'                            # add f2 with the defaults\n"
                      "alter 't1', 'delete' => 'f1'                # or: NAME => 'f1', METHOD => "
                      "'delete'\n"
                      "alter 't1', DURABILITY => 'SKIP_WAL'\n"
                      "alter 't1', {NAME => 'f1', TTL => 3600}, {NAME => 'f2', METHOD => 'delete'}",
       .parameters = {kTable,
                      Positional("families",
                                 "FAMILY[:options]: modify the family if it exists, add it if not",
                                 Kind::kFamily, Cli::kOptionalArguments, Shell::kArguments),
                      Option("drop-family", "delete a family and its data", Kind::kBytes,
                             Cli::kOptions),
                      kDurability,
                      Option("method", "table_att", Kind::kText, Cli::kNone, {"METHOD"})},
       .run = &AlterOperation},
      {.shell_name = "describe",
       .cli_name = "describe",
       .group = "ddl",
       .summary = "show a table's state and column families",
       .shell_usage = "describe 't1'",
       .parameters = {kTable},
       .run = &DescribeOperation},
      {.shell_name = "list",
       .cli_name = "list",
       .group = "ddl",
       .summary = "list tables, optionally those matching a regular expression",
       .shell_usage = "list\nlist 'abc.*'\nlist 'ns1:.*'",
       .parameters = {Option("namespace", "only this namespace", Kind::kNamespace,
                             Cli::kOptionalArgument),
                      kPattern},
       .run = &ListOperation},
      {.shell_name = "enable",
       .cli_name = "enable",
       .group = "ddl",
       .summary = "enable a table",
       .shell_usage = "enable 't1'",
       .parameters = {kTable},
       .run = &EnableOperation},
      {.shell_name = "disable",
       .cli_name = "disable",
       .group = "ddl",
       .summary = "disable a table (reads and writes then fail)",
       .shell_usage = "disable 't1'",
       .parameters = {kTable},
       .run = &DisableOperation},
      // As HBase's shell, the shell's drop wants the table disabled; the command line's disables
      // it first: one command, not two.
      {.shell_name = "drop",
       .cli_name = "drop",
       .group = "ddl",
       .summary = "delete a table and its data (the shell wants it disabled first)",
       .shell_usage = "disable 't1'\ndrop 't1'",
       .parameters = {kTable,
                      {.name = "disable-first",
                       .help = "disable the table first when it is enabled",
                       .kind = Kind::kFlag,
                       .cli_default = "true"}},
       .run = &DropOperation},
      {.shell_name = "truncate",
       .group = "ddl",
       .summary = "remove every row (disables and re-enables the table)",
       .shell_usage = "truncate 't1'",
       .parameters = {kTable},
       .run = &TruncateOperation},
      {.shell_name = "truncate_preserve",
       .cli_name = "truncate",
       .group = "ddl",
       .summary = "remove every row, keeping the schema and the split keys",
       .shell_usage = "truncate_preserve 't1'",
       .parameters = {kTable,
                      {.name = "preserve-splits",
                       .help = "keep the split keys",
                       .kind = Kind::kFlag,
                       .cli_default = "true",
                       .shell_default = "true"}},
       .run = &TruncateOperation},
      {.shell_name = "create_namespace",
       .cli_name = "create-namespace",
       .group = "namespace",
       .summary = "create a namespace",
       .shell_usage =
           "create_namespace 'ns1'\ncreate_namespace 'ns1', {'PROPERTY_NAME' => 'value'}",
       .parameters = {Positional("namespace", "the namespace", Kind::kNamespace, Cli::kArgument,
                                 Shell::kArgument),
                      Positional("properties", "the namespace's properties, a hash",
                                 Kind::kProperties, Cli::kNone, Shell::kOptionalArgument)},
       .run = &CreateNamespaceOperation},
      {.shell_name = "drop_namespace",
       .cli_name = "drop-namespace",
       .group = "namespace",
       .summary = "drop an empty namespace",
       .shell_usage = "drop_namespace 'ns1'",
       .parameters = {Positional("namespace", "the namespace", Kind::kNamespace, Cli::kArgument,
                                 Shell::kArgument)},
       .run = &DropNamespaceOperation},
      {.shell_name = "list_namespace",
       .cli_name = "namespaces",
       .group = "namespace",
       .summary = "list namespaces, optionally matching a regular expression",
       .shell_usage = "list_namespace\nlist_namespace 'ns.*'",
       .parameters = {kPattern},
       .run = &ListNamespaceOperation},
      {.shell_name = "put",
       .cli_name = "put",
       .group = "dml",
       .summary = "write cells to one row, atomically",
       .shell_usage =
           "put 't1', 'r1', 'f1:c1', 'value'\n"
           "put 't1', 'r1', 'f1:c1', 'value', 1700000000000     # explicit timestamp (ms)\n"
           "put 't1', \"r\\x00\\x01\", 'f1:c1', \"\\xFF\"             # binary bytes in double "
           "quotes",
       .parameters = {kTable,
                      kRow,
                      {.name = "cells",
                       .help = "FAMILY:QUALIFIER VALUE pairs",
                       .kind = Kind::kBytes,
                       .cli = Cli::kArguments,
                       .shell = Shell::kArgument,
                       .shell_count = 2},
                      Positional("ts", "timestamp of the cells (ms; default now)", Kind::kInteger,
                                 Cli::kOption, Shell::kOptionalArgument)},
       .run = &PutOperation,
       .shell_option_hash = true},
      {.shell_name = "get",
       .cli_name = "get",
       .group = "dml",
       .summary = "read one row",
       .shell_usage =
           "get 't1', 'r1'\n"
           "get 't1', 'r1', 'f1:c1'\n"
           "get 't1', 'r1', ['f1:c1', 'f2']\n"
           "get 't1', 'r1', {COLUMN => 'f1:c1', VERSIONS => 3, TIMERANGE => [ts1, ts2]}\n"
           "get 't1', 'r1', {COLUMN => 'f1:c1', TIMESTAMP => ts1}\n"
           "get 't1', 'r1', {FILTER => \"ValueFilter(=, 'binary:abc')\"}\n"
           "get 't1', 'r1', 'f1:hits:toLong'     # print the value as a long (toInt, toShort,\n"
           "                                       # toFloat, toDouble, toBoolean, toString)",
       .parameters = {kTable,
                      kRow,
                      {.name = "columns",
                       .help = "FAMILY or FAMILY:QUALIFIER (default: all)",
                       .kind = Kind::kColumn,
                       .cli = Cli::kOptionalArguments,
                       .shell = Shell::kArguments,
                       .shell_keys = {"COLUMN", "COLUMNS"}},
                      kVersions,
                      kReadTimestamp,
                      kTimeRange,
                      kFilter},
       .run = &GetOperation},
      {.shell_name = "scan",
       .cli_name = "scan",
       .group = "dml",
       .summary = "read rows in key order",
       .shell_usage =
           "scan 't1'\n"
           "scan 't1', {COLUMNS => ['f1:c1', 'f2'], LIMIT => 10, STARTROW => 'a', STOPROW => 'b'}\n"
           "scan 't1', {ROWPREFIXFILTER => 'user1|', REVERSED => true}\n"
           "scan 't1', {TIMERANGE => [1303668804000, 1303668904000], VERSIONS => 3}\n"
           "scan 't1', {FILTER => \"PrefixFilter('r') AND KeyOnlyFilter()\"}\n"
           "scan 't1', {RAW => true, VERSIONS => 10}\n"
           "options: STARTROW, STOPROW, ROWPREFIXFILTER, LIMIT, REVERSED, COLUMNS, VERSIONS,\n"
           "  FILTER, TIMERANGE, TIMESTAMP, RAW, CACHE",
       .parameters =
           {kTable,
            Option("start", "first row (inclusive)", Kind::kBytes, Cli::kOption, {"STARTROW"}),
            Option("stop", "stop before this row", Kind::kBytes, Cli::kOption, {"STOPROW"}),
            Option("prefix", "only rows starting with this", Kind::kBytes, Cli::kOption,
                   {"ROWPREFIXFILTER"}),
            Option("limit", "at most this many rows (0: no limit)", Kind::kInteger, Cli::kOption,
                   {"LIMIT"}),
            Option("reverse", "descending row order (start at --start, go down)", Kind::kFlag,
                   Cli::kFlag, {"REVERSED"}),
            Option("columns", "F or F:Q, comma-separated (default: all)", Kind::kColumn, Cli::kList,
                   {"COLUMNS", "COLUMN"}),
            kVersions, kFilter, kTimeRange, kReadTimestamp,
            Option("raw", "every stored cell, delete markers included", Kind::kFlag, Cli::kFlag,
                   {"RAW"}),
            kCache,
            Option("batch", "at most this many cells per result", Kind::kInteger, Cli::kOption)},
       .run = &ScanOperation},
      {.shell_name = "deleteall",
       .cli_name = "delete",
       .group = "dml",
       .summary = "delete a row, a family or every version of a column",
       .shell_usage = "deleteall 't1', 'r1'\n"
                      "deleteall 't1', 'r1', 'f1:c1'          # all versions of the column\n"
                      "deleteall 't1', 'r1', 'f1'             # the whole family\n"
                      "deleteall 't1', 'r1', 'f1:c1', ts1     # versions at or before ts1\n"
                      "deleteall 't1', {ROWPREFIXFILTER => 'user1|'}",
       .parameters = {kTable,
                      Positional("row", "the row key", Kind::kBytes, Cli::kArgument,
                                 Shell::kOptionalArgument),
                      Positional("column", "FAMILY or FAMILY:QUALIFIER (default: whole row)",
                                 Kind::kColumn, Cli::kOptionalArgument, Shell::kOptionalArgument),
                      Positional("ts", "delete versions at or before this timestamp (ms)",
                                 Kind::kInteger, Cli::kOption, Shell::kOptionalArgument),
                      Option("version", "delete only the version at this timestamp", Kind::kInteger,
                             Cli::kOption),
                      Option("prefix", "every row starting with this", Kind::kBytes, Cli::kNone,
                             {"ROWPREFIXFILTER"}),
                      kCache},
       .run = &DeleteAllOperation},
      {.shell_name = "incr",
       .cli_name = "incr",
       .group = "dml",
       .summary = "add to a counter (8-byte big-endian) and print its new value",
       .shell_usage = "incr 't1', 'r1', 'f1:hits'\nincr 't1', 'r1', 'f1:hits', 10",
       .parameters = {kTable, kRow,
                      Positional("column", "FAMILY:QUALIFIER", Kind::kColumn, Cli::kArgument,
                                 Shell::kArgument),
                      Positional("amount", "what to add (default 1)", Kind::kInteger,
                                 Cli::kOptionalArgument, Shell::kOptionalArgument)},
       .run = &IncrOperation},
      {.shell_name = "count",
       .cli_name = "count",
       .group = "dml",
       .summary = "count rows",
       .shell_usage = "count 't1'\ncount 't1', INTERVAL => 100000, CACHE => 1000\n"
                      "count 't1', FILTER => \"PrefixFilter('user')\"",
       .parameters = {kTable,
                      Option("interval", "print the count every this many rows", Kind::kInteger,
                             Cli::kNone, {"INTERVAL"}),
                      kCache, kFilter,
                      Option("prefix", "only rows starting with this", Kind::kBytes, Cli::kOption,
                             {"ROWPREFIXFILTER"})},
       .run = &CountOperation},
      {.shell_name = "snapshot",
       .cli_name = "snapshot create",
       .group = "snapshots",
       .summary = "take a snapshot of a table (its files are linked, not copied)",
       .shell_usage = "snapshot 't1', 'snap1'\nsnapshot 'ns1:t1', 'ns1_t1-2024.01'",
       .parameters = {kTable, Positional("name", "the snapshot's name", Kind::kSnapshot,
                                         Cli::kArgument, Shell::kArgument)},
       .run = &SnapshotOperation},
      {.shell_name = "list_snapshots",
       .cli_name = "snapshot list",
       .group = "snapshots",
       .summary = "list snapshots, optionally those matching a regular expression, with their "
                  "disk cost",
       .shell_usage = "list_snapshots\nlist_snapshots 'snap.*'",
       .parameters = {kPattern},
       .run = &ListSnapshotsOperation},
      {.shell_name = "clone_snapshot",
       .cli_name = "snapshot clone",
       .group = "snapshots",
       .summary = "create a new table from a snapshot",
       .shell_usage = "clone_snapshot 'snap1', 'new_table'",
       .parameters = {kSnapshotName, Positional("new_table", "the table to create", Kind::kTable,
                                                Cli::kArgument, Shell::kArgument)},
       .run = &CloneSnapshotOperation},
      {.shell_name = "restore_snapshot",
       .cli_name = "snapshot restore",
       .group = "snapshots",
       .summary = "put a disabled table back as a snapshot holds it (schema and rows)",
       .shell_usage = "disable 't1'\nrestore_snapshot 'snap1'\nenable 't1'",
       .parameters = {kSnapshotName},
       .run = &RestoreSnapshotOperation},
      {.shell_name = "delete_snapshot",
       .cli_name = "snapshot delete",
       .group = "snapshots",
       .summary = "delete a snapshot",
       .shell_usage = "delete_snapshot 'snap1'",
       .parameters = {kSnapshotName},
       .run = &DeleteSnapshotOperation},
  };
  return operations;
}

const Operation& OperationNamed(std::string_view shell_name) {
  for (const Operation& op : Operations()) {
    if (op.shell_name == shell_name) return op;
  }
  // A misspelt name in the shell's own tables: a bug caught by every shell test.
  std::abort();
}

Status RunOperation(const Operation& op, Connection& conn, const OperationArgs& args,
                    OperationOutput& out) {
  for (const Parameter& p : op.parameters) {
    if (p.kind != Kind::kSnapshot || !args.Has(p.name)) continue;
    BASALT_ASSIGN_OR_RETURN(std::string name, AsBytes(*args.Get(p.name), "snapshot name"));
    BASALT_RETURN_IF_ERROR(ValidateSnapshotName(name));
  }
  return op.run(conn, args, out);
}

}  // namespace basalt::shell
