// Stress on a few hot rows: Increments, CheckAndMutates and RowMutations race on the same rows
// while scans and gets read them and (on the on-disk stores) flushes and major compactions run.
// Each writer keeps an invariant inside every row it touches, so any read that sees half of a
// write, a lost update or a resurrected cell fails the test:
//   increments   c:a and c:b are added together (a+1, b+1): every read has a == b;
//   checkers     m:ver and m:copy are set together by a CheckAndMutate on m:ver == v, whose
//                action is a RowMutations (put ver=v+1, put copy=v+1, delete m:gone): every
//                read has ver == copy, never m:gone once m:ver exists, and ver only grows;
//   mutators     a RowMutations puts x:p = x:q = n and deletes x:gone: every read has p == q
//                and never x:gone once x:p exists.
// At the end each counter equals the number of acknowledged operations.
// Runs in the normal suite and under ThreadSanitizer (scripts/test.sh).

#include <gtest/gtest.h>

#include <atomic>
#include <iostream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "support/test_store.h"

namespace basalt::testing {
namespace {

constexpr int kHotRows = 3;
constexpr int kIncrementers = 2;
constexpr int kIncrementsEach = 150;
constexpr int kCheckers = 2;
constexpr int kChecksEach = 100;
constexpr int kMutatorRounds = 150;

std::string HotRow(int i) {
  return "hot" + std::to_string(i);
}

int64_t Counter(const RowResult& r, const char* family, const char* qualifier) {
  auto v = r.Value(family, qualifier);
  if (!v) return 0;
  auto n = DecodeCounter(*v);
  return n.ok() ? *n : -1;
}

// Checks the invariants of one row read; returns a description of the first broken one.
std::string BrokenInvariant(const RowResult& r) {
  if (Counter(r, "c", "a") != Counter(r, "c", "b")) {
    return "c:a != c:b in " + r.row();
  }
  if (r.Value("m", "ver") != r.Value("m", "copy")) return "m:ver != m:copy in " + r.row();
  // m:gone exists from the start and the first CheckAndMutate deletes it as it sets m:ver.
  if (r.Value("m", "gone") && r.Value("m", "ver")) {
    return "m:gone next to m:ver (half a RowMutations, or a resurrected cell) in " + r.row();
  }
  if (r.Value("x", "p") != r.Value("x", "q")) return "x:p != x:q in " + r.row();
  if (r.Value("x", "gone") && r.Value("x", "p")) {
    return "x:gone next to x:p (half a RowMutations, or a resurrected cell) in " + r.row();
  }
  return "";
}

class HotRowStressTest : public StoreTest {};

TEST_P(HotRowStressTest, WritersReadersAndMaintenanceOnHotRowsKeepEveryInvariant) {
  Table& t = store().CreateTable("hot", {"c", "m", "x"});
  const TableName name = t.name();
  for (int i = 0; i < kHotRows; ++i) {
    // The deleted cells exist at first, so a resurrection after compaction would show.
    ASSERT_OK(t.Put(Put(HotRow(i)).Add("m", "gone", "old").Add("x", "gone", "old")));
  }
  std::atomic<bool> stop{false};
  std::atomic<int> errors{0};
  std::atomic<int64_t> increments{0}, checks_won{0}, mutations{0}, reads{0}, scans{0},
      maintenance_runs{0};
  std::mutex broken_mu;
  std::string broken;
  auto report = [&](const std::string& what) {
    std::lock_guard<std::mutex> lock(broken_mu);
    if (broken.empty()) broken = what;
  };

  // On the on-disk stores the incrementers go on until a few flushes and major compactions
  // have run under them.
  const bool maintained = store().SupportsMaintenance() && GetParam() != StoreKind::kMem;
  const int64_t min_maintenance_runs = maintained ? 3 : 0;
  // Readers and maintenance first, so that they run during all of the writes.
  std::vector<std::thread> readers;
  // A scanner of all hot rows; every version counter it sees only grows.
  readers.emplace_back([&] {
    std::map<std::string, int64_t> last_ver;
    while (!stop.load()) {
      auto scanner = t.GetScanner(Scan());
      if (!scanner.ok()) {
        ++errors;
        continue;
      }
      RowResult r;
      while ((*scanner)->Next(&r)) {
        std::string why = BrokenInvariant(r);
        if (!why.empty()) report("scan: " + why);
        int64_t ver = Counter(r, "m", "ver");
        if (ver < last_ver[r.row()]) report("scan: m:ver went back in " + r.row());
        last_ver[r.row()] = ver;
      }
      if (!(*scanner)->status().ok()) ++errors;
      ++scans;
    }
  });
  readers.emplace_back([&] {
    int n = 0;
    while (!stop.load()) {
      auto r = t.Get(Get(HotRow(n++ % kHotRows)));
      if (!r.ok()) {
        ++errors;
        continue;
      }
      std::string why = BrokenInvariant(*r);
      if (!why.empty()) report("get: " + why);
      ++reads;
    }
  });
  if (maintained) {
    readers.emplace_back([&] {
      while (!stop.load()) {
        EXPECT_OK(store().Flush(name));
        EXPECT_OK(store().MajorCompact(name));
        ++maintenance_runs;
      }
    });
  }

  std::vector<std::thread> writers;
  for (int w = 0; w < kIncrementers; ++w) {
    writers.emplace_back([&, w] {
      for (int n = 0; n < kIncrementsEach || maintenance_runs.load() < min_maintenance_runs; ++n) {
        auto r = t.Increment(
            Increment(HotRow((n + w) % kHotRows)).AddColumn("c", "a", 1).AddColumn("c", "b", 1));
        r.ok() ? ++increments : ++errors;
      }
    });
  }
  for (int w = 0; w < kCheckers; ++w) {
    writers.emplace_back([&, w] {
      for (int n = 0; n < kChecksEach; ++n) {
        const std::string row = HotRow((n + w) % kHotRows);
        auto got = t.Get(Get(row).AddFamily("m"));
        if (!got.ok()) {
          ++errors;
          continue;
        }
        const int64_t ver = Counter(*got, "m", "ver");
        CheckAndMutate cam(row);
        if (ver == 0) {
          cam.IfNotExists("m", "ver");
        } else {
          cam.IfEquals("m", "ver", EncodeCounter(ver));
        }
        cam.Then(RowMutations(row)
                     .Add(Put(row).Add("m", "ver", EncodeCounter(ver + 1)))
                     .Add(Put(row).Add("m", "copy", EncodeCounter(ver + 1)))
                     .Add(Delete(row).AddColumns("m", "gone")));
        auto won = t.CheckAndMutate(cam);
        if (!won.ok()) {
          ++errors;
        } else if (*won) {
          ++checks_won;
        }
      }
    });
  }
  writers.emplace_back([&] {
    for (int n = 1; n <= kMutatorRounds; ++n) {
      const std::string row = HotRow(n % kHotRows);
      Status s = t.MutateRow(RowMutations(row)
                                 .Add(Put(row).Add("x", "p", std::to_string(n)))
                                 .Add(Delete(row).AddColumns("x", "gone"))
                                 .Add(Put(row).Add("x", "q", std::to_string(n))));
      s.ok() ? ++mutations : ++errors;
    }
  });

  for (auto& th : writers) th.join();
  stop = true;
  for (auto& th : readers) th.join();

  EXPECT_EQ(errors.load(), 0);
  EXPECT_EQ(broken, "");
  int64_t total_a = 0, total_ver = 0;
  for (int i = 0; i < kHotRows; ++i) {
    auto r = t.Get(Get(HotRow(i)));
    ASSERT_OK(r);
    EXPECT_EQ(BrokenInvariant(*r), "");
    total_a += Counter(*r, "c", "a");
    total_ver += Counter(*r, "m", "ver");
  }
  EXPECT_EQ(total_a, increments.load());
  EXPECT_GE(total_a, kIncrementers * kIncrementsEach);
  EXPECT_GE(maintenance_runs.load(), min_maintenance_runs);
  EXPECT_EQ(total_ver, checks_won.load());
  EXPECT_EQ(mutations.load(), kMutatorRounds);
  std::cout << "[ hot rows ] " << StoreKindName(GetParam()) << ": " << increments.load()
            << " increments, " << checks_won.load() << " check-and-mutates won of "
            << kCheckers * kChecksEach << ", " << mutations.load() << " row mutations, "
            << reads.load() << " gets, " << scans.load() << " scans, " << maintenance_runs.load()
            << " flush+compactions\n";
}

INSTANTIATE_TEST_SUITE_P(Stores, HotRowStressTest,
                         ::testing::Values(StoreKind::kMem, StoreKind::kTiny, StoreKind::kThrift),
                         [](const auto& info) { return StoreKindName(info.param); });

}  // namespace
}  // namespace basalt::testing
