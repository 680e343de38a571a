// `basalt hash-table` and `basalt sync-table`: HBase's HashTable and SyncTable
// (copy/hash_table.h, copy/sync_table.h), for proving a copy equal and repairing it. Kept out of
// cli.cc so that the command table needs one hook.
#ifndef BASALT_CLI_SYNC_COMMANDS_H_
#define BASALT_CLI_SYNC_COMMANDS_H_

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace basalt::cli {

class SyncCommands {
 public:
  // Adds the subcommands to `app`.
  void Register(CLI::App& app);
  // After parsing: the exit code when one of these subcommands was given, else nullopt.
  // `data` is the --data target (hash-table's store).
  std::optional<int> RunIfParsed(const std::string& data);

 private:
  int RunHash(const std::string& data);
  int RunSync();

  CLI::App* hash_ = nullptr;
  CLI::App* sync_ = nullptr;
  // hash-table
  std::string table_, output_dir_, start_row_, stop_row_, families_;
  int64_t start_time_ = 0;
  std::optional<int64_t> end_time_;
  int32_t versions_ = 1;
  int64_t batch_size_ = 8000;
  // sync-table
  std::string source_, target_, hash_dir_, source_table_, target_table_;
  bool dry_run_ = false;
  bool do_deletes_ = true;
  bool do_puts_ = true;
};

}  // namespace basalt::cli

#endif  // BASALT_CLI_SYNC_COMMANDS_H_
