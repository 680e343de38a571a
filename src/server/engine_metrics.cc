#include "server/engine_metrics.h"

#include <string>
#include <vector>

namespace basalt::server {
namespace {

using Family = http::Metrics::Family;
using Sample = http::Metrics::Sample;

std::vector<Family> Collect(Connection& conn) {
  auto stats = conn.admin().GetStoreStats();
  if (!stats.ok()) return {};  // NotSupported, or the store is closing
  Family memtable{
      "basalt_engine_memtable_bytes", "Bytes in memtables not yet flushed.", "gauge", {}};
  Family sst{"basalt_engine_sst_bytes", "Bytes of SST files.", "gauge", {}};
  Family keys{"basalt_engine_estimated_keys",
              "RocksDB's estimate of its keys (cell versions and delete markers).",
              "gauge",
              {}};
  Family pending{"basalt_engine_pending_compaction_bytes",
                 "Bytes compaction has to rewrite to bring levels under their targets.",
                 "gauge",
                 {}};
  for (const FamilyStats& f : stats->families) {
    std::vector<std::pair<std::string, std::string>> labels = {{"table", f.table.ToString()},
                                                               {"family", f.family}};
    memtable.samples.push_back({labels, static_cast<double>(f.memtable_bytes)});
    sst.samples.push_back({labels, static_cast<double>(f.sst_bytes)});
    keys.samples.push_back({labels, static_cast<double>(f.estimated_keys)});
    pending.samples.push_back({labels, static_cast<double>(f.pending_compaction_bytes)});
  }
  auto single = [](std::string name, std::string help, std::string type, double value) {
    return Family{std::move(name), std::move(help), std::move(type), {Sample{{}, value}}};
  };
  std::vector<Family> out = {std::move(memtable), std::move(sst), std::move(keys),
                             std::move(pending)};
  out.push_back(single("basalt_engine_running_compactions", "Compactions running now.", "gauge",
                       static_cast<double>(stats->running_compactions)));
  out.push_back(single("basalt_engine_running_flushes", "Memtable flushes running now.", "gauge",
                       static_cast<double>(stats->running_flushes)));
  out.push_back(single("basalt_engine_block_cache_capacity_bytes",
                       "Capacity of the block cache shared by every family.", "gauge",
                       static_cast<double>(stats->block_cache_capacity_bytes)));
  out.push_back(single("basalt_engine_block_cache_usage_bytes", "Bytes in the block cache.",
                       "gauge", static_cast<double>(stats->block_cache_usage_bytes)));
  if (stats->block_cache_hits && stats->block_cache_misses) {
    out.push_back(single("basalt_engine_block_cache_hits_total",
                         "Block cache lookups that found the block.", "counter",
                         static_cast<double>(*stats->block_cache_hits)));
    out.push_back(single("basalt_engine_block_cache_misses_total",
                         "Block cache lookups that had to read the block.", "counter",
                         static_cast<double>(*stats->block_cache_misses)));
    // Before the first lookup there is no ratio; 0 reads as "all misses", so leave it out.
    if (auto ratio = stats->BlockCacheHitRatio()) {
      out.push_back(single("basalt_engine_block_cache_hit_ratio",
                           "Block cache hits / lookups since the store opened.", "gauge", *ratio));
    }
  }
  return out;
}

}  // namespace

void RegisterEngineMetrics(Connection& conn, http::Metrics* metrics) {
  metrics->AddCollector([&conn] { return Collect(conn); });
}

}  // namespace basalt::server
