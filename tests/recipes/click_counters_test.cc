// Click counters on every store kind: totals, exact windows, top-K, salting, and the rolling
// week kept by the refresher thread against the exact window at every refresh.

#include "basalt/recipes/click_counters.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "support/test_store.h"

namespace basalt::recipes {
namespace {

using basalt::testing::StoreTest;

constexpr int64_t kMinute = ClickCounters::kMinuteMs;
constexpr int64_t kHalfHour = ClickCounters::kRefreshPeriodMs;
constexpr int64_t kWeek = ClickCounters::kWeekMs;
// 2026-11-23 00:00 UTC.
constexpr int64_t kDay0 = 1795392000000;

std::unique_ptr<ClickCounters> OpenCounters(Connection& conn, ClickCountersOptions options) {
  auto counters = ClickCounters::Open(conn, std::move(options));
  EXPECT_TRUE(counters.ok()) << counters.status().ToString();
  return counters.ok() ? std::move(*counters) : nullptr;
}

ClickCountersOptions WithPrefix(std::string prefix, int salt = 0) {
  ClickCountersOptions options;
  options.table_prefix = std::move(prefix);
  options.salt_buckets = salt;
  return options;
}

class ClickCountersTest : public StoreTest {};

TEST_P(ClickCountersTest, WindowsTotalsAndTopKMatchTheClicks) {
  for (int salt : {0, 7}) {
    SCOPED_TRACE("salt " + std::to_string(salt));
    auto counters = OpenCounters(store().conn(), WithPrefix("c" + std::to_string(salt), salt));
    ASSERT_TRUE(counters);
    // Items whose bytes are prefixes of one another, and an item with 00 and '#'.
    const std::vector<std::string> items = {"a", "ab", std::string("a\0#", 3), "b"};
    std::map<std::string, std::map<int64_t, int64_t>> model;  // item -> minute -> clicks
    std::mt19937_64 rng(7 + salt);
    for (int i = 0; i < 300; ++i) {
      const std::string& item = items[rng() % items.size()];
      const int64_t t = kDay0 + static_cast<int64_t>(rng() % (3 * 24 * 60)) * kMinute +
                        static_cast<int64_t>(rng() % kMinute);
      const int64_t n = 1 + static_cast<int64_t>(rng() % 3);
      ASSERT_OK(counters->Click(item, n, t));
      model[item][t - t % kMinute] += n;
    }
    for (int q = 0; q < 40; ++q) {
      const int64_t from = kDay0 + static_cast<int64_t>(rng() % (3 * 24 * 60)) * kMinute;
      const int64_t to = from + static_cast<int64_t>(rng() % (24 * 60)) * kMinute;
      std::vector<ItemCount> want;
      for (const auto& item : items) {
        int64_t sum = 0;
        for (auto it = model[item].lower_bound(from); it != model[item].end() && it->first < to;
             ++it) {
          sum += it->second;
        }
        auto got = counters->Count(item, from, to);
        ASSERT_OK(got);
        EXPECT_EQ(*got, sum) << "item " << item << " [" << from << ", " << to << ")";
        if (sum > 0) want.push_back({item, sum});
      }
      std::sort(want.begin(), want.end(), [](const ItemCount& a, const ItemCount& b) {
        return a.count != b.count ? a.count > b.count : a.item < b.item;
      });
      if (want.size() > 2) want.resize(2);
      auto top = counters->TopK(from, to, 2);
      ASSERT_OK(top);
      EXPECT_EQ(*top, want);
    }
    for (const auto& item : items) {
      int64_t sum = 0;
      for (const auto& [minute, n] : model[item]) sum += n;
      auto total = counters->Total(item);
      ASSERT_OK(total);
      EXPECT_EQ(*total, sum);
    }
    auto none = counters->Total("never");
    ASSERT_OK(none);
    EXPECT_EQ(*none, 0);
  }
}

TEST_P(ClickCountersTest, MinuteBucketsAreUtcCalendarMinutes) {
  auto counters = OpenCounters(store().conn(), WithPrefix("cal"));
  ASSERT_TRUE(counters);
  // 2026-11-23 10:30:59.999 and 10:31:00.000 UTC fall in different buckets.
  const int64_t t = kDay0 + (10 * 60 + 31) * kMinute;
  ASSERT_OK(counters->Click("i", 1, t - 1));
  ASSERT_OK(counters->Click("i", 10, t));
  auto row = store().table("cal_by_item").Get(Get("i" + std::string("\0\x01", 2) + "202611231030"));
  ASSERT_OK(row);
  ASSERT_EQ(row->size(), 1u);
  auto first = counters->Count("i", t - kMinute, t);
  ASSERT_OK(first);
  EXPECT_EQ(*first, 1);
  auto second = counters->Count("i", t, t + kMinute);
  ASSERT_OK(second);
  EXPECT_EQ(*second, 10);
}

// The refresher thread, driven by a fake clock, keeps the note's formula; at every refresh the
// rolling week equals the exact count of [T - 7d, T) from the minute buckets. 400 refreshes
// cover more than 7 days, so the subtraction of the half hour 7 days ago is exercised.
TEST_P(ClickCountersTest, RollingWeekEqualsTheExactWindowAtEveryRefresh) {
  std::atomic<int64_t> now{kDay0 + 5 * kMinute};
  std::mutex mu;
  std::condition_variable cv;
  int64_t refreshed = -1;
  Status last;
  ClickCountersOptions options =
      WithPrefix("roll", GetParam() == basalt::testing::StoreKind::kMem ? 3 : 0);
  options.clock = [&] { return now.load(); };
  options.refresher_poll_ms = 1;
  options.on_refresh = [&](int64_t boundary, const Status& s) {
    std::lock_guard<std::mutex> lock(mu);
    refreshed = boundary;
    last = s;
    cv.notify_all();
  };
  auto wait_for = [&](int64_t boundary) {
    std::unique_lock<std::mutex> lock(mu);
    return cv.wait_for(lock, std::chrono::seconds(20), [&] { return refreshed >= boundary; }) &&
           last.ok();
  };
  auto counters = OpenCounters(store().conn(), options);
  ASSERT_TRUE(counters);
  ASSERT_OK(counters->StartRefresher());
  EXPECT_TRUE(counters->StartRefresher().IsFailedPrecondition());
  ASSERT_TRUE(wait_for(kDay0));

  const std::vector<std::string> items = {"x", "y", "z", "xy"};
  std::mt19937_64 rng(GetParam() == basalt::testing::StoreKind::kTiny ? 1 : 2);
  int64_t boundary = kDay0;
  const int kRefreshes = 400;
  for (int step = 0; step < kRefreshes; ++step) {
    // Random clicks inside the half hour [boundary, boundary + 30 min); some half hours none.
    const int clicks = static_cast<int>(rng() % 6);
    for (int c = 0; c < clicks; ++c) {
      const int64_t t = boundary + static_cast<int64_t>(rng() % kHalfHour);
      now.store(std::max(now.load(), t));
      ASSERT_OK(counters->Click(items[rng() % items.size()], 1 + rng() % 4, t));
    }
    boundary += kHalfHour;
    now.store(boundary + static_cast<int64_t>(rng() % kMinute));
    ASSERT_TRUE(wait_for(boundary)) << "refresh to " << boundary << ": " << last.ToString();
    for (const auto& item : items) {
      auto week = counters->RollingWeek(item);
      auto exact = counters->Count(item, boundary - kWeek, boundary);
      ASSERT_OK(week);
      ASSERT_OK(exact);
      ASSERT_EQ(*week, *exact) << "item " << item << " at refresh " << step;
    }
  }
  counters->Stop();
  counters->Stop();  // idempotent

  // A rebuild from the buckets gives the same figures, and so does reopening the store.
  counters.reset();
  store().Reopen();
  options.on_refresh = nullptr;
  counters = OpenCounters(store().conn(), options);
  ASSERT_TRUE(counters);
  std::map<std::string, int64_t> before;
  for (const auto& item : items) before[item] = counters->RollingWeek(item).value_or(-1);
  auto rebuilt = counters->RebuildWeekly(boundary);
  ASSERT_OK(rebuilt);
  EXPECT_EQ(*rebuilt, 0) << "a rebuild changed counts the refreshes kept";
  for (const auto& item : items) {
    EXPECT_EQ(counters->RollingWeek(item).value_or(-1), before[item]);
  }
}

TEST_P(ClickCountersTest, RefreshAfterALongGapRebuildsAndDropsStaleItems) {
  auto counters = OpenCounters(store().conn(), WithPrefix("gap"));
  ASSERT_TRUE(counters);
  ASSERT_OK(counters->Click("old", 5, kDay0 + kMinute));
  ASSERT_OK(counters->RefreshWeekly(kDay0 + kHalfHour));
  EXPECT_EQ(counters->RollingWeek("old").value_or(-1), 5);
  ASSERT_OK(counters->Click("new", 2, kDay0 + 9 * 24 * 60 * kMinute));
  ASSERT_OK(counters->RefreshWeekly(kDay0 + 9 * 24 * 60 * kMinute + kHalfHour));
  EXPECT_EQ(counters->RollingWeek("old").value_or(-1), 0);
  EXPECT_EQ(counters->RollingWeek("new").value_or(-1), 2);
  // Refreshing the same boundary again changes nothing.
  auto again = counters->RefreshWeekly(kDay0 + 9 * 24 * 60 * kMinute + kHalfHour + kMinute);
  ASSERT_OK(again);
  EXPECT_EQ(*again, 0);
  EXPECT_EQ(counters->RollingWeek("new").value_or(-1), 2);
}

TEST_P(ClickCountersTest, RejectsBadOptionsAndArguments) {
  ClickCountersOptions short_ttl = WithPrefix("bad");
  short_ttl.bucket_ttl_seconds = 7 * 24 * 3600;
  EXPECT_TRUE(ClickCounters::Open(store().conn(), short_ttl).status().IsInvalidArgument());
  EXPECT_TRUE(
      ClickCounters::Open(store().conn(), WithPrefix("bad", 300)).status().IsInvalidArgument());
  auto counters = OpenCounters(store().conn(), WithPrefix("ok"));
  ASSERT_TRUE(counters);
  EXPECT_TRUE(counters->Click("i", 1, -7).IsInvalidArgument());
  EXPECT_TRUE(counters->TopK(0, kDay0, 0).status().IsInvalidArgument());
}

BASALT_INSTANTIATE_STORE_TEST(ClickCountersTest);

}  // namespace
}  // namespace basalt::recipes
