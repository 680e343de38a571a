// Power loss (docs/reliability.md, "Power loss"): writers on an embedded store whose file system
// (fault_injection_fs.h) cuts the power at a random moment and then drops every byte and
// directory entry that was not synced. A write that returned before the cut is acknowledged; one
// that returned after it would never have returned, and is unknown. After each cut the store is
// reopened on the plain file system and checked:
//   - every acknowledged FSYNC_WAL write (Put, three-row Batch, RowMutations, Increment) is there;
//   - nothing is there in part: a Put or RowMutations whole or absent, a Batch all or nothing, an
//     Increment of two columns in two families both or neither;
//   - an FSYNC_WAL counter holds between its acknowledged and acknowledged + unknown increments;
//   - SYNC_WAL loses only writes whose log records were not durable: none acknowledged before
//     the earliest WAL append that no sync covered returned (the file system stamps WAL appends
//     with the same logical clock as the writes), none acknowledged before an acknowledged
//     FSYNC_WAL write began;
//   - when the cut kept nothing unsynced, what SYNC_WAL lost is a suffix of the log: no lost write
//     was acknowledged before a surviving write began. When it kept part of the unsynced tails
//     (writeback got them out) such losses are holes, counted: RocksDB 7.8's point-in-time
//     recovery replays a later log file after an earlier one that ends cleanly.
// Cycles run on one store, and at the end every earlier cycle is checked again, so a later
// recovery that lost what an earlier one kept would show. A second test runs the FSYNC_WAL
// writers with SYNC_WAL and expects the checks to report losses: they can fail.
//
// BASALT_POWER_LOSS_CYCLES=N runs N cycles instead of the default, BASALT_POWER_LOSS_SEED=S
// fixes the seed (the operation mix, cut moments and kept tails; not thread timing),
// BASALT_POWER_LOSS_TAILS=drop|bytes|appends|alternate chooses what the cuts keep of unsynced
// tails (default alternate: drop and bytes by turns), BASALT_POWER_LOSS_WRITE_BUFFER=BYTES the
// write buffer (default 128 KiB), BASALT_POWER_LOSS_TRACE=1 prints the file system's power-loss
// events.

#include <gtest/gtest.h>
#include <rocksdb/env.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "basalt/basalt.h"
#include "client/embedded.h"
#include "fault_injection_fs.h"
#include "support/test_store.h"

namespace basalt::crash {
namespace {

using testing::TempDir;
using UnsyncedTail = FaultInjectionFileSystem::UnsyncedTail;
using PowerLossReport = FaultInjectionFileSystem::PowerLossReport;

constexpr int kMutationRows = 4;  // RowMutations rows per writer
constexpr int kCounters = 2;      // counters per durability class
constexpr int kBatchRows = 3;

enum class Kind : uint8_t { kPut, kBatch, kRowMutations, kIncrement };

// One write, as its writer saw it. Ticks come from the file system's clock.
struct Op {
  Kind kind;
  bool acked = false;
  int64_t start = 0;   // before the call
  int64_t ack = 0;     // after it returned OK
  int64_t ack_ns = 0;  // steady clock, when it returned OK
  int64_t id = 0;      // Put, Batch: sequence number; RowMutations: row; Increment: counter
  int64_t gen = 0;     // RowMutations: the generation written
};

struct WriterLog {
  int writer = 0;
  bool fsync_class = false;  // checked against FSYNC_WAL's promise
  bool sync_wal = false;     // writes with SYNC_WAL
  std::vector<Op> ops;
};

struct Config {
  int cycles = 20;
  int fsync_writers = 2;
  int sync_writers = 2;
  // The FSYNC_WAL writers write with SYNC_WAL while the checks still expect FSYNC_WAL's promise:
  // the run that shows the checks catch losses.
  bool fsync_writers_use_sync_wal = false;
  // What the cuts keep of the unsynced tails written before them: nothing, a random number of
  // bytes or of whole log appends (writeback got them out; UnsyncedTail), or nothing and bytes
  // on alternate cycles.
  enum class Tails { kDrop, kBytes, kAppends, kAlternate } tails = Tails::kAlternate;
  size_t write_buffer_bytes = 128 * 1024;
};
using Tails = Config::Tails;

// What a cycle's writes look like after the power cut and recovery.
struct Observation {
  std::vector<std::vector<uint8_t>> survived;       // per writer, per op
  std::vector<std::vector<int64_t>> generation;     // per writer, per RowMutations row
  std::vector<std::vector<int64_t>> counter_value;  // per class (0 fsync, 1 sync), per counter
  int64_t torn = 0;                                 // writes there in part
  std::vector<std::string> torn_examples;
};

struct Figures {
  int cycles = 0;
  // By class: [0] writers checked against FSYNC_WAL's promise, [1] SYNC_WAL writers.
  std::array<int64_t, 2> acked{};            // acknowledged operations
  std::array<int64_t, 2> lost_writes{};      // acknowledged Puts, Batches, RowMutations lost
  std::array<int64_t, 2> lost_increments{};  // acknowledged increments lost (at least)
  int64_t unknown = 0;
  int64_t returned_after_cut = 0;  // unknown: they returned OK, but after the power went
  int64_t unknown_present = 0, unknown_absent = 0;
  // Acknowledged writes made with SYNC_WAL and acknowledged after the earliest WAL append that
  // was not durable at the cut: what SYNC_WAL can lose.
  int64_t at_risk = 0;
  int64_t cycles_with_loss = 0;
  double max_loss_age_ms = 0;  // how long before the cut the oldest lost write was acknowledged
  int64_t torn = 0;            // there in part
  int64_t excess = 0;          // counters above acknowledged + unknown
  // Lost, though acknowledged before a surviving write began: when the cut kept nothing unsynced
  // (out of order: must not happen), and when it kept part of the unsynced tails (holes).
  int64_t out_of_order = 0;
  int64_t holes = 0;
  int64_t cycles_with_holes = 0;
  int64_t before_wal_sync = 0;    // lost, though acknowledged before any unsynced WAL append
  int64_t followed_by_fsync = 0;  // lost SYNC_WAL, acknowledged before an acked FSYNC_WAL began
  int64_t changed_later = 0;      // the final pass saw a cycle differently
  PowerLossReport disk;           // summed
  std::vector<std::string> examples;

  std::string context;  // the cycle being classified, for the examples
  // Keeps the first few examples of each kind of finding.
  void Example(const std::string& kind, const std::string& what) {
    if (++example_counts[kind] <= 4) examples.push_back(context + ": " + kind + ": " + what);
  }
  std::map<std::string, int> example_counts;
  std::string Examples() const {
    std::string s;
    for (const auto& e : examples) s += "\n  " + e;
    return s;
  }
};

std::string Key(const char* fmt, int cycle, int writer, int64_t n) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), fmt, cycle, writer, static_cast<long long>(n));
  return buf;
}
std::string PutRow(int cycle, int w, int64_t seq) {
  return Key("c%03d/w%d/p%06lld", cycle, w, seq);
}
std::string BatchRow(int cycle, int w, int64_t seq, int i) {
  return Key("c%03d/w%d/b%06lld", cycle, w, seq) + "/" + std::to_string(i);
}
std::string MutationRow(int cycle, int w, int64_t k) {
  return Key("c%03d/w%d/m%lld", cycle, w, k);
}
std::string CounterRow(int cycle, bool fsync_class, int64_t k) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "c%03d/%s-counter%lld", cycle, fsync_class ? "fsync" : "sync",
                static_cast<long long>(k));
  return buf;
}

// "writer 2 op 17 (RowMutations, ticks 100-104)".
std::string Describe(const WriterLog& log, size_t i) {
  static const char* const kKinds[] = {"Put", "Batch", "RowMutations", "Increment"};
  const Op& op = log.ops[i];
  return "writer " + std::to_string(log.writer) + " op " + std::to_string(i) + " (" +
         kKinds[static_cast<int>(op.kind)] + ", ticks " + std::to_string(op.start) + "-" +
         (op.acked ? std::to_string(op.ack) : std::string("unknown")) + ")";
}

uint64_t SeedFromEnv() {
  if (const char* s = std::getenv("BASALT_POWER_LOSS_SEED")) return std::strtoull(s, nullptr, 10);
  return std::random_device{}();
}
int CyclesFromEnv(int fallback) {
  if (const char* s = std::getenv("BASALT_POWER_LOSS_CYCLES")) return std::max(1, std::atoi(s));
  return fallback;
}
// BASALT_POWER_LOSS_TAILS=drop|random|alternate, BASALT_POWER_LOSS_WRITE_BUFFER=bytes.
void ConfigFromEnv(Config* config) {
  if (const char* s = std::getenv("BASALT_POWER_LOSS_TAILS")) {
    const std::string t = s;
    config->tails = t == "drop"      ? Tails::kDrop
                    : t == "bytes"   ? Tails::kBytes
                    : t == "appends" ? Tails::kAppends
                                     : Tails::kAlternate;
  }
  if (const char* s = std::getenv("BASALT_POWER_LOSS_WRITE_BUFFER")) {
    config->write_buffer_bytes = std::max<size_t>(64 * 1024, std::strtoull(s, nullptr, 10));
  }
}

class PowerLossTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto conn = Connection::Open(dir_.path());
    ASSERT_OK(conn);
    TableDescriptor desc(TableName("default", "pl"));
    desc.AddFamily(FamilyDescriptor("f"));
    desc.AddFamily(FamilyDescriptor("g"));
    ASSERT_OK((*conn)->admin().CreateTable(desc));
    ASSERT_OK((*conn)->Close());
  }

  Figures Run(const Config& config, uint64_t seed);

  // One writer's loop, until `stop`.
  void Write(int cycle, WriterLog* log, Durability durability, Table* table,
             FaultInjectionFileSystem* fs, uint64_t seed, const std::atomic<bool>& stop);
  Observation Observe(Table& table, int cycle, const std::vector<WriterLog>& logs);
  // `unsynced_from`: FirstUnsyncedWalAppend() at the cut; `cut_ns`: the steady clock at the cut;
  // `tails_kept`: whether the cut kept part of the unsynced tails.
  void Classify(const std::vector<WriterLog>& logs, const Observation& seen, int64_t unsynced_from,
                int64_t cut_ns, bool tails_kept, Figures* f);

  TempDir dir_;
};

void PowerLossTest::Write(int cycle, WriterLog* log, Durability d, Table* table,
                          FaultInjectionFileSystem* fs, uint64_t seed,
                          const std::atomic<bool>& stop) {
  std::mt19937_64 rng(seed);
  std::vector<int64_t> gens(kMutationRows, 0);
  int64_t seq = 0;
  const int w = log->writer;
  while (!stop.load()) {
    Op op;
    const int pick = static_cast<int>(rng() % 100);
    Status s;
    op.start = fs->Tick();
    if (pick < 40) {
      op.kind = Kind::kPut;
      op.id = seq++;
      const std::string row = PutRow(cycle, w, op.id);
      s = table->Put(basalt::Put(row)
                         .Add("f", "a", row + "/a")
                         .Add("f", "b", row + "/b")
                         .Add("g", "c", row + "/c")
                         .SetDurability(d));
    } else if (pick < 55) {
      op.kind = Kind::kBatch;
      op.id = seq++;
      std::vector<Mutation> batch;
      for (int i = 0; i < kBatchRows; ++i) {
        const std::string row = BatchRow(cycle, w, op.id, i);
        batch.emplace_back(
            basalt::Put(row).Add("f", "a", row + "/a").Add("g", "c", row + "/c").SetDurability(d));
      }
      s = table->Batch(batch).status();
    } else if (pick < 75) {
      op.kind = Kind::kRowMutations;
      op.id = static_cast<int64_t>(rng() % kMutationRows);
      op.gen = ++gens[op.id];
      const std::string row = MutationRow(cycle, w, op.id);
      const std::string v = std::to_string(op.gen);
      RowMutations rm(row);
      rm.Add(basalt::Put(row).Add("f", "c0", v).Add("f", "c1", v).SetDurability(d));
      rm.Add(basalt::Put(row).Add("g", "c2", v).Add("g", "c3", v).SetDurability(d));
      s = table->MutateRow(rm);
    } else {
      op.kind = Kind::kIncrement;
      op.id = static_cast<int64_t>(rng() % kCounters);
      s = table
              ->Increment(basalt::Increment(CounterRow(cycle, log->fsync_class, op.id))
                              .AddColumn("f", "n", 1)
                              .AddColumn("g", "n", 1)
                              .SetReturnResults(false)
                              .SetDurability(d))
              .status();
    }
    op.acked = s.ok();
    if (op.acked) {
      op.ack = fs->Tick();
      op.ack_ns = std::chrono::steady_clock::now().time_since_epoch().count();
    }
    EXPECT_OK(s);  // the power cut does not make writes fail: they just stop counting
    log->ops.push_back(op);
  }
}

Observation PowerLossTest::Observe(Table& table, int cycle, const std::vector<WriterLog>& logs) {
  Observation seen;
  auto torn = [&](std::string what) {
    ++seen.torn;
    if (seen.torn_examples.size() < 5) seen.torn_examples.push_back(std::move(what));
  };
  // Reads `rows`, 500 at a time.
  auto read = [&](const std::vector<std::string>& rows) {
    std::vector<RowResult> out;
    for (size_t from = 0; from < rows.size(); from += 500) {
      std::vector<basalt::Get> gets;
      for (size_t i = from; i < std::min(rows.size(), from + 500); ++i) gets.emplace_back(rows[i]);
      auto r = table.Get(gets);
      EXPECT_OK(r);
      if (!r.ok()) return std::vector<RowResult>(rows.size());
      for (auto& x : *r) out.push_back(std::move(x));
    }
    return out;
  };
  // Whether `r` holds exactly `cells` (family, qualifier, value); empty is "absent".
  using Cells = std::vector<std::array<std::string, 3>>;
  enum Shape { kAbsent, kWhole, kPart };
  auto shape = [](const RowResult& r, const Cells& cells) {
    if (r.empty()) return kAbsent;
    if (r.cells().size() != cells.size()) return kPart;
    for (const auto& [fam, q, v] : cells) {
      if (r.Value(fam, q) != v) return kPart;
    }
    return kWhole;
  };

  seen.survived.resize(logs.size());
  seen.generation.assign(logs.size(), std::vector<int64_t>(kMutationRows, 0));
  seen.counter_value.assign(2, std::vector<int64_t>(kCounters, 0));
  for (size_t wi = 0; wi < logs.size(); ++wi) {
    const WriterLog& log = logs[wi];
    const int w = log.writer;
    std::vector<std::string> rows;
    for (const Op& op : log.ops) {
      if (op.kind == Kind::kPut) rows.push_back(PutRow(cycle, w, op.id));
      if (op.kind == Kind::kBatch) {
        for (int i = 0; i < kBatchRows; ++i) rows.push_back(BatchRow(cycle, w, op.id, i));
      }
    }
    for (int k = 0; k < kMutationRows; ++k) rows.push_back(MutationRow(cycle, w, k));
    const std::vector<RowResult> results = read(rows);
    size_t next = 0;
    for (int k = 0; k < kMutationRows; ++k) {
      const RowResult& r = results[rows.size() - kMutationRows + k];
      if (r.empty()) continue;
      const auto v = r.Value("f", "c0");
      const std::string gen = v ? std::string(*v) : "";
      if (shape(r, {{"f", "c0", gen}, {"f", "c1", gen}, {"g", "c2", gen}, {"g", "c3", gen}}) !=
          kWhole) {
        torn("RowMutations row " + MutationRow(cycle, w, k) + " is half applied");
        continue;
      }
      seen.generation[wi][k] = std::stoll(gen);
    }
    seen.survived[wi].assign(log.ops.size(), 0);
    for (size_t i = 0; i < log.ops.size(); ++i) {
      const Op& op = log.ops[i];
      bool there = false;
      if (op.kind == Kind::kPut) {
        const std::string row = PutRow(cycle, w, op.id);
        const Shape s =
            shape(results[next++],
                  {{"f", "a", row + "/a"}, {"f", "b", row + "/b"}, {"g", "c", row + "/c"}});
        if (s == kPart) torn("Put " + row + " is there in part");
        there = s == kWhole;
      } else if (op.kind == Kind::kBatch) {
        int whole = 0;
        for (int b = 0; b < kBatchRows; ++b) {
          const std::string row = BatchRow(cycle, w, op.id, b);
          const Shape s = shape(results[next++], {{"f", "a", row + "/a"}, {"g", "c", row + "/c"}});
          if (s == kPart) torn("Batch row " + row + " is there in part");
          whole += s == kWhole ? 1 : 0;
        }
        if (whole != 0 && whole != kBatchRows) {
          torn("Batch " + BatchRow(cycle, w, op.id, 0) + ": " + std::to_string(whole) + " of " +
               std::to_string(kBatchRows) + " rows");
        }
        there = whole == kBatchRows;
      } else if (op.kind == Kind::kRowMutations) {
        // A later generation there means this one was applied before it.
        there = op.gen <= seen.generation[wi][op.id];
      } else {
        continue;  // increments are checked by their counters' values
      }
      seen.survived[wi][i] = there ? 1 : 0;
    }
  }
  for (int cls = 0; cls < 2; ++cls) {
    std::vector<std::string> rows;
    for (int k = 0; k < kCounters; ++k) rows.push_back(CounterRow(cycle, cls == 0, k));
    const std::vector<RowResult> results = read(rows);
    for (int k = 0; k < kCounters; ++k) {
      const RowResult& r = results[k];
      if (r.empty()) continue;
      const auto f = r.Value("f", "n");
      const auto g = r.Value("g", "n");
      if (!f || !g || *f != *g) {
        torn("Increment of " + rows[k] + " applied to one family only");
        continue;
      }
      seen.counter_value[cls][k] = DecodeCounter(*f).value_or(-1);
    }
  }
  return seen;
}

void PowerLossTest::Classify(const std::vector<WriterLog>& logs, const Observation& seen,
                             int64_t unsynced_from, int64_t cut_ns, bool tails_kept, Figures* f) {
  f->torn += seen.torn;
  for (const auto& e : seen.torn_examples) f->Example("there in part", e);
  // The latest start among surviving writes, and among acknowledged FSYNC_WAL-class writes: a
  // write acknowledged before either began precedes it in the log, so it must be there too.
  int64_t survivor_start = 0, fsync_start = 0;
  std::string survivor;  // which write that is
  for (size_t wi = 0; wi < logs.size(); ++wi) {
    for (size_t i = 0; i < logs[wi].ops.size(); ++i) {
      const Op& op = logs[wi].ops[i];
      if (seen.survived[wi][i] && op.start > survivor_start) {
        survivor_start = op.start;
        survivor = Describe(logs[wi], i);
      }
      if (op.acked && logs[wi].fsync_class && op.kind != Kind::kIncrement) {
        fsync_start = std::max(fsync_start, op.start);
      }
    }
  }
  int64_t cycle_lost = 0, cycle_holes = 0;
  for (size_t wi = 0; wi < logs.size(); ++wi) {
    const WriterLog& log = logs[wi];
    for (size_t i = 0; i < log.ops.size(); ++i) {
      const Op& op = log.ops[i];
      if (op.kind == Kind::kIncrement) continue;
      const bool there = seen.survived[wi][i] != 0;
      if (!op.acked) {
        ++(there ? f->unknown_present : f->unknown_absent);
        continue;
      }
      if (log.sync_wal && op.ack > unsynced_from) ++f->at_risk;
      if (there) continue;
      ++f->lost_writes[log.fsync_class ? 0 : 1];
      ++cycle_lost;
      f->max_loss_age_ms = std::max(f->max_loss_age_ms, (cut_ns - op.ack_ns) / 1e6);
      const std::string what = Describe(log, i);
      if (log.fsync_class) f->Example("acknowledged FSYNC_WAL-class write lost", what);
      if (op.ack < survivor_start) {
        ++cycle_holes;
        f->Example("lost, though acknowledged before a surviving write began",
                   what + "; survivor " + survivor);
      }
      if (op.ack < unsynced_from) {
        ++f->before_wal_sync;
        f->Example("lost, though acknowledged before the first WAL append not durable",
                   what + "; that append at tick " + std::to_string(unsynced_from));
      }
      if (!log.fsync_class && op.ack < fsync_start) {
        ++f->followed_by_fsync;
        f->Example("SYNC_WAL write lost, though acknowledged before an FSYNC_WAL write began",
                   what);
      }
    }
  }
  // Counters: one per class and index, shared by that class's writers.
  for (int cls = 0; cls < 2; ++cls) {
    for (int k = 0; k < kCounters; ++k) {
      int64_t acked = 0, unknown = 0, acked_before_survivor = 0, acked_before_sync = 0;
      for (const WriterLog& log : logs) {
        if (log.fsync_class != (cls == 0)) continue;
        for (const Op& op : log.ops) {
          if (op.kind != Kind::kIncrement || op.id != k) continue;
          if (!op.acked) {
            ++unknown;
            continue;
          }
          ++acked;
          if (op.ack < survivor_start) ++acked_before_survivor;
          if (op.ack < unsynced_from) ++acked_before_sync;
        }
      }
      const int64_t value = seen.counter_value[cls][k];
      const std::string name = std::string(cls == 0 ? "FSYNC_WAL" : "SYNC_WAL") + " counter " +
                               std::to_string(k) + " = " + std::to_string(value);
      if (value > acked + unknown) {
        ++f->excess;
        f->Example("counter over", name + " > " + std::to_string(acked) + " acknowledged + " +
                                       std::to_string(unknown) + " unknown");
      }
      if (value < acked) {
        f->lost_increments[cls] += acked - value;
        cycle_lost += acked - value;
        if (cls == 0) {
          f->Example("FSYNC_WAL-class counter lost increments",
                     name + " < " + std::to_string(acked) + " acknowledged");
        }
      }
      if (value < acked_before_survivor) {
        cycle_holes += acked_before_survivor - value;
        f->Example("lost, though acknowledged before a surviving write began",
                   name + " < " + std::to_string(acked_before_survivor) +
                       " acknowledged before survivor " + survivor);
      }
      if (value < acked_before_sync) {
        f->before_wal_sync += acked_before_sync - value;
        f->Example("lost, though acknowledged before the first WAL append not durable",
                   name + " < " + std::to_string(acked_before_sync) + " acknowledged before tick " +
                       std::to_string(unsynced_from));
      }
    }
  }
  if (cycle_lost > 0) ++f->cycles_with_loss;
  if (tails_kept) {
    f->holes += cycle_holes;
    if (cycle_holes > 0) ++f->cycles_with_holes;
  } else {
    f->out_of_order += cycle_holes;
  }
  for (const WriterLog& log : logs) {
    for (const Op& op : log.ops) {
      if (!op.acked) {
        ++f->unknown;
      } else {
        ++f->acked[log.fsync_class ? 0 : 1];
      }
    }
  }
}

Figures PowerLossTest::Run(const Config& config, uint64_t seed) {
  Figures f;
  std::mt19937_64 rng(seed);
  std::vector<std::vector<WriterLog>> all_logs;
  std::vector<Observation> observed;
  for (int cycle = 1; cycle <= config.cycles; ++cycle) {
    auto fs = std::make_shared<FaultInjectionFileSystem>(rocksdb::FileSystem::Default());
    fs->SetTrace(std::getenv("BASALT_POWER_LOSS_TRACE") != nullptr);
    std::unique_ptr<rocksdb::Env> env = rocksdb::NewCompositeEnv(fs);
    engine::EngineOptions engine_options;
    engine_options.env = env.get();
    ConnectionOptions options;
    // A small write buffer, so that flushes (new table files, directory fsyncs, manifest writes,
    // a new log) run while the power goes.
    options.write_buffer_bytes = config.write_buffer_bytes;
    auto conn = client::OpenEmbedded(dir_.path(), options, engine_options);
    EXPECT_OK(conn);
    if (!conn.ok()) return f;
    auto table = (*conn)->GetTable("pl");
    EXPECT_OK(table);
    if (!table.ok()) return f;

    std::vector<WriterLog> logs(config.fsync_writers + config.sync_writers);
    std::atomic<bool> stop{false};
    std::vector<std::thread> threads;
    for (size_t w = 0; w < logs.size(); ++w) {
      logs[w].writer = static_cast<int>(w);
      logs[w].fsync_class = static_cast<int>(w) < config.fsync_writers;
      logs[w].sync_wal = !logs[w].fsync_class || config.fsync_writers_use_sync_wal;
      const Durability d = logs[w].sync_wal ? Durability::kSyncWal : Durability::kFsyncWal;
      const uint64_t writer_seed = rng();
      threads.emplace_back([&, w, d, writer_seed] {
        Write(cycle, &logs[w], d, table->get(), fs.get(), writer_seed, stop);
      });
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20 + rng() % 180));
    fs->CutPower();
    const int64_t cut_ns = std::chrono::steady_clock::now().time_since_epoch().count();
    // At the cut, not after the close below: the close may delete the logs (it flushes first),
    // and a deleted log's appends are no longer the file system's to report.
    const int64_t unsynced_from = fs->FirstUnsyncedWalAppend();
    stop = true;
    for (auto& t : threads) t.join();
    // What returned after the cut would not have returned at all.
    for (WriterLog& log : logs) {
      for (Op& op : log.ops) {
        if (op.acked && op.ack > fs->cut_tick()) {
          op.acked = false;
          ++f.returned_after_cut;
        }
      }
    }
    // The store closes on a file system where nothing becomes durable any more (its close
    // flushes the memtables, deletes logs...), then the disk becomes what the power failure left.
    table->reset();
    EXPECT_OK((*conn)->Close());
    conn->reset();
    PowerLossReport report;
    const UnsyncedTail tail =
        config.tails == Tails::kAppends ? UnsyncedTail::kKeepRandomAppends
        : config.tails == Tails::kBytes || (config.tails == Tails::kAlternate && cycle % 2 == 0)
            ? UnsyncedTail::kKeepRandomPrefix
            : UnsyncedTail::kDropAll;
    const rocksdb::IOStatus dropped = fs->DropUnsyncedData(tail, rng(), &report);
    EXPECT_TRUE(dropped.ok()) << dropped.ToString();
    f.disk.files_cut += report.files_cut;
    f.disk.bytes_dropped += report.bytes_dropped;
    f.disk.creations_undone += report.creations_undone;
    f.disk.renames_undone += report.renames_undone;
    f.disk.deletions_undone += report.deletions_undone;
    f.disk.durable_dir_syncs += report.durable_dir_syncs;
    env.reset();
    fs.reset();

    auto plain = Connection::Open(dir_.path());
    EXPECT_OK(plain);
    if (!plain.ok()) return f;
    auto plain_table = (*plain)->GetTable("pl");
    EXPECT_OK(plain_table);
    if (!plain_table.ok()) return f;
    Observation seen = Observe(**plain_table, cycle, logs);
    f.context = "cycle " + std::to_string(cycle) +
                (tail == UnsyncedTail::kDropAll ? " (tails dropped" : " (random tails kept");
    for (const auto& l : report.logs) f.context += "; " + l;
    f.context += ")";
    Classify(logs, seen, unsynced_from, cut_ns, tail != UnsyncedTail::kDropAll, &f);
    plain_table->reset();
    EXPECT_OK((*plain)->Close());
    all_logs.push_back(std::move(logs));
    observed.push_back(std::move(seen));
    f.cycles = cycle;
  }
  // Every cycle once more, after all the later cuts and recoveries.
  auto plain = Connection::Open(dir_.path());
  EXPECT_OK(plain);
  if (!plain.ok()) return f;
  auto table = (*plain)->GetTable("pl");
  EXPECT_OK(table);
  if (!table.ok()) return f;
  for (size_t c = 0; c < all_logs.size(); ++c) {
    const Observation again = Observe(**table, static_cast<int>(c) + 1, all_logs[c]);
    if (again.survived != observed[c].survived || again.generation != observed[c].generation ||
        again.counter_value != observed[c].counter_value || again.torn != observed[c].torn) {
      ++f.changed_later;
      f.context = "final pass";
      f.Example("changed later",
                "cycle " + std::to_string(c + 1) + " reads differently after later cycles");
    }
  }
  return f;
}

void Print(const char* label, uint64_t seed, const Figures& f, double seconds) {
  auto n = [](int64_t v) { return static_cast<long long>(v); };
  std::printf(
      "[ figures  ] %s: seed %llu, %d cycles in %.1f s; FSYNC_WAL class: acknowledged %lld, lost "
      "%lld writes + %lld increments; SYNC_WAL class: acknowledged %lld, lost %lld writes + %lld "
      "increments; written with SYNC_WAL and acknowledged after the first WAL append not durable "
      "at the cut (at risk) %lld; cycles with a loss %lld; oldest lost write acknowledged %.1f ms "
      "before the cut; unknown %lld (returned after the cut %lld; there %lld, absent %lld, "
      "increments not counted); torn %lld, counters over %lld, lost out of order %lld, holes "
      "%lld in %lld cycles, lost though acknowledged before the first WAL append not durable "
      "%lld, SYNC_WAL lost though "
      "acknowledged before an FSYNC_WAL write began %lld, changed later %lld | disk: %lld files "
      "cut, %lld bytes dropped, %lld creations, %lld renames and %lld deletions undone, %lld dir "
      "fsyncs before the cuts\n",
      label, static_cast<unsigned long long>(seed), f.cycles, seconds, n(f.acked[0]),
      n(f.lost_writes[0]), n(f.lost_increments[0]), n(f.acked[1]), n(f.lost_writes[1]),
      n(f.lost_increments[1]), n(f.at_risk), n(f.cycles_with_loss), f.max_loss_age_ms, n(f.unknown),
      n(f.returned_after_cut), n(f.unknown_present), n(f.unknown_absent), n(f.torn), n(f.excess),
      n(f.out_of_order), n(f.holes), n(f.cycles_with_holes), n(f.before_wal_sync),
      n(f.followed_by_fsync), n(f.changed_later), n(f.disk.files_cut), n(f.disk.bytes_dropped),
      n(f.disk.creations_undone), n(f.disk.renames_undone), n(f.disk.deletions_undone),
      n(f.disk.durable_dir_syncs));
  std::fflush(stdout);
}

double Since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST_F(PowerLossTest, FsyncWalWritesSurviveAndSyncWalLosesOnlyAnUnsyncedSuffix) {
  const uint64_t seed = SeedFromEnv();
  Config config;
  config.cycles = CyclesFromEnv(16);
  ConfigFromEnv(&config);
  const auto start = std::chrono::steady_clock::now();
  const Figures f = Run(config, seed);
  Print("FSYNC_WAL and SYNC_WAL writers", seed, f, Since(start));
  ASSERT_EQ(f.cycles, config.cycles);
  EXPECT_GT(f.acked[0], 0);
  EXPECT_GT(f.acked[1], 0);
  // Some cut caught acknowledged writes not yet durable: the checks below are not trivially met.
  EXPECT_GT(f.at_risk, 0);
  EXPECT_EQ(f.lost_writes[0], 0) << f.Examples();
  EXPECT_EQ(f.lost_increments[0], 0) << f.Examples();
  EXPECT_EQ(f.torn, 0) << f.Examples();
  EXPECT_EQ(f.excess, 0) << f.Examples();
  EXPECT_EQ(f.out_of_order, 0) << f.Examples();
  EXPECT_EQ(f.before_wal_sync, 0) << f.Examples();
  EXPECT_EQ(f.followed_by_fsync, 0) << f.Examples();
  EXPECT_EQ(f.changed_later, 0) << f.Examples();
  EXPECT_LE(f.lost_writes[1], f.at_risk);
}

// The same checks on writers that ask for SYNC_WAL where the checks expect FSYNC_WAL: the power
// cut loses acknowledged writes, and the checks report them. What SYNC_WAL loses is still only
// a suffix of the log.
TEST_F(PowerLossTest, SyncWalWritesCheckedAsFsyncWalAreReportedLost) {
  const uint64_t seed = SeedFromEnv();
  Config config;
  config.cycles = CyclesFromEnv(6);
  ConfigFromEnv(&config);
  config.fsync_writers = 3;
  config.sync_writers = 0;
  config.fsync_writers_use_sync_wal = true;
  const auto start = std::chrono::steady_clock::now();
  const Figures f = Run(config, seed);
  Print("SYNC_WAL writers checked as FSYNC_WAL", seed, f, Since(start));
  ASSERT_EQ(f.cycles, config.cycles);
  EXPECT_GT(f.lost_writes[0] + f.lost_increments[0], 0)
      << "no acknowledged SYNC_WAL write was lost: the power cut or the checks do not work";
  EXPECT_LE(f.lost_writes[0], f.at_risk);
  EXPECT_EQ(f.torn, 0) << f.Examples();
  EXPECT_EQ(f.excess, 0) << f.Examples();
  EXPECT_EQ(f.out_of_order, 0) << f.Examples();
  EXPECT_EQ(f.before_wal_sync, 0) << f.Examples();
  EXPECT_EQ(f.changed_later, 0) << f.Examples();
}

// --- The power-loss model of the file system itself ---

class PowerLossFileSystemTest : public ::testing::Test {
 protected:
  PowerLossFileSystemTest()
      : fs_(std::make_shared<FaultInjectionFileSystem>(rocksdb::FileSystem::Default())) {}

  std::string Path(const std::string& name) const { return dir_.path() + "/" + name; }
  std::unique_ptr<rocksdb::FSWritableFile> Create(const std::string& name) {
    std::unique_ptr<rocksdb::FSWritableFile> file;
    EXPECT_TRUE(fs_->NewWritableFile(Path(name), rocksdb::FileOptions(), &file, nullptr).ok());
    return file;
  }
  void Append(rocksdb::FSWritableFile* file, const std::string& data) {
    EXPECT_TRUE(file->Append(data, rocksdb::IOOptions(), nullptr).ok());
  }
  void Sync(rocksdb::FSWritableFile* file) {
    EXPECT_TRUE(file->Sync(rocksdb::IOOptions(), nullptr).ok());
  }
  void SyncDir() {
    std::unique_ptr<rocksdb::FSDirectory> dir;
    ASSERT_TRUE(fs_->NewDirectory(dir_.path(), rocksdb::IOOptions(), &dir, nullptr).ok());
    ASSERT_TRUE(dir->Fsync(rocksdb::IOOptions(), nullptr).ok());
  }
  void Close(rocksdb::FSWritableFile* file) {
    EXPECT_TRUE(file->Close(rocksdb::IOOptions(), nullptr).ok());
  }
  // Cuts the power and drops what was not durable.
  PowerLossReport CutAndDrop() {
    fs_->CutPower();
    PowerLossReport report;
    const rocksdb::IOStatus s = fs_->DropUnsyncedData(UnsyncedTail::kDropAll, 1, &report);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return report;
  }
  // The file's content, or "(none)".
  std::string Read(const std::string& name) const {
    std::ifstream in(Path(name), std::ios::binary);
    if (!in) return "(none)";
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  void WriteDirect(const std::string& name, const std::string& data) const {
    std::ofstream(Path(name), std::ios::binary) << data;
  }

  TempDir dir_;
  std::shared_ptr<FaultInjectionFileSystem> fs_;
};

TEST_F(PowerLossFileSystemTest, TheUnsyncedTailIsDroppedAndCloseDoesNotSync) {
  auto file = Create("a.log");
  Append(file.get(), "synced|");
  Sync(file.get());
  SyncDir();
  Append(file.get(), "not synced");
  Close(file.get());
  const PowerLossReport report = CutAndDrop();
  EXPECT_EQ(Read("a.log"), "synced|");
  EXPECT_EQ(report.files_cut, 1);
  EXPECT_EQ(report.bytes_dropped, 10);
}

TEST_F(PowerLossFileSystemTest, RangeSyncDoesNotMakeDataDurable) {
  auto file = Create("a.sst");
  SyncDir();
  Append(file.get(), "data");
  EXPECT_TRUE(file->RangeSync(0, 4, rocksdb::IOOptions(), nullptr).ok());
  Close(file.get());
  CutAndDrop();
  EXPECT_EQ(Read("a.sst"), "");
}

TEST_F(PowerLossFileSystemTest, ANewFileNeedsADirectoryFsync) {
  auto file = Create("new.log");
  Append(file.get(), "synced but never dir-synced");
  Sync(file.get());
  Close(file.get());
  const PowerLossReport report = CutAndDrop();
  EXPECT_EQ(Read("new.log"), "(none)");
  EXPECT_EQ(report.creations_undone, 1);
}

TEST_F(PowerLossFileSystemTest, ARenameWithoutADirectoryFsyncIsUndone) {
  WriteDirect("CURRENT", "old\n");  // there before: durable
  auto tmp = Create("000009.dbtmp");
  Append(tmp.get(), "new\n");
  Sync(tmp.get());
  Close(tmp.get());
  ASSERT_TRUE(
      fs_->RenameFile(Path("000009.dbtmp"), Path("CURRENT"), rocksdb::IOOptions(), nullptr).ok());
  EXPECT_EQ(Read("CURRENT"), "new\n");
  const PowerLossReport report = CutAndDrop();
  EXPECT_EQ(Read("CURRENT"), "old\n");
  EXPECT_EQ(Read("000009.dbtmp"), "(none)");  // its creation was not durable either
  EXPECT_EQ(report.renames_undone, 1);
  EXPECT_EQ(report.creations_undone, 1);
}

TEST_F(PowerLossFileSystemTest, ARenameFollowedByADirectoryFsyncStays) {
  WriteDirect("CURRENT", "old\n");
  auto tmp = Create("000009.dbtmp");
  Append(tmp.get(), "new\n");
  Sync(tmp.get());
  Close(tmp.get());
  ASSERT_TRUE(
      fs_->RenameFile(Path("000009.dbtmp"), Path("CURRENT"), rocksdb::IOOptions(), nullptr).ok());
  SyncDir();
  CutAndDrop();
  EXPECT_EQ(Read("CURRENT"), "new\n");
  EXPECT_EQ(Read("000009.dbtmp"), "(none)");
  // The copy kept to undo the rename is gone once the rename was durable.
  for (const auto& e : std::filesystem::directory_iterator(dir_.path())) {
    EXPECT_EQ(e.path().filename().string().find("powerloss-saved"), std::string::npos);
  }
}

TEST_F(PowerLossFileSystemTest, ADeletionWithoutADirectoryFsyncIsUndone) {
  WriteDirect("000004.log", "old log");
  auto file = Create("000005.log");  // created and deleted before any dir fsync: never there
  Close(file.get());
  ASSERT_TRUE(fs_->DeleteFile(Path("000004.log"), rocksdb::IOOptions(), nullptr).ok());
  ASSERT_TRUE(fs_->DeleteFile(Path("000005.log"), rocksdb::IOOptions(), nullptr).ok());
  EXPECT_EQ(Read("000004.log"), "(none)");
  const PowerLossReport report = CutAndDrop();
  EXPECT_EQ(Read("000004.log"), "old log");
  EXPECT_EQ(Read("000005.log"), "(none)");
  EXPECT_EQ(report.deletions_undone, 1);
  EXPECT_EQ(report.creations_undone, 0);
}

TEST_F(PowerLossFileSystemTest, NothingDoneAfterTheCutIsDurable) {
  WriteDirect("000003.sst", "old table");
  auto file = Create("a.log");
  SyncDir();
  Append(file.get(), "before|");
  Sync(file.get());
  EXPECT_EQ(fs_->FirstUnsyncedWalAppend(), INT64_MAX);
  const int64_t before = fs_->Tick();
  Append(file.get(), "unsynced|");
  const int64_t unsynced_at = fs_->FirstUnsyncedWalAppend();
  EXPECT_GT(unsynced_at, before);
  fs_->CutPower();
  EXPECT_GT(fs_->cut_tick(), unsynced_at);
  // The store runs on unaware: its calls succeed, and nothing of them stays.
  Append(file.get(), "after");
  Sync(file.get());
  auto other = Create("b.log");
  Append(other.get(), "after");
  Sync(other.get());
  Close(other.get());
  SyncDir();
  ASSERT_TRUE(fs_->DeleteFile(Path("000003.sst"), rocksdb::IOOptions(), nullptr).ok());
  EXPECT_EQ(fs_->FirstUnsyncedWalAppend(), unsynced_at);
  Close(file.get());
  const PowerLossReport report = CutAndDrop();
  EXPECT_EQ(Read("a.log"), "before|");
  EXPECT_EQ(Read("b.log"), "(none)");
  EXPECT_EQ(Read("000003.sst"), "old table");
  EXPECT_EQ(report.deletions_undone, 1);
  EXPECT_EQ(report.creations_undone, 1);
}

TEST_F(PowerLossFileSystemTest, KeepRandomAppendsCutsALogAtTheEndOfAnAppend) {
  auto file = Create("a.log");
  SyncDir();
  Append(file.get(), "synced|");
  Sync(file.get());
  Append(file.get(), "one|");
  Append(file.get(), "two|");
  Append(file.get(), "three|");
  Close(file.get());
  fs_->CutPower();
  PowerLossReport report;
  ASSERT_TRUE(fs_->DropUnsyncedData(UnsyncedTail::kKeepRandomAppends, 3, &report).ok());
  const std::string left = Read("a.log");
  EXPECT_TRUE(left == "synced|" || left == "synced|one|" || left == "synced|one|two|" ||
              left == "synced|one|two|three|")
      << left;
}

TEST_F(PowerLossFileSystemTest, KeepRandomPrefixKeepsThePartBetweenSyncedAndWritten) {
  auto file = Create("a.log");
  SyncDir();
  Append(file.get(), "synced|");
  Sync(file.get());
  Append(file.get(), "0123456789");
  Close(file.get());
  fs_->CutPower();
  PowerLossReport report;
  ASSERT_TRUE(fs_->DropUnsyncedData(UnsyncedTail::kKeepRandomPrefix, 7, &report).ok());
  const std::string left = Read("a.log");
  EXPECT_EQ(left.substr(0, 7), "synced|");
  EXPECT_EQ(left, std::string("synced|0123456789").substr(0, left.size()));
}

}  // namespace
}  // namespace basalt::crash
