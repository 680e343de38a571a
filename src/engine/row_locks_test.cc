#include "engine/row_locks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <random>
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

TEST(StripeLockTest, ExcludesAndWakesWaitersUnderContention) {
  StripeLock lock;
  int64_t counter = 0;  // guarded by `lock`
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20000; ++i) {
        std::lock_guard<StripeLock> g(lock);
        const int64_t seen = counter;
        // Now and then hold the lock across a yield, so that others queue as waiters and the
        // unlock has someone to wake.
        if ((i + t) % 500 == 0) std::this_thread::yield();
        counter = seen + 1;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(counter, 4 * 20000);
}

}  // namespace
}  // namespace basalt::engine
