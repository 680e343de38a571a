// The command line's side of the operations it shares with the shell (shell/operations.h): a
// CLI11 subcommand per operation, its positionals and options taken from the table's
// parameters, its results printed through Output.

#ifndef BASALT_CLI_OPERATION_VERBS_H_
#define BASALT_CLI_OPERATION_VERBS_H_

#include <CLI/CLI.hpp>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shell/operations.h"

namespace basalt::cli {

class OperationVerbs {
 public:
  // Adds a subcommand to `parent` for each operation whose command-line name is one word under
  // `parent_name` ("" for the top level; "snapshot" for `snapshot create`).
  void Register(CLI::App& parent, std::string_view parent_name = "");

  // When one of the subcommands was parsed: runs it on the store in `data_dir`, prints its
  // results (JSON with `json`) or `error: ...`, and returns the exit status.
  std::optional<int> RunIfParsed(const std::string& data_dir, bool json);

 private:
  // What the command line gave one parameter.
  struct Slot {
    const shell::Parameter* parameter;
    CLI::Option* option = nullptr;
    std::string one;
    std::vector<std::string> many;
    bool flag = false;
  };
  struct Verb {
    const shell::Operation* operation;
    CLI::App* app = nullptr;
    std::deque<Slot> slots;
  };

  static Result<shell::OperationArgs> ArgsOf(const Verb& verb);

  std::deque<Verb> verbs_;
};

}  // namespace basalt::cli

#endif  // BASALT_CLI_OPERATION_VERBS_H_
