// General commands: status (the store at a glance, as HBase's `status` summary) and whoami.

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>

#include "shell/arguments.h"
#include "shell/commands.h"

namespace basalt::shell {
namespace {

Status StatusCommand(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 0, 0, "status"));
  Admin& admin = ctx.conn.admin();
  BASALT_ASSIGN_OR_RETURN(auto namespaces, admin.ListNamespaces());
  BASALT_ASSIGN_OR_RETURN(auto tables, admin.ListTables());
  BASALT_ASSIGN_OR_RETURN(std::string id, admin.ClusterId());
  // HBase counts masters and region servers; basalt is one store (embedded, or one server).
  ctx.out << "1 store, " << namespaces.size()
          << (namespaces.size() == 1 ? " namespace, " : " namespaces, ") << tables.size()
          << (tables.size() == 1 ? " table\n" : " tables\n") << "cluster id: " << id << "\n";
  return Status::OK();
}

Status WhoAmI(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 0, 0, "whoami"));
  std::string user;
  if (const passwd* entry = getpwuid(geteuid()); entry != nullptr && entry->pw_name != nullptr) {
    user = entry->pw_name;
  } else if (const char* env = std::getenv("USER"); env != nullptr) {
    user = env;
  } else {
    user = "uid " + std::to_string(geteuid());
  }
  // Neither the embedded store nor Thrift2 carries credentials: the shell acts as whoever can
  // open the store or reach the server (docs/security.md).
  ctx.out << user << " (auth:NONE)\n";
  return Status::OK();
}

}  // namespace

std::vector<CommandSpec> GeneralCommands() {
  return {
      {"status", "general", "the store at a glance: namespaces, tables, cluster id", "status",
       &StatusCommand},
      {"whoami", "general", "the user the shell runs as (the store has no log-in)", "whoami",
       &WhoAmI},
  };
}

}  // namespace basalt::shell
