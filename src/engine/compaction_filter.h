// CellCompactionFilter: drops dead cells while RocksDB compacts a family's column family.
//
// The filter sees a compaction's keys in key order, so it meets a row's family markers, then each
// column's markers before the Puts they hide (see key_format.h). It applies the read path's
// rules (row_reader.h) to what the compaction contains and never drops a cell a read could
// return:
//   - any compaction drops Puts hidden by a marker it has seen, expired Puts beyond
//     MIN_VERSIONS, markers that are themselves expired (everything they cover has expired too),
//     and Puts ranked beyond VERSIONS among the unmasked Puts it has seen, when they are no newer
//     in the write order than every Put ranked above them. A partial compaction may miss a marker
//     (in a file it does not hold) that hides a Put ranked above; a family or column marker that
//     hides a Put hides every older-written Put below it too, so only a Put written after one
//     ranked above (an explicit timestamp older than a cell already there) could be the visible
//     one, and it waits for a full compaction. (A one-version Delete hides only its own
//     version, so the version below it may have been dropped already, as HBase documents.)
//   - a full compaction (every file of the family; what Admin::MajorCompact runs) also drops
//     the remaining delete markers, because every cell written before a marker is in it, and
//     (unless KEEP_DELETED_CELLS) sets the write sequence of every Put it keeps to 0: with the
//     markers gone, a sequence number only has to be below those of markers still to come.
//     Writes take their number and reach RocksDB under their rows' locks (write_path.cc), so a
//     marker numbered below a cell in the compaction reached RocksDB first and is in it too.
//     This saves 2-4 bytes per cell on disk (docs/benchmarks.md, "Footprint").
// With KEEP_DELETED_CELLS, markers and the cells they hide are kept (TRUE), or kept until they
// expire (TTL).
//
// Unknown keys and values are kept: the filter never drops what it cannot read.

#ifndef BASALT_ENGINE_COMPACTION_FILTER_H_
#define BASALT_ENGINE_COMPACTION_FILTER_H_

#include <rocksdb/compaction_filter.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/family_settings.h"

namespace basalt::engine {

class CellCompactionFilter : public rocksdb::CompactionFilter {
 public:
  CellCompactionFilter(std::shared_ptr<const FamilySettings> settings, bool full_compaction,
                       int64_t now_ms);

  Decision FilterV2(int level, const rocksdb::Slice& key, ValueType value_type,
                    const rocksdb::Slice& existing_value, std::string* new_value,
                    std::string* skip_until) const override;
  const char* Name() const override { return "basalt.CellCompactionFilter"; }

  // Counters for tests and metrics.
  uint64_t dropped() const { return dropped_; }
  uint64_t sequences_cleared() const { return sequences_cleared_; }

 private:
  struct Marker {
    int64_t ts;
    uint64_t seq;
  };

  Decision Decide(const rocksdb::Slice& key, const rocksdb::Slice& value, std::string* new_value);
  bool DropMarker(int64_t ts) const;

  std::shared_ptr<const FamilySettings> settings_;
  const bool full_;
  const bool clear_sequences_;
  const int64_t now_ms_;

  // Compaction is single-threaded per filter instance; FilterV2 is const only by interface.
  struct State {
    std::string row_prefix;
    std::vector<Marker> family_deletes;
    std::vector<Marker> family_version_deletes;
    std::string column_prefix;
    uint64_t column_delete_seq = 0;
    int64_t version_delete_ts = -1;
    uint64_t version_delete_seq = 0;
    int32_t rank = 0;
    // The smallest write sequence among the column's ranked Puts so far.
    uint64_t min_ranked_seq = UINT64_MAX;
  };
  mutable State state_;
  mutable uint64_t dropped_ = 0;
  mutable uint64_t sequences_cleared_ = 0;
};

// Makes one CellCompactionFilter per compaction with the family's current settings.
class CellCompactionFilterFactory : public rocksdb::CompactionFilterFactory {
 public:
  explicit CellCompactionFilterFactory(std::shared_ptr<FamilySettingsCell> settings)
      : settings_(std::move(settings)) {}

  std::unique_ptr<rocksdb::CompactionFilter> CreateCompactionFilter(
      const rocksdb::CompactionFilter::Context& context) override;
  const char* Name() const override { return "basalt.CellCompactionFilterFactory"; }

 private:
  std::shared_ptr<FamilySettingsCell> settings_;
};

}  // namespace basalt::engine

#endif  // BASALT_ENGINE_COMPACTION_FILTER_H_
