// Namespace commands: describe_namespace, list_namespace_tables; create_namespace,
// drop_namespace and list_namespace are shared operations.

#include <string>

#include "shell/arguments.h"
#include "shell/commands.h"
#include "shell/formatter.h"
#include "shell/operations.h"
#include "util/bytes_format.h"

namespace basalt::shell {
namespace {

using util::ToStringBinary;

Status DescribeNamespace(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 1, 1, "describe_namespace"));
  BASALT_ASSIGN_OR_RETURN(std::string name, AsBytes(args[0], "the namespace"));
  BASALT_ASSIGN_OR_RETURN(NamespaceDescriptor ns, ctx.conn.admin().GetNamespace(name));
  ctx.out << "DESCRIPTION\n{NAME => '" << ToStringBinary(ns.name) << "'";
  for (const auto& [k, v] : ns.configuration) {
    ctx.out << ", " << ToStringBinary(k) << " => '" << ToStringBinary(v) << "'";
  }
  ctx.out << "}\n";
  return Status::OK();
}

Status ListNamespaceTables(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 1, 1, "list_namespace_tables"));
  BASALT_ASSIGN_OR_RETURN(std::string name, AsBytes(args[0], "the namespace"));
  // ListTables("ns") of a missing namespace is empty; HBase reports it as unknown.
  BASALT_RETURN_IF_ERROR(ctx.conn.admin().GetNamespace(name).status());
  BASALT_ASSIGN_OR_RETURN(auto tables, ctx.conn.admin().ListTables(name));
  std::vector<std::string> names;
  for (const auto& t : tables) names.push_back(t.qualifier);
  PrintNameList(ctx.out, "TABLE", names);
  return Status::OK();
}

}  // namespace

std::vector<CommandSpec> NamespaceCommands() {
  return {
      ShellCommandFor(OperationNamed("create_namespace")),
      ShellCommandFor(OperationNamed("drop_namespace")),
      {"describe_namespace", "namespace", "show a namespace and its properties",
       "describe_namespace 'ns1'", &DescribeNamespace},
      ShellCommandFor(OperationNamed("list_namespace")),
      {"list_namespace_tables", "namespace", "list the tables of a namespace",
       "list_namespace_tables 'ns1'", &ListNamespaceTables},
  };
}

}  // namespace basalt::shell
