// Data commands: put, get, scan, delete, deleteall, incr, get_counter, count.

#include <memory>
#include <string>

#include "basalt/cell.h"
#include "basalt/filter_language.h"
#include "basalt/table.h"
#include "shell/arguments.h"
#include "shell/commands.h"
#include "shell/formatter.h"
#include "util/bytes_format.h"

namespace basalt::shell {
namespace {

using util::ToStringBinary;

Result<std::unique_ptr<Table>> OpenTable(CommandContext& ctx, const Value& arg) {
  BASALT_ASSIGN_OR_RETURN(TableName name, AsTableName(arg));
  return ctx.conn.GetTable(name);
}

Result<FilterPtr> ParseFilterOption(const Value& v) {
  if (v.kind != Value::Kind::kString) {
    return Status::InvalidArgument(
        "FILTER must be a string in the filter language, e.g. "
        "FILTER => \"PrefixFilter('r') AND KeyOnlyFilter()\"");
  }
  return ParseFilter(v.text);
}

// A column for reads: "f" selects the family, "f:q" one column, "f:q:toLong" one column printed
// with a value format (when the text after the last ':' names one; else it is qualifier).
template <class Read>
Status AddColumns(const Value& v, Read* read, ColumnFormats* formats) {
  BASALT_ASSIGN_OR_RETURN(auto columns, AsStringList(v, "a column"));
  for (const auto& text : columns) {
    ColumnName c = ParseColumnName(text);
    if (!c.qualifier) {
      read->AddFamily(c.family);
      continue;
    }
    std::string& qualifier = *c.qualifier;
    size_t last = qualifier.rfind(':');
    if (last != std::string::npos) {
      Result<ValueFormat> format = ParseValueFormat(std::string_view(qualifier).substr(last + 1));
      if (format.ok()) {
        qualifier.resize(last);
        (*formats)[{c.family, qualifier}] = *format;
      }
    }
    read->AddColumn(c.family, qualifier);
  }
  return Status::OK();
}

// The column of a write: "f:q", or "f" for the empty qualifier (as HBase's shell).
// The options `get` and `scan` share: COLUMN(S), VERSIONS, TIMESTAMP or TIMERANGE, FILTER.
template <class Read>
Status ApplyReadOptions(Options& options, Read* read, ColumnFormats* formats) {
  if (const Value* v = options.Take("COLUMN"))
    BASALT_RETURN_IF_ERROR(AddColumns(*v, read, formats));
  if (const Value* v = options.Take("COLUMNS"))
    BASALT_RETURN_IF_ERROR(AddColumns(*v, read, formats));
  if (const Value* v = options.Take("VERSIONS")) {
    BASALT_ASSIGN_OR_RETURN(int32_t versions, AsInt32(*v, "VERSIONS", 1));
    read->ReadVersions(versions);
  }
  const Value* timestamp = options.Take("TIMESTAMP");
  const Value* timerange = options.Take("TIMERANGE");
  if (timestamp != nullptr && timerange != nullptr) {
    return Status::InvalidArgument("give TIMESTAMP or TIMERANGE, not both");
  }
  if (timestamp != nullptr) {
    BASALT_ASSIGN_OR_RETURN(int64_t ts, AsInteger(*timestamp, "TIMESTAMP"));
    read->SetTimestamp(ts);
  }
  if (timerange != nullptr) {
    BASALT_ASSIGN_OR_RETURN(TimeRange r, AsTimeRange(*timerange, "TIMERANGE"));
    read->SetTimeRange(r.min, r.max);
  }
  if (const Value* v = options.Take("FILTER")) {
    BASALT_ASSIGN_OR_RETURN(FilterPtr filter, ParseFilterOption(*v));
    read->SetFilter(std::move(filter));
  }
  return Status::OK();
}

// "f:q", or "f" alone: the family's empty qualifier for a write, the whole family for deleteall.
Result<ColumnName> WriteColumn(const Value& v) {
  BASALT_ASSIGN_OR_RETURN(std::string text, AsBytes(v, "the column"));
  return ParseColumnName(text);
}

Status PutCommand(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 4, 6, "put"));
  int64_t ts = kLatestTimestamp;
  size_t n = args.size();
  if (args[n - 1].is_hash()) {
    BASALT_RETURN_IF_ERROR(Options(&args[n - 1], "put", {}).Finish());
    --n;
  }
  if (n == 6) return Status::InvalidArgument("put takes at most a timestamp after the value");
  if (n == 5) {
    BASALT_ASSIGN_OR_RETURN(ts, AsInteger(args[4], "the timestamp"));
  }
  BASALT_ASSIGN_OR_RETURN(auto table, OpenTable(ctx, args[0]));
  BASALT_ASSIGN_OR_RETURN(std::string row, AsBytes(args[1], "the row"));
  BASALT_ASSIGN_OR_RETURN(ColumnName column, WriteColumn(args[2]));
  BASALT_ASSIGN_OR_RETURN(std::string value, AsBytes(args[3], "the value"));
  basalt::Put put(row, ts);
  put.Add(column.family, column.qualifier.value_or(""), value);
  return table->Put(put);
}

Status GetCommand(CommandContext& ctx, const std::vector<Value>& args) {
  if (args.size() < 2) return Status::InvalidArgument("get needs a table and a row");
  BASALT_ASSIGN_OR_RETURN(std::string row, AsBytes(args[1], "the row"));
  basalt::Get get(row);
  ColumnFormats formats;
  for (size_t i = 2; i < args.size(); ++i) {
    if (!args[i].is_hash()) {
      BASALT_RETURN_IF_ERROR(AddColumns(args[i], &get, &formats));
      continue;
    }
    Options options(&args[i], "get",
                    {"COLUMN", "COLUMNS", "VERSIONS", "TIMESTAMP", "TIMERANGE", "FILTER"});
    BASALT_RETURN_IF_ERROR(ApplyReadOptions(options, &get, &formats));
    BASALT_RETURN_IF_ERROR(options.Finish());
  }
  BASALT_ASSIGN_OR_RETURN(auto table, OpenTable(ctx, args[0]));
  BASALT_ASSIGN_OR_RETURN(RowResult result, table->Get(get));
  PrintGetResult(ctx.out, result, formats);
  return Status::OK();
}

Status ScanCommand(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 1, 2, "scan"));
  basalt::Scan scan;
  ColumnFormats formats;
  if (args.size() == 2) {
    if (!args[1].is_hash()) {
      return Status::InvalidArgument("scan options are a hash, e.g. scan 't1', {LIMIT => 10}");
    }
    Options options(&args[1], "scan",
                    {"STARTROW", "STOPROW", "ROWPREFIXFILTER", "LIMIT", "REVERSED", "COLUMNS",
                     "COLUMN", "VERSIONS", "FILTER", "TIMERANGE", "TIMESTAMP", "RAW", "CACHE"});
    if (const Value* v = options.Take("STARTROW")) {
      BASALT_ASSIGN_OR_RETURN(std::string row, AsBytes(*v, "STARTROW"));
      scan.WithStartRow(row);
    }
    if (const Value* v = options.Take("STOPROW")) {
      BASALT_ASSIGN_OR_RETURN(std::string row, AsBytes(*v, "STOPROW"));
      scan.WithStopRow(row);
    }
    if (const Value* v = options.Take("ROWPREFIXFILTER")) {
      BASALT_ASSIGN_OR_RETURN(std::string prefix, AsBytes(*v, "ROWPREFIXFILTER"));
      scan.SetRowPrefix(prefix);
    }
    if (const Value* v = options.Take("LIMIT")) {
      BASALT_ASSIGN_OR_RETURN(int32_t limit, AsInt32(*v, "LIMIT", 1));
      scan.SetLimit(limit);
    }
    if (const Value* v = options.Take("REVERSED")) {
      BASALT_ASSIGN_OR_RETURN(bool reversed, AsBoolean(*v, "REVERSED"));
      scan.SetReversed(reversed);
    }
    BASALT_RETURN_IF_ERROR(ApplyReadOptions(options, &scan, &formats));
    if (const Value* v = options.Take("RAW")) {
      BASALT_ASSIGN_OR_RETURN(bool raw, AsBoolean(*v, "RAW"));
      scan.SetRaw(raw);
    }
    if (const Value* v = options.Take("CACHE")) {
      BASALT_ASSIGN_OR_RETURN(int32_t caching, AsInt32(*v, "CACHE", 1));
      scan.SetCaching(caching);
    }
    BASALT_RETURN_IF_ERROR(options.Finish());
  }
  BASALT_ASSIGN_OR_RETURN(auto table, OpenTable(ctx, args[0]));
  BASALT_ASSIGN_OR_RETURN(auto scanner, table->GetScanner(scan));
  PrintScanHeader(ctx.out);
  RowResult row;
  int64_t rows = 0;
  while (scanner->Next(&row)) {
    PrintScanRow(ctx.out, row, formats);
    ++rows;
    BASALT_RETURN_IF_ERROR(ctx.CheckInterrupted());
  }
  BASALT_RETURN_IF_ERROR(scanner->status());
  PrintRowCount(ctx.out, rows);
  return Status::OK();
}

// delete 't', 'r', 'f:q' [, ts]: one version of the column (the newest, or the one at ts).
Status DeleteCommand(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 3, 4, "delete"));
  BASALT_ASSIGN_OR_RETURN(std::string row, AsBytes(args[1], "the row"));
  BASALT_ASSIGN_OR_RETURN(ColumnName column, WriteColumn(args[2]));
  int64_t ts = kLatestTimestamp;
  if (args.size() == 4) {
    BASALT_ASSIGN_OR_RETURN(ts, AsInteger(args[3], "the timestamp"));
  }
  BASALT_ASSIGN_OR_RETURN(auto table, OpenTable(ctx, args[0]));
  basalt::Delete del(row);
  del.AddColumn(column.family, column.qualifier.value_or(""), ts);
  return table->Delete(del);
}

// The marker deleteall writes for one row: whole row, a family ('f') or a column ('f:q'), at
// or before ts.
basalt::Delete DeleteAllOf(std::string row, const std::optional<ColumnName>& column, int64_t ts) {
  basalt::Delete del(std::move(row), ts);
  if (column && column->qualifier) {
    del.AddColumns(column->family, *column->qualifier, ts);
  } else if (column) {
    del.AddFamily(column->family, ts);
  }
  return del;
}

// Rows are deleted in batches of this many when deleteall is given a prefix.
constexpr size_t kDeleteBatchRows = 1000;

Status DeleteAllCommand(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 2, 4, "deleteall"));
  std::optional<ColumnName> column;
  int64_t ts = kLatestTimestamp;
  if (args.size() >= 3) {
    BASALT_ASSIGN_OR_RETURN(ColumnName c, WriteColumn(args[2]));
    column = std::move(c);
  }
  if (args.size() == 4) {
    BASALT_ASSIGN_OR_RETURN(ts, AsInteger(args[3], "the timestamp"));
  }
  if (!args[1].is_hash()) {
    BASALT_ASSIGN_OR_RETURN(std::string row, AsBytes(args[1], "the row"));
    BASALT_ASSIGN_OR_RETURN(auto table, OpenTable(ctx, args[0]));
    return table->Delete(DeleteAllOf(row, column, ts));
  }
  Options options(&args[1], "deleteall", {"ROWPREFIXFILTER", "CACHE"});
  const Value* prefix_value = options.Take("ROWPREFIXFILTER");
  options.Take("CACHE");  // a fetch-size hint: basalt's scan below streams anyway
  BASALT_RETURN_IF_ERROR(options.Finish());
  if (prefix_value == nullptr) {
    return Status::InvalidArgument("deleteall with a hash needs ROWPREFIXFILTER => 'prefix'");
  }
  BASALT_ASSIGN_OR_RETURN(std::string prefix, AsBytes(*prefix_value, "ROWPREFIXFILTER"));
  BASALT_ASSIGN_OR_RETURN(auto table, OpenTable(ctx, args[0]));
  basalt::Scan scan;
  scan.SetRowPrefix(prefix).SetFilter(std::make_shared<FirstKeyOnlyFilter>());
  BASALT_ASSIGN_OR_RETURN(auto scanner, table->GetScanner(scan));
  std::vector<Mutation> batch;
  RowResult row;
  while (scanner->Next(&row)) {
    batch.emplace_back(DeleteAllOf(row.row(), column, ts));
    if (batch.size() == kDeleteBatchRows) {
      BASALT_RETURN_IF_ERROR(ctx.CheckInterrupted());
      BASALT_RETURN_IF_ERROR(table->Batch(batch).status());
      batch.clear();
    }
  }
  BASALT_RETURN_IF_ERROR(scanner->status());
  if (!batch.empty()) BASALT_RETURN_IF_ERROR(table->Batch(batch).status());
  return Status::OK();
}

Status IncrCommand(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 3, 4, "incr"));
  BASALT_ASSIGN_OR_RETURN(std::string row, AsBytes(args[1], "the row"));
  BASALT_ASSIGN_OR_RETURN(ColumnName column, WriteColumn(args[2]));
  int64_t amount = 1;
  if (args.size() == 4) {
    BASALT_ASSIGN_OR_RETURN(amount, AsInteger(args[3], "the increment"));
  }
  BASALT_ASSIGN_OR_RETURN(auto table, OpenTable(ctx, args[0]));
  BASALT_ASSIGN_OR_RETURN(
      int64_t value,
      table->IncrementColumnValue(row, column.family, column.qualifier.value_or(""), amount));
  ctx.out << "COUNTER VALUE = " << value << "\n";
  return Status::OK();
}

// As HBase: prints the value after the append.
Status AppendCommand(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 4, 4, "append"));
  BASALT_ASSIGN_OR_RETURN(std::string row, AsBytes(args[1], "the row"));
  BASALT_ASSIGN_OR_RETURN(ColumnName column, WriteColumn(args[2]));
  BASALT_ASSIGN_OR_RETURN(std::string value, AsBytes(args[3], "the value"));
  BASALT_ASSIGN_OR_RETURN(auto table, OpenTable(ctx, args[0]));
  basalt::Append append(row);
  append.Add(column.family, column.qualifier.value_or(""), value);
  BASALT_ASSIGN_OR_RETURN(RowResult result, table->Append(append));
  auto current = result.Value(column.family, column.qualifier.value_or(""));
  if (!current) return Status::Internal("append returned no value");
  ctx.out << "CURRENT VALUE = " << ToStringBinary(*current) << "\n";
  return Status::OK();
}

Status GetCounterCommand(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 3, 3, "get_counter"));
  BASALT_ASSIGN_OR_RETURN(std::string row, AsBytes(args[1], "the row"));
  BASALT_ASSIGN_OR_RETURN(ColumnName column, WriteColumn(args[2]));
  BASALT_ASSIGN_OR_RETURN(auto table, OpenTable(ctx, args[0]));
  basalt::Get get(row);
  get.AddColumn(column.family, column.qualifier.value_or(""));
  BASALT_ASSIGN_OR_RETURN(RowResult result, table->Get(get));
  auto cell = result.Value(column.family, column.qualifier.value_or(""));
  if (!cell) {
    ctx.out << "No counter found at specified coordinates\n";
    return Status::OK();
  }
  Result<int64_t> value = DecodeCounter(*cell);
  if (!value.ok()) {
    return Status::InvalidArgument("the cell is not a counter (8 bytes): value=" +
                                   ToStringBinary(*cell));
  }
  ctx.out << "COUNTER VALUE = " << *value << "\n";
  return Status::OK();
}

Status CountCommand(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 1, 2, "count"));
  int64_t interval = 1000;
  basalt::Scan scan;
  FilterPtr filter = std::make_shared<FirstKeyOnlyFilter>();
  if (args.size() == 2) {
    if (!args[1].is_hash()) {
      return Status::InvalidArgument("count options are a hash, e.g. count 't1', INTERVAL => 10");
    }
    Options options(&args[1], "count", {"INTERVAL", "CACHE", "FILTER"});
    if (const Value* v = options.Take("INTERVAL")) {
      BASALT_ASSIGN_OR_RETURN(interval, AsInt32(*v, "INTERVAL", 1));
    }
    if (const Value* v = options.Take("CACHE")) {
      BASALT_ASSIGN_OR_RETURN(int32_t caching, AsInt32(*v, "CACHE", 1));
      scan.SetCaching(caching);
    }
    if (const Value* v = options.Take("FILTER")) {
      BASALT_ASSIGN_OR_RETURN(filter, ParseFilterOption(*v));
    }
    BASALT_RETURN_IF_ERROR(options.Finish());
  }
  scan.SetFilter(filter);
  BASALT_ASSIGN_OR_RETURN(auto table, OpenTable(ctx, args[0]));
  BASALT_ASSIGN_OR_RETURN(auto scanner, table->GetScanner(scan));
  RowResult row;
  int64_t rows = 0;
  while (scanner->Next(&row)) {
    ++rows;
    BASALT_RETURN_IF_ERROR(ctx.CheckInterrupted());
    if (rows % interval == 0) {
      ctx.out << "Current count: " << rows << ", row: " << ToStringBinary(row.row()) << "\n";
    }
  }
  BASALT_RETURN_IF_ERROR(scanner->status());
  PrintRowCount(ctx.out, rows);
  return Status::OK();
}

}  // namespace

std::vector<CommandSpec> DmlCommands() {
  return {
      {"put", "dml", "write a cell",
       "put 't1', 'r1', 'f1:c1', 'value'\n"
       "put 't1', 'r1', 'f1:c1', 'value', 1700000000000     # explicit timestamp (ms)\n"
       "put 't1', \"r\\x00\\x01\", 'f1:c1', \"\\xFF\"             # binary bytes in double quotes",
       &PutCommand},
      {"get", "dml", "read a row",
       "get 't1', 'r1'\n"
       "get 't1', 'r1', 'f1:c1'\n"
       "get 't1', 'r1', ['f1:c1', 'f2']\n"
       "get 't1', 'r1', {COLUMN => 'f1:c1', VERSIONS => 3, TIMERANGE => [ts1, ts2]}\n"
       "get 't1', 'r1', {COLUMN => 'f1:c1', TIMESTAMP => ts1}\n"
       "get 't1', 'r1', {FILTER => \"ValueFilter(=, 'binary:abc')\"}\n"
       "get 't1', 'r1', 'f1:hits:toLong'     # print the value as a long (toInt, toShort,\n"
       "                                       # toFloat, toDouble, toBoolean, toString)",
       &GetCommand},
      {"scan", "dml", "read rows in key order",
       "scan 't1'\n"
       "scan 't1', {COLUMNS => ['f1:c1', 'f2'], LIMIT => 10, STARTROW => 'a', STOPROW => 'b'}\n"
       "scan 't1', {ROWPREFIXFILTER => 'user1|', REVERSED => true}\n"
       "scan 't1', {TIMERANGE => [1303668804000, 1303668904000], VERSIONS => 3}\n"
       "scan 't1', {FILTER => \"PrefixFilter('r') AND KeyOnlyFilter()\"}\n"
       "scan 't1', {RAW => true, VERSIONS => 10}\n"
       "options: STARTROW, STOPROW, ROWPREFIXFILTER, LIMIT, REVERSED, COLUMNS, VERSIONS,\n"
       "  FILTER, TIMERANGE, TIMESTAMP, RAW, CACHE",
       &ScanCommand},
      {"delete", "dml", "delete one version of a cell (the newest, or the one at a timestamp)",
       "delete 't1', 'r1', 'f1:c1'\ndelete 't1', 'r1', 'f1:c1', ts1", &DeleteCommand},
      {"deleteall", "dml", "delete a row, a family or every version of a column",
       "deleteall 't1', 'r1'\n"
       "deleteall 't1', 'r1', 'f1:c1'          # all versions of the column\n"
       "deleteall 't1', 'r1', 'f1'             # the whole family\n"
       "deleteall 't1', 'r1', 'f1:c1', ts1     # versions at or before ts1\n"
       "deleteall 't1', {ROWPREFIXFILTER => 'user1|'}",
       &DeleteAllCommand},
      {"incr", "dml", "add to a counter (8-byte big-endian) and print its new value",
       "incr 't1', 'r1', 'f1:hits'\nincr 't1', 'r1', 'f1:hits', 10", &IncrCommand},
      {"append", "dml", "append bytes to a cell's value and print the new value",
       "append 't1', 'r1', 'f1:c1', 'more'", &AppendCommand},
      {"get_counter", "dml", "read a counter", "get_counter 't1', 'r1', 'f1:hits'",
       &GetCounterCommand},
      {"count", "dml", "count rows",
       "count 't1'\ncount 't1', INTERVAL => 100000, CACHE => 1000\n"
       "count 't1', FILTER => \"PrefixFilter('user')\"",
       &CountCommand},
  };
}

}  // namespace basalt::shell
