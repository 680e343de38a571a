#include "cli/sync_commands.h"

#include <chrono>
#include <iostream>
#include <sstream>

#include "basalt/connection.h"
#include "copy/hash_table.h"
#include "copy/sync_table.h"
#include "util/bytes_format.h"

namespace basalt::cli {
namespace {

int Fail(const Status& s) {
  std::cerr << "error: " << s.ToString() << "\n";
  return 1;
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

void SyncCommands::Register(CLI::App& app) {
  hash_ = app.add_subcommand(
      "hash-table",
      "hash a table of the store in --data into row ranges with a digest each (HBase's "
      "HashTable), for sync-table");
  hash_->add_option("table", table_, "table, as NAME or NAMESPACE:NAME")->required();
  hash_->add_option("output", output_dir_, "directory to write (must not exist)")->required();
  hash_->add_option("--startrow", start_row_, "first row (inclusive; \\xHH escapes)");
  hash_->add_option("--stoprow", stop_row_, "stop before this row (\\xHH escapes)");
  hash_->add_option("--starttime", start_time_, "oldest timestamp hashed (ms, inclusive)");
  hash_->add_option("--endtime", end_time_, "newest timestamp hashed (ms, exclusive)");
  hash_->add_option("--versions", versions_, "versions per column (default 1)");
  hash_->add_option("--families", families_, "families to hash, comma-separated (default: all)");
  hash_->add_option("--batchsize", batch_size_, "bytes of cells per range (default 8000)");

  sync_ = app.add_subcommand(
      "sync-table",
      "make the target table equal to the source where hash-table's ranges differ (HBase's "
      "SyncTable)");
  sync_->add_option("hash_dir", hash_dir_, "what hash-table wrote from the source")->required();
  sync_->add_option("source_table", source_table_, "source table (default: the hashed one)");
  sync_->add_option("target_table", target_table_, "target table (default: the source's name)");
  sync_->add_option("--source", source_, "source: a data directory or thrift://HOST:PORT")
      ->required();
  sync_->add_option("--target", target_, "target: a data directory or thrift://HOST:PORT")
      ->required();
  sync_->add_flag("--dryrun", dry_run_, "count the differences, write nothing");
  sync_->add_option("--doDeletes", do_deletes_,
                    "delete cells only the target has (true or false, default true)");
  sync_->add_option("--doPuts", do_puts_,
                    "put cells the target lacks or holds otherwise (true or false, default true)");
}

std::optional<int> SyncCommands::RunIfParsed(const std::string& data) {
  if (hash_ != nullptr && hash_->parsed()) return RunHash(data);
  if (sync_ != nullptr && sync_->parsed()) return RunSync();
  return std::nullopt;
}

int SyncCommands::RunHash(const std::string& data) {
  copy::HashTableOptions o;
  o.table = table_;
  o.start_row = util::FromStringBinary(start_row_);
  o.stop_row = util::FromStringBinary(stop_row_);
  o.start_time = start_time_;
  o.end_time = end_time_;
  o.versions = versions_;
  o.batch_size = batch_size_;
  if (!families_.empty()) {
    std::stringstream ss(families_);
    std::string f;
    while (std::getline(ss, f, ',')) {
      if (f.empty()) return Fail(Status::InvalidArgument("empty family in --families"));
      o.families.push_back(f);
    }
  }
  auto conn = Connection::Open(data);
  if (!conn.ok()) return Fail(conn.status());
  const auto start = std::chrono::steady_clock::now();
  auto hash = copy::HashTable(**conn, o);
  if (!hash.ok()) return Fail(hash.status());
  Status s = copy::WriteTableHash(*hash, output_dir_);
  if (!s.ok()) return Fail(s);
  std::cout << "hashed " << hash->rows << " row(s), " << hash->cells << " cell(s) of " << table_
            << " into " << hash->ranges.size() << " range(s) in " << output_dir_ << " ("
            << SecondsSince(start) << " s)\n";
  return 0;
}

int SyncCommands::RunSync() {
  auto hash = copy::ReadTableHash(hash_dir_);
  if (!hash.ok()) return Fail(hash.status());
  copy::SyncTableOptions o;
  o.source_table = source_table_;
  o.target_table = target_table_;
  o.dry_run = dry_run_;
  o.do_deletes = do_deletes_;
  o.do_puts = do_puts_;
  auto from = Connection::Open(source_);
  if (!from.ok()) return Fail(from.status());
  auto to = Connection::Open(target_);
  if (!to.ok()) return Fail(to.status());
  const auto start = std::chrono::steady_clock::now();
  auto stats = copy::SyncTable(**from, **to, *hash, o);
  if (!stats.ok()) return Fail(stats.status());
  for (const auto& r : stats->differing) {
    std::cout << "differs: " << copy::EscapeRow(r.start_row) << " " << copy::EscapeRow(r.stop_row)
              << "\n";
  }
  const char* verb = dry_run_ ? "would put " : "put ";
  const char* verb_del = dry_run_ ? "would delete " : "deleted ";
  std::cout << "ranges: " << stats->ranges_checked << " checked, " << stats->ranges_matched
            << " matched, " << stats->ranges_differing << " differing\n"
            << "rows: " << stats->rows_differing << " differing (" << stats->target_missing_rows
            << " missing from the target, " << stats->source_missing_rows
            << " missing from the source)\n"
            << "cells: " << verb << stats->cells_put << " in " << stats->rows_put << " row(s), "
            << verb_del << stats->cells_deleted << " in " << stats->rows_deleted << " row(s)\n"
            << "time: " << SecondsSince(start) << " s\n";
  return 0;
}

}  // namespace basalt::cli
