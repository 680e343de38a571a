// StoreStats: what the embedded storage engine holds and is doing, from Admin::GetStoreStats.
//
// Figures come from RocksDB (its properties and its Statistics object) at the moment of the
// call; they are estimates where RocksDB's are (the key count). Sizes are bytes. A table family
// is one RocksDB column family, so each figure below is per table and family.

#ifndef BASALT_STATS_H_
#define BASALT_STATS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "basalt/schema.h"

namespace basalt {

struct FamilyStats {
  TableName table;
  std::string family;
  // Memtables not yet flushed: active, immutable and pinned (rocksdb.cur-size-all-mem-tables).
  uint64_t memtable_bytes = 0;
  // SST files on disk, every version still referenced (rocksdb.total-sst-files-size).
  uint64_t sst_bytes = 0;
  // RocksDB's estimate of its keys (rocksdb.estimate-num-keys): one per cell version and per
  // delete marker, counted in memtables and files until compaction removes them.
  uint64_t estimated_keys = 0;
  // What compaction has to rewrite to bring every level under its target
  // (rocksdb.estimate-pending-compaction-bytes). Grows when writes outpace compaction.
  uint64_t pending_compaction_bytes = 0;
};

struct StoreStats {
  // Every family of every table (enabled or not), sorted by table, then family.
  std::vector<FamilyStats> families;
  // Store-wide (rocksdb.num-running-compactions / rocksdb.num-running-flushes).
  uint64_t running_compactions = 0;
  uint64_t running_flushes = 0;
  // The block cache shared by every family (ConnectionOptions::block_cache_bytes).
  uint64_t block_cache_capacity_bytes = 0;
  uint64_t block_cache_usage_bytes = 0;
  // Block cache lookups since the store was opened (RocksDB tickers BLOCK_CACHE_HIT and
  // BLOCK_CACHE_MISS). Absent when the store counts none (ConnectionOptions::statistics off).
  std::optional<uint64_t> block_cache_hits;
  std::optional<uint64_t> block_cache_misses;

  // hits / (hits + misses); nullopt when not counted or before the first lookup.
  std::optional<double> BlockCacheHitRatio() const {
    if (!block_cache_hits || !block_cache_misses) return std::nullopt;
    const uint64_t lookups = *block_cache_hits + *block_cache_misses;
    if (lookups == 0) return std::nullopt;
    return static_cast<double>(*block_cache_hits) / static_cast<double>(lookups);
  }
};

}  // namespace basalt

#endif  // BASALT_STATS_H_
