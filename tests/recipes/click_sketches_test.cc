// The approximate click counters' sketches on their own, on many more inputs than a store test
// can write: the HyperLogLog error against its stated standard error, and the pinned hash.

#include "recipes/click_sketches.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

namespace basalt::recipes::sketch {
namespace {

// The hash decides which register, rank and counter a stored cell is: it must never change.
TEST(ClickSketchesTest, HashIsPinned) {
  EXPECT_EQ(Hash64("", 7), 651113015611691225ull);
  EXPECT_EQ(Hash64("visitor-1", 0), 5302916762562400795ull);
  EXPECT_EQ(Hash64("a longer visitor name than eight bytes", 42), 2093307000075580008ull);
  const RegisterUpdate u = HllUpdate("alice");
  EXPECT_EQ(u.index, 3579);
  EXPECT_EQ(u.rank, 2);
  EXPECT_EQ(CountMinColumn("item42", 0), 2030);
  EXPECT_EQ(CountMinColumn("item42", 3), 725);
  EXPECT_EQ(ShardOf("item42"), 6);
}

// For each cardinality, independent runs (disjoint visitor names, so independent hashes): the
// estimate is within 3 standard errors in at least 90% of the runs (99.7% expected), and the
// mean relative error is within 3 standard errors of the mean (no bias). The inputs are fixed,
// so the test cannot flake; it fails if the estimator or the hash is off.
TEST(ClickSketchesTest, HyperLogLogErrorMatchesItsStandardError) {
  constexpr int kRuns = 24;
  for (int64_t n : {10, 100, 1000, 5000, 10000, 20000, 100000}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    int within = 0;
    double sum_error = 0;
    for (int run = 0; run < kRuns; ++run) {
      HyperLogLog hll;
      const std::string prefix = "run" + std::to_string(run) + "/n" + std::to_string(n) + "/";
      for (int64_t i = 0; i < n; ++i) hll.Add(prefix + std::to_string(i));
      const double error = static_cast<double>(hll.Estimate() - n) / static_cast<double>(n);
      sum_error += error;
      if (std::abs(error) <= 3 * kRelativeStandardError) ++within;
    }
    EXPECT_GE(within, kRuns * 9 / 10);
    EXPECT_LE(std::abs(sum_error / kRuns), 3 * kRelativeStandardError / std::sqrt(kRuns));
  }
}

TEST(ClickSketchesTest, SmallCountsAreExactAndRepeatsCountOnce) {
  HyperLogLog hll;
  EXPECT_EQ(hll.Estimate(), 0);
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 40; ++i) hll.Add("user" + std::to_string(i));
  }
  EXPECT_EQ(hll.Estimate(), 40);
}

// Merging (register-wise max) gives the sketch of the union, whatever the overlap.
TEST(ClickSketchesTest, MergedRegistersAreTheUnionsSketch) {
  HyperLogLog a, b, both;
  for (int i = 0; i < 30000; ++i) {
    const std::string v = "v" + std::to_string(i);
    if (i < 20000) a.Add(v);
    if (i >= 10000) b.Add(v);
    both.Add(v);
  }
  for (int r = 0; r < kRegisters; ++r) a.Raise(static_cast<uint16_t>(r), b.registers()[r]);
  EXPECT_EQ(a.registers(), both.registers());
  EXPECT_LE(std::abs(both.Estimate() - 30000), 3 * kRelativeStandardError * 30000);
}

TEST(ClickSketchesTest, RanksAndColumnsStayInRange) {
  std::set<int> shards;
  for (int i = 0; i < 5000; ++i) {
    const std::string s = std::to_string(i);
    const RegisterUpdate u = HllUpdate(s);
    EXPECT_LT(u.index, kRegisters);
    EXPECT_GE(u.rank, 1);
    EXPECT_LE(u.rank, kMaxRank);
    for (int d = 0; d < kSketchDepth; ++d) EXPECT_LT(CountMinColumn(s, d), kSketchWidth);
    shards.insert(ShardOf(s));
  }
  EXPECT_EQ(shards.size(), static_cast<size_t>(kShards));
}

}  // namespace
}  // namespace basalt::recipes::sketch
