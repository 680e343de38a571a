#include "shell/operations.h"

#include <cstdlib>

#include "basalt/snapshot.h"
#include "shell/arguments.h"

namespace basalt::shell {
namespace {

using ArgumentKind = OperationArgument::Kind;

constexpr OperationArgument kTableArgument{"table", "table, as NAME or NAMESPACE:NAME",
                                           ArgumentKind::kTable};

Result<std::string> EnableOperation(Admin& admin, const std::vector<std::string>& args) {
  BASALT_ASSIGN_OR_RETURN(TableName table, TableName::Parse(args[0]));
  BASALT_RETURN_IF_ERROR(admin.EnableTable(table));
  return "enabled table " + table.ToString();
}

Result<std::string> DisableOperation(Admin& admin, const std::vector<std::string>& args) {
  BASALT_ASSIGN_OR_RETURN(TableName table, TableName::Parse(args[0]));
  BASALT_RETURN_IF_ERROR(admin.DisableTable(table));
  return "disabled table " + table.ToString();
}

Result<std::string> DropNamespaceOperation(Admin& admin, const std::vector<std::string>& args) {
  BASALT_RETURN_IF_ERROR(admin.DeleteNamespace(args[0]));
  return "dropped namespace " + args[0];
}

Result<std::string> SnapshotOperation(Admin& admin, const std::vector<std::string>& args) {
  BASALT_ASSIGN_OR_RETURN(TableName table, TableName::Parse(args[0]));
  BASALT_RETURN_IF_ERROR(admin.Snapshot(table, args[1]));
  return "snapshot " + args[1] + " of " + table.ToString() + " taken";
}

Result<std::string> CloneSnapshotOperation(Admin& admin, const std::vector<std::string>& args) {
  BASALT_ASSIGN_OR_RETURN(TableName table, TableName::Parse(args[1]));
  BASALT_RETURN_IF_ERROR(admin.CloneSnapshot(args[0], table));
  return "cloned snapshot " + args[0] + " into " + table.ToString();
}

Result<std::string> RestoreSnapshotOperation(Admin& admin, const std::vector<std::string>& args) {
  BASALT_RETURN_IF_ERROR(admin.RestoreSnapshot(args[0]));
  return "restored snapshot " + args[0];
}

Result<std::string> DeleteSnapshotOperation(Admin& admin, const std::vector<std::string>& args) {
  BASALT_RETURN_IF_ERROR(admin.DeleteSnapshot(args[0]));
  return "deleted snapshot " + args[0];
}

// How the shell names an argument of each kind in its error messages.
std::string_view ShellWhat(ArgumentKind kind) {
  switch (kind) {
    case ArgumentKind::kTable:
      return "the table name";
    case ArgumentKind::kNamespace:
      return "the namespace";
    case ArgumentKind::kSnapshot:
      return "snapshot name";
  }
  return "an argument";
}

}  // namespace

const std::vector<Operation>& Operations() {
  static const std::vector<Operation> operations = {
      {"enable",
       "enable",
       "ddl",
       "enable a table",
       "enable 't1'",
       {kTableArgument},
       &EnableOperation},
      {"disable",
       "disable",
       "ddl",
       "disable a table (reads and writes then fail)",
       "disable 't1'",
       {kTableArgument},
       &DisableOperation},
      {"drop_namespace",
       "drop-namespace",
       "namespace",
       "drop an empty namespace",
       "drop_namespace 'ns1'",
       {{"namespace", "the namespace", ArgumentKind::kNamespace}},
       &DropNamespaceOperation},
      {"snapshot",
       "snapshot create",
       "snapshots",
       "take a snapshot of a table (its files are linked, not copied)",
       "snapshot 't1', 'snap1'\nsnapshot 'ns1:t1', 'ns1_t1-2024.01'",
       {kTableArgument, {"name", "the snapshot's name", ArgumentKind::kSnapshot}},
       &SnapshotOperation},
      {"clone_snapshot",
       "snapshot clone",
       "snapshots",
       "create a new table from a snapshot",
       "clone_snapshot 'snap1', 'new_table'",
       {{"name", "the snapshot", ArgumentKind::kSnapshot},
        {"new_table", "the table to create", ArgumentKind::kTable}},
       &CloneSnapshotOperation},
      {"restore_snapshot",
       "snapshot restore",
       "snapshots",
       "put a disabled table back as a snapshot holds it (schema and rows)",
       "disable 't1'\nrestore_snapshot 'snap1'\nenable 't1'",
       {{"name", "the snapshot", ArgumentKind::kSnapshot}},
       &RestoreSnapshotOperation},
      {"delete_snapshot",
       "snapshot delete",
       "snapshots",
       "delete a snapshot",
       "delete_snapshot 'snap1'",
       {{"name", "the snapshot", ArgumentKind::kSnapshot}},
       &DeleteSnapshotOperation},
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

Result<std::string> RunOperation(const Operation& op, Admin& admin,
                                 const std::vector<std::string>& args) {
  if (args.size() != op.arguments.size()) {
    return Status::InvalidArgument(std::string(op.cli_name) + " takes " +
                                   std::to_string(op.arguments.size()) + " argument(s), got " +
                                   std::to_string(args.size()));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (op.arguments[i].kind == ArgumentKind::kSnapshot) {
      BASALT_RETURN_IF_ERROR(ValidateSnapshotName(args[i]));
    }
  }
  return op.run(admin, args);
}

CommandSpec ShellCommandFor(const Operation& op) {
  return {op.shell_name, op.group, op.summary, op.shell_usage, nullptr, &op};
}

Status RunShellCommand(const CommandSpec& spec, CommandContext& ctx,
                       const std::vector<Value>& values) {
  if (spec.operation == nullptr) return spec.run(ctx, values);
  const Operation& op = *spec.operation;
  const size_t n = op.arguments.size();
  BASALT_RETURN_IF_ERROR(CheckArgCount(values, n, n, op.shell_name));
  std::vector<std::string> args;
  for (size_t i = 0; i < n; ++i) {
    BASALT_ASSIGN_OR_RETURN(std::string arg, AsBytes(values[i], ShellWhat(op.arguments[i].kind)));
    args.push_back(std::move(arg));
  }
  // The shell prints its timing line after a command, not the command line's message.
  return RunOperation(op, ctx.conn.admin(), args).status();
}

}  // namespace basalt::shell
