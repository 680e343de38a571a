// Namespace commands: create_namespace, drop_namespace, describe_namespace, list_namespace,
// list_namespace_tables.

#include <optional>
#include <regex>
#include <string>

#include "shell/arguments.h"
#include "shell/commands.h"
#include "shell/formatter.h"
#include "shell/operations.h"
#include "util/bytes_format.h"

namespace basalt::shell {
namespace {

using util::ToStringBinary;

Status CreateNamespace(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 1, 2, "create_namespace"));
  NamespaceDescriptor ns;
  BASALT_ASSIGN_OR_RETURN(ns.name, AsBytes(args[0], "the namespace"));
  if (args.size() == 2) {
    if (!args[1].is_hash()) {
      return Status::InvalidArgument("namespace properties must be a hash, e.g. {'k' => 'v'}");
    }
    for (const HashEntry& e : args[1].entries) {
      std::string key = KeyName(e.key);
      if (key.empty()) return Status::InvalidArgument("namespace property names are strings");
      BASALT_ASSIGN_OR_RETURN(ns.configuration[key], AsBytes(e.value, "a property value"));
    }
  }
  return ctx.conn.admin().CreateNamespace(ns);
}

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

Status ListNamespace(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 0, 1, "list_namespace"));
  BASALT_ASSIGN_OR_RETURN(std::optional<std::regex> pattern, NamePatternArg(args));
  BASALT_ASSIGN_OR_RETURN(auto namespaces, ctx.conn.admin().ListNamespaces());
  std::vector<std::string> names;
  for (const auto& ns : namespaces) {
    if (!pattern || std::regex_match(ns.name, *pattern)) names.push_back(ns.name);
  }
  PrintNameList(ctx.out, "NAMESPACE", names);
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
      {"create_namespace", "namespace", "create a namespace",
       "create_namespace 'ns1'\ncreate_namespace 'ns1', {'PROPERTY_NAME' => 'value'}",
       &CreateNamespace},
      ShellCommandFor(OperationNamed("drop_namespace")),
      {"describe_namespace", "namespace", "show a namespace and its properties",
       "describe_namespace 'ns1'", &DescribeNamespace},
      {"list_namespace", "namespace", "list namespaces, optionally matching a regular expression",
       "list_namespace\nlist_namespace 'ns.*'", &ListNamespace},
      {"list_namespace_tables", "namespace", "list the tables of a namespace",
       "list_namespace_tables 'ns1'", &ListNamespaceTables},
  };
}

}  // namespace basalt::shell
