#include "server/http/memory_budget.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace basalt::server::http {
namespace {

using Outcome = MemoryLease::Outcome;

TEST(MemoryBudgetTest, RefusesWhatDoesNotFitAndTakesNothingForIt) {
  MemoryBudget budget(100);
  EXPECT_TRUE(budget.TryReserve(60));
  EXPECT_FALSE(budget.TryReserve(41));
  EXPECT_EQ(budget.used(), 60u);
  EXPECT_TRUE(budget.TryReserve(40));
  budget.Release(100);
  EXPECT_EQ(budget.used(), 0u);
  EXPECT_FALSE(budget.TryReserve(101));
  EXPECT_FALSE(budget.TryReserve(UINT64_MAX));
}

TEST(MemoryBudgetTest, LeaseHoldsUntilClearedOrDestroyed) {
  MemoryBudget budget(100);
  {
    MemoryLease lease(budget, 80);
    EXPECT_EQ(lease.Reserve(30), Outcome::kReserved);
    EXPECT_EQ(lease.Reserve(60), Outcome::kOverRequestLimit);  // 90 > 80 for one request
    EXPECT_EQ(lease.held(), 30u);
    MemoryLease other(budget, 80);
    EXPECT_EQ(other.Reserve(71), Outcome::kBudgetSpent);  // fits its limit, not the budget
    EXPECT_EQ(other.held(), 0u);
    EXPECT_EQ(other.Reserve(70), Outcome::kReserved);
    EXPECT_EQ(budget.used(), 100u);
    other.Clear();
    EXPECT_EQ(budget.used(), 30u);
    // ReserveTotal grows and shrinks to the total asked for.
    EXPECT_EQ(lease.ReserveTotal(50), Outcome::kReserved);
    EXPECT_EQ(budget.used(), 50u);
    EXPECT_EQ(lease.ReserveTotal(10), Outcome::kReserved);
    EXPECT_EQ(budget.used(), 10u);
    EXPECT_EQ(lease.ReserveTotal(81), Outcome::kOverRequestLimit);
    EXPECT_EQ(lease.held(), 10u);
  }
  EXPECT_EQ(budget.used(), 0u);
}

TEST(MemoryBudgetTest, ConcurrentLeasesNeverHoldMoreThanTheLimit) {
  constexpr uint64_t kLimit = 1000;
  MemoryBudget budget(kLimit);
  std::atomic<uint64_t> held_total{0};
  std::atomic<bool> over{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20000; ++i) {
        MemoryLease lease(budget, kLimit);
        uint64_t n = 1 + static_cast<uint64_t>((i * 7 + t * 13) % 300);
        if (lease.Reserve(n) == Outcome::kReserved) {
          if (held_total.fetch_add(n) + n > kLimit) over = true;
          held_total.fetch_sub(n);
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_FALSE(over.load());
  EXPECT_EQ(budget.used(), 0u);
}

}  // namespace
}  // namespace basalt::server::http
