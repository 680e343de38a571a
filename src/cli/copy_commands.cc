#include "cli/copy_commands.h"

#include <unistd.h>

#include <iostream>

#include "basalt/connection.h"
#include "copy/copy_table.h"

namespace basalt::cli {

void CopyCommands::Register(CLI::App& app) {
  copy_ = app.add_subcommand(
      "copy-table",
      "copy a table from the store in --data to another backend (HBase's CopyTable); "
      "resumable with --state-file");
  copy_->add_option("table", table_, "source table, as NAME or NAMESPACE:NAME")->required();
  copy_
      ->add_option("--peer.adr", peer_,
                   "destination: a data directory or thrift://HOST:PORT (HBase's --peer.adr)")
      ->required();
  copy_->add_option("--new.name", new_name_, "destination table (default: the same name)");
  copy_->add_option("--startrow", start_row_, "first row (inclusive)");
  copy_->add_option("--stoprow", stop_row_, "stop before this row");
  copy_->add_option("--starttime", start_time_, "oldest timestamp copied (ms, inclusive)");
  copy_->add_option("--endtime", end_time_, "newest timestamp copied (ms, exclusive)");
  copy_->add_option("--versions", versions_, "versions per column (default 1)");
  copy_->add_option("--families", families_,
                    "families to copy, comma-separated; OLD:NEW renames (default: all)");
  copy_->add_option("--rows-per-second", rows_per_second_, "cap on rows copied a second");
  copy_->add_option("--bytes-per-second", bytes_per_second_, "cap on bytes copied a second");
  copy_->add_option("--batch", batch_, "rows per write and per state record (default 500)");
  copy_->add_option("--state-file", state_file_,
                    "record progress here; a rerun with the same file continues after it");
  copy_->add_flag("--progress", progress_, "report progress on stderr (default: when a tty)");
}

std::optional<int> CopyCommands::RunIfParsed(const std::string& source) {
  if (copy_ == nullptr || !copy_->parsed()) return std::nullopt;
  auto fail = [](const Status& s) {
    std::cerr << "error: " << s.ToString() << "\n";
    return 1;
  };
  copy::CopyTableOptions o;
  o.table = table_;
  o.new_name = new_name_;
  o.start_row = start_row_;
  o.stop_row = stop_row_;
  o.start_time = start_time_;
  o.end_time = end_time_;
  o.versions = versions_;
  o.max_rows_per_second = rows_per_second_;
  o.max_bytes_per_second = bytes_per_second_;
  o.batch_rows = batch_;
  o.state_file = state_file_;
  if (!families_.empty()) {
    auto f = copy::ParseFamilies(families_);
    if (!f.ok()) return fail(f.status());
    o.families = *f;
  }
  auto from = Connection::Open(source);
  if (!from.ok()) return fail(from.status());
  auto to = Connection::Open(peer_);
  if (!to.ok()) return fail(to.status());
  const bool show = progress_ || isatty(STDERR_FILENO) == 1;
  copy::CopyProgress report;
  if (show) {
    report = [](const copy::CopyTableStats& s) {
      std::cerr << "\rcopied " << s.rows << " row(s), " << s.cells << " cell(s), " << s.bytes
                << " byte(s)" << std::flush;
    };
  }
  auto stats = copy::CopyTable(**from, **to, o, report);
  if (show) std::cerr << "\n";
  if (!stats.ok()) return fail(stats.status());
  std::cout << "copied " << stats->rows << " row(s), " << stats->cells << " cell(s) of " << table_
            << (stats->resumed ? " (resumed)" : "") << "\n";
  return 0;
}

}  // namespace basalt::cli
