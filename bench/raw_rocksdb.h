// The raw RocksDB the benchmarks compare basalt with: the options basalt's engine gives each
// family (no compression unless asked, 64 KiB blocks, a 10-bit Bloom filter, dynamic level sizes,
// index and filter blocks partitioned and kept in the block cache, a memtable budget), so that a
// ratio measures basalt's layers and not a tuning difference.

#ifndef BASALT_BENCH_RAW_ROCKSDB_H_
#define BASALT_BENCH_RAW_ROCKSDB_H_

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "basalt/schema.h"

namespace basalt::bench {

// RocksDB's compression for a basalt family's (engine.cc maps them the same way).
inline rocksdb::CompressionType RocksCompression(Compression c) {
  switch (c) {
    case Compression::kNone:
      return rocksdb::kNoCompression;
    case Compression::kSnappy:
      return rocksdb::kSnappyCompression;
    case Compression::kLz4:
      return rocksdb::kLZ4Compression;
    case Compression::kZstd:
      return rocksdb::kZSTD;
    case Compression::kGz:
      return rocksdb::kZlibCompression;
  }
  return rocksdb::kNoCompression;
}

// The memory-bounding table options of basalt's engine (engine.cc, FamilyCfOptions): index and
// filter blocks partitioned and charged to the block cache.
inline void KeepIndexAndFiltersInCache(rocksdb::BlockBasedTableOptions* t) {
  t->cache_index_and_filter_blocks = true;
  t->cache_index_and_filter_blocks_with_high_priority = true;
  t->pin_l0_filter_and_index_blocks_in_cache = true;
  t->pin_top_level_index_and_filter = true;
  t->index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
  t->partition_filters = t->filter_policy != nullptr;
  t->metadata_block_size = 4096;
}

// Opens a fresh raw RocksDB at `path` (whatever was there is removed); ends the program on error.
// `compression`: a raw side that stores a recipe's entries passes the compression the recipe
// gives its tables (RocksCompression of its options' default), so that a ratio stays
// like-for-like. `merge_operator`: for benchmarks whose raw side keeps counters as merge
// operands.
inline std::unique_ptr<rocksdb::DB> OpenRawRocksDb(
    const std::string& path, size_t block_cache_bytes = 256 << 20,
    rocksdb::CompressionType compression = rocksdb::kNoCompression,
    std::shared_ptr<rocksdb::MergeOperator> merge_operator = nullptr) {
  std::filesystem::remove_all(path);
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  rocksdb::Options o;
  o.create_if_missing = true;
  o.max_background_jobs = 2;
  o.bytes_per_sync = 1 << 20;
  o.write_buffer_size = 64 << 20;
  o.level_compaction_dynamic_level_bytes = true;
  o.compression = compression;
  o.merge_operator = std::move(merge_operator);
  rocksdb::BlockBasedTableOptions t;
  t.block_cache = rocksdb::NewLRUCache(block_cache_bytes);
  t.block_size = 65536;
  t.format_version = 5;
  t.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  KeepIndexAndFiltersInCache(&t);
  o.db_write_buffer_size = 256 << 20;  // basalt's default memtable budget
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  rocksdb::DB* db = nullptr;
  const rocksdb::Status s = rocksdb::DB::Open(o, path, &db);
  if (!s.ok()) {
    std::fprintf(stderr, "opening raw RocksDB at %s: %s\n", path.c_str(), s.ToString().c_str());
    std::exit(1);
  }
  return std::unique_ptr<rocksdb::DB>(db);
}

// Whether `db` has a flush or a compaction running or owed.
inline bool RocksDbBusy(rocksdb::DB& db) {
  uint64_t flushes = 0, compactions = 0, pending = 0;
  db.GetIntProperty("rocksdb.num-running-flushes", &flushes);
  db.GetIntProperty("rocksdb.num-running-compactions", &compactions);
  db.GetIntProperty("rocksdb.estimate-pending-compaction-bytes", &pending);
  return flushes > 0 || compactions > 0 || pending > 0;
}

// Flushes `db`'s memtables and waits until no flush or compaction runs or is owed, so that work
// the writes made due does not run into what is measured next.
inline void QuiesceRocksDb(rocksdb::DB& db) {
  const rocksdb::Status s = db.Flush(rocksdb::FlushOptions());
  if (!s.ok()) {
    std::fprintf(stderr, "flushing raw RocksDB: %s\n", s.ToString().c_str());
    std::exit(1);
  }
  while (RocksDbBusy(db)) std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

}  // namespace basalt::bench

#endif  // BASALT_BENCH_RAW_ROCKSDB_H_
