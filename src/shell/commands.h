// The commands of `basalt shell`, each a function over the public API registered in a table
// with its help text. The session (session.h) looks commands up here and generates `help` from
// the same table.

#ifndef BASALT_SHELL_COMMANDS_H_
#define BASALT_SHELL_COMMANDS_H_

#include <atomic>
#include <ostream>
#include <string_view>
#include <vector>

#include "basalt/connection.h"
#include "basalt/status.h"
#include "shell/parser.h"

namespace basalt::shell {

struct CommandContext {
  Connection& conn;
  std::ostream& out;  // results; errors are returned, not printed
  // Set (e.g. by Ctrl-C) to stop a long command: loops over rows check it and return Aborted.
  // May be null.
  const std::atomic<bool>* interrupted = nullptr;

  // Aborted("interrupted") once `interrupted` is set, else OK.
  Status CheckInterrupted() const {
    if (interrupted != nullptr && interrupted->load(std::memory_order_relaxed)) {
      return Status::Aborted("interrupted");
    }
    return Status::OK();
  }
};

using CommandFunction = Status (*)(CommandContext& ctx, const std::vector<Value>& args);

struct Operation;  // operations.h

struct CommandSpec {
  std::string_view name;
  std::string_view group;    // "general", "ddl", "namespace", "dml", "tools", "snapshots"
  std::string_view summary;  // one line, for `help`
  std::string_view usage;    // syntax and examples, for `help 'name'` and usage errors
  CommandFunction run;
  // An operation the command line shares (operations.h), run by RunShellCommand in place of
  // `run` (which is then null).
  const Operation* operation = nullptr;
};

// Runs `spec` on `args`: its function, or its shared operation.
Status RunShellCommand(const CommandSpec& spec, CommandContext& ctx,
                       const std::vector<Value>& args);

// status, whoami.
std::vector<CommandSpec> GeneralCommands();
// Tables: create, alter, describe (desc), list, exists, is_enabled, is_disabled, enable,
// disable, drop, truncate, truncate_preserve, get_splits; tools: flush, major_compact.
std::vector<CommandSpec> DdlCommands();
// create_namespace, drop_namespace, describe_namespace, list_namespace, list_namespace_tables.
std::vector<CommandSpec> NamespaceCommands();
// put, get, scan, delete, deleteall, incr, append, get_counter, count.
std::vector<CommandSpec> DmlCommands();
// snapshot, list_snapshots, clone_snapshot, restore_snapshot, delete_snapshot.
std::vector<CommandSpec> SnapshotCommands();

}  // namespace basalt::shell

#endif  // BASALT_SHELL_COMMANDS_H_
