// The differential test: HBase as the oracle. Seeded random sequences of operations
// (op_generator.h) go to an embedded basalt store and, through basalt's thrift:// backend, to a
// real Apache HBase's Thrift2 gateway (BASALT_TEST_THRIFT_TARGET, which scripts/hbase.sh
// prints); every outcome is compared. A sequence that differs is shrunk by delta debugging to a
// short one that still differs, and printed as a regression test for the list below.
//
//   basalt_hbase_diff_test                       the bounded run CI makes (a few seeds)
//   basalt_hbase_diff_test --seconds 600         a soak: new seeds until the time is up
//   basalt_hbase_diff_test --seed 7 --ops 300    one sequence
// Without BASALT_TEST_THRIFT_TARGET every test fails and says so.

#include <unistd.h>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "basalt/basalt.h"
#include "hbdiff/diff_ops.h"
#include "hbdiff/op_generator.h"
#include "support/test_store.h"

namespace basalt::hbdiff {
namespace {

struct Flags {
  int64_t seconds = 0;  // 0: the bounded run
  uint64_t seed = 1;
  int sequences = 8;
  int ops = 150;
  bool trace = false;  // print every op's outcomes and go on past a difference
};
Flags g_flags;

struct Figures {
  int64_t sequences = 0;
  int64_t ops_compared = 0;
  int64_t differences = 0;
};

constexpr int kSetupFailed = -2;

// Both stores, one fresh table pair per sequence.
class Stores {
 public:
  Stores() {
    const char* target = std::getenv("BASALT_TEST_THRIFT_TARGET");
    if (target == nullptr || *target == '\0') {
      error_ =
          "BASALT_TEST_THRIFT_TARGET is not set: the differential test needs a real HBase's "
          "Thrift2 gateway (scripts/hbase.sh start prints it; docs/hbase.md)";
      return;
    }
    auto hbase = Connection::Open(target);
    if (!hbase.ok()) {
      error_ = std::string("open ") + target + ": " + hbase.status().ToString();
      return;
    }
    hbase_ = std::move(*hbase);
    auto embedded = Connection::Open("embedded:" + dir_.path() + "/store");
    if (!embedded.ok()) {
      error_ = "open the embedded store: " + embedded.status().ToString();
      return;
    }
    embedded_ = std::move(*embedded);
    clock_.server_floor = SystemWallMillis();
    clock_.base = clock_.server_floor - 3'600'000;
  }

  const std::string& error() const { return error_; }
  const Clock& clock() const { return clock_; }

  // Runs `ops` on a fresh table on each store. Returns the index of the first op whose outcomes
  // differ (and the two outcomes), -1 when none does, or kSetupFailed (the reason in both
  // outcomes); `*compared` counts the ops run.
  int Run(const std::vector<std::string>& ops, std::string* ours, std::string* theirs,
          int64_t* compared) {
    std::string name = "hbdiff_" + std::to_string(getpid()) + "_" + std::to_string(++tables_);
    TableDescriptor desc = DiffTable(name);
    Status s = embedded_->admin().CreateTable(desc);
    if (!s.ok()) return Fail("create on basalt: " + s.ToString(), ours, theirs);
    s = hbase_->admin().CreateTable(desc);
    if (!s.ok()) return Fail("create on HBase: " + s.ToString(), ours, theirs);
    auto mine = embedded_->GetTable(desc.name);
    auto other = hbase_->GetTable(desc.name);
    if (!mine.ok() || !other.ok()) return Fail("GetTable failed", ours, theirs);
    int differs = -1;
    int64_t last_write = 0;
    for (size_t i = 0; i < ops.size(); ++i) {
      // A write waits for the next millisecond after the last write finished on both stores, so
      // that two server-timestamped writes are one version on both or two on both.
      if (IsWrite(ops[i])) {
        while (SystemWallMillis() <= last_write) {
          std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
      }
      std::string a = ApplyOp(**mine, clock_, ops[i]);
      std::string b = ApplyOp(**other, clock_, ops[i]);
      if (IsWrite(ops[i])) last_write = SystemWallMillis();
      ++*compared;
      if (g_flags.trace) {
        std::cout << ops[i] << "\n  basalt: " << a << "\n  HBase:  " << b << "\n";
        if (!SameOutcome(a, b) && differs < 0) differs = static_cast<int>(i);
        continue;
      }
      if (!SameOutcome(a, b)) {
        *ours = a;
        *theirs = b;
        differs = static_cast<int>(i);
        break;
      }
    }
    mine->reset();
    other->reset();
    embedded_->admin().DisableTable(desc.name).PermitUncheckedError();
    embedded_->admin().DeleteTable(desc.name).PermitUncheckedError();
    // At once, not at the end of the run: a soak's hundreds of tables exhaust a small HBase's
    // heap (scripts/hbase.sh's ran out after about 150).
    hbase_->admin().DisableTable(desc.name).PermitUncheckedError();
    hbase_->admin().DeleteTable(desc.name).PermitUncheckedError();
    return differs;
  }

 private:
  // A table that could not be set up: kSetupFailed, never a difference.
  int Fail(const std::string& why, std::string* ours, std::string* theirs) {
    *ours = why;
    *theirs = why;
    return kSetupFailed;
  }

  testing::TempDir dir_;
  std::string error_;
  std::unique_ptr<Connection> hbase_;
  std::unique_ptr<Connection> embedded_;
  Clock clock_;
  int tables_ = 0;
};

// Delta debugging (ddmin) over the op list: the shortest list found that still differs. Each try
// costs a table on HBase, so the search is capped.
std::vector<std::string> Shrink(Stores& stores, std::vector<std::string> ops) {
  int64_t unused = 0;
  std::string a, b;
  auto differs = [&](const std::vector<std::string>& candidate) {
    return stores.Run(candidate, &a, &b, &unused) >= 0;
  };
  int tries = 0;
  size_t n = 2;
  while (ops.size() >= 2 && tries < 150) {
    size_t chunk = (ops.size() + n - 1) / n;
    bool reduced = false;
    for (size_t start = 0; start < ops.size() && tries < 150; start += chunk) {
      std::vector<std::string> complement;
      for (size_t i = 0; i < ops.size(); ++i) {
        if (i < start || i >= start + chunk) complement.push_back(ops[i]);
      }
      ++tries;
      if (!complement.empty() && differs(complement)) {
        ops = std::move(complement);
        n = std::max<size_t>(n - 1, 2);
        reduced = true;
        break;
      }
    }
    if (!reduced) {
      if (n >= ops.size()) break;
      n = std::min(n * 2, ops.size());
    }
  }
  return ops;
}

std::string AsRegressionTest(uint64_t seed, const std::vector<std::string>& ops) {
  std::string out =
      "TEST(HBaseDiffRegression, Seed" + std::to_string(seed) + ") {\n  ExpectSameOnBothStores({\n";
  for (const auto& op : ops) out += "      \"" + op + "\",\n";
  return out + "  });\n}\n";
}

// Runs one seed's sequence; on a difference, shrinks it and reports it as a failure.
void RunSeed(Stores& stores, uint64_t seed, int count, Figures* figures) {
  std::vector<std::string> ops = GenerateOps(seed, count);
  std::string ours, theirs;
  int at = stores.Run(ops, &ours, &theirs, &figures->ops_compared);
  ++figures->sequences;
  if (at == kSetupFailed) {
    ADD_FAILURE() << "seed " << seed << ": " << ours;
    return;
  }
  if (at < 0) return;
  ++figures->differences;
  ops.resize(at + 1);
  std::vector<std::string> small = Shrink(stores, ops);
  int64_t unused = 0;
  int last = stores.Run(small, &ours, &theirs, &unused);
  ADD_FAILURE() << "seed " << seed << ": basalt and HBase differ at \""
                << (last >= 0 ? small[last] : ops[at]) << "\"\n  basalt: " << ours
                << "\n  HBase:  " << theirs << "\nshrunk to " << small.size()
                << " ops; keep it as a regression test:\n"
                << AsRegressionTest(seed, small);
}

TEST(HBaseDiff, RandomSequencesAgreeWithHBase) {
  Stores stores;
  ASSERT_TRUE(stores.error().empty()) << stores.error();
  Figures figures;
  auto start = std::chrono::steady_clock::now();
  uint64_t seed = g_flags.seed;
  if (g_flags.seconds > 0) {
    while (std::chrono::steady_clock::now() - start < std::chrono::seconds(g_flags.seconds)) {
      RunSeed(stores, seed++, g_flags.ops, &figures);
    }
  } else {
    for (int i = 0; i < g_flags.sequences; ++i) RunSeed(stores, seed++, g_flags.ops, &figures);
  }
  auto took =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start);
  std::cout << "hbase diff: seeds " << g_flags.seed << ".." << seed - 1 << ", " << figures.sequences
            << " sequences, " << figures.ops_compared << " operations compared, "
            << figures.differences << " differing sequences, in " << took.count() << " s\n";
}

// A kept sequence (a shrunk reproduction): every op's outcome must be the same on both.
void ExpectSameOnBothStores(const std::vector<std::string>& ops) {
  Stores stores;
  ASSERT_TRUE(stores.error().empty()) << stores.error();
  std::string ours, theirs;
  int64_t compared = 0;
  int at = stores.Run(ops, &ours, &theirs, &compared);
  EXPECT_EQ(at, -1) << "differ at \"" << (at >= 0 ? ops[at] : "") << "\"\n  basalt: " << ours
                    << "\n  HBase:  " << theirs;
}

// The generator's own lines parse (no "bad op" outcome) on the embedded store alone: a broken
// line would otherwise show only as both stores answering the same "bad op".
TEST(HBaseDiff, GeneratedLinesParse) {
  testing::TempDir dir;
  auto conn = Connection::Open("embedded:" + dir.path() + "/store");
  ASSERT_TRUE(conn.ok()) << conn.status().ToString();
  ASSERT_TRUE((*conn)->admin().CreateTable(DiffTable("parse")).ok());
  auto table = (*conn)->GetTable("parse");
  ASSERT_TRUE(table.ok());
  Clock clock{SystemWallMillis() - 3'600'000, SystemWallMillis()};
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    for (const auto& op : GenerateOps(seed, 200)) {
      std::string outcome = ApplyOp(**table, clock, op);
      ASSERT_EQ(outcome.rfind("bad op", 0), std::string::npos) << op << ": " << outcome;
    }
  }
}

// Regressions the differential test found, shrunk; each was a basalt bug, now fixed (each name
// says which).

TEST(HBaseDiffRegression, FilterListOrAsksItsChildrenInOrderUntilOneKeepsTheRow) {
  ExpectSameOnBothStores({
      "put r4 a:q2=v2@29 a:q1=v10@25 c:q0=v1@41",
      "mutate r1 put a:q3=v5",
      "put r2 a:q1=v6 c:q3=v4 a:q3=v9",
      "scan start=r6 rev cols=a,c:q3 v=2 filter=(PageFilter(2)) OR (PageFilter(1))",
      "scan filter=(PageFilter(2)) OR (PageFilter(1))",
  });
}

TEST(HBaseDiffRegression, FilterListAndShowsLaterChildrenOnlyTheCellsEarlierOnesKept) {
  ExpectSameOnBothStores({
      "put r2 c:q2=v11 a:q3=v3",
      "put r2 a:q0=v7",
      "scan start=r1 caching=2 cols=a v=all filter=(ValueFilter(=, 'regexstring:v[0-5]')) AND "
      "(FirstKeyOnlyFilter())",
  });
}

TEST(HBaseDiffRegression, ServerTimestampedDeletesAndPutsInOneRowMutations) {
  // The generator once put after a server-timestamped delete in one call (HBase masks it: a
  // deliberate difference); what stays is the delete after the put.
  ExpectSameOnBothStores({"put r1 b:q2=v1", "mutate r1 put b:q2=v7 | del", "get r1 v=all"});
}

TEST(HBaseDiffRegression, AReversedLimitedScanOfAFamilyAndAColumnStopsAtItsRows) {
  // An earlier generator found this shape differing (a reversed scan with a limit, a family and
  // a column selected); it has agreed since, and is kept so that it stays so.
  ExpectSameOnBothStores({
      "put r1 a:q1=v1 a:q2=v2@5 c:q1=v3 c:q2=v4",
      "put r2 a:q0=v4 c:q1=v5@3 c:q1=v6@4",
      "put r3 c:q1=v6 a:q3=v1",
      "put r4 c:q2=v6",
      "put r5 a:q1=v7 c:q1=v8",
      "scan stop=r2 rev limit=2 cols=a,c:q1 v=all",
      "scan start=r5 stop=r1 rev limit=2 cols=a,c:q1 v=all",
      "scan start=r4 rev limit=2 cols=a,c:q1 v=all",
      "scan start=r5 rev limit=3 cols=a,c:q1 v=2 caching=1",
      "scan rev limit=1 cols=c:q1,a v=all",
  });
}

// Differences docs/data-model.md lists as deliberate, pinned on both sides: the last op's
// outcome on basalt and on HBase.
void ExpectKnownDifference(const std::vector<std::string>& ops, const std::string& on_basalt,
                           const std::string& on_hbase) {
  Stores stores;
  ASSERT_TRUE(stores.error().empty()) << stores.error();
  std::string ours, theirs;
  int64_t compared = 0;
  int at = stores.Run(ops, &ours, &theirs, &compared);
  ASSERT_EQ(at, static_cast<int>(ops.size()) - 1) << "basalt: " << ours << "\nHBase: " << theirs;
  EXPECT_EQ(ours, on_basalt);
  EXPECT_EQ(theirs, on_hbase);
}

TEST(HBaseDiffKnown, AnIncrementNamingAColumnTwiceAddsBothAmounts) {
  // basalt: 0 - 5 + 10, the final value once; HBase: each amount added to the value before the
  // call, one cell per amount, the last one stored.
  ExpectKnownDifference({"incr r2 c:n1=-5 c:n1=10"},
                        "[r2 c:n1=\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x05S]",
                        "[r2 c:n1=\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xfbS "
                        "c:n1=\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x0aS]");
}

TEST(HBaseDiffKnown, AReversedScanWithAFilterListOrOfColumnFiltersKeepsEveryFamily) {
  // HBase 2.6 drops the row: its first family's cell makes a child hint a seek, and in a
  // reversed scan the row's later family is not read. basalt does not copy that.
  ExpectKnownDifference(
      {"put r3 a:q0=v4@1 b:q1=v1@1",
       "scan rev filter=(ColumnPrefixFilter('q1')) OR (ColumnPrefixFilter('q1'))"},
      "[r3 b:q1=v1@1]", "(none)");
}

TEST(HBaseDiffKnown, MinVersionsAreTheSameForANamedColumn) {
  // Family c: MIN_VERSIONS 1, TTL 2 hours; @-9999999997 is expired, @22 is not.
  ExpectKnownDifference(
      {"put r0 c:q0=v10@-9999999997 c:q0=v11@22", "get r0 v=all", "get r0 cols=c:q0 v=all"},
      "[r0 c:q0=v11@22]", "[r0 c:q0=v11@22 c:q0=v10@-9999999997]");
}

TEST(HBaseDiffKnown, ALimitWithABatchCountsRowsNotPieces) {
  // basalt: three rows, whatever pieces the batch cuts them into (Scan.setLimit's rows). HBase
  // 2.6 counts the first piece of r1 as a row of its own and stops after r3; its Java client,
  // with assertions on, fails an assertion on the same scan (docs/data-model.md).
  ExpectKnownDifference(
      {"put r1 a:q2=v0 b:q1=v10 c:q0=v5", "put r5 c:q2=v0 b:q2=v7", "put r3 b:q2=v5 b:q1=v8",
       "put r1 a:q2=v8 a:q1=v4 c:q1=v10", "scan start=r1 limit=3 batch=2 caching=1 cols=b:q1,c"},
      "[r1 b:q1=v10S c:q0=v5S][r1 c:q1=v10S][r3 b:q1=v8S][r5 c:q2=v0S]",
      "[r1 b:q1=v10S c:q0=v5S][r1 c:q1=v10S][r3 b:q1=v8S]");
}

TEST(HBaseDiffKnown, ColumnCountGetFilterPastItsLimitEndsTheWholeScan) {
  ExpectKnownDifference({"put r0 a:q0=x@1 a:q1=x@1 a:q2=x@1 a:q3=x@1 b:q0=x@1 b:q1=x@1",
                         "put r1 a:q0=y@1", "scan filter=ColumnCountGetFilter(4)"},
                        "[r0 a:q0=x@1 a:q1=x@1 a:q2=x@1 a:q3=x@1]",
                        "[r0 a:q0=x@1 a:q1=x@1 a:q2=x@1 a:q3=x@1][r1 a:q0=y@1]");
}

}  // namespace
}  // namespace basalt::hbdiff

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  auto& f = basalt::hbdiff::g_flags;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << arg << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--seconds") {
      f.seconds = std::stoll(next());
    } else if (arg == "--seed") {
      f.seed = std::stoull(next());
      f.sequences = 1;
    } else if (arg == "--ops") {
      f.ops = std::stoi(next());
    } else if (arg == "--trace") {
      f.trace = true;
    } else if (arg == "--sequences") {
      f.sequences = std::stoi(next());
    } else {
      std::cerr << "unknown argument " << arg
                << " (--seconds N, --seed S, --ops N, --sequences N, and gtest's)\n";
      return 2;
    }
  }
  return RUN_ALL_TESTS();
}
