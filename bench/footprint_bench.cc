// Bytes on disk per stored entry: basalt against raw RocksDB storing the same entries with the
// same compression, after a flush and a full compaction on both sides (issues 19 and 21).
//
// Workloads (at --scale 1):
//   cells    2,000,000 rows of one 100-byte cell (half of each value repeats its other half, as
//            db_bench's default values compress to about 50%). basalt: row "r" + 10 digits,
//            family "f", qualifier "q". Raw: key = the row, value = the 100 bytes.
//   actions  note 000: 1,000,000 actions of 20,000 Zipf users through ActivityLog::RecordMany
//            (tall layout). Raw: the same key and value bytes the log stores (docs/recipes.md).
//   capped   a tenth of those actions (100,000 of 2,000 users) with max_events_per_user = 20
//            (amortised trims, so basalt holds a few more per user; entries are counted on each
//            side): the log deletes as it goes and the compaction must drop what it deleted.
//            Raw: only each user's newest 20 events, written once.
// Each workload runs with NONE, LZ4 and ZSTD on both sides. basalt's bytes are its family's SST
// files (Admin::GetStoreStats), raw RocksDB's its SST files (rocksdb.total-sst-files-size).
//
// Usage: basalt_footprint_bench [--dir DIR] [--scale F] [--markdown FILE]

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "basalt/basalt.h"
#include "basalt/keys.h"
#include "basalt/recipes/activity_log.h"
#include "bench_util.h"
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
  std::string markdown;
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

rocksdb::CompressionType RocksCompression(Compression c) {
  switch (c) {
    case Compression::kLz4:
      return rocksdb::kLZ4Compression;
    case Compression::kZstd:
      return rocksdb::kZSTD;
    default:
      return rocksdb::kNoCompression;
  }
}

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

struct Sizes {
  uint64_t basalt_bytes = 0;
  uint64_t raw_bytes = 0;
  int64_t entries = 0;          // entries the raw side stores
  int64_t basalt_entries = -1;  // entries basalt holds, when not `entries`
};

// Opens a fresh basalt store, runs `fill` on it, compacts, and returns the SST bytes of the
// table `table`.
uint64_t BasaltBytes(const std::string& dir, const basalt::TableName& table,
                     const std::function<void(basalt::Connection&)>& fill) {
  std::filesystem::remove_all(dir);
  auto conn = Check(basalt::Connection::Open(dir), "open basalt");
  fill(*conn);
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
  s.raw_bytes = RawBytes(cfg.dir + "/raw", c, [&](rocksdb::DB& db) {
    std::mt19937_64 rng(1);
    for (int64_t i = 0; i < n; i += kBatch) {
      rocksdb::WriteBatch b;
      for (int64_t j = i; j < std::min(n, i + kBatch); ++j) b.Put(CellRow(j), Value(rng));
      Check(db.Write(rocksdb::WriteOptions(), &b), "raw write");
    }
  });
  return s;
}

Sizes Actions(const Config& cfg, Compression c, bool capped) {
  const basalt::bench::ActionLogWorkload w = basalt::bench::MakeActionLogWorkload(cfg.scale * 0.2);
  const auto& users = w.action_users;
  const int64_t n = static_cast<int64_t>(users.size());
  const basalt::TableName table("default", "activity_events");
  Sizes s;
  s.basalt_bytes = BasaltBytes(cfg.dir + "/basalt", table, [&](basalt::Connection& conn) {
    CreateTable(conn, table, "e", c);  // the log uses the table it finds
    ActivityLogOptions options;
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
  s.raw_bytes = RawBytes(cfg.dir + "/raw", c, [&](rocksdb::DB& db) {
    const std::string value = ActionValue();
    uint64_t seq = uint64_t{1} << 40;  // as large as basalt's random sequence numbers
    for (int64_t i = 0; i < n; i += kBatch) {
      rocksdb::WriteBatch b;
      for (int64_t j = i; j < std::min(n, i + kBatch); ++j) {
        if (keep[j]) b.Put(ActionKey(users[j], basalt::bench::kActionTime0 + j, seq++), value);
      }
      Check(db.Write(rocksdb::WriteOptions(), &b), "raw write");
    }
  });
  return s;
}

Config ParseArgs(int argc, char** argv) {
  Config cfg;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Die(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--dir") {
      cfg.dir = value();
    } else if (arg == "--scale") {
      cfg.scale = std::stod(value());
    } else if (arg == "--markdown") {
      cfg.markdown = value();
    } else {
      Die("usage: basalt_footprint_bench [--dir DIR] [--scale F] [--markdown FILE]");
    }
  }
  if (cfg.scale <= 0) Die("bad --scale");
  return cfg;
}

}  // namespace

int main(int argc, char** argv) {
  const Config cfg = ParseArgs(argc, argv);
  std::filesystem::create_directories(cfg.dir);
  std::string out;
  char buf[512];
  snprintf(
      buf, sizeof(buf),
      "Footprint at scale %g: bytes on disk per stored entry after a full compaction\n\n"
      "| workload | compression | entries (basalt / RocksDB) | basalt B/entry | RocksDB B/entry | "
      "basalt/RocksDB |\n| --- | --- | ---: | ---: | ---: | ---: |\n",
      cfg.scale);
  out += buf;
  for (const char* workload : {"cells", "actions", "capped"}) {
    for (Compression c : {Compression::kNone, Compression::kLz4, Compression::kZstd}) {
      const std::string w = workload;
      const Sizes s = w == "cells" ? Cells(cfg, c) : Actions(cfg, c, w == "capped");
      const double raw_entries = static_cast<double>(s.entries);
      const double basalt_entries =
          static_cast<double>(s.basalt_entries >= 0 ? s.basalt_entries : s.entries);
      const double basalt_per = s.basalt_bytes / basalt_entries;
      const double raw_per = s.raw_bytes / raw_entries;
      std::string entries = std::to_string(s.entries);
      if (s.basalt_entries >= 0) entries = std::to_string(s.basalt_entries) + " / " + entries;
      snprintf(buf, sizeof(buf), "| %s | %s | %s | %.1f | %.1f | %.2fx |\n", workload,
               std::string(basalt::CompressionName(c)).c_str(), entries.c_str(), basalt_per,
               raw_per, basalt_per / raw_per);
      out += buf;
      printf("%s", buf);
      fflush(stdout);
    }
  }
  printf("\n%s", out.c_str());
  if (!cfg.markdown.empty()) std::ofstream(cfg.markdown) << out;
  std::filesystem::remove_all(cfg.dir);
  return 0;
}
