#include "engine/row_locks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace basalt::engine {
namespace {

// Stripes with duplicates, in random order: a Guard must take each once (a second lock of a
// stripe by its holder would deadlock) and release them all.
std::vector<size_t> ShuffledStripes(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<size_t> stripes;
  for (size_t i = 0; i < n; ++i) stripes.push_back(rng() % RowLocks::kStripes);
  for (size_t i = 0; i < n / 4; ++i) stripes.push_back(stripes[rng() % stripes.size()]);
  std::shuffle(stripes.begin(), stripes.end(), rng);
  return stripes;
}

// Rows that differ in one byte anywhere, as sequential ids do, must not pile onto a few stripes:
// a batch of them would then serialise with every other writer of those stripes.
TEST(RowLocksTest, SequentialAndBinaryRowsSpreadEvenlyOverStripes) {
  RowLocks locks;
  auto max_load = [&](const std::vector<std::string>& rows, uint64_t table_id) {
    std::vector<int> load(RowLocks::kStripes, 0);
    for (const auto& r : rows) ++load[locks.StripeOf(table_id, r)];
    return *std::max_element(load.begin(), load.end());
  };
  constexpr int kRows = 100000;  // about 24 per stripe
  std::vector<std::string> text, binary;
  for (int i = 0; i < kRows; ++i) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "user%010d", i);
    text.emplace_back(buf);
    std::string b(20, '\0');  // a long prefix of zeros, then a 4-byte big-endian id
    for (int k = 0; k < 4; ++k) b[16 + k] = static_cast<char>((i >> (24 - 8 * k)) & 0xff);
    binary.push_back(b);
  }
  // A uniform spread gives a busiest stripe of about 45; a weak hash gives hundreds.
  EXPECT_LT(max_load(text, 1), 60);
  EXPECT_LT(max_load(binary, 1), 60);
  // The table id is part of the hash: the same row of two tables mostly uses two stripes.
  int same = 0;
  for (int i = 0; i < 1000; ++i) same += locks.StripeOf(1, text[i]) == locks.StripeOf(2, text[i]);
  EXPECT_LT(same, 10);
  // Short and empty rows are hashed without reading past them.
  EXPECT_LT(locks.StripeOf(1, ""), RowLocks::kStripes);
  EXPECT_NE(locks.StripeOf(1, "a"), locks.StripeOf(1, "b"));
}

TEST(RowLocksTest, SmallAndLargeSetsWithDuplicatesLockEachStripeOnceAndReleaseAll) {
  RowLocks locks;
  for (size_t n : {1u, 5u, 16u, 17u, 100u, 3000u}) {
    { RowLocks::Guard g(&locks, ShuffledStripes(n, n)); }
    // Taken again: the first guard released every stripe.
    { RowLocks::Guard g(&locks, ShuffledStripes(n, n)); }
  }
}

TEST(RowLocksTest, OverlappingBatchesInAnyOrderDoNotDeadlock) {
  RowLocks locks;
  std::vector<std::thread> threads;
  int64_t counter = 0;  // guarded by stripe 7, which every batch holds
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 300; ++i) {
        auto stripes = ShuffledStripes(i % 2 == 0 ? 8 : 200, t * 1000 + i);
        stripes.push_back(7);
        RowLocks::Guard g(&locks, std::move(stripes));
        ++counter;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(counter, 4 * 300);
}

}  // namespace
}  // namespace basalt::engine
