#include "copy/sync_table.h"

#include <map>
#include <optional>
#include <tuple>

namespace basalt::copy {
namespace {

using CellKey = std::tuple<std::string, std::string, int64_t>;  // family, qualifier, timestamp

// Reads one range's rows in order, one row at a time.
class RowReader {
 public:
  static Result<RowReader> Open(Table& table, const Scan& scan) {
    RowReader r;
    BASALT_ASSIGN_OR_RETURN(r.scanner_, table.GetScanner(scan));
    BASALT_RETURN_IF_ERROR(r.Advance());
    return r;
  }
  bool done() const { return !current_.has_value(); }
  const RowResult& row() const { return *current_; }
  Status Advance() {
    RowResult next;
    while (scanner_->Next(&next)) {
      if (next.cells().empty()) continue;
      current_ = std::move(next);
      return Status::OK();
    }
    current_.reset();
    return scanner_->status();
  }

 private:
  std::unique_ptr<ResultScanner> scanner_;
  std::optional<RowResult> current_;
};

// Makes the target's row equal to the source's; either may be null (the row missing there).
Status SyncRow(const std::string& row_key, const RowResult* source, const RowResult* target,
               Table& target_table, const SyncTableOptions& options, SyncTableStats* stats) {
  std::map<CellKey, const Cell*> in_target;
  if (target != nullptr) {
    for (const Cell& c : target->cells()) in_target[{c.family, c.qualifier, c.timestamp}] = &c;
  }
  Put put(row_key);
  int64_t puts = 0;
  bool differs = false;
  if (source != nullptr) {
    for (const Cell& c : source->cells()) {
      auto it = in_target.find({c.family, c.qualifier, c.timestamp});
      if (it != in_target.end()) {
        const bool same = it->second->value == c.value;
        in_target.erase(it);
        if (same) continue;
      }
      differs = true;
      if (!options.do_puts) continue;
      put.Add(c.family, c.qualifier, c.timestamp, c.value);
      ++puts;
    }
  }
  // What is left in in_target the source does not have.
  differs = differs || !in_target.empty();
  Delete del(row_key);
  int64_t deletes = 0;
  if (options.do_deletes) {
    for (const auto& [key, cell] : in_target) {
      del.AddColumn(cell->family, cell->qualifier, cell->timestamp);
      ++deletes;
    }
  }
  if (differs) ++stats->rows_differing;
  if (source == nullptr) ++stats->source_missing_rows;
  if (target == nullptr) ++stats->target_missing_rows;
  stats->cells_put += puts;
  stats->cells_deleted += deletes;
  if (puts > 0) ++stats->rows_put;
  if (deletes > 0) ++stats->rows_deleted;
  if (options.dry_run) return Status::OK();
  if (deletes > 0) BASALT_RETURN_IF_ERROR(target_table.Delete(del));
  if (puts > 0) BASALT_RETURN_IF_ERROR(target_table.Put(put));
  return Status::OK();
}

Status SyncRange(Table& source, Table& target, const HashTableOptions& hash_options,
                 const HashRange& range, const SyncTableOptions& options, SyncTableStats* stats) {
  const Scan scan = HashScan(hash_options, range.start_row, range.stop_row);
  BASALT_ASSIGN_OR_RETURN(RowReader src, RowReader::Open(source, scan));
  BASALT_ASSIGN_OR_RETURN(RowReader dst, RowReader::Open(target, scan));
  while (!src.done() || !dst.done()) {
    if (dst.done() || (!src.done() && src.row().row() < dst.row().row())) {
      BASALT_RETURN_IF_ERROR(SyncRow(src.row().row(), &src.row(), nullptr, target, options, stats));
      BASALT_RETURN_IF_ERROR(src.Advance());
    } else if (src.done() || dst.row().row() < src.row().row()) {
      BASALT_RETURN_IF_ERROR(SyncRow(dst.row().row(), nullptr, &dst.row(), target, options, stats));
      BASALT_RETURN_IF_ERROR(dst.Advance());
    } else {
      BASALT_RETURN_IF_ERROR(
          SyncRow(src.row().row(), &src.row(), &dst.row(), target, options, stats));
      BASALT_RETURN_IF_ERROR(src.Advance());
      BASALT_RETURN_IF_ERROR(dst.Advance());
    }
  }
  return Status::OK();
}

}  // namespace

Result<SyncTableStats> SyncTable(Connection& source, Connection& target, const TableHash& hash,
                                 const SyncTableOptions& options) {
  const std::string source_name =
      options.source_table.empty() ? hash.options.table : options.source_table;
  const std::string target_name = options.target_table.empty() ? source_name : options.target_table;
  BASALT_ASSIGN_OR_RETURN(auto src, source.GetTable(source_name));
  BASALT_ASSIGN_OR_RETURN(auto dst, target.GetTable(target_name));
  BASALT_ASSIGN_OR_RETURN(std::vector<std::string> digests,
                          DigestRanges(target, target_name, hash.options, hash.ranges));
  SyncTableStats stats;
  for (size_t i = 0; i < hash.ranges.size(); ++i) {
    const HashRange& range = hash.ranges[i];
    ++stats.ranges_checked;
    if (digests[i] == range.digest) {
      ++stats.ranges_matched;
      continue;
    }
    ++stats.ranges_differing;
    stats.differing.push_back(range);
    BASALT_RETURN_IF_ERROR(SyncRange(*src, *dst, hash.options, range, options, &stats));
  }
  return stats;
}

}  // namespace basalt::copy
