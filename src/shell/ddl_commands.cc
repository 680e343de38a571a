// Table commands: exists, is_enabled, is_disabled, get_splits, flush, major_compact; the others
// (create, alter, describe, list, enable, disable, drop, truncate) are shared operations.

#include <string>

#include "shell/arguments.h"
#include "shell/commands.h"
#include "shell/operations.h"
#include "util/bytes_format.h"

namespace basalt::shell {
namespace {

using util::ToStringBinary;

Status Exists(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 1, 1, "exists"));
  BASALT_ASSIGN_OR_RETURN(TableName name, AsTableName(args[0]));
  BASALT_ASSIGN_OR_RETURN(bool exists, ctx.conn.admin().TableExists(name));
  ctx.out << "Table " << name.ToString() << (exists ? " does exist\n" : " does not exist\n");
  return Status::OK();
}

Status IsEnabled(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 1, 1, "is_enabled"));
  BASALT_ASSIGN_OR_RETURN(TableName name, AsTableName(args[0]));
  BASALT_ASSIGN_OR_RETURN(bool enabled, ctx.conn.admin().IsTableEnabled(name));
  ctx.out << (enabled ? "true" : "false") << "\n";
  return Status::OK();
}

Status IsDisabled(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 1, 1, "is_disabled"));
  BASALT_ASSIGN_OR_RETURN(TableName name, AsTableName(args[0]));
  BASALT_ASSIGN_OR_RETURN(bool enabled, ctx.conn.admin().IsTableEnabled(name));
  ctx.out << (enabled ? "false" : "true") << "\n";
  return Status::OK();
}

// As HBase: the number of regions, then each split key.
Status GetSplits(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 1, 1, "get_splits"));
  BASALT_ASSIGN_OR_RETURN(TableName name, AsTableName(args[0]));
  BASALT_ASSIGN_OR_RETURN(TableInfo info, ctx.conn.admin().DescribeTable(name));
  ctx.out << "Total number of splits = " << info.split_keys.size() + 1 << "\n";
  for (const auto& key : info.split_keys) ctx.out << ToStringBinary(key) << "\n";
  return Status::OK();
}

Status Flush(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 1, 1, "flush"));
  BASALT_ASSIGN_OR_RETURN(TableName name, AsTableName(args[0]));
  return ctx.conn.admin().Flush(name);
}

Status MajorCompact(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 1, 1, "major_compact"));
  BASALT_ASSIGN_OR_RETURN(TableName name, AsTableName(args[0]));
  return ctx.conn.admin().MajorCompact(name);
}

}  // namespace

std::vector<CommandSpec> DdlCommands() {
  CommandSpec desc = ShellCommandFor(OperationNamed("describe"));
  desc.name = "desc";
  desc.summary = "same as describe";
  desc.usage = "desc 't1'";
  return {
      ShellCommandFor(OperationNamed("create")),
      ShellCommandFor(OperationNamed("alter")),
      ShellCommandFor(OperationNamed("describe")),
      desc,
      ShellCommandFor(OperationNamed("list")),
      {"exists", "ddl", "whether a table exists", "exists 't1'", &Exists},
      {"is_enabled", "ddl", "whether a table is enabled", "is_enabled 't1'", &IsEnabled},
      {"is_disabled", "ddl", "whether a table is disabled", "is_disabled 't1'", &IsDisabled},
      ShellCommandFor(OperationNamed("enable")),
      ShellCommandFor(OperationNamed("disable")),
      ShellCommandFor(OperationNamed("drop")),
      ShellCommandFor(OperationNamed("truncate")),
      ShellCommandFor(OperationNamed("truncate_preserve")),
      {"get_splits", "ddl", "the number of regions and the split keys", "get_splits 't1'",
       &GetSplits},
      {"flush", "tools", "write a table's in-memory data to disk", "flush 't1'", &Flush},
      {"major_compact", "tools",
       "rewrite a table's data, dropping deleted, expired and excess versions (synchronous)",
       "major_compact 't1'", &MajorCompact},
  };
}

}  // namespace basalt::shell
