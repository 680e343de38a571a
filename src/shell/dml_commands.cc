// Data commands: delete, append, get_counter; the others (put, get, scan, deleteall, incr,
// count) are shared operations.

#include <memory>
#include <string>

#include "basalt/cell.h"
#include "basalt/table.h"
#include "shell/arguments.h"
#include "shell/commands.h"
#include "shell/operations.h"
#include "util/bytes_format.h"

namespace basalt::shell {
namespace {

using util::ToStringBinary;

Result<std::unique_ptr<Table>> OpenTable(CommandContext& ctx, const Value& arg) {
  BASALT_ASSIGN_OR_RETURN(TableName name, AsTableName(arg));
  return ctx.conn.GetTable(name);
}

// delete 't', 'r', 'f:q' [, ts]: one version of the column (the newest, or the one at ts).
Status DeleteCommand(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 3, 4, "delete"));
  BASALT_ASSIGN_OR_RETURN(std::string row, AsBytes(args[1], "the row"));
  BASALT_ASSIGN_OR_RETURN(ColumnName column, AsWriteColumn(args[2]));
  int64_t ts = kLatestTimestamp;
  if (args.size() == 4) {
    BASALT_ASSIGN_OR_RETURN(ts, AsInteger(args[3], "the timestamp"));
  }
  BASALT_ASSIGN_OR_RETURN(auto table, OpenTable(ctx, args[0]));
  basalt::Delete del(row);
  del.AddColumn(column.family, column.qualifier.value_or(""), ts);
  return table->Delete(del);
}

// As HBase: prints the value after the append.
Status AppendCommand(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 4, 4, "append"));
  BASALT_ASSIGN_OR_RETURN(std::string row, AsBytes(args[1], "the row"));
  BASALT_ASSIGN_OR_RETURN(ColumnName column, AsWriteColumn(args[2]));
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
  BASALT_ASSIGN_OR_RETURN(ColumnName column, AsWriteColumn(args[2]));
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

}  // namespace

std::vector<CommandSpec> DmlCommands() {
  return {
      ShellCommandFor(OperationNamed("put")),
      ShellCommandFor(OperationNamed("get")),
      ShellCommandFor(OperationNamed("scan")),
      {"delete", "dml", "delete one version of a cell (the newest, or the one at a timestamp)",
       "delete 't1', 'r1', 'f1:c1'\ndelete 't1', 'r1', 'f1:c1', ts1", &DeleteCommand},
      ShellCommandFor(OperationNamed("deleteall")),
      ShellCommandFor(OperationNamed("incr")),
      {"append", "dml", "append bytes to a cell's value and print the new value",
       "append 't1', 'r1', 'f1:c1', 'more'", &AppendCommand},
      {"get_counter", "dml", "read a counter", "get_counter 't1', 'r1', 'f1:hits'",
       &GetCounterCommand},
      ShellCommandFor(OperationNamed("count")),
  };
}

}  // namespace basalt::shell
