// The read fast paths against the general rules: two in-memory stores take the same random
// writes, deletes of every kind, flushes and major compactions; one reads with every fast path
// (FamilyRowReader's first-key shortcuts, the scanner's simple rows), the other with none
// (EngineOptions::TEST_no_read_fast_paths), and every read must return the same cells in both.
// Multi-gets and GetColumnValues too: with fast paths their rows are read in key order, without
// in the caller's.
// Reads are what the fast paths are for (one family, one version, the newest) and what they must
// step aside for (several families, named columns, versions, time ranges, per-family limits,
// batches, skips, reversed scans), on families with VERSIONS 1 and more, a TTL with and without
// MIN_VERSIONS, and KEEP_DELETED_CELLS.
//
// Both stores get their flushes and major compactions at the same points and too few flushes
// for RocksDB to compact on its own, so that their stored cells stay the same: a compaction
// drops versions beyond VERSIONS, which a later version delete would otherwise uncover in one
// store and not in the other.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "basalt/basalt.h"
#include "engine/engine.h"
#include "util/clock.h"

namespace basalt::engine {
namespace {

struct FamilySpec {
  const char* name;
  int32_t versions;
  int32_t min_versions;
  int32_t ttl_seconds;  // 0: forever
  KeepDeletedCells keep_deleted;
};

const std::vector<FamilySpec> kFamilies = {
    {"a", 1, 0, 0, KeepDeletedCells::kFalse},    {"b", 3, 1, 7200, KeepDeletedCells::kFalse},
    {"c", 1000, 0, 0, KeepDeletedCells::kFalse}, {"d", 2, 0, 0, KeepDeletedCells::kTrue},
    {"e", 2, 0, 7200, KeepDeletedCells::kFalse},
};

const TableName kTable("default", "reads");

// One line per cell (its timestamp relative to `base`), and one for the row's end and whether it
// was partial (a batch's piece).
void Describe(const RowResult& r, int64_t base, std::vector<std::string>* out) {
  for (const Cell& c : r.cells()) {
    out->push_back(c.row + "/" + c.family + ":" + c.qualifier + "@" +
                   std::to_string(c.timestamp - base) + " type " +
                   std::to_string(static_cast<int>(c.type)) + " = " + c.value);
  }
  out->push_back("end of row " + r.row() + (r.partial() ? " (partial)" : ""));
}

// Where two reads' lines first differ, or empty when they are the same.
std::string FirstDifference(const std::vector<std::string>& fast,
                            const std::vector<std::string>& general) {
  for (size_t i = 0; i < std::max(fast.size(), general.size()); ++i) {
    const std::string a = i < fast.size() ? fast[i] : "(nothing)";
    const std::string b = i < general.size() ? general[i] : "(nothing)";
    if (a != b) {
      return "line " + std::to_string(i) + ": fast paths on: " + a + "; off: " + b;
    }
  }
  return "";
}

// A read, built once and run on both stores.
struct PlannedRead {
  bool is_scan = false;
  basalt::Get get{"r0"};
  // A multi-get when not empty (then `get` is unused).
  std::vector<basalt::Get> gets;
  // GetColumnValues of this family's column in these rows, when not empty.
  std::vector<std::string> column_rows;
  std::string column_family;
  std::string column_qualifier;
  basalt::Scan scan;
  std::vector<int64_t> steps;  // scans: > 0 skip that many rows, 0 take one with Next
  std::string text;            // what the read asked for, for the failure message
};

class ReadFastPathTest : public ::testing::Test {
 protected:
  // Opens two fresh stores with the table.
  void OpenStores() {
    CloseStores();
    ConnectionOptions options;
    options.in_memory = true;
    EngineOptions general;
    general.TEST_no_read_fast_paths = true;
    auto fast = Engine::Open("fast", options);
    ASSERT_TRUE(fast.ok()) << fast.status().ToString();
    fast_ = *fast;
    auto slow = Engine::Open("general", options, general);
    ASSERT_TRUE(slow.ok()) << slow.status().ToString();
    general_ = *slow;
    TableDescriptor desc(kTable);
    for (const auto& f : kFamilies) {
      FamilyDescriptor fd(f.name);
      fd.max_versions = f.versions;
      fd.min_versions = f.min_versions;
      if (f.ttl_seconds > 0) fd.ttl_seconds = f.ttl_seconds;
      fd.keep_deleted_cells = f.keep_deleted;
      desc.AddFamily(fd);
    }
    for (Engine* e : {fast_.get(), general_.get()}) {
      ASSERT_TRUE(e->CreateTable(desc, {}).ok());
    }
    // Timestamps well before now, so that fresh ones stay fresh for the test's duration and old
    // ones are expired where a TTL (two hours) applies.
    base_ = util::MonotonicWallMillis() - 60'000;
  }

  void CloseStores() {
    for (auto* e : {&fast_, &general_}) {
      if (*e) {
        EXPECT_TRUE((*e)->Close().ok());
      }
      e->reset();
    }
    flushes_ = 0;
  }

  void TearDown() override { CloseStores(); }

  std::string RandomRow() {
    // A few rows share a prefix with others ("r1", "r10"), for prefix scans and bounds.
    static const char* kRows[] = {"r0", "r1", "r10", "r11", "r2", "r3", "r4", "r5", "s", "s0"};
    return kRows[rng_() % std::size(kRows)];
  }
  // The empty qualifier is a key of its own shape (the row prefix followed by the terminator).
  std::string RandomQualifier() {
    uint32_t n = rng_() % 5;
    return n == 4 ? std::string() : "q" + std::to_string(n);
  }
  const char* RandomFamily() { return kFamilies[rng_() % kFamilies.size()].name; }
  int64_t RandomTs() {
    int64_t ts = base_ + static_cast<int64_t>(rng_() % 10);
    if (rng_() % 5 == 0) ts -= 5 * 3600 * 1000;  // expired where a TTL applies
    return ts;
  }

  void Apply(const MutationRef& m) {
    for (Engine* e : {fast_.get(), general_.get()}) {
      auto table = e->FindTable(kTable);
      ASSERT_TRUE(table.ok());
      Status s = e->Write(**table, std::span<const MutationRef>(&m, 1), nullptr);
      ASSERT_TRUE(s.ok()) << s.ToString();
    }
  }

  void DoPut() {
    basalt::Put p(RandomRow());
    // Mostly one cell: rows of one key are what the simple-rows scan reads in one step.
    int cells = rng_() % 2 == 0 ? 1 : 1 + static_cast<int>(rng_() % 4);
    for (int i = 0; i < cells; ++i) {
      p.Add(RandomFamily(), RandomQualifier(), RandomTs(), "v" + std::to_string(++puts_));
    }
    Apply(&p);
  }

  void DoDelete() {
    basalt::Delete d(RandomRow());
    switch (rng_() % 6) {
      case 0:
        d = basalt::Delete(d.row(), RandomTs());  // the row, every family
        break;
      case 1:
        d.AddFamily(RandomFamily(), RandomTs());
        break;
      case 2:
        d.AddFamilyVersion(RandomFamily(), RandomTs());
        break;
      case 3:
        d.AddColumns(RandomFamily(), RandomQualifier(), RandomTs());
        break;
      case 4:
        d.AddColumn(RandomFamily(), RandomQualifier(), RandomTs());  // one version
        break;
      default:
        d.AddColumn(RandomFamily(), RandomQualifier(), RandomTs())
            .AddColumns(RandomFamily(), RandomQualifier(), RandomTs());
        break;
    }
    Apply(&d);
  }

  void Maintain() {
    const bool compact = flushes_ >= 2 || rng_() % 3 == 0;
    for (Engine* e : {fast_.get(), general_.get()}) {
      Status s = compact ? e->MajorCompact(kTable) : e->Flush(kTable);
      ASSERT_TRUE(s.ok()) << s.ToString();
    }
    flushes_ = compact ? 0 : flushes_ + 1;
  }

  // Columns: none named (every family), one family, one family's columns, or several families.
  template <class R>
  void PickColumns(R* r, std::string* text) {
    switch (rng_() % 5) {
      case 0:
        break;
      case 1:
      case 2: {
        const char* f = RandomFamily();
        r->AddFamily(f);
        *text += std::string(" family ") + f;
        break;
      }
      case 3: {
        const char* f = RandomFamily();
        int n = 1 + static_cast<int>(rng_() % 2);
        for (int i = 0; i < n; ++i) {
          std::string q = RandomQualifier();
          r->AddColumn(f, q);
          *text += std::string(" column ") + f + ":" + q;
        }
        break;
      }
      default: {
        const char* f = RandomFamily();
        const char* g = RandomFamily();
        r->AddFamily(f);
        std::string q = RandomQualifier();
        r->AddColumn(g, q);
        *text += std::string(" family ") + f + " column " + g + ":" + q;
        break;
      }
    }
  }

  // Versions (mostly one, the fast paths' case), a time range, per-family limits.
  template <class R>
  void PickLimits(R* r, std::string* text) {
    int32_t versions = rng_() % 3 == 0 ? 1 + static_cast<int32_t>(rng_() % 4) : 1;
    r->ReadVersions(versions);
    *text += " versions " + std::to_string(versions);
    if (rng_() % 4 == 0) {
      int64_t lo = RandomTs();
      int64_t hi = lo + 1 + static_cast<int64_t>(rng_() % 6);
      r->SetTimeRange(lo, hi);
      *text += " range [" + std::to_string(lo - base_) + ", " + std::to_string(hi - base_) + ")";
    }
    if (rng_() % 8 == 0) {
      int32_t limit = static_cast<int32_t>(rng_() % 3);
      r->SetMaxResultsPerColumnFamily(limit);
      *text += " per-family limit " + std::to_string(limit);
    }
    if (rng_() % 8 == 0) {
      int32_t offset = static_cast<int32_t>(rng_() % 3);
      r->SetRowOffsetPerColumnFamily(offset);
      *text += " per-family offset " + std::to_string(offset);
    }
  }

  PlannedRead RandomRead() {
    PlannedRead r;
    r.is_scan = rng_() % 2 == 0;
    if (!r.is_scan && rng_() % 6 == 0) {
      // One column's newest value in several rows (Engine::GetColumnValues), now and then of a
      // family the table lacks.
      r.column_family = rng_() % 40 == 0 ? "nope" : RandomFamily();
      r.column_qualifier = RandomQualifier();
      r.text = "column values of " + r.column_family + ":" + r.column_qualifier + " in";
      const int n = 1 + static_cast<int>(rng_() % 6);
      for (int i = 0; i < n; ++i) {
        r.column_rows.push_back(RandomRow());
        r.text += " " + r.column_rows.back();
      }
      return r;
    }
    if (!r.is_scan && rng_() % 3 == 0) {
      // A multi-get: rows out of key order, repeated rows, and now and then a read that fails
      // (an unknown family), whose error must be the first failing read's in the caller's order.
      r.text = "multi-get";
      const int n = 1 + static_cast<int>(rng_() % 6);
      for (int i = 0; i < n; ++i) {
        basalt::Get get(RandomRow());
        r.text += " [" + get.row();
        if (rng_() % 40 == 0) {
          get.AddFamily("nope" + std::to_string(i));
          r.text += " family nope" + std::to_string(i);
        } else {
          PickColumns(&get, &r.text);
          PickLimits(&get, &r.text);
        }
        r.text += "]";
        r.gets.push_back(std::move(get));
      }
      return r;
    }
    if (!r.is_scan) {
      r.get = basalt::Get(RandomRow());
      r.text = "get " + r.get.row();
      PickColumns(&r.get, &r.text);
      PickLimits(&r.get, &r.text);
      return r;
    }
    r.text = "scan";
    if (rng_() % 4 == 0) {
      r.scan.SetReversed(true);
      r.text += " reversed";
    }
    switch (rng_() % 5) {
      case 0: {
        std::string start = RandomRow();
        r.scan.WithStartRow(start, rng_() % 2 == 0);
        r.text += " from " + start;
        break;
      }
      case 1: {
        std::string stop = RandomRow();
        r.scan.WithStopRow(stop, rng_() % 2 == 0);
        r.text += " to " + stop;
        break;
      }
      case 2: {
        std::string prefix = rng_() % 2 == 0 ? "r1" : "s";
        r.scan.SetRowPrefix(prefix);
        r.text += " prefix " + prefix;
        break;
      }
      default:
        break;
    }
    PickColumns(&r.scan, &r.text);
    PickLimits(&r.scan, &r.text);
    if (rng_() % 6 == 0) {
      int64_t limit = 1 + static_cast<int64_t>(rng_() % 4);
      r.scan.SetLimit(limit);
      r.text += " limit " + std::to_string(limit);
    }
    if (rng_() % 6 == 0) {
      int32_t batch = 1 + static_cast<int32_t>(rng_() % 3);
      r.scan.SetBatch(batch);
      r.text += " batch " + std::to_string(batch);
    }
    // Next to the end, or Nexts and SkipRows mixed.
    for (int i = 0; i < 12; ++i) {
      r.steps.push_back(rng_() % 3 == 0 ? 1 + static_cast<int64_t>(rng_() % 3) : 0);
    }
    return r;
  }

  // What `e` returns for `r`, one line per cell, row, skip and status.
  std::vector<std::string> RunRead(Engine* e, const PlannedRead& r) {
    std::vector<std::string> out;
    auto table = e->FindTable(kTable);
    if (!table.ok()) return {"FindTable: " + table.status().ToString()};
    if (!r.column_rows.empty()) {
      auto values = e->GetColumnValues(**table, r.column_family, r.column_qualifier, r.column_rows);
      if (!values.ok()) return {values.status().ToString()};
      for (size_t i = 0; i < values->size(); ++i) {
        out.push_back(r.column_rows[i] + " = " + ((*values)[i] ? *(*values)[i] : "(none)"));
      }
      return out;
    }
    if (!r.gets.empty()) {
      auto rows = e->MultiGet(**table, r.gets);
      if (!rows.ok()) return {rows.status().ToString()};
      for (const RowResult& row : *rows) Describe(row, base_, &out);
      return out;
    }
    if (!r.is_scan) {
      auto row = e->Get(**table, r.get);
      if (!row.ok()) return {row.status().ToString()};
      Describe(*row, base_, &out);
      return out;
    }
    auto scanner = e->NewScanner(*table, r.scan);
    if (!scanner.ok()) return {scanner.status().ToString()};
    RowResult row;
    // The planned steps, then Nexts to the end.
    for (size_t i = 0;; ++i) {
      int64_t skip = i < r.steps.size() ? r.steps[i] : 0;
      if (skip > 0) {
        out.push_back("skipped " + std::to_string((*scanner)->SkipRows(skip)));
        continue;
      }
      if (!(*scanner)->Next(&row)) break;
      Describe(row, base_, &out);
    }
    out.push_back("status " + (*scanner)->status().ToString());
    return out;
  }

  void CheckRead() {
    PlannedRead r = RandomRead();
    std::vector<std::string> fast = RunRead(fast_.get(), r);
    std::vector<std::string> general = RunRead(general_.get(), r);
    ++reads_;
    const std::string difference = FirstDifference(fast, general);
    ASSERT_TRUE(difference.empty())
        << r.text << ", after " << ops_ << " operations of seed " << seed_ << ": " << difference;
  }

  void Run(uint32_t seed, int ops) {
    seed_ = seed;
    rng_.seed(seed);
    for (ops_ = 0; ops_ < ops; ++ops_) {
      uint32_t dice = rng_() % 100;
      if (dice < 40) {
        ASSERT_NO_FATAL_FAILURE(DoPut());
      } else if (dice < 55) {
        ASSERT_NO_FATAL_FAILURE(DoDelete());
      } else if (dice < 98) {
        ASSERT_NO_FATAL_FAILURE(CheckRead());
      } else {
        ASSERT_NO_FATAL_FAILURE(Maintain());
      }
    }
  }

  std::shared_ptr<Engine> fast_;
  std::shared_ptr<Engine> general_;
  std::mt19937 rng_;
  uint32_t seed_ = 0;
  int ops_ = 0;
  int flushes_ = 0;
  int64_t base_ = 0;
  int64_t puts_ = 0;
  int64_t reads_ = 0;
};

TEST_F(ReadFastPathTest, EveryReadReturnsWhatTheGeneralRulesReturn) {
  // Each seed a store of its own: the first reads see few cells per row, the later ones many.
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    ASSERT_NO_FATAL_FAILURE(OpenStores());
    ASSERT_NO_FATAL_FAILURE(Run(seed * 7919, 1500));
  }
  EXPECT_GT(reads_, 3000);
}

}  // namespace
}  // namespace basalt::engine
