// ConnectionOptions: how Connection::Open sets up a store.

#ifndef BASALT_OPTIONS_H_
#define BASALT_OPTIONS_H_

#include <cstddef>
#include <cstdint>

namespace basalt {

struct ConnectionOptions {
  // Embedded: create the data directory and an empty store when missing. Default: true.
  bool create_if_missing = true;

  // Embedded: keep everything in memory (nothing is written to disk; the store is gone when the
  // connection closes). For tests and scratch work. Default: false.
  bool in_memory = false;

  // Largest accepted cell value, bytes (HBase hbase.client.keyvalue.maxsize). Default: 10 MiB.
  size_t max_value_bytes = 10 * 1024 * 1024;

  // Embedded: one block cache shared by every column family, bytes. Default: 256 MiB.
  size_t block_cache_bytes = 256 * 1024 * 1024;

  // Embedded: memtable size per column family before it is flushed, bytes. Default: 64 MiB.
  size_t write_buffer_bytes = 64 * 1024 * 1024;

  // Embedded: the memtables of all column families together, bytes: past it, the oldest is
  // flushed. Without it a store's memory grew with its number of families (each may hold two
  // write buffers). A store's memory is about block_cache_bytes + memtable_budget_bytes + a fixed
  // part (docs/benchmarks.md, "Scale curve"). 0: no budget. Default: 256 MiB.
  size_t memtable_budget_bytes = 256 * 1024 * 1024;

  // Embedded: the most families (each a RocksDB column family) all the tables of the store may
  // have together; a CreateTable or AddFamily past it fails with FailedPrecondition. Every schema
  // change rewrites RocksDB's OPTIONS file, which lists every column family, and an open loads
  // them all, so both grow with this number (docs/data-model.md, "Families"). A store that has
  // more (made before the cap, or with a larger one) opens and works; it only takes no more
  // families. Default: 4096.
  size_t max_store_families = 4096;

  // Embedded: background flush and compaction threads. Default: 2.
  int background_jobs = 2;

  // Embedded: count block cache hits and misses (RocksDB Statistics, tickers only) for
  // Admin::GetStoreStats. Costs a little on every read (docs/benchmarks.md). Default: true.
  bool statistics = true;
};

}  // namespace basalt

#endif  // BASALT_OPTIONS_H_
