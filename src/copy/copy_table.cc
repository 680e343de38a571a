#include "copy/copy_table.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "basalt/base64.h"

namespace basalt::copy {
namespace {

// The state file: one line, "basalt-copy-table v1 <base64 of the last copied row>".
constexpr std::string_view kStateMagic = "basalt-copy-table v1 ";

Result<std::optional<std::string>> ReadCopyState(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::optional<std::string>();
  std::string line;
  std::getline(in, line);
  if (line.rfind(kStateMagic, 0) != 0) {
    return Status::InvalidArgument("not a copy-table state file: " + path);
  }
  auto row = Base64Decode(line.substr(kStateMagic.size()), "state row");
  if (!row.ok()) return Status::InvalidArgument("corrupt copy-table state file: " + path);
  return std::optional<std::string>(*row);
}

Status WriteCopyState(const std::string& path, const std::string& row) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << kStateMagic << Base64Encode(row) << '\n';
    out.flush();
    if (!out) return Status::IOError("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    return Status::IOError("cannot rename " + tmp + " to " + path);
  }
  return Status::OK();
}

}  // namespace

Result<std::map<std::string, std::string>> ParseFamilies(std::string_view text) {
  std::map<std::string, std::string> out;
  std::stringstream ss{std::string(text)};
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) return Status::InvalidArgument("empty family in --families");
    auto colon = item.find(':');
    std::string from = item.substr(0, colon);
    std::string to = colon == std::string::npos ? from : item.substr(colon + 1);
    if (from.empty() || to.empty()) {
      return Status::InvalidArgument("bad --families item '" + item + "'");
    }
    out[from] = to;
  }
  return out;
}

Result<CopyTableStats> CopyTable(Connection& source, Connection& destination,
                                 const CopyTableOptions& options, const CopyProgress& progress) {
  if (options.versions < 1) return Status::InvalidArgument("--versions must be at least 1");
  if (options.batch_rows < 1) return Status::InvalidArgument("batch size must be at least 1");
  CopyTableStats stats;
  auto src = source.GetTable(options.table);
  if (!src.ok()) return src.status();
  auto dst = destination.GetTable(options.new_name.empty() ? options.table : options.new_name);
  if (!dst.ok()) return dst.status();

  Scan scan;
  scan.WithStartRow(options.start_row);
  if (!options.state_file.empty()) {
    auto last = ReadCopyState(options.state_file);
    if (!last.ok()) return last.status();
    if (last->has_value()) {
      if (!options.stop_row.empty() && **last >= options.stop_row) return stats;
      scan.WithStartRow(**last, /*inclusive=*/false);
      stats.resumed = true;
    }
  }
  if (!options.stop_row.empty()) scan.WithStopRow(options.stop_row);
  scan.SetTimeRange(options.start_time, options.end_time.value_or(kLatestTimestamp));
  scan.ReadVersions(options.versions);
  for (const auto& [from, to] : options.families) scan.AddFamily(from);
  scan.SetCaching(options.batch_rows);
  auto scanner = (*src)->GetScanner(scan);
  if (!scanner.ok()) return scanner.status();

  const auto started = std::chrono::steady_clock::now();
  auto throttle = [&] {
    double wait = 0;
    if (options.max_rows_per_second > 0) {
      wait = std::max(wait, static_cast<double>(stats.rows) / options.max_rows_per_second);
    }
    if (options.max_bytes_per_second > 0) {
      wait = std::max(wait, static_cast<double>(stats.bytes) / options.max_bytes_per_second);
    }
    auto due = started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                             std::chrono::duration<double>(wait));
    std::this_thread::sleep_until(due);
  };

  std::vector<Put> puts;
  std::string last_row;
  auto flush = [&]() -> Status {
    if (puts.empty()) return Status::OK();
    Status s = (*dst)->Put(puts);
    if (!s.ok()) return s;
    puts.clear();
    stats.last_row = last_row;
    if (!options.state_file.empty()) {
      Status st = WriteCopyState(options.state_file, last_row);
      if (!st.ok()) return st;
    }
    if (progress) progress(stats);
    return Status::OK();
  };

  RowResult row;
  while ((*scanner)->Next(&row)) {
    Put& put = puts.emplace_back(row.row());
    for (const Cell& c : row.cells()) {
      std::string family = c.family;
      if (!options.families.empty()) family = options.families.at(c.family);
      stats.bytes += static_cast<int64_t>(c.row.size() + family.size() + c.qualifier.size() +
                                          c.value.size() + 8);
      put.Add(std::move(family), c.qualifier, c.timestamp, c.value);
      ++stats.cells;
    }
    if (row.cells().empty()) puts.pop_back();
    last_row = row.row();
    ++stats.rows;
    if (static_cast<int32_t>(puts.size()) >= options.batch_rows) {
      Status s = flush();
      if (!s.ok()) return s;
    }
    throttle();
  }
  if (!(*scanner)->status().ok()) return (*scanner)->status();
  Status s = flush();
  if (!s.ok()) return s;
  return stats;
}

}  // namespace basalt::copy
