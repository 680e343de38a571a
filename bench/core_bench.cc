// basalt against raw RocksDB, side by side in one run.
//
// Each workload runs on a basalt table and on a plain RocksDB database given the same options
// (block cache, write buffer, block size, bloom filter bits, compression, WAL). The two sides
// share each round so that machine noise hits both alike: after both have flushed and finished
// their compactions (write workloads), they take turns in 20 ms slices (--slice-ms; 0: one whole
// turn each). A flush or compaction one side starts runs on while the other has its turn; slices
// and whole turns gave fillbatch100 the same median ratio, slices with a fifth of the spread.
// The report gives the median throughput of each side and the median of the rounds' ratios
// (basalt / raw, higher is better).
//
//   fillbatch100   single-cell puts, 100 rows per batch
//   readrandom     point gets of a cell (row and column named), after a flush and compaction
//   scanprefix10   the newest 10 rows under a user prefix (row = user + reversed timestamp)
//   getversions10  a get of the 10 versions of one cell
//   home20         the feed's home read: an inbox row's first 20 columns, then a multi-get of
//                  the 20 posts they name (one column each); also its halves, inbox20 and
//                  multiget20 (20 random posts)
//
// Usage: basalt_core_bench [--dir DIR] [--rounds N] [--scale F] [--markdown FILE] [--json FILE]
//                          [--only WORKLOAD] [--equal-bytes] [--profile-side basalt|raw]
//                          [--no-statistics] [--round-seconds S] [--slice-ms MS]
//
// Both sides count RocksDB tickers (basalt does, for /metrics and Admin::GetStoreStats);
// --no-statistics turns them off on both, to measure what counting costs. --round-seconds sets
// the length of a round (default 1): at 0.3 a fillbatch100 round fits in one memtable, so no
// flush runs during it.

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/statistics.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "basalt/basalt.h"
#include "harness.h"
#include "raw_rocksdb.h"
#include "util/coding.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Config {
  std::string dir = "/tmp/basalt-core-bench";
  int rounds = 5;
  double scale = 1.0;
  std::string only;  // run just this workload
  // Pads raw keys and values to the sizes of basalt's cells, to separate what the HBase cell
  // format costs from what basalt's code costs.
  bool equal_bytes = false;
  // For profiling: run only one side ("basalt" or "raw"); no ratio is printed.
  std::string side;
  bool statistics = true;
  double round_seconds = 1.0;
  double slice_seconds = 0.02;
};

// Set from Config before the workloads run.
bool g_equal_bytes = false;
bool g_statistics = true;

// The raw side's column suffix. A basalt key adds to row and qualifier a timestamp (8 bytes),
// a type (1) and two 2-byte terminators; `key_has_ts` says the raw key already has a timestamp.
std::string RawColumn(bool key_has_ts = false) {
  if (!g_equal_bytes) return "q";
  return "q" + std::string(key_has_ts ? 5 : 13, '\x01');
}

// basalt's value header: the sequence number as a varint, 3 bytes below 2^21 writes.
std::string RawValue() {
  std::string v(100, 'v');
  if (g_equal_bytes) v.append(3, '\x02');
  return v;
}

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "core_bench: %s\n", what.c_str());
  std::exit(1);
}

void Check(const basalt::Status& s, const char* what) {
  if (!s.ok()) Die(std::string(what) + ": " + s.ToString());
}

void Check(const rocksdb::Status& s, const char* what) {
  if (!s.ok()) Die(std::string(what) + ": " + s.ToString());
}

// The options basalt gives a family's column family (see engine.cc), applied to raw RocksDB.
constexpr size_t kBlockCacheBytes = 256 << 20;
constexpr size_t kWriteBufferBytes = 64 << 20;
constexpr size_t kBlockSize = 65536;
constexpr int kBackgroundJobs = 2;
const std::string kValue(100, 'v');

// basalt reads skip range tombstones (it never writes any); the raw side gets the same.
rocksdb::ReadOptions RawReadOptions() {
  rocksdb::ReadOptions ro;
  ro.ignore_range_deletions = true;
  return ro;
}

std::string UserRow(uint64_t i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "user%010llu", static_cast<unsigned long long>(i));
  return buf;
}

// A row of the activity-log layout: user id, then the timestamp reversed so newest sorts first.
std::string EventRow(uint64_t user, int64_t ts) {
  std::string row = UserRow(user);
  basalt::util::PutFixed64BE(&row, static_cast<uint64_t>(INT64_MAX - ts));
  return row;
}

// Polls `done` every 5 ms until it holds.
void WaitUntil(const std::function<bool()>& done) {
  while (!done()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

class RawStore {
 public:
  explicit RawStore(const std::string& path) {
    std::filesystem::remove_all(path);
    rocksdb::Options o;
    o.create_if_missing = true;
    o.max_background_jobs = kBackgroundJobs;
    o.bytes_per_sync = 1 << 20;
    o.write_buffer_size = kWriteBufferBytes;
    o.level_compaction_dynamic_level_bytes = true;
    o.compression = rocksdb::kNoCompression;
    rocksdb::BlockBasedTableOptions t;
    t.block_cache = rocksdb::NewLRUCache(kBlockCacheBytes);
    t.block_size = kBlockSize;
    t.format_version = 5;
    t.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
    basalt::bench::KeepIndexAndFiltersInCache(&t);
    o.db_write_buffer_size = basalt::ConnectionOptions().memtable_budget_bytes;
    o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
    if (g_statistics) {
      // basalt counts tickers for /metrics (engine.cc); the raw side counts the same ones.
      o.statistics = rocksdb::CreateDBStatistics();
      o.statistics->set_stats_level(rocksdb::StatsLevel::kExceptHistogramOrTimers);
    }
    rocksdb::DB* db = nullptr;
    Check(rocksdb::DB::Open(o, path, &db), "opening raw RocksDB");
    db_.reset(db);
  }

  rocksdb::DB* db() { return db_.get(); }

  // Flushes the memtable and waits until no flush or compaction runs or is owed (a compaction
  // the flush made due would otherwise start in the next round).
  void Quiesce() { basalt::bench::QuiesceRocksDb(*db_); }

  void Compact() {
    Check(db_->Flush(rocksdb::FlushOptions()), "raw flush");
    rocksdb::CompactRangeOptions c;
    c.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    Check(db_->CompactRange(c, nullptr, nullptr), "raw compaction");
  }

 private:
  std::unique_ptr<rocksdb::DB> db_;
};

class BasaltStore {
 public:
  BasaltStore(const std::string& path, int versions) {
    std::filesystem::remove_all(path);
    basalt::ConnectionOptions o;
    o.block_cache_bytes = kBlockCacheBytes;
    o.write_buffer_bytes = kWriteBufferBytes;
    o.background_jobs = kBackgroundJobs;
    o.statistics = g_statistics;
    auto conn = basalt::Connection::Open(path, o);
    Check(conn.status(), "opening basalt");
    conn_ = std::move(*conn);
    basalt::TableDescriptor desc(basalt::TableName("default", "bench"));
    basalt::FamilyDescriptor family("f");
    family.max_versions = versions;
    desc.AddFamily(family);
    Check(conn_->admin().CreateTable(desc), "creating the table");
    auto table = conn_->GetTable("bench");
    Check(table.status(), "opening the table");
    table_ = std::move(*table);
  }

  basalt::Table& table() { return *table_; }

  void Compact() { Check(conn_->admin().MajorCompact(table_->name()), "basalt compaction"); }

  // Flushes the memtable and waits until no flush or compaction runs or is owed (a compaction
  // the flush made due would otherwise start in the next round).
  void Quiesce() {
    Check(conn_->admin().Flush(table_->name()), "basalt flush");
    WaitUntil([&] {
      auto stats = conn_->admin().GetStoreStats();
      Check(stats.status(), "basalt stats");
      uint64_t pending = 0;
      for (const auto& f : stats->families) pending += f.pending_compaction_bytes;
      return stats->running_flushes == 0 && stats->running_compactions == 0 && pending == 0;
    });
  }

 private:
  std::unique_ptr<basalt::Connection> conn_;
  std::unique_ptr<basalt::Table> table_;
};

// Runs `op` (which does `batch` operations per call) for at least `duration`, in groups of
// `group` calls between clock reads; adds the operations done and the time taken.
void RunFor(std::chrono::duration<double> duration, int group, int batch,
            const std::function<void()>& op, uint64_t* ops, std::chrono::duration<double>* time) {
  auto start = Clock::now();
  auto deadline = start + duration;
  Clock::time_point now;
  do {
    for (int i = 0; i < group; ++i) op();
    *ops += static_cast<uint64_t>(group) * static_cast<uint64_t>(batch);
    now = Clock::now();
  } while (now < deadline);
  *time += now - start;
}

// Runs `op` for about `seconds`; returns ops/s.
double Measure(double seconds, int batch, const std::function<void()>& op) {
  uint64_t ops = 0;
  std::chrono::duration<double> time{};
  RunFor(std::chrono::duration<double>(seconds), 16, batch, op, &ops, &time);
  return static_cast<double>(ops) / time.count();
}

// One round: the two sides take turns in slices of `slice_seconds` (which
// goes first alternates) until each has run about `seconds`; returns each side's ops/s over its
// slices. A burst of load from elsewhere on the machine then lands on both sides alike, where
// with whole rounds per side it lands on one of them.
std::pair<double, double> MeasureInterleaved(double seconds, double slice_seconds, int batch,
                                             const std::function<void()>& basalt_op,
                                             const std::function<void()>& raw_op) {
  const auto slice = std::chrono::duration<double>(slice_seconds);
  const auto side_time = std::chrono::duration<double>(seconds);
  std::chrono::duration<double> time[2]{};
  uint64_t ops[2] = {0, 0};
  auto run_slice = [&](int side) {
    RunFor(slice, 4, batch, side == 0 ? basalt_op : raw_op, &ops[side], &time[side]);
  };
  for (int turn = 0; time[0] < side_time || time[1] < side_time; ++turn) {
    run_slice(turn % 2);
    run_slice(1 - turn % 2);
  }
  return {static_cast<double>(ops[0]) / time[0].count(),
          static_cast<double>(ops[1]) / time[1].count()};
}

struct Outcome {
  std::string name;
  std::string unit;
  double basalt_ops;
  double raw_ops;
  double ratio;  // the median of the rounds' ratios
};

// Before each round of a side; empty: nothing.
struct Quiescers {
  std::function<void()> basalt;
  std::function<void()> raw;
};

// Alternates rounds of the two sides and keeps the medians. `quiesce` runs (untimed) before
// every round, so that background work left by one round does not land in the next.
Outcome Compare(const Config& cfg, std::string name, std::string unit, int batch,
                const std::function<void()>& basalt_op, const std::function<void()>& raw_op,
                const Quiescers& quiesce = {}) {
  auto measure_basalt = [&] {
    if (quiesce.basalt) quiesce.basalt();
    return Measure(cfg.round_seconds, batch, basalt_op);
  };
  auto measure_raw = [&] {
    if (quiesce.raw) quiesce.raw();
    return Measure(cfg.round_seconds, batch, raw_op);
  };
  std::vector<double> b, r;
  // One warm-up call each, not measured.
  basalt_op();
  raw_op();
  if (!cfg.side.empty()) {
    double rate = 0;
    for (int i = 0; i < cfg.rounds; ++i) {
      rate = cfg.side == "raw" ? measure_raw() : measure_basalt();
    }
    std::printf("%-14s %s only: %.0f %s/s\n", name.c_str(), cfg.side.c_str(), rate, unit.c_str());
    return Outcome{std::move(name), std::move(unit), rate, rate, 1.0};
  }
  for (int i = 0; i < cfg.rounds; ++i) {
    if (cfg.slice_seconds > 0) {
      if (quiesce.basalt) quiesce.basalt();
      if (quiesce.raw) quiesce.raw();
      auto [basalt_rate, raw_rate] =
          MeasureInterleaved(cfg.round_seconds, cfg.slice_seconds, batch, basalt_op, raw_op);
      b.push_back(basalt_rate);
      r.push_back(raw_rate);
    } else if (i % 2 == 0) {
      b.push_back(measure_basalt());
      r.push_back(measure_raw());
    } else {
      r.push_back(measure_raw());
      b.push_back(measure_basalt());
    }
  }
  // A round's two rates are taken side by side, so the ratio is read round by round.
  std::vector<double> ratios;
  for (size_t i = 0; i < b.size(); ++i) ratios.push_back(b[i] / r[i]);
  Outcome o{std::move(name), std::move(unit), basalt::bench::Median(b), basalt::bench::Median(r),
            basalt::bench::Median(ratios)};
  std::printf("%-14s basalt %10.0f %s/s   raw %10.0f %s/s   ratio %.3fx\n", o.name.c_str(),
              o.basalt_ops, o.unit.c_str(), o.raw_ops, o.unit.c_str(), o.ratio);
  std::fflush(stdout);
  return o;
}

Outcome FillBatch100(const Config& cfg) {
  BasaltStore bs(cfg.dir + "/fill-basalt", 1);
  RawStore rs(cfg.dir + "/fill-raw");
  uint64_t next_b = 0, next_r = 0;
  auto basalt_op = [&] {
    // HBase's Table.put(List<Put>): a batch of Puts, nothing else. Each Put is built in its
    // place in the batch, as table.h advises; moving in a temporary Put cost about 2% more.
    std::vector<basalt::Put> batch;
    batch.reserve(100);
    for (int i = 0; i < 100; ++i) {
      batch.emplace_back(UserRow(next_b++)).Add("f", "q", kValue);
    }
    Check(bs.table().Put(batch), "basalt batch");
  };
  auto raw_op = [&] {
    rocksdb::WriteBatch batch;
    for (int i = 0; i < 100; ++i) batch.Put(UserRow(next_r++) + RawColumn(), RawValue());
    Check(rs.db()->Write(rocksdb::WriteOptions(), &batch), "raw batch");
  };
  // Every round starts from an empty memtable with no flush or compaction running, on both
  // sides; without it, one side's leftover compactions ran in the other's rounds (2 cores) and
  // the ratio of repeated runs spread from 0.65x to 0.9x.
  return Compare(cfg, "fillbatch100", "puts", 100, basalt_op, raw_op,
                 {[&] { bs.Quiesce(); }, [&] { rs.Quiesce(); }});
}

Outcome ReadRandom(const Config& cfg) {
  const uint64_t rows = static_cast<uint64_t>(200000 * cfg.scale);
  BasaltStore bs(cfg.dir + "/read-basalt", 1);
  RawStore rs(cfg.dir + "/read-raw");
  for (uint64_t start = 0; start < rows; start += 1000) {
    std::vector<basalt::Mutation> batch;
    rocksdb::WriteBatch raw;
    for (uint64_t i = start; i < std::min(rows, start + 1000); ++i) {
      batch.emplace_back(basalt::Put(UserRow(i)).Add("f", "q", kValue));
      raw.Put(UserRow(i) + RawColumn(), RawValue());
    }
    Check(bs.table().Batch(batch).status(), "basalt load");
    Check(rs.db()->Write(rocksdb::WriteOptions(), &raw), "raw load");
  }
  bs.Compact();
  rs.Compact();
  std::mt19937_64 rng_b(1), rng_r(1);
  // Each side reads into one result it reuses: raw RocksDB into a string, basalt into a
  // RowResult (Table::GetInto).
  std::string value;
  basalt::RowResult row;
  auto basalt_op = [&] {
    // A point get of one cell, as the raw side's key names row and column.
    basalt::Status s =
        bs.table().GetInto(basalt::Get(UserRow(rng_b() % rows)).AddColumn("f", "q"), &row);
    if (!s.ok() || row.empty()) Die("basalt get missed");
  };
  auto raw_op = [&] {
    auto s = rs.db()->Get(RawReadOptions(), UserRow(rng_r() % rows) + RawColumn(), &value);
    Check(s, "raw get");
  };
  return Compare(cfg, "readrandom", "gets", 1, basalt_op, raw_op);
}

Outcome ScanPrefix10(const Config& cfg) {
  const uint64_t users = static_cast<uint64_t>(2000 * cfg.scale);
  const int events_per_user = 100;
  BasaltStore bs(cfg.dir + "/scan-basalt", 1);
  RawStore rs(cfg.dir + "/scan-raw");
  const int64_t t0 = 1700000000000;
  for (uint64_t u = 0; u < users; ++u) {
    std::vector<basalt::Mutation> batch;
    rocksdb::WriteBatch raw;
    for (int e = 0; e < events_per_user; ++e) {
      std::string row = EventRow(u, t0 + e * 1000);
      batch.emplace_back(basalt::Put(row).Add("f", "q", kValue));
      raw.Put(row + RawColumn(), RawValue());
    }
    Check(bs.table().Batch(batch).status(), "basalt load");
    Check(rs.db()->Write(rocksdb::WriteOptions(), &raw), "raw load");
  }
  bs.Compact();
  rs.Compact();
  std::mt19937_64 rng_b(2), rng_r(2);
  auto basalt_op = [&] {
    basalt::Scan scan;
    scan.SetRowPrefix(UserRow(rng_b() % users)).SetLimit(10);
    auto scanner = bs.table().GetScanner(scan);
    Check(scanner.status(), "basalt scan");
    basalt::RowResult r;
    int n = 0;
    while ((*scanner)->Next(&r)) ++n;
    if (n != 10) Die("basalt scan returned " + std::to_string(n) + " rows");
  };
  auto raw_op = [&] {
    std::string prefix = UserRow(rng_r() % users);
    std::unique_ptr<rocksdb::Iterator> it(rs.db()->NewIterator(RawReadOptions()));
    // Copied out, as basalt's scanner hands rows to the caller.
    std::vector<std::pair<std::string, std::string>> rows;
    for (it->Seek(prefix); it->Valid() && rows.size() < 10 && it->key().starts_with(prefix);
         it->Next()) {
      rows.emplace_back(it->key().ToString(), it->value().ToString());
    }
    if (rows.size() != 10) Die("raw scan returned " + std::to_string(rows.size()) + " rows");
  };
  return Compare(cfg, "scanprefix10", "scans", 1, basalt_op, raw_op);
}

Outcome GetVersions10(const Config& cfg) {
  const uint64_t rows = static_cast<uint64_t>(20000 * cfg.scale);
  BasaltStore bs(cfg.dir + "/versions-basalt", 10);
  RawStore rs(cfg.dir + "/versions-raw");
  const int64_t t0 = 1700000000000;
  for (uint64_t start = 0; start < rows; start += 100) {
    std::vector<basalt::Mutation> batch;
    rocksdb::WriteBatch raw;
    for (uint64_t i = start; i < std::min(rows, start + 100); ++i) {
      basalt::Put put(UserRow(i));
      for (int v = 0; v < 10; ++v) {
        put.Add("f", "q", t0 + v, kValue);
        // The raw layout a user would pick: row, column, then the timestamp reversed.
        std::string key = UserRow(i) + RawColumn(/*key_has_ts=*/true);
        basalt::util::PutFixed64BE(&key, static_cast<uint64_t>(INT64_MAX - (t0 + v)));
        raw.Put(key, RawValue());
      }
      batch.emplace_back(std::move(put));
    }
    Check(bs.table().Batch(batch).status(), "basalt load");
    Check(rs.db()->Write(rocksdb::WriteOptions(), &raw), "raw load");
  }
  bs.Compact();
  rs.Compact();
  std::mt19937_64 rng_b(3), rng_r(3);
  auto basalt_op = [&] {
    basalt::Get get(UserRow(rng_b() % rows));
    get.ReadVersions(10);
    auto row = bs.table().Get(get);
    if (!row.ok() || row->cells().size() != 10) Die("basalt get of 10 versions failed");
  };
  auto raw_op = [&] {
    std::string prefix = UserRow(rng_r() % rows) + RawColumn(/*key_has_ts=*/true);
    std::unique_ptr<rocksdb::Iterator> it(rs.db()->NewIterator(RawReadOptions()));
    std::vector<std::pair<std::string, std::string>> versions;
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
      versions.emplace_back(it->key().ToString(), it->value().ToString());
    }
    if (versions.size() != 10) Die("raw get of 10 versions failed");
  };
  return Compare(cfg, "getversions10", "gets", 1, basalt_op, raw_op);
}

// The feed's home read (src/recipes/feed_layout.h, home_walk.cc): a reader's inbox is one row of
// one column per entry, qualifier = ReverseTimestamp(time) + post id (newest first), value empty;
// a post is a row, its text in p:t. A home read takes the inbox's first 20 columns (a Get with a
// per-family limit, as the feed reads it) and then the 20 posts' texts in one multi-get. The raw
// side lays the same data out as a RocksDB user would by hand: inbox entries under
// 'i' user timeline-key, posts under 'p' post-id; a home read is one iterator's Seek and 20
// Nexts, then one batched DB::MultiGet.
class HomeStores {
 public:
  static constexpr int kPage = 20;

  explicit HomeStores(const Config& cfg)
      : users_(static_cast<uint64_t>(2000 * cfg.scale)),
        posts_(static_cast<uint64_t>(20000 * cfg.scale)),
        raw_(cfg.dir + "/home-raw") {
    const std::string path = cfg.dir + "/home-basalt";
    std::filesystem::remove_all(path);
    basalt::ConnectionOptions o;
    o.block_cache_bytes = kBlockCacheBytes;
    o.write_buffer_bytes = kWriteBufferBytes;
    o.background_jobs = kBackgroundJobs;
    o.statistics = g_statistics;
    conn_ = basalt::bench::Check(basalt::Connection::Open(path, o), "opening basalt");
    for (const char* t : {"inbox", "posts"}) {
      basalt::TableDescriptor desc(basalt::TableName("default", t));
      desc.AddFamily(basalt::FamilyDescriptor(t[0] == 'i' ? "i" : "p"));
      Check(conn_->admin().CreateTable(desc), "creating the table");
    }
    inbox_ = basalt::bench::Check(conn_->GetTable("inbox"), "opening the inbox table");
    posts_table_ = basalt::bench::Check(conn_->GetTable("posts"), "opening the posts table");
    Load();
  }

  uint64_t users() const { return users_; }
  const std::string& post_id(uint64_t i) const { return post_ids_[i % post_ids_.size()]; }
  basalt::Table& inbox() { return *inbox_; }
  basalt::Table& posts() { return *posts_table_; }
  rocksdb::DB* raw() { return raw_.db(); }

 private:
  static constexpr int kEntriesPerInbox = 200;
  static constexpr int64_t kT0 = 1700000000000;

  // ReverseTimestamp(time): newest first.
  static std::string Reverse(int64_t ts) {
    std::string out;
    basalt::util::PutFixed64BE(&out, static_cast<uint64_t>(INT64_MAX - ts));
    return out;
  }

  void Load() {
    std::vector<int64_t> times(posts_);
    {
      std::vector<basalt::Put> batch;
      rocksdb::WriteBatch raw;
      for (uint64_t i = 0; i < posts_; ++i) {
        times[i] = kT0 + static_cast<int64_t>(i) * 1000;
        post_ids_.push_back(UserRow(i % users_) + Reverse(times[i]));
        batch.emplace_back(post_ids_.back()).Add("p", "t", kValue);
        raw.Put("p" + post_ids_.back(), kValue);
        if (batch.size() == 1000 || i + 1 == posts_) {
          Check(posts_table_->Put(batch), "basalt load");
          Check(raw_.db()->Write(rocksdb::WriteOptions(), &raw), "raw load");
          batch.clear();
          raw.Clear();
        }
      }
    }
    std::mt19937_64 rng(4);
    for (uint64_t u = 0; u < users_; ++u) {
      basalt::Put put(UserRow(u));
      rocksdb::WriteBatch raw;
      for (int e = 0; e < kEntriesPerInbox; ++e) {
        const uint64_t p = rng() % posts_;
        const std::string timeline_key = Reverse(times[p]) + post_ids_[p];
        put.Add("i", timeline_key, "");
        raw.Put("i" + UserRow(u) + timeline_key, "");
      }
      Check(inbox_->Put(put), "basalt load");
      Check(raw_.db()->Write(rocksdb::WriteOptions(), &raw), "raw load");
    }
    for (const char* t : {"inbox", "posts"}) {
      Check(conn_->admin().MajorCompact(basalt::TableName("default", t)), "basalt compaction");
    }
    raw_.Compact();
  }

  uint64_t users_;
  uint64_t posts_;
  RawStore raw_;
  std::unique_ptr<basalt::Connection> conn_;
  std::unique_ptr<basalt::Table> inbox_;
  std::unique_ptr<basalt::Table> posts_table_;
  std::vector<std::string> post_ids_;
};

// A post id out of an inbox entry's timeline key.
std::string PostIdOf(std::string_view timeline_key) {
  return std::string(timeline_key.substr(8));
}

// basalt's inbox page: the Get the feed makes. Returns the post ids, newest first.
void BasaltInboxPage(HomeStores& s, uint64_t user, std::vector<std::string>* ids) {
  basalt::Get get(UserRow(user));
  get.AddFamily("i");
  get.SetMaxResultsPerColumnFamily(HomeStores::kPage);
  basalt::RowResult row = basalt::bench::Check(s.inbox().Get(get), "basalt inbox read");
  ids->clear();
  for (const basalt::Cell& c : row.cells()) ids->push_back(PostIdOf(c.qualifier));
  if (ids->size() != HomeStores::kPage) {
    Die("basalt inbox read returned " + std::to_string(ids->size()) + " entries");
  }
}

// basalt's hydration: one multi-get of the posts' texts (Table::Get(std::vector<Get>)).
void BasaltPosts(HomeStores& s, const std::vector<std::string>& ids) {
  std::vector<basalt::Get> gets;
  gets.reserve(ids.size());
  for (const std::string& id : ids) gets.emplace_back(id).AddColumn("p", "t");
  std::vector<basalt::RowResult> rows = basalt::bench::Check(s.posts().Get(gets), "basalt posts");
  for (const basalt::RowResult& r : rows) {
    if (r.cells().size() != 1 || r.cells()[0].value.size() != kValue.size()) {
      Die("basalt multi-get missed a post");
    }
  }
}

void RawInboxPage(HomeStores& s, uint64_t user, std::vector<std::string>* ids) {
  const std::string prefix = "i" + UserRow(user);
  std::unique_ptr<rocksdb::Iterator> it(s.raw()->NewIterator(RawReadOptions()));
  ids->clear();
  for (it->Seek(prefix);
       it->Valid() && ids->size() < HomeStores::kPage && it->key().starts_with(prefix);
       it->Next()) {
    ids->push_back(
        PostIdOf(std::string_view(it->key().data(), it->key().size()).substr(prefix.size())));
  }
  Check(it->status(), "raw inbox read");
  if (ids->size() != HomeStores::kPage) {
    Die("raw inbox read returned " + std::to_string(ids->size()) + " entries");
  }
}

void RawPosts(HomeStores& s, const std::vector<std::string>& ids) {
  std::vector<std::string> keys;
  keys.reserve(ids.size());
  for (const std::string& id : ids) keys.push_back("p" + id);
  std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
  std::vector<rocksdb::PinnableSlice> values(keys.size());
  std::vector<rocksdb::Status> statuses(keys.size());
  s.raw()->MultiGet(RawReadOptions(), s.raw()->DefaultColumnFamily(), keys.size(), slices.data(),
                    values.data(), statuses.data());
  // Copied out, as basalt's multi-get hands each row's cells to the caller.
  std::vector<std::string> texts(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    Check(statuses[i], "raw multi-get");
    texts[i].assign(values[i].data(), values[i].size());
    if (texts[i].size() != kValue.size()) Die("raw multi-get missed a post");
  }
}

// home20, and its two halves on the same data: inbox20 (the short scan) and multiget20 (20
// posts picked at random).
void Home20(const Config& cfg, std::vector<Outcome>* outcomes) {
  HomeStores s(cfg);
  std::mt19937_64 rng_b(5), rng_r(5);
  std::vector<std::string> ids_b, ids_r;
  outcomes->push_back(Compare(
      cfg, "home20", "reads", 1,
      [&] {
        BasaltInboxPage(s, rng_b() % s.users(), &ids_b);
        BasaltPosts(s, ids_b);
      },
      [&] {
        RawInboxPage(s, rng_r() % s.users(), &ids_r);
        RawPosts(s, ids_r);
      }));
  outcomes->push_back(Compare(
      cfg, "inbox20", "reads", 1, [&] { BasaltInboxPage(s, rng_b() % s.users(), &ids_b); },
      [&] { RawInboxPage(s, rng_r() % s.users(), &ids_r); }));
  auto random_ids = [&](std::mt19937_64& rng, std::vector<std::string>* ids) {
    ids->clear();
    for (int i = 0; i < HomeStores::kPage; ++i) ids->push_back(s.post_id(rng()));
  };
  outcomes->push_back(Compare(
      cfg, "multiget20", "reads", 1,
      [&] {
        random_ids(rng_b, &ids_b);
        BasaltPosts(s, ids_b);
      },
      [&] {
        random_ids(rng_r, &ids_r);
        RawPosts(s, ids_r);
      }));
}

basalt::bench::Table OutcomeTable(const std::vector<Outcome>& outcomes) {
  basalt::bench::Table table;
  table.columns = {"workload", "basalt", "raw RocksDB", "ratio"};
  table.right_aligned = {false, true, true, true};
  for (const auto& o : outcomes) {
    table.AddRow({o.name, basalt::bench::Fixed(o.basalt_ops, 0) + " " + o.unit + "/s",
                  basalt::bench::Fixed(o.raw_ops, 0) + " " + o.unit + "/s",
                  basalt::bench::Fixed(o.ratio, 3) + "x"});
  }
  return table;
}

// Returns -1 to go on, or the exit code.
int ParseArgs(int argc, char** argv, Config* cfg, basalt::bench::Harness* harness) {
  CLI::App& app = harness->app();
  app.add_option("--dir", cfg->dir, "where the stores go")->capture_default_str();
  harness->AddRounds(&cfg->rounds, 5);
  app.add_option("--scale", cfg->scale, "scales the data (at least 0.01)")->capture_default_str();
  app.add_option("--only", cfg->only, "run only this workload");
  app.add_option("--profile-side", cfg->side, "run only one side, for a profiler")
      ->check(CLI::IsMember({"basalt", "raw"}));
  app.add_flag("--equal-bytes", cfg->equal_bytes,
               "pad the raw side's keys and values to basalt's sizes");
  bool no_statistics = false;
  app.add_flag("--no-statistics", no_statistics, "no RocksDB ticker statistics on either side");
  app.add_option("--round-seconds", cfg->round_seconds, "seconds each side gets in a round")
      ->capture_default_str();
  double slice_ms = cfg->slice_seconds * 1000;
  app.add_option("--slice-ms", slice_ms, "the turns within a round (0: one whole turn a side)")
      ->capture_default_str();
  if (int rc = harness->Parse(argc, argv); rc >= 0) return rc;
  cfg->scale = std::max(0.01, cfg->scale);
  cfg->round_seconds = std::max(0.05, cfg->round_seconds);
  cfg->slice_seconds = std::max(0.0, slice_ms) / 1000;
  cfg->statistics = !no_statistics;
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  Config cfg;
  basalt::bench::Harness harness("basalt_core_bench",
                                 "basalt against raw RocksDB on the core operations");
  if (int rc = ParseArgs(argc, argv, &cfg, &harness); rc >= 0) return rc;
  g_equal_bytes = cfg.equal_bytes;
  g_statistics = cfg.statistics;
  std::filesystem::create_directories(cfg.dir);
  const std::vector<std::pair<std::string, Outcome (*)(const Config&)>> workloads = {
      {"fillbatch100", FillBatch100},
      {"readrandom", ReadRandom},
      {"scanprefix10", ScanPrefix10},
      {"getversions10", GetVersions10}};
  std::vector<Outcome> outcomes;
  for (const auto& [name, run] : workloads) {
    if (cfg.only.empty() || cfg.only == name) outcomes.push_back(run(cfg));
  }
  if (cfg.only.empty() || cfg.only == "home20") Home20(cfg, &outcomes);
  std::printf("\n");
  harness.Emit(OutcomeTable(outcomes));
  std::filesystem::remove_all(cfg.dir);
  return harness.Finish();
}
