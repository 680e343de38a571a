// Engine::GetStoreStats (RocksDB's properties and tickers as basalt's StoreStats) and StoreId.

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/statistics.h>

#include "engine/engine.h"
#include "engine/rocksdb_status.h"

namespace basalt::engine {
namespace {

// A missing property reads as 0: RocksDB leaves some unset until the first flush.
uint64_t IntProperty(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* cf, const std::string& name) {
  uint64_t value = 0;
  if (!db->GetIntProperty(cf, name, &value)) return 0;
  return value;
}

}  // namespace

Result<std::string> Engine::StoreId() {
  util::ReaderMutexLock life(lifecycle_mu_);
  BASALT_RETURN_IF_ERROR(CheckOpen());
  std::string id;
  BASALT_RETURN_IF_ERROR(FromRocks(db_->GetDbIdentity(id)));
  return id;
}

Result<StoreStats> Engine::GetStoreStats() {
  util::ReaderMutexLock life(lifecycle_mu_);
  BASALT_RETURN_IF_ERROR(CheckOpen());
  struct Source {
    TableName table;
    std::string family;
    rocksdb::ColumnFamilyHandle* cf;
  };
  // Handles stay valid until Close (which the lifecycle lock keeps away), so the properties are
  // read without holding tables_mu_ against schema changes. tables_ is ordered by name and each
  // table's families by name, which is the order StoreStats promises.
  std::vector<Source> sources;
  {
    util::ReaderMutexLock tl(tables_mu_);
    for (const auto& [name, state] : tables_) {
      for (const auto& f : state->families) sources.push_back({name, f.name(), f.cf});
    }
  }
  StoreStats stats;
  for (const Source& source : sources) {
    FamilyStats f;
    f.table = source.table;
    f.family = source.family;
    f.memtable_bytes = IntProperty(db_, source.cf, rocksdb::DB::Properties::kCurSizeAllMemTables);
    f.sst_bytes = IntProperty(db_, source.cf, rocksdb::DB::Properties::kTotalSstFilesSize);
    f.estimated_keys = IntProperty(db_, source.cf, rocksdb::DB::Properties::kEstimateNumKeys);
    f.pending_compaction_bytes =
        IntProperty(db_, source.cf, rocksdb::DB::Properties::kEstimatePendingCompactionBytes);
    stats.families.push_back(std::move(f));
  }
  stats.running_compactions =
      IntProperty(db_, default_cf_, rocksdb::DB::Properties::kNumRunningCompactions);
  stats.running_flushes =
      IntProperty(db_, default_cf_, rocksdb::DB::Properties::kNumRunningFlushes);
  stats.block_cache_capacity_bytes = block_cache_->GetCapacity();
  stats.block_cache_usage_bytes = block_cache_->GetUsage();
  if (statistics_ != nullptr) {
    stats.block_cache_hits = statistics_->getTickerCount(rocksdb::BLOCK_CACHE_HIT);
    stats.block_cache_misses = statistics_->getTickerCount(rocksdb::BLOCK_CACHE_MISS);
  }
  return stats;
}

}  // namespace basalt::engine
