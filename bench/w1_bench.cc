// Workload W1 (`action-log` in docs/design/workloads.md): a user action log. 100,000 users,
// 5,000,000 actions whose users follow a Zipf distribution (s = 1), recorded in time order; then
// its query, "the 10 latest actions after skipping 20", for Zipf-chosen users. basalt's ActivityLog
// (tall layout: row = user + (Long.MAX - stamp) + seq) against the same rows written and read by
// hand on raw RocksDB, and against SQLite with an index on (userid, stamp DESC), in the same run,
// on the same machine and disk.
//
//   SQL:     SELECT id, name, stamp FROM actions WHERE userid = ?
//            ORDER BY stamp DESC LIMIT 10 OFFSET 20
//   basalt:  ActivityLog::Latest(user, 10, 20)
//   RocksDB: Seek(user), skip 20 keys, decode the next 10 events
//
// Ingest: the first tenth of the actions one at a time (Record / one Put / one autocommit
// INSERT), the rest in batches of 100 (RecordMany / one WriteBatch / one transaction).
// Durability is matched: each acknowledged write is logged to the operating system before the
// call returns and not fsynced (basalt's default SYNC_WAL, RocksDB's default WriteOptions;
// SQLite in WAL mode with synchronous=NORMAL).
//
// Queries alternate between the two sides in rounds of --seconds; the report gives queries per
// second and the p50 / p99 latency over all rounds.
//
// --url thrift://HOST:PORT adds a fourth side: basalt again, over thrift:// against that server
// (ingested after the embedded side, queried in the same rounds). With --metrics http://HOST:PORT
// (the server's HTTP side) its figures also state the Thrift2 calls per operation, read from the
// server's /metrics (bench/call_counter.h). The server must be fresh and this run its only
// Thrift2 client: scripts/recipes_over_thrift.sh starts one.
//
// Usage: basalt_w1_bench [--dir DIR] [--scale F] [--seconds S] [--rounds N] [--markdown FILE]
//   [--json FILE]
//                        [--url thrift://HOST:PORT [--metrics http://HOST:PORT]]
//   --scale 0.02 runs 2,000 users and 100,000 actions.
//   --equal-bytes makes the raw side store the bytes basalt stores for each event
//   (docs/format.md): the key escaped (00 -> 00 FF) and followed by the row's and the empty
//   qualifier's terminators, the 8-byte timestamp and the type byte; the value after a varint
//   write sequence. Its queries then un-escape each returned key before decoding it. What is
//   left between the two sides is basalt's code, not its layout.

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "basalt/basalt.h"
#include "basalt/keys.h"
#include "basalt/recipes/activity_log.h"
#include "call_counter.h"
#include "harness.h"
#include "raw_rocksdb.h"
#include "workloads.h"

namespace {

using Clock = std::chrono::steady_clock;
using basalt::recipes::ActivityLog;
using basalt::recipes::ActivityLogOptions;
using basalt::recipes::NewEvent;

struct Config {
  std::string dir = "/tmp/basalt-w1-bench";
  double scale = 1.0;
  double seconds = 2.0;
  int rounds = 3;
  std::string url;      // non-empty: basalt also over this thrift:// target
  std::string metrics;  // the server's HTTP side, for its Thrift2 call count
  bool equal_bytes = false;
};

[[noreturn]] void Die(const std::string& msg) {
  fprintf(stderr, "w1_bench: %s\n", msg.c_str());
  exit(1);
}

template <class T>
T Check(basalt::Result<T> r, const char* what) {
  if (!r.ok()) Die(std::string(what) + ": " + r.status().ToString());
  return std::move(r).value();
}

void CheckSql(int rc, sqlite3* db, const char* what) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
    Die(std::string(what) + ": " + sqlite3_errmsg(db));
  }
}

double Seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

using basalt::bench::Zipf;
constexpr int64_t kTime0 = basalt::bench::kActionTime0;
const char* const kName = basalt::bench::kActionName;

std::string User(int u) {
  return std::to_string(u);
}

constexpr int64_t kBatch = 100;

// The raw side's event: the key and value bytes the activity log's tall layout stores
// (docs/recipes.md), so both sides write and read the same bytes.
std::string RawKey(int user, int64_t time_ms, uint64_t seq) {
  return basalt::KeyBuilder()
      .AddBytes(User(user))
      .AddReverseTimestamp(time_ms)
      .AddUint64(seq, basalt::KeyOrder::kDescending)
      .Build();
}
std::string RawValue() {
  return basalt::KeyBuilder().AddBytes(kName).AddBytes("").Build();
}

// --equal-bytes: basalt's stored form of a row key, E(x) (every 00 byte as 00 FF).
std::string Escaped(std::string_view x) {
  std::string out;
  out.reserve(x.size() + 4);
  for (char c : x) {
    out += c;
    if (c == '\0') out += '\xff';
  }
  return out;
}

// --equal-bytes: the key basalt stores for an event, E(row) 00 01 E("") 00 01 BE64(INT64_MAX -
// ts) (0xFF - kPut), with the cell's timestamp the event's time, as the log writes it.
std::string StoredKey(int user, int64_t time_ms, uint64_t seq) {
  std::string key = Escaped(RawKey(user, time_ms, seq));
  key.append("\0\x01\0\x01", 4);
  key += basalt::KeyBuilder().AddReverseTimestamp(time_ms).Build();  // BE64(INT64_MAX - ts)
  key += static_cast<char>(0xff - 4);                                // CellType::kPut
  return key;
}

// --equal-bytes: the value basalt stores, varint(write sequence + 1) then the payload.
std::string StoredValue(uint64_t write_seq, const std::string& payload) {
  std::string value;
  for (uint64_t v = write_seq + 1;; v >>= 7) {
    if (v < 0x80) {
      value += static_cast<char>(v);
      break;
    }
    value += static_cast<char>((v & 0x7f) | 0x80);
  }
  return value + payload;
}

// --equal-bytes: the row key of a stored key, un-escaped (the inverse of StoredKey's first part).
std::string RowOfStoredKey(std::string_view key) {
  std::string row;
  const std::string_view escaped = key.substr(0, key.size() - 4 - 9);
  row.reserve(escaped.size());
  for (size_t i = 0; i < escaped.size(); ++i) {
    row += escaped[i];
    if (escaped[i] == '\0') ++i;  // the FF after an escaped zero
  }
  return row;
}

struct Side {
  double ingest = 0;          // actions per second, one at a time
  double ingest_batched = 0;  // actions per second, in batches of kBatch
  std::vector<double> latencies_us;
  double query_seconds = 0;
  int64_t rows = 0;  // rows returned, a check that both sides answer alike
  // basalt over thrift:// with --metrics: Thrift2 calls per Record, per RecordMany (of kBatch
  // events) and per query; -1 otherwise.
  double record_calls = -1;
  double record_many_calls = -1;
  int64_t query_calls = 0;  // summed over the rounds
};

// Returns -1 to go on, or the exit code.
int ParseArgs(int argc, char** argv, Config* cfg, basalt::bench::Harness* harness) {
  CLI::App& app = harness->app();
  app.add_option("--dir", cfg->dir, "where the stores go")->capture_default_str();
  app.add_option("--scale", cfg->scale, "scales users and actions")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  harness->AddSeconds(&cfg->seconds, 2.0);
  harness->AddRounds(&cfg->rounds, 3);
  app.add_option("--url", cfg->url, "basalt also over this thrift:// target");
  app.add_option("--metrics", cfg->metrics, "the server's HTTP side, for its Thrift2 call count");
  app.add_flag("--equal-bytes", cfg->equal_bytes,
               "pad the raw side's keys and values to basalt's sizes");
  if (int rc = harness->Parse(argc, argv); rc >= 0) return rc;
  if (!cfg->metrics.empty() && cfg->url.empty()) Die("--metrics needs --url");
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  Config parsed;
  basalt::bench::Harness harness("basalt_w1_bench",
                                 "The action log against raw RocksDB and SQLite");
  if (int rc = ParseArgs(argc, argv, &parsed, &harness); rc >= 0) return rc;
  const Config& cfg = parsed;
  const basalt::bench::ActionLogWorkload workload = basalt::bench::MakeActionLogWorkload(cfg.scale);
  const int users = workload.users;
  const int64_t actions = static_cast<int64_t>(workload.action_users.size());
  printf("W1: %d users, %lld actions, Zipf(s=1) users\n", users, static_cast<long long>(actions));
  std::filesystem::remove_all(cfg.dir);
  std::filesystem::create_directories(cfg.dir);

  const Zipf zipf(users);
  const std::vector<int>& action_users = workload.action_users;

  // ---- ingest: the first tenth one at a time, the rest in batches ----
  const int64_t singles = std::max<int64_t>(1, actions / 10);
  auto report = [](const char* who, const Side& side) {
    printf("%s ingest: %.0f actions/s single, %.0f batched\n", who, side.ingest,
           side.ingest_batched);
    fflush(stdout);
  };
  Side basalt_side, remote_side, raw_side, sqlite_side;
  const basalt::bench::ThriftCallCounter counter(cfg.metrics);  // the remote side's calls
  auto ingest = [&](ActivityLog& log, Side& side, bool counted) {
    int64_t mark = counted ? counter.Calls() : 0;
    auto start = Clock::now();
    for (int64_t i = 0; i < singles; ++i) {
      Check(log.Record(User(action_users[i]), kName, "", kTime0 + i), "record");
    }
    side.ingest = static_cast<double>(singles) / Seconds(Clock::now() - start);
    if (counted && counter.enabled()) {
      const int64_t now = counter.Calls();
      side.record_calls = static_cast<double>(now - mark) / static_cast<double>(singles);
      mark = now;
    }
    start = Clock::now();
    std::vector<NewEvent> batch;
    int64_t calls = 0;
    for (int64_t i = singles; i < actions; i += kBatch) {
      batch.clear();
      for (int64_t j = i; j < std::min(actions, i + kBatch); ++j) {
        batch.push_back(NewEvent{User(action_users[j]), kName, "", kTime0 + j});
      }
      Check(log.RecordMany(batch), "record many");
      ++calls;
    }
    side.ingest_batched = static_cast<double>(actions - singles) / Seconds(Clock::now() - start);
    if (counted && counter.enabled()) {
      side.record_many_calls =
          static_cast<double>(counter.Calls() - mark) / static_cast<double>(calls);
    }
  };
  auto conn = Check(basalt::Connection::Open(cfg.dir + "/basalt"), "open basalt");
  auto log = Check(ActivityLog::Open(*conn, ActivityLogOptions{}), "open log");
  ingest(*log, basalt_side, false);
  report("basalt", basalt_side);
  std::unique_ptr<basalt::Connection> remote_conn;
  std::unique_ptr<ActivityLog> remote_log;
  if (!cfg.url.empty()) {
    remote_conn = Check(basalt::Connection::Open(cfg.url), "open basalt over thrift://");
    remote_log = Check(ActivityLog::Open(*remote_conn, ActivityLogOptions{}), "open remote log");
    ingest(*remote_log, remote_side, true);
    report("basalt thrift://", remote_side);
  }

  std::unique_ptr<rocksdb::DB> raw = basalt::bench::OpenRawRocksDb(
      cfg.dir + "/raw", 256 << 20,
      basalt::bench::RocksCompression(ActivityLogOptions{}.compression));
  {
    const rocksdb::WriteOptions wo;
    const std::string value = RawValue();
    uint64_t seq = 1;
    // --equal-bytes: what basalt stores. Its write sequence is the store's, one per event.
    auto key = [&](int64_t i) {
      return cfg.equal_bytes ? StoredKey(action_users[i], kTime0 + i, seq)
                             : RawKey(action_users[i], kTime0 + i, seq);
    };
    auto stored_value = [&] { return cfg.equal_bytes ? StoredValue(seq, value) : value; };
    auto start = Clock::now();
    for (int64_t i = 0; i < singles; ++i) {
      const rocksdb::Status st = raw->Put(wo, key(i), stored_value());
      ++seq;
      if (!st.ok()) Die("raw put: " + st.ToString());
    }
    raw_side.ingest = static_cast<double>(singles) / Seconds(Clock::now() - start);
    start = Clock::now();
    for (int64_t i = singles; i < actions; i += kBatch) {
      rocksdb::WriteBatch batch;
      for (int64_t j = i; j < std::min(actions, i + kBatch); ++j) {
        batch.Put(key(j), stored_value());
        ++seq;
      }
      const rocksdb::Status st = raw->Write(wo, &batch);
      if (!st.ok()) Die("raw write: " + st.ToString());
    }
    raw_side.ingest_batched =
        static_cast<double>(actions - singles) / Seconds(Clock::now() - start);
    report("rocksdb", raw_side);
  }

  sqlite3* db = nullptr;
  CheckSql(sqlite3_open((cfg.dir + "/w1.sqlite").c_str(), &db), db, "open sqlite");
  CheckSql(sqlite3_exec(db,
                        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
                        "CREATE TABLE actions (id INTEGER PRIMARY KEY, userid INTEGER NOT NULL,"
                        " name TEXT, stamp INTEGER NOT NULL);"
                        "CREATE INDEX actions_user_stamp ON actions (userid, stamp DESC);",
                        nullptr, nullptr, nullptr),
           db, "schema");
  {
    sqlite3_stmt* insert = nullptr;
    CheckSql(sqlite3_prepare_v2(db, "INSERT INTO actions (userid, name, stamp) VALUES (?, ?, ?)",
                                -1, &insert, nullptr),
             db, "prepare insert");
    auto insert_one = [&](int64_t i) {
      sqlite3_bind_int64(insert, 1, action_users[i]);
      sqlite3_bind_text(insert, 2, kName, -1, SQLITE_STATIC);
      sqlite3_bind_int64(insert, 3, kTime0 + i);
      CheckSql(sqlite3_step(insert), db, "insert");
      sqlite3_reset(insert);
    };
    auto start = Clock::now();
    for (int64_t i = 0; i < singles; ++i) insert_one(i);
    sqlite_side.ingest = static_cast<double>(singles) / Seconds(Clock::now() - start);
    start = Clock::now();
    for (int64_t i = singles; i < actions; i += kBatch) {
      CheckSql(sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr), db, "begin");
      for (int64_t j = i; j < std::min(actions, i + kBatch); ++j) insert_one(j);
      CheckSql(sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr), db, "commit");
    }
    sqlite_side.ingest_batched =
        static_cast<double>(actions - singles) / Seconds(Clock::now() - start);
    sqlite3_finalize(insert);
    report("sqlite", sqlite_side);
  }

  // ---- queries: LIMIT 10 OFFSET 20 ----
  sqlite3_stmt* query = nullptr;
  CheckSql(sqlite3_prepare_v2(db,
                              "SELECT id, name, stamp FROM actions WHERE userid = ? "
                              "ORDER BY stamp DESC LIMIT 10 OFFSET 20",
                              -1, &query, nullptr),
           db, "prepare query");
  auto run_basalt = [&](int u) {
    auto events = Check(log->Latest(User(u), 10, 20), "latest");
    return static_cast<int64_t>(events.size());
  };
  auto run_remote = [&](int u) {
    auto events = Check(remote_log->Latest(User(u), 10, 20), "latest over thrift://");
    return static_cast<int64_t>(events.size());
  };
  // The hand-written query: the events are the keys under the user's prefix, newest first.
  const rocksdb::ReadOptions raw_read;
  auto run_raw = [&](int u) {
    std::string prefix = basalt::KeyBuilder().AddBytes(User(u)).Build();
    if (cfg.equal_bytes) prefix = Escaped(prefix);
    std::unique_ptr<rocksdb::Iterator> it(raw->NewIterator(raw_read));
    int64_t skipped = 0, n = 0;
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix) && n < 10; it->Next()) {
      if (skipped < 20) {
        ++skipped;
        continue;
      }
      // Decode what the recipe returns: the time and sequence from the key, the name.
      std::string_view key_bytes(it->key().data(), it->key().size());
      std::string_view value_bytes(it->value().data(), it->value().size());
      std::string unescaped;
      if (cfg.equal_bytes) {
        unescaped = RowOfStoredKey(key_bytes);
        key_bytes = unescaped;
        size_t header = 0;
        while (header < value_bytes.size() && (value_bytes[header] & 0x80) != 0) ++header;
        value_bytes.remove_prefix(header + 1);
      }
      basalt::KeyParser key(key_bytes);
      std::string user, name;
      int64_t time_ms = 0;
      uint64_t seq = 0;
      if (!key.ReadBytes(&user).ok() || !key.ReadReverseTimestamp(&time_ms).ok() ||
          !key.ReadUint64(&seq, basalt::KeyOrder::kDescending).ok()) {
        Die("raw: bad key");
      }
      basalt::KeyParser value(value_bytes);
      if (!value.ReadBytes(&name).ok()) Die("raw: bad value");
      ++n;
    }
    if (!it->status().ok()) Die("raw scan: " + it->status().ToString());
    return n;
  };
  auto run_sqlite = [&](int u) {
    sqlite3_bind_int64(query, 1, u);
    int64_t n = 0;
    int rc;
    while ((rc = sqlite3_step(query)) == SQLITE_ROW) {
      volatile int64_t stamp = sqlite3_column_int64(query, 2);
      (void)stamp;
      ++n;
    }
    CheckSql(rc, db, "query");
    sqlite3_reset(query);
    return n;
  };
  auto round = [&](Side& side, const std::function<int64_t(int)>& run, uint64_t seed) {
    std::mt19937_64 rng(seed);
    const auto start = Clock::now();
    while (Seconds(Clock::now() - start) < cfg.seconds) {
      const int u = zipf(rng);
      const auto t0 = Clock::now();
      side.rows += run(u);
      side.latencies_us.push_back(Seconds(Clock::now() - t0) * 1e6);
    }
    side.query_seconds += Seconds(Clock::now() - start);
  };
  for (int r = 0; r < cfg.rounds; ++r) {
    round(basalt_side, run_basalt, 1000 + r);
    if (remote_log != nullptr) {
      const int64_t before = counter.Calls();
      round(remote_side, run_remote, 1000 + r);
      remote_side.query_calls += counter.Calls() - before;
    }
    round(raw_side, run_raw, 1000 + r);
    round(sqlite_side, run_sqlite, 1000 + r);
  }
  // Both sides answer the same queries: the same users, the same number of rows.
  {
    std::mt19937_64 rng(7);
    for (int i = 0; i < 200; ++i) {
      const int u = zipf(rng);
      const int64_t n = run_basalt(u);
      if (n != run_sqlite(u) || n != run_raw(u) || (remote_log != nullptr && n != run_remote(u))) {
        Die("the sides disagree for user " + User(u));
      }
    }
  }
  sqlite3_finalize(query);
  sqlite3_close(db);
  log.reset();
  if (!conn->Close().ok()) Die("close");
  remote_log.reset();
  if (remote_conn != nullptr && !remote_conn->Close().ok()) Die("close thrift://");
  raw.reset();

  auto qps = [](const Side& s) {
    return static_cast<double>(s.latencies_us.size()) / s.query_seconds;
  };
  auto pct = [](const Side& side, double p) {
    return basalt::bench::Percentile(side.latencies_us, p);
  };
  const bool remote = !cfg.url.empty();
  char buf[512];
  snprintf(buf, sizeof(buf),
           "W1 at scale %g: %d users, %lld actions (Zipf s=1), query LIMIT 10 OFFSET 20\n\n",
           cfg.scale, users, static_cast<long long>(actions));
  printf("\n");
  harness.Note(buf);
  basalt::bench::Table table;
  table.columns = remote ? std::vector<std::string>{"metric",
                                                    "basalt embedded",
                                                    "basalt thrift://",
                                                    "RocksDB",
                                                    "SQLite",
                                                    "embedded/RocksDB",
                                                    "thrift:// / RocksDB",
                                                    "embedded/SQLite",
                                                    "Thrift2 calls/op"}
                         : std::vector<std::string>{"metric", "basalt",         "RocksDB",
                                                    "SQLite", "basalt/RocksDB", "basalt/SQLite"};
  table.right_aligned = std::vector<bool>(table.columns.size(), true);
  table.right_aligned[0] = false;
  using basalt::bench::Fixed;
  // `t`: the thrift:// side's figure, `calls` its calls per operation (-1: none to state).
  auto line = [&](const char* name, double b, double t, double r, double s, bool higher_better,
                  double calls = -1, const char* per = "") {
    const std::string lower = higher_better ? "" : " (lower is better)";
    if (!remote) {
      table.AddRow({name, Fixed(b, 1), Fixed(r, 1), Fixed(s, 1), Fixed(b / r, 2) + "x" + lower,
                    Fixed(b / s, 2) + "x" + lower});
      return;
    }
    std::string calls_text;
    if (calls >= 0) calls_text = Fixed(calls, 2) + per;
    table.AddRow({name, Fixed(b, 1), Fixed(t, 1), Fixed(r, 1), Fixed(s, 1),
                  Fixed(b / r, 2) + "x" + lower, Fixed(t / r, 2) + "x" + lower,
                  Fixed(b / s, 2) + "x" + lower, calls_text});
  };
  line("ingest one at a time, actions/s", basalt_side.ingest, remote_side.ingest, raw_side.ingest,
       sqlite_side.ingest, true, remote_side.record_calls, " a Record");
  char batched[64];
  snprintf(batched, sizeof(batched), "ingest in batches of %lld, actions/s",
           static_cast<long long>(kBatch));
  line(batched, basalt_side.ingest_batched, remote_side.ingest_batched, raw_side.ingest_batched,
       sqlite_side.ingest_batched, true, remote_side.record_many_calls, " a RecordMany");
  line("query, q/s", qps(basalt_side), remote ? qps(remote_side) : 0, qps(raw_side),
       qps(sqlite_side), true,
       remote && counter.enabled() ? static_cast<double>(remote_side.query_calls) /
                                         static_cast<double>(remote_side.latencies_us.size())
                                   : -1,
       " a Latest");
  line("query p50, us", pct(basalt_side, 0.5), pct(remote_side, 0.5), pct(raw_side, 0.5),
       pct(sqlite_side, 0.5), false);
  line("query p99, us", pct(basalt_side, 0.99), pct(remote_side, 0.99), pct(raw_side, 0.99),
       pct(sqlite_side, 0.99), false);
  harness.Emit(table);
  std::string rows_text;
  snprintf(buf, sizeof(buf), "rows per query: basalt %.2f, RocksDB %.2f, SQLite %.2f",
           static_cast<double>(basalt_side.rows) / basalt_side.latencies_us.size(),
           static_cast<double>(raw_side.rows) / raw_side.latencies_us.size(),
           static_cast<double>(sqlite_side.rows) / sqlite_side.latencies_us.size());
  rows_text = buf;
  if (remote) {
    snprintf(buf, sizeof(buf), ", basalt thrift:// %.2f",
             static_cast<double>(remote_side.rows) / remote_side.latencies_us.size());
    rows_text += buf;
  }
  harness.Note("\n" + rows_text + "\n");
  std::filesystem::remove_all(cfg.dir);
  return harness.Finish();
}
