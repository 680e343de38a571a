// The operations `basalt shell` and the `basalt` command both offer, each stated once: its name
// in each front end, its summary (the shell's `help` and `basalt --help`), its arguments and
// what it does on the store. The shell registers a command for each (commands.h), the command
// line a subcommand (cli/cli.cc); what differs is only how the arguments arrive (the shell's
// quoted values, the command line's words) and what is printed after.

#ifndef BASALT_SHELL_OPERATIONS_H_
#define BASALT_SHELL_OPERATIONS_H_

#include <string>
#include <string_view>
#include <vector>

#include "basalt/admin.h"
#include "basalt/status.h"
#include "shell/commands.h"

namespace basalt::shell {

struct OperationArgument {
  enum class Kind { kTable, kNamespace, kSnapshot };
  std::string_view name;  // the command line's positional name
  std::string_view help;  // for `basalt <verb> --help`
  Kind kind;
};

struct Operation {
  std::string_view shell_name;  // "enable"
  std::string_view cli_name;    // "enable"; "snapshot create" is `create` under `snapshot`
  std::string_view group;       // the shell's help group
  std::string_view summary;
  std::string_view shell_usage;              // the shell's syntax and examples, for `help 'name'`
  std::vector<OperationArgument> arguments;  // all required, in order
  // Runs on `args` (one string per argument, checked by kind first) and returns what the command
  // line prints when it succeeds ("enabled table t1").
  Result<std::string> (*run)(Admin& admin, const std::vector<std::string>& args);
};

// Every shared operation.
const std::vector<Operation>& Operations();

// The operation the shell calls `shell_name`. REQUIRES: it is one of Operations().
const Operation& OperationNamed(std::string_view shell_name);

// Checks `args` against the operation's arguments (each a string of the right kind: a valid table
// name, namespace or snapshot name) and runs it. InvalidArgument naming the argument otherwise.
Result<std::string> RunOperation(const Operation& op, Admin& admin,
                                 const std::vector<std::string>& args);

// The shell's command for `op`: its quoted values become the strings RunOperation takes.
CommandSpec ShellCommandFor(const Operation& op);

}  // namespace basalt::shell

#endif  // BASALT_SHELL_OPERATIONS_H_
