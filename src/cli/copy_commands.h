// `basalt copy-table`: HBase's CopyTable (copy/copy_table.h) from the store in --data to the
// backend named by --peer.adr. Kept out of cli.cc so that the command table needs one hook.
#ifndef BASALT_CLI_COPY_COMMANDS_H_
#define BASALT_CLI_COPY_COMMANDS_H_

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace basalt::cli {

class CopyCommands {
 public:
  // Adds the subcommands to `app`.
  void Register(CLI::App& app);
  // After parsing: the exit code when one of these subcommands was given, else nullopt.
  // `source` is the --data target.
  std::optional<int> RunIfParsed(const std::string& source);

 private:
  CLI::App* copy_ = nullptr;
  std::string table_, peer_, new_name_, start_row_, stop_row_, families_, state_file_;
  int64_t start_time_ = 0;
  std::optional<int64_t> end_time_;
  int32_t versions_ = 1;
  int64_t rows_per_second_ = 0, bytes_per_second_ = 0;
  int32_t batch_ = 500;
  bool progress_ = false;
};

}  // namespace basalt::cli

#endif  // BASALT_CLI_COPY_COMMANDS_H_
