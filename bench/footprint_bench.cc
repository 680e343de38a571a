// Bytes on disk per stored entry: basalt against raw RocksDB storing the same entries with the
// same compression, after a flush and a full compaction on both sides.
//
// Workloads (at --scale 1):
//   cells    2,000,000 rows of one 100-byte cell (half of each value repeats its other half, as
//            db_bench's default values compress to about 50%). basalt: row "r" + 10 digits,
//            family "f", qualifier "q". Raw: key = the row, value = the 100 bytes.
//   actions  action-log: 1,000,000 actions of 20,000 Zipf users through ActivityLog::RecordMany
//            (tall layout). Raw: the same key and value bytes the log stores (docs/recipes.md).
//   capped   a tenth of those actions (100,000 of 2,000 users) with max_events_per_user = 20
//            (amortised trims, so basalt holds a few more per user; entries are counted on each
//            side): the log deletes as it goes and the compaction must drop what it deleted.
//            Raw: only each user's newest 20 events, written once.
//   feed     home-feed through the recipes: FollowGraph (tall) + Feed + FanoutWorkerPool, 10,000
//            users following 10 each (Zipf) with FollowMany, 50,000 posts of about 100 bytes of
//            word-like text, fanned out into inboxes capped at 20 (so the fan-out trims, with
//            the default trim_every). Rows: feed_posts, feed_inbox, follow_follows,
//            follow_followers.
//   clicks   click-counts: 200,000 ClickBy of 10,000 Zipf items by 20,000 visitors over two days.
//            Rows: clicks_by_item, clicks_by_minute, clicks_totals, clicks_visitors,
//            clicks_heavy.
//   users    5,000 accounts (the minimum hash cost) with one session each. Rows: social_users,
//            social_sessions.
// For the recipe workloads (feed, clicks, users) the raw side of each table holds exactly the
// cells basalt holds after the compaction, read back with a scan: key = row + qualifier (with
// the family's one-byte name first in tables of several families, as a raw design would keep
// them apart), value = the cell's value. The recipes create their tables with the compression
// of the row, through their options.
// Each workload runs with NONE, LZ4 and ZSTD on both sides. basalt's bytes are its family's SST
// files (Admin::GetStoreStats), raw RocksDB's its SST files (rocksdb.total-sst-files-size).
// A third store, "RocksDB + ts", holds the raw entries with each cell's timestamp appended to its
// key (BE64(INT64_MAX - ts), as a raw design keeping HBase's per-cell timestamp would; for
// cells and actions the time basalt gives the cell, for the recipe tables the timestamp read
// back): basalt against it shows what of the gap is that timestamp and what the rest of the
// layout.
//
// Usage: basalt_footprint_bench [--dir DIR] [--scale F] [--only W,W,...] [--markdown FILE]
//   [--json FILE]
//   --only picks workloads among cells, actions, capped, feed, clicks, users (default: all of
//   these) and steady (only when named): 1,500,000 x scale actions through ActivityLog, a basalt
//   Table written by hand and raw RocksDB, measured per level once the stores' own flushes and
//   compactions have gone quiet, then after a full compaction (Steady below).

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "basalt/basalt.h"
#include "basalt/keys.h"
#include "basalt/recipes/activity_log.h"
#include "basalt/recipes/click_counters.h"
#include "basalt/recipes/fanout_worker.h"
#include "basalt/recipes/feed.h"
#include "basalt/recipes/follow_graph.h"
#include "basalt/recipes/users.h"
#include "harness.h"
#include "raw_rocksdb.h"
#include "workloads.h"

namespace {

using basalt::Compression;
using basalt::recipes::ActivityLog;
using basalt::recipes::ActivityLogOptions;
using basalt::recipes::NewEvent;

struct Config {
  std::string dir = "/tmp/basalt-footprint-bench";
  double scale = 1.0;
  std::set<std::string> only;  // empty: every workload
};

[[noreturn]] void Die(const std::string& msg) {
  fprintf(stderr, "footprint_bench: %s\n", msg.c_str());
  exit(1);
}

template <class T>
T Check(basalt::Result<T> r, const char* what) {
  if (!r.ok()) Die(std::string(what) + ": " + r.status().ToString());
  return std::move(r).value();
}

void Check(const basalt::Status& s, const char* what) {
  if (!s.ok()) Die(std::string(what) + ": " + s.ToString());
}

void Check(const rocksdb::Status& s, const char* what) {
  if (!s.ok()) Die(std::string(what) + ": " + s.ToString());
}

using basalt::bench::RocksCompression;

// A 100-byte value whose second half repeats its first: compressible to about half.
std::string Value(std::mt19937_64& rng) {
  std::string v(50, '\0');
  for (char& c : v) c = static_cast<char>('a' + rng() % 26);
  return v + v;
}

std::string CellRow(int64_t i) {
  char buf[32];
  snprintf(buf, sizeof(buf), "r%010lld", static_cast<long long>(i));
  return buf;
}

constexpr int64_t kCap = 20;
constexpr int64_t kBatch = 100;

// The activity log's tall layout, written by hand (docs/recipes.md).
std::string ActionKey(int user, int64_t time_ms, uint64_t seq) {
  return basalt::KeyBuilder()
      .AddBytes(std::to_string(user))
      .AddReverseTimestamp(time_ms)
      .AddUint64(seq, basalt::KeyOrder::kDescending)
      .Build();
}
std::string ActionValue() {
  return basalt::KeyBuilder().AddBytes(basalt::bench::kActionName).AddBytes("").Build();
}

// The 8 bytes a raw key keeping the cell's timestamp ends with, BE64(INT64_MAX - ts): newest
// first, the bytes basalt's key holds.
std::string TimestampSuffix(int64_t ts) {
  return basalt::KeyBuilder().AddReverseTimestamp(ts).Build();
}

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

struct Sizes {
  uint64_t basalt_bytes = 0;
  uint64_t raw_bytes = 0;
  uint64_t raw_ts_bytes = 0;    // the raw entries with each cell's timestamp in the key
  int64_t entries = 0;          // entries the raw side stores
  int64_t basalt_entries = -1;  // entries basalt holds, when not `entries`
};

// Opens a fresh basalt store, runs `fill` on it, compacts, and returns the SST bytes of the
// table `table`. The store is reopened before the compaction: an idle pooled iterator of the
// fill's reads would pin the files the compaction replaces until the next read
// (iterator_pool.h), and RocksDB counts pinned files in the SST size.
uint64_t BasaltBytes(const std::string& dir, const basalt::TableName& table,
                     const std::function<void(basalt::Connection&)>& fill) {
  std::filesystem::remove_all(dir);
  {
    auto conn = Check(basalt::Connection::Open(dir), "open basalt");
    fill(*conn);
    Check(conn->Close(), "close");
  }
  auto conn = Check(basalt::Connection::Open(dir), "reopen basalt");
  Check(conn->admin().Flush(table), "flush");
  Check(conn->admin().MajorCompact(table), "compact");
  const basalt::StoreStats stats = Check(conn->admin().GetStoreStats(), "stats");
  uint64_t bytes = 0;
  for (const auto& f : stats.families) {
    if (f.table == table) bytes += f.sst_bytes;
  }
  Check(conn->Close(), "close");
  std::filesystem::remove_all(dir);
  return bytes;
}

uint64_t RawBytes(const std::string& dir, Compression c,
                  const std::function<void(rocksdb::DB&)>& fill) {
  auto db = basalt::bench::OpenRawRocksDb(dir, 256 << 20, RocksCompression(c));
  fill(*db);
  Check(db->Flush(rocksdb::FlushOptions()), "raw flush");
  rocksdb::CompactRangeOptions o;
  o.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  Check(db->CompactRange(o, nullptr, nullptr), "raw compact");
  uint64_t bytes = 0;
  db->GetIntProperty("rocksdb.total-sst-files-size", &bytes);
  db.reset();
  std::filesystem::remove_all(dir);
  return bytes;
}

void CreateTable(basalt::Connection& conn, const basalt::TableName& name, const std::string& family,
                 Compression c) {
  basalt::FamilyDescriptor f(family);
  f.compression = c;
  Check(conn.admin().CreateTable(basalt::TableDescriptor(name).AddFamily(f)), "create table");
}

Sizes Cells(const Config& cfg, Compression c) {
  const int64_t n = std::max<int64_t>(1, std::llround(2000000 * cfg.scale));
  const basalt::TableName table("default", "cells");
  Sizes s;
  s.entries = n;
  s.basalt_bytes = BasaltBytes(cfg.dir + "/basalt", table, [&](basalt::Connection& conn) {
    CreateTable(conn, table, "f", c);
    auto t = Check(conn.GetTable(table), "table");
    std::mt19937_64 rng(1);
    std::vector<basalt::Put> puts;
    for (int64_t i = 0; i < n; i += kBatch) {
      puts.clear();
      for (int64_t j = i; j < std::min(n, i + kBatch); ++j) {
        puts.emplace_back(CellRow(j)).Add("f", "q", Value(rng));
      }
      Check(t->Put(puts), "put");
    }
  });
  for (bool with_ts : {false, true}) {
    (with_ts ? s.raw_ts_bytes : s.raw_bytes) = RawBytes(cfg.dir + "/raw", c, [&](rocksdb::DB& db) {
      std::mt19937_64 rng(1);
      for (int64_t i = 0; i < n; i += kBatch) {
        rocksdb::WriteBatch b;
        // basalt gives each batch's cells the time they were written: so does this side.
        const std::string suffix = with_ts ? TimestampSuffix(NowMillis()) : std::string();
        for (int64_t j = i; j < std::min(n, i + kBatch); ++j)
          b.Put(CellRow(j) + suffix, Value(rng));
        Check(db.Write(rocksdb::WriteOptions(), &b), "raw write");
      }
    });
  }
  return s;
}

Sizes Actions(const Config& cfg, Compression c, bool capped) {
  const basalt::bench::ActionLogWorkload w = basalt::bench::MakeActionLogWorkload(cfg.scale * 0.2);
  const auto& users = w.action_users;
  const int64_t n = static_cast<int64_t>(users.size());
  const basalt::TableName table("default", "activity_events");
  Sizes s;
  s.basalt_bytes = BasaltBytes(cfg.dir + "/basalt", table, [&](basalt::Connection& conn) {
    ActivityLogOptions options;
    options.compression = c;
    if (capped) options.max_events_per_user = kCap;
    auto log = Check(ActivityLog::Open(conn, options), "open log");
    std::vector<NewEvent> batch;
    for (int64_t i = 0; i < n; i += kBatch) {
      batch.clear();
      for (int64_t j = i; j < std::min(n, i + kBatch); ++j) {
        batch.push_back(NewEvent{std::to_string(users[j]), basalt::bench::kActionName, "",
                                 basalt::bench::kActionTime0 + j});
      }
      Check(log->RecordMany(batch), "record");
    }
    // Trims are amortised (trim_every), so the log holds a few more than the cap per user:
    // count what it holds.
    s.basalt_entries = 0;
    for (int u = 0; u < w.users; ++u)
      s.basalt_entries += Check(log->Count(std::to_string(u)), "count");
  });
  // Which actions the raw side stores: all, or each user's newest kCap.
  std::vector<bool> keep(static_cast<size_t>(n), true);
  if (capped) {
    std::map<int, int64_t> seen;
    for (int64_t i = n - 1; i >= 0; --i) keep[i] = ++seen[users[i]] <= kCap;
  }
  s.entries = std::count(keep.begin(), keep.end(), true);
  for (bool with_ts : {false, true}) {
    (with_ts ? s.raw_ts_bytes : s.raw_bytes) = RawBytes(cfg.dir + "/raw", c, [&](rocksdb::DB& db) {
      const std::string value = ActionValue();
      uint64_t seq = uint64_t{1} << 40;  // as large as basalt's random sequence numbers
      for (int64_t i = 0; i < n; i += kBatch) {
        rocksdb::WriteBatch b;
        for (int64_t j = i; j < std::min(n, i + kBatch); ++j) {
          if (!keep[j]) continue;
          const int64_t time = basalt::bench::kActionTime0 + j;  // the log's cell timestamp
          std::string key = ActionKey(users[j], time, seq++);
          if (with_ts) key += TimestampSuffix(time);
          b.Put(key, value);
        }
        Check(db.Write(rocksdb::WriteOptions(), &b), "raw write");
      }
    });
  }
  return s;
}

// Steady state: the bytes a store holds once writes have stopped and its own flushes and
// compactions have gone quiet, with no forced compaction, and then after a full compaction.
// Three stores hold the same actions with the same compression: through ActivityLog, through a
// basalt Table written by hand with the log's tall layout (row = user + reversed time +
// sequence, one cell e: at the action's time), and raw RocksDB (the log's key and value bytes).
// Each store's files are read per level, the write-ahead logs apart.
struct StoreBytes {
  std::vector<uint64_t> levels;  // SST bytes per level, every column family summed
  uint64_t wal_bytes = 0;        // *.log files in the store's directory
  uint64_t other_bytes = 0;      // MANIFEST, OPTIONS and other files (not .sst, not .log)
  uint64_t sst() const {
    uint64_t n = 0;
    for (uint64_t b : levels) n += b;
    return n;
  }
};

void AddFileBytes(const std::string& dir, StoreBytes* out) {
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string ext = e.path().extension().string();
    if (ext == ".log") {
      out->wal_bytes += e.file_size();
    } else if (ext != ".sst" && e.path().filename() != "basalt-reserve") {
      out->other_bytes += e.file_size();
    }
  }
}

void AddLevels(rocksdb::DB& db, rocksdb::ColumnFamilyHandle* cf, StoreBytes* out) {
  rocksdb::ColumnFamilyMetaData meta;
  db.GetColumnFamilyMetaData(cf, &meta);
  if (out->levels.size() < meta.levels.size()) out->levels.resize(meta.levels.size());
  for (const auto& level : meta.levels) out->levels[level.level] += level.size;
}

// The files of the closed store in `dir`, opened read-only as the RocksDB database it is.
StoreBytes ClosedStoreBytes(const std::string& dir) {
  std::vector<std::string> names;
  Check(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), dir, &names), "list families");
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  for (const std::string& n : names) families.emplace_back(n, rocksdb::ColumnFamilyOptions());
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  Check(rocksdb::DB::OpenForReadOnly(rocksdb::DBOptions(), dir, families, &handles, &raw),
        "open the store read-only");
  std::unique_ptr<rocksdb::DB> db(raw);
  StoreBytes out;
  for (rocksdb::ColumnFamilyHandle* h : handles) {
    AddLevels(*db, h, &out);
    Check(db->DestroyColumnFamilyHandle(h), "close family");
  }
  db.reset();
  AddFileBytes(dir, &out);
  return out;
}

// Waits until `busy` has said false twice in a row, a second apart.
void WaitQuiet(const std::function<bool()>& busy) {
  int quiet = 0;
  while (quiet < 2) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    quiet = busy() ? 0 : quiet + 1;
  }
}

bool BasaltBusy(basalt::Connection& conn) {
  const basalt::StoreStats stats = Check(conn.admin().GetStoreStats(), "stats");
  uint64_t pending = 0;
  for (const auto& f : stats.families) pending += f.pending_compaction_bytes;
  return stats.running_compactions > 0 || stats.running_flushes > 0 || pending > 0;
}

struct SteadySizes {
  StoreBytes steady;
  StoreBytes full;
};

// `fill` writes into a fresh store in `dir`; then its memtables are flushed, as they would be in
// time, and the store is left until its compactions are done.
SteadySizes BasaltSteady(const std::string& dir, const basalt::TableName& table,
                         const std::function<void(basalt::Connection&)>& fill) {
  std::filesystem::remove_all(dir);
  SteadySizes out;
  {
    auto conn = Check(basalt::Connection::Open(dir), "open basalt");
    fill(*conn);
    Check(conn->admin().Flush(table), "flush");
    WaitQuiet([&] { return BasaltBusy(*conn); });
    Check(conn->Close(), "close");
  }
  out.steady = ClosedStoreBytes(dir);
  {
    auto conn = Check(basalt::Connection::Open(dir), "reopen basalt");
    Check(conn->admin().MajorCompact(table), "compact");
    Check(conn->Close(), "close");
  }
  out.full = ClosedStoreBytes(dir);
  std::filesystem::remove_all(dir);
  return out;
}

SteadySizes RawSteady(const std::string& dir, Compression c,
                      const std::function<void(rocksdb::DB&)>& fill) {
  auto db = basalt::bench::OpenRawRocksDb(dir, 256 << 20, RocksCompression(c));
  fill(*db);
  Check(db->Flush(rocksdb::FlushOptions()), "raw flush");
  WaitQuiet([&] { return basalt::bench::RocksDbBusy(*db); });
  SteadySizes out;
  AddLevels(*db, db->DefaultColumnFamily(), &out.steady);
  AddFileBytes(dir, &out.steady);
  rocksdb::CompactRangeOptions o;
  o.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  Check(db->CompactRange(o, nullptr, nullptr), "raw compact");
  AddLevels(*db, db->DefaultColumnFamily(), &out.full);
  AddFileBytes(dir, &out.full);
  db.reset();
  std::filesystem::remove_all(dir);
  return out;
}

// 1,500,000 actions of 30,000 Zipf users at --scale 1, in batches of kBatch.
struct SteadyRun {
  std::string side;
  SteadySizes sizes;
};

std::vector<SteadyRun> Steady(const Config& cfg, Compression c) {
  const basalt::bench::ActionLogWorkload w = basalt::bench::MakeActionLogWorkload(cfg.scale * 0.3);
  const auto& users = w.action_users;
  const int64_t n = static_cast<int64_t>(users.size());
  const uint64_t seq0 = uint64_t{1} << 40;  // as large as the log's random sequence numbers
  std::vector<SteadyRun> out;
  const basalt::TableName log_table("default", "activity_events");
  out.push_back(
      {"ActivityLog", BasaltSteady(cfg.dir + "/basalt", log_table, [&](basalt::Connection& conn) {
         ActivityLogOptions options;
         options.compression = c;
         auto log = Check(ActivityLog::Open(conn, options), "open log");
         std::vector<NewEvent> batch;
         for (int64_t i = 0; i < n; i += kBatch) {
           batch.clear();
           for (int64_t j = i; j < std::min(n, i + kBatch); ++j) {
             batch.push_back(NewEvent{std::to_string(users[j]), basalt::bench::kActionName, "",
                                      basalt::bench::kActionTime0 + j});
           }
           Check(log->RecordMany(batch), "record");
         }
       })});
  const basalt::TableName hand_table("default", "actions");
  out.push_back(
      {"basalt Table, by hand",
       BasaltSteady(cfg.dir + "/basalt", hand_table, [&](basalt::Connection& conn) {
         CreateTable(conn, hand_table, "e", c);
         auto t = Check(conn.GetTable(hand_table), "table");
         const std::string value = ActionValue();
         uint64_t seq = seq0;
         std::vector<basalt::Put> puts;
         for (int64_t i = 0; i < n; i += kBatch) {
           puts.clear();
           for (int64_t j = i; j < std::min(n, i + kBatch); ++j) {
             const int64_t time = basalt::bench::kActionTime0 + j;
             puts.emplace_back(ActionKey(users[j], time, seq++)).Add("e", "", time, value);
           }
           Check(t->Put(puts), "put");
         }
       })});
  out.push_back({"raw RocksDB", RawSteady(cfg.dir + "/raw", c, [&](rocksdb::DB& db) {
                   const std::string value = ActionValue();
                   uint64_t seq = seq0;
                   for (int64_t i = 0; i < n; i += kBatch) {
                     rocksdb::WriteBatch b;
                     for (int64_t j = i; j < std::min(n, i + kBatch); ++j) {
                       b.Put(ActionKey(users[j], basalt::bench::kActionTime0 + j, seq++), value);
                     }
                     Check(db.Write(rocksdb::WriteOptions(), &b), "raw write");
                   }
                 })});
  return out;
}

// One recipe table's figures.
struct TableSizes {
  std::string table;
  uint64_t basalt_bytes = 0;
  uint64_t raw_bytes = 0;
  uint64_t raw_ts_bytes = 0;
  int64_t entries = 0;
};

// Opens a fresh basalt store, runs `fill` on it, reopens it (see BasaltBytes), flushes and
// compacts each of `tables`, and measures each against a raw RocksDB holding the cells it holds
// then (the file comment has the raw keys).
std::vector<TableSizes> RecipeTables(const Config& cfg, Compression c,
                                     const std::vector<std::string>& tables,
                                     const std::function<void(basalt::Connection&)>& fill) {
  const std::string dir = cfg.dir + "/basalt";
  std::filesystem::remove_all(dir);
  {
    auto conn = Check(basalt::Connection::Open(dir), "open basalt");
    fill(*conn);
    Check(conn->Close(), "close");
  }
  auto conn = Check(basalt::Connection::Open(dir), "reopen basalt");
  std::vector<TableSizes> out;
  for (const std::string& t : tables) {
    const basalt::TableName name("default", t);
    Check(conn->admin().Flush(name), "flush");
    Check(conn->admin().MajorCompact(name), "compact");
  }
  const basalt::StoreStats stats = Check(conn->admin().GetStoreStats(), "stats");
  for (const std::string& t : tables) {
    const basalt::TableName name("default", t);
    TableSizes s;
    s.table = t;
    for (const auto& f : stats.families) {
      if (f.table == name) s.basalt_bytes += f.sst_bytes;
    }
    const basalt::TableInfo info = Check(conn->admin().DescribeTable(name), "describe");
    const bool tagged = info.descriptor.families.size() > 1;
    auto table = Check(conn->GetTable(name), "table");
    for (bool with_ts : {false, true}) {
      int64_t entries = 0;
      (with_ts ? s.raw_ts_bytes : s.raw_bytes) =
          RawBytes(cfg.dir + "/raw", c, [&](rocksdb::DB& db) {
            auto scanner = Check(table->GetScanner(basalt::Scan()), "scan");
            basalt::RowResult row;
            rocksdb::WriteBatch b;
            while (scanner->Next(&row)) {
              for (const basalt::Cell& cell : row.cells()) {
                std::string key = tagged ? cell.family.substr(0, 1) : std::string();
                key += cell.row;
                key += cell.qualifier;
                if (with_ts) key += TimestampSuffix(cell.timestamp);
                Check(b.Put(key, cell.value), "raw put");
                ++entries;
              }
              if (b.Count() >= 1000) {
                Check(db.Write(rocksdb::WriteOptions(), &b), "raw write");
                b.Clear();
              }
            }
            Check(scanner->status(), "scan");
            Check(db.Write(rocksdb::WriteOptions(), &b), "raw write");
          });
      s.entries = entries;
    }
    out.push_back(s);
  }
  Check(conn->Close(), "close");
  std::filesystem::remove_all(dir);
  return out;
}

// About 100 bytes of word-like text, different for each post.
std::string PostText(std::mt19937_64& rng) {
  static const char* const kWords[] = {
      "the",    "a",     "of",     "to",    "and",     "in",    "is",     "it",
      "you",    "that",  "was",    "for",   "on",      "are",   "with",   "as",
      "basalt", "rocks", "column", "table", "region",  "today", "coffee", "train",
      "late",   "great", "new",    "post",  "friends", "city",  "music",  "again"};
  std::string text;
  while (text.size() < 100) {
    if (!text.empty()) text += ' ';
    text += kWords[rng() % (sizeof(kWords) / sizeof(kWords[0]))];
  }
  return text;
}

std::vector<TableSizes> FeedTables(const Config& cfg, Compression c) {
  const basalt::bench::FeedWorkload w = basalt::bench::MakeFeedWorkload(cfg.scale * 0.5, 10);
  return RecipeTables(
      cfg, c, {"feed_posts", "feed_inbox", "follow_follows", "follow_followers"},
      [&](basalt::Connection& conn) {
        basalt::recipes::FollowGraphOptions graph_options;
        graph_options.compression = c;
        auto graph = Check(basalt::recipes::FollowGraph::Open(conn, graph_options), "graph");
        basalt::recipes::FeedOptions feed_options;
        feed_options.posts_compression = c;
        feed_options.inbox_compression = c;
        feed_options.inbox_cap = 20;
        auto feed = Check(basalt::recipes::Feed::Open(conn, *graph, feed_options), "feed");
        std::vector<std::pair<std::string, std::string>> batch;
        for (size_t i = 0; i < w.edges.size(); i += 1000) {
          batch.clear();
          for (size_t j = i; j < std::min(w.edges.size(), i + 1000); ++j) {
            batch.emplace_back(basalt::bench::FeedUserName(w.edges[j].first),
                               basalt::bench::FeedUserName(w.edges[j].second));
          }
          Check(graph->FollowMany(batch), "follow many");
        }
        std::mt19937_64 rng(7);
        for (int author : w.authors) {
          Check(feed->Post(basalt::bench::FeedUserName(author), PostText(rng)).status(), "post");
        }
        basalt::recipes::FanoutWorkerPool pool(*feed);
        pool.Start();
        Check(pool.Drain(std::chrono::hours(2)), "drain");
        pool.Stop();
        Check(pool.last_error(), "fan-out worker");
      });
}

std::vector<TableSizes> ClickTables(const Config& cfg, Compression c) {
  const int64_t clicks = std::max<int64_t>(1, std::llround(200000 * cfg.scale));
  const int items = std::max(10, static_cast<int>(10000 * cfg.scale));
  const int visitors = std::max(10, static_cast<int>(20000 * cfg.scale));
  return RecipeTables(
      cfg, c,
      {"clicks_by_item", "clicks_by_minute", "clicks_totals", "clicks_visitors", "clicks_heavy"},
      [&](basalt::Connection& conn) {
        const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count();
        const int64_t start = now - int64_t{2} * 24 * 3600 * 1000;  // two days, in click order
        basalt::recipes::ClickCountersOptions options;
        options.compression = c;
        options.clock = [now] { return now; };
        auto counters = Check(basalt::recipes::ClickCounters::Open(conn, options), "counters");
        std::vector<double> weights;
        for (int i = 0; i < items; ++i) weights.push_back(1.0 / (1 + i));
        std::discrete_distribution<int> zipf(weights.begin(), weights.end());
        std::uniform_int_distribution<int> visitor(0, visitors - 1);
        std::mt19937_64 rng(3);
        for (int64_t i = 0; i < clicks; ++i) {
          const int64_t t = start + (now - start) * i / clicks;
          Check(counters->ClickBy("item" + std::to_string(zipf(rng)),
                                  "visitor" + std::to_string(visitor(rng)), 1, t),
                "click");
        }
      });
}

std::vector<TableSizes> UserTables(const Config& cfg, Compression c) {
  const int users = std::max(10, static_cast<int>(5000 * cfg.scale));
  return RecipeTables(cfg, c, {"social_users", "social_sessions"}, [&](basalt::Connection& conn) {
    basalt::recipes::UserStoreOptions options;
    options.compression = c;
    options.hash_cost = basalt::recipes::UserStoreOptions::HashCost::kMinimum;
    auto store = Check(basalt::recipes::UserStore::Open(conn, options), "users");
    const std::string password = "correct horse battery";
    for (int i = 0; i < users; ++i) {
      const std::string name = "user" + std::to_string(i);
      Check(store->Register(name, password), "register");
      Check(store->UpdateProfile(name, {"User " + std::to_string(i), "Hello, I am user."}),
            "profile");
      Check(store->LogIn(name, password).status(), "log in");
    }
  });
}

// Returns -1 to go on, or the exit code.
int ParseArgs(int argc, char** argv, Config* cfg, basalt::bench::Harness* harness) {
  CLI::App& app = harness->app();
  app.add_option("--dir", cfg->dir, "where the stores go")->capture_default_str();
  app.add_option("--scale", cfg->scale, "scales every workload")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--only", cfg->only, "workloads, a comma list (cells, actions, capped, ...)")
      ->delimiter(',');
  return harness->Parse(argc, argv);
}

}  // namespace

int main(int argc, char** argv) {
  Config parsed;
  basalt::bench::Harness harness("basalt_footprint_bench",
                                 "Bytes on disk per entry, basalt against raw RocksDB");
  if (int rc = ParseArgs(argc, argv, &parsed, &harness); rc >= 0) return rc;
  const Config& cfg = parsed;
  std::filesystem::create_directories(cfg.dir);
  char buf[512];
  snprintf(buf, sizeof(buf),
           "Footprint at scale %g: bytes on disk per stored entry after a full compaction\n\n",
           cfg.scale);
  const std::string heading = buf;
  basalt::bench::Table table;
  table.columns = {
      "workload",        "compression",    "entries (basalt / RocksDB)", "basalt B/entry",
      "RocksDB B/entry", "basalt/RocksDB", "RocksDB + ts B/entry",       "basalt/(RocksDB + ts)"};
  table.right_aligned = {false, false, true, true, true, true, true, true};
  using basalt::bench::Fixed;
  auto add = [&](const std::string& name, Compression c, const std::string& entries,
                 double basalt_per, double raw_per, double raw_ts_per) {
    table.AddRow({name, std::string(basalt::CompressionName(c)), entries, Fixed(basalt_per, 1),
                  Fixed(raw_per, 1), Fixed(basalt_per / raw_per, 2) + "x", Fixed(raw_ts_per, 1),
                  Fixed(basalt_per / raw_ts_per, 2) + "x"});
    fputs(basalt::bench::MarkdownRow(table.rows.back()).c_str(), stdout);
    fflush(stdout);
  };
  for (const std::string& w : cfg.only) {
    static const std::set<std::string> kKnown = {"cells",  "actions", "capped", "feed",
                                                 "clicks", "users",   "steady"};
    if (kKnown.count(w) == 0) Die("unknown workload '" + w + "'");
  }
  auto wanted = [&](const std::string& w) { return cfg.only.empty() || cfg.only.count(w) > 0; };
  for (const char* workload : {"cells", "actions", "capped"}) {
    if (!wanted(workload)) continue;
    for (Compression c : {Compression::kNone, Compression::kLz4, Compression::kZstd}) {
      const std::string w = workload;
      const Sizes s = w == "cells" ? Cells(cfg, c) : Actions(cfg, c, w == "capped");
      const double raw_entries = static_cast<double>(s.entries);
      const double basalt_entries =
          static_cast<double>(s.basalt_entries >= 0 ? s.basalt_entries : s.entries);
      const double basalt_per = s.basalt_bytes / basalt_entries;
      const double raw_per = s.raw_bytes / raw_entries;
      const double raw_ts_per = s.raw_ts_bytes / raw_entries;
      std::string entries = std::to_string(s.entries);
      if (s.basalt_entries >= 0) entries = std::to_string(s.basalt_entries) + " / " + entries;
      add(workload, c, entries, basalt_per, raw_per, raw_ts_per);
    }
  }
  if (cfg.only.count("steady") > 0) {
    // Only when asked: it is not a per-entry figure, and it waits for compactions.
    basalt::bench::Table steady;
    steady.title = "steady";
    steady.columns = {"store",  "compression",    "steady MB",          "L0-L6 MB (steady)",
                      "WAL MB", "x raw (steady)", "full-compaction MB", "x raw (full)"};
    steady.right_aligned = {false, false, true, false, true, true, true, true};
    auto mb = [](uint64_t b) { return Fixed(static_cast<double>(b) / 1e6, 1); };
    for (Compression c : {Compression::kSnappy, Compression::kLz4}) {
      const std::vector<SteadyRun> runs = Steady(cfg, c);
      const SteadySizes& raw = runs.back().sizes;
      for (const SteadyRun& r : runs) {
        std::string levels;
        for (uint64_t b : r.sizes.steady.levels) levels += (levels.empty() ? "" : " / ") + mb(b);
        steady.AddRow({r.side, std::string(basalt::CompressionName(c)), mb(r.sizes.steady.sst()),
                       levels, mb(r.sizes.steady.wal_bytes),
                       Fixed(static_cast<double>(r.sizes.steady.sst()) / raw.steady.sst(), 2) + "x",
                       mb(r.sizes.full.sst()),
                       Fixed(static_cast<double>(r.sizes.full.sst()) / raw.full.sst(), 2) + "x"});
        fputs(basalt::bench::MarkdownRow(steady.rows.back()).c_str(), stdout);
        fflush(stdout);
      }
    }
    harness.Note("Steady state at scale " + Fixed(cfg.scale, 2) +
                 ": SST bytes once flushes and compactions went quiet, and after a full "
                 "compaction\n\n");
    harness.Emit(steady);
  }
  // The recipe tables: one fill per workload and compression measures all its tables.
  for (const char* workload : {"feed", "clicks", "users"}) {
    if (!wanted(workload)) continue;
    for (Compression c : {Compression::kNone, Compression::kLz4, Compression::kZstd}) {
      const std::string w = workload;
      const std::vector<TableSizes> tables = w == "feed"     ? FeedTables(cfg, c)
                                             : w == "clicks" ? ClickTables(cfg, c)
                                                             : UserTables(cfg, c);
      for (const TableSizes& s : tables) {
        const double entries = static_cast<double>(std::max<int64_t>(1, s.entries));
        const double basalt_per = s.basalt_bytes / entries;
        const double raw_per = s.raw_bytes / entries;
        const double raw_ts_per = s.raw_ts_bytes / entries;
        add(s.table, c, std::to_string(s.entries), basalt_per, raw_per, raw_ts_per);
      }
    }
  }
  printf("\n");
  if (!table.rows.empty()) {
    harness.Note(heading);
    harness.Emit(table);
  }
  std::filesystem::remove_all(cfg.dir);
  return harness.Finish();
}
