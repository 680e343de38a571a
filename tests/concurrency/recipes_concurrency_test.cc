// The recipes under concurrent callers: exact counts and unique ids. Runs in the normal suite
// and under ThreadSanitizer (scripts/test.sh), which also checks the counters' refresher thread.

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "basalt/recipes/activity_log.h"
#include "basalt/recipes/click_counters.h"
#include "support/test_store.h"

namespace basalt::recipes {
namespace {

using basalt::testing::StoreTest;

constexpr int kRecipeThreads = 4;
constexpr int64_t kMinute = ClickCounters::kMinuteMs;
constexpr int64_t kDay0 = 1795392000000;  // 2026-11-23 00:00 UTC

class RecipesConcurrencyTest : public StoreTest {};

TEST_P(RecipesConcurrencyTest, ConcurrentClicksOnOneItemCountExactly) {
  for (int salt : {0, 4}) {
    ClickCountersOptions options;
    options.table_prefix = "hot" + std::to_string(salt);
    options.salt_buckets = salt;
    auto counters = ClickCounters::Open(store().conn(), options);
    ASSERT_OK(counters);
    constexpr int kEach = 250;
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kRecipeThreads; ++t) {
      threads.emplace_back([&] {
        for (int i = 0; i < kEach; ++i) {
          if (!(*counters)->Click("item", 1, kDay0 + (i % 3) * kMinute).ok()) ++failures;
        }
      });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ((*counters)->Total("item").value_or(-1), kRecipeThreads * kEach);
    EXPECT_EQ((*counters)->Count("item", kDay0, kDay0 + 3 * kMinute).value_or(-1),
              kRecipeThreads * kEach);
  }
}

// Clicks land while the refresher thread polls; after the clock passes the boundary, the
// rolling week holds every one of them.
TEST_P(RecipesConcurrencyTest, ClicksWhileTheRefresherRuns) {
  std::atomic<int64_t> now{kDay0};
  std::mutex mu;
  std::condition_variable cv;
  int64_t refreshed = -1;
  ClickCountersOptions options;
  options.table_prefix = "live";
  options.clock = [&] { return now.load(); };
  options.refresher_poll_ms = 1;
  options.on_refresh = [&](int64_t boundary, const Status& s) {
    std::lock_guard<std::mutex> lock(mu);
    if (s.ok()) refreshed = boundary;
    cv.notify_all();
  };
  auto counters = ClickCounters::Open(store().conn(), options);
  ASSERT_OK(counters);
  ASSERT_OK((*counters)->StartRefresher());
  constexpr int kEach = 200;
  std::vector<std::thread> threads;
  for (int t = 0; t < kRecipeThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        Status s = (*counters)->Click(t % 2 ? "a" : "b", 1, kDay0 + i * 1000);
        EXPECT_TRUE(s.ok()) << s.ToString();
      }
    });
  }
  for (auto& th : threads) th.join();
  now.store(kDay0 + ClickCounters::kRefreshPeriodMs);
  {
    std::unique_lock<std::mutex> lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(20),
                            [&] { return refreshed == kDay0 + ClickCounters::kRefreshPeriodMs; }));
  }
  (*counters)->Stop();
  EXPECT_EQ((*counters)->RollingWeek("a").value_or(-1), kRecipeThreads / 2 * kEach);
  EXPECT_EQ((*counters)->RollingWeek("b").value_or(-1), kRecipeThreads / 2 * kEach);
}

TEST_P(RecipesConcurrencyTest, ConcurrentRecordsOfOneUserGetDistinctIds) {
  for (auto layout : {ActivityLogOptions::Layout::kTall, ActivityLogOptions::Layout::kWide}) {
    ActivityLogOptions options;
    options.layout = layout;
    options.table_prefix = layout == ActivityLogOptions::Layout::kTall ? "tall" : "wide";
    auto log = ActivityLog::Open(store().conn(), options);
    ASSERT_OK(log);
    constexpr int kEach = 100;
    std::vector<std::vector<EventId>> ids(kRecipeThreads);
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kRecipeThreads; ++t) {
      threads.emplace_back([&, t] {
        for (int i = 0; i < kEach; ++i) {
          auto id = (*log)->Record("hot", "e", "", 42);  // all in the same millisecond
          if (!id.ok()) {
            ++failures;
            continue;
          }
          ids[t].push_back(*id);
        }
      });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(failures.load(), 0);
    std::set<EventId> all;
    for (const auto& v : ids) all.insert(v.begin(), v.end());
    EXPECT_EQ(all.size(), static_cast<size_t>(kRecipeThreads * kEach));
    EXPECT_EQ((*log)->Count("hot").value_or(-1), kRecipeThreads * kEach);
  }
}

BASALT_INSTANTIATE_STORE_TEST(RecipesConcurrencyTest);

}  // namespace
}  // namespace basalt::recipes
