// Click counters on every store kind: totals, exact windows, top-K, salting, and the rolling
// week kept by the refresher thread against the exact window at every refresh.

#include "basalt/recipes/click_counters.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "recipes/click_sketches.h"
#include "recipes/recipe_store.h"
#include "support/test_store.h"

namespace basalt::recipes {
namespace {

using basalt::testing::RecipeTest;

constexpr int64_t kMinute = ClickCounters::kMinuteMs;
constexpr int64_t kHalfHour = ClickCounters::kRefreshPeriodMs;
constexpr int64_t kWeek = ClickCounters::kWeekMs;
constexpr int64_t kHour = ClickCounters::kHourMs;
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
  if (salt > 0) options.presplit_regions = basalt::testing::kPresplitRegions;
  return options;
}

class ClickCountersTest : public RecipeTest {};

TEST_P(ClickCountersTest, WindowsTotalsAndTopKMatchTheClicks) {
  for (int salt : {0, 7}) {
    SCOPED_TRACE("salt " + std::to_string(salt));
    auto counters = OpenCounters(conn(), WithPrefix("c" + std::to_string(salt), salt));
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
  auto counters = OpenCounters(conn(), WithPrefix("cal"));
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
  auto counters = OpenCounters(conn(), options);
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
  counters = OpenCounters(conn(), options);
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
  auto counters = OpenCounters(conn(), WithPrefix("gap"));
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
  EXPECT_TRUE(ClickCounters::Open(conn(), short_ttl).status().IsInvalidArgument());
  EXPECT_TRUE(ClickCounters::Open(conn(), WithPrefix("bad", 300)).status().IsInvalidArgument());
  auto counters = OpenCounters(conn(), WithPrefix("ok"));
  ASSERT_TRUE(counters);
  EXPECT_TRUE(counters->Click("i", 1, -7).IsInvalidArgument());
  EXPECT_TRUE(counters->TopK(0, kDay0, 0).status().IsInvalidArgument());
  EXPECT_TRUE(counters->TopKApprox(0, kDay0, 0).status().IsInvalidArgument());
  EXPECT_TRUE(counters->Click("i", 0, kDay0).IsInvalidArgument());
  EXPECT_TRUE(counters->ClickBy("i", "v", -1, kDay0).IsInvalidArgument());
  EXPECT_TRUE(counters->ClickBy("i", "v", 1, -5).IsInvalidArgument());
  // Nothing was counted by the rejected clicks.
  EXPECT_EQ(counters->DistinctVisitors("i", 0, kDay0 + kWeek).value_or(-1), 0);
  auto heavy = counters->TopKApprox(0, kDay0 + kWeek, 5);
  ASSERT_OK(heavy);
  EXPECT_EQ(heavy->clicks, 0);
  EXPECT_TRUE(heavy->items.empty());
}

// Visitors over six hours, some in several: every window's estimate equals the in-memory
// HyperLogLog of exactly the visitors of the hours it overlaps (so the stored registers are
// the sketch's, merged across hours), and is within 3 standard errors of the true count.
TEST_P(ClickCountersTest, DistinctVisitorsMergeTheHoursOfTheWindow) {
  for (int salt : {0, 5}) {
    SCOPED_TRACE("salt " + std::to_string(salt));
    auto counters = OpenCounters(conn(), WithPrefix("dv" + std::to_string(salt), salt));
    ASSERT_TRUE(counters);
    std::map<int, std::set<std::string>> by_hour;  // hour index -> visitors
    std::mt19937_64 rng(11 + salt);
    const int kVisitors = salt == 0 ? 1200 : 400;
    for (int v = 0; v < kVisitors; ++v) {
      const std::string visitor = "visitor-" + std::to_string(v);
      const int visits = 1 + static_cast<int>(rng() % 3);
      for (int i = 0; i < visits; ++i) {
        const int hour = static_cast<int>(rng() % 6);
        const int64_t t = kDay0 + hour * kHour + static_cast<int64_t>(rng() % kHour);
        ASSERT_OK(counters->ClickBy("page", visitor, 1, t));
        by_hour[hour].insert(visitor);
      }
    }
    // Windows in whole hours, and one that cuts hours 1 and 3 (both count whole).
    const std::vector<std::tuple<int64_t, int64_t, int, int>> windows = {
        {kDay0, kDay0 + 6 * kHour, 0, 6},
        {kDay0 + 2 * kHour, kDay0 + 4 * kHour, 2, 4},
        {kDay0 + kHour + 10 * kMinute, kDay0 + 3 * kHour + 5 * kMinute, 1, 4},
        {kDay0 + 5 * kHour, kDay0 + 5 * kHour + 1, 5, 6}};
    for (const auto& [from, to, first_hour, end_hour] : windows) {
      sketch::HyperLogLog model;
      std::set<std::string> truth;
      for (int h = first_hour; h < end_hour; ++h) {
        for (const std::string& v : by_hour[h]) {
          model.Add(v);
          truth.insert(v);
        }
      }
      auto got = counters->DistinctVisitors("page", from, to);
      ASSERT_OK(got);
      EXPECT_EQ(*got, model.Estimate()) << "[" << from << ", " << to << ")";
      const double n = static_cast<double>(truth.size());
      EXPECT_LE(std::abs(static_cast<double>(*got) - n),
                3 * ClickCounters::kDistinctRelativeError * n)
          << "estimate " << *got << " of " << n;
    }
    // A few visitors, each many times: exact. An item never visited, an empty window: 0.
    for (int i = 0; i < 12; ++i) {
      ASSERT_OK(counters->ClickBy("pag", "v" + std::to_string(i % 3), 1, kDay0 + i * kMinute));
    }
    EXPECT_EQ(counters->DistinctVisitors("pag", kDay0, kDay0 + kHour).value_or(-1), 3);
    EXPECT_EQ(counters->DistinctVisitors("never", kDay0, kDay0 + kHour).value_or(-1), 0);
    EXPECT_EQ(counters->DistinctVisitors("page", kDay0 + kHour, kDay0 + kHour).value_or(-1), 0);
    EXPECT_EQ(counters->DistinctVisitors("page", kDay0 + 7 * kHour, kDay0 + 9 * kHour).value_or(-1),
              0);
    // ClickBy counts its clicks as Click does.
    EXPECT_EQ(counters->Count("pag", kDay0, kDay0 + kHour).value_or(-1), 12);
  }
}

// An item steady across four hours is the window's top item though it is never the top item
// of any one hour: the candidates of each hour are kept and merged, not only each hour's top.
TEST_P(ClickCountersTest, TopKApproxMergesTheHoursCandidates) {
  auto counters = OpenCounters(conn(), WithPrefix("hh"));
  ASSERT_TRUE(counters);
  std::map<std::string, int64_t> truth;
  auto click = [&](const std::string& item, int64_t n, int64_t t) {
    ASSERT_OK(counters->Click(item, n, t));
    truth[item] += n;
  };
  for (int h = 0; h < 4; ++h) {
    const int64_t hour = kDay0 + h * kHour;
    // Background: 150 items of 2 clicks each, per hour.
    for (int i = 0; i < 150; ++i) click("noise" + std::to_string(i), 2, hour + i * 1000);
    click("steady", 30, hour + 20 * kMinute);
    click("burst" + std::to_string(h), 45, hour + 30 * kMinute);
  }
  auto heavy = counters->TopKApprox(kDay0, kDay0 + 4 * kHour, 5);
  ASSERT_OK(heavy);
  EXPECT_EQ(heavy->clicks, 4 * (300 + 30 + 45));
  EXPECT_EQ(heavy->error_bound,
            static_cast<int64_t>(std::ceil(sketch::kCountMinEpsilon * heavy->clicks)));
  EXPECT_EQ(heavy->from_ms, kDay0);
  EXPECT_EQ(heavy->to_ms, kDay0 + 4 * kHour);
  ASSERT_EQ(heavy->items.size(), 5u);
  EXPECT_EQ(heavy->items[0].item, "steady");
  std::set<std::string> got;
  for (const ItemCount& c : heavy->items) {
    got.insert(c.item);
    EXPECT_GE(c.count, truth[c.item]) << c.item;
    EXPECT_LE(c.count, truth[c.item] + heavy->error_bound) << c.item;
  }
  EXPECT_EQ(got, (std::set<std::string>{"steady", "burst0", "burst1", "burst2", "burst3"}));
  // Hours 1 and 2 only, from a window that cuts them.
  auto two = counters->TopKApprox(kDay0 + kHour + 1, kDay0 + 3 * kHour - 1, 3);
  ASSERT_OK(two);
  EXPECT_EQ(two->clicks, 2 * (300 + 30 + 45));
  got.clear();
  for (const ItemCount& c : two->items) got.insert(c.item);
  EXPECT_EQ(got, (std::set<std::string>{"steady", "burst1", "burst2"}));
}

// An item's first clicks of an hour, below 1/256 of its shard's clicks, are not in its
// candidate counter; its count still covers them (never below the truth), within the bound.
TEST_P(ClickCountersTest, TopKApproxCountsClicksFromBeforeAnItemWasACandidate) {
  auto counters = OpenCounters(conn(), WithPrefix("late"));
  ASSERT_TRUE(counters);
  const std::string late = "late";
  // 3,000 clicks of other items in the late item's shard first, so that its first clicks are
  // far below the share.
  std::vector<std::string> same_shard;
  for (int i = 0; same_shard.size() < 300; ++i) {
    const std::string item = "other" + std::to_string(i);
    if (sketch::ShardOf(item) == sketch::ShardOf(late)) same_shard.push_back(item);
  }
  for (const std::string& item : same_shard) ASSERT_OK(counters->Click(item, 10, kDay0 + 1));
  for (int i = 0; i < 8; ++i) ASSERT_OK(counters->Click(late, 1, kDay0 + 2));
  ASSERT_OK(counters->Click(late, 100, kDay0 + 3));
  auto heavy = counters->TopKApprox(kDay0, kDay0 + kHour, 1);
  ASSERT_OK(heavy);
  ASSERT_EQ(heavy->items.size(), 1u);
  EXPECT_EQ(heavy->items[0].item, late);
  EXPECT_GE(heavy->items[0].count, 108);
  EXPECT_LE(heavy->items[0].count, 108 + heavy->error_bound);
  // The uncounted clicks are the first 8: the candidate counter has the 100 after them.
  auto row = store()
                 .table("late_heavy")
                 .Get(Get(std::string("2026112300") + static_cast<char>(sketch::ShardOf(late)))
                          .AddColumn("k", late));
  ASSERT_OK(row);
  auto counted = row->Value("k", late);
  ASSERT_TRUE(counted.has_value());
  EXPECT_EQ(DecodeCounter(*counted).value_or(-1), 100);
}

// Many threads click a skewed stream at once (the same hours, so the same sketch rows): the
// summary loses nothing. The top 5 are exactly the 5 hot items in order, every count is within
// the error bound above the truth, the window's clicks are all counted, and the visitors'
// registers equal those of a sketch fed one click at a time.
TEST_P(ClickCountersTest, ConcurrentClicksKeepTheSketchesSound) {
  auto counters = OpenCounters(conn(), WithPrefix("conc"));
  ASSERT_TRUE(counters);
  constexpr int kThreads = 8;
  const bool remote = basalt::testing::IsRemote(GetParam());
  const int64_t unit = remote ? 6 : 20;  // hot item j gets (5 - j) * unit clicks per thread
  const int cold = remote ? 40 : 150;    // one-click items per thread
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::vector<std::string> stream;
      for (int j = 0; j < 5; ++j) {
        for (int64_t c = 0; c < (5 - j) * unit; ++c) stream.push_back("hot" + std::to_string(j));
      }
      for (int i = 0; i < cold; ++i) stream.push_back("cold" + std::to_string(t * cold + i));
      std::shuffle(stream.begin(), stream.end(), std::mt19937_64(t));
      int i = 0;
      for (const std::string& item : stream) {
        const std::string visitor = "t" + std::to_string(t) + "-" + std::to_string(i);
        const int64_t when = kDay0 + (i++ % 2) * kHour + 7;
        if (!counters->ClickBy(item, visitor, 1, when).ok()) ++failures;
        if (!counters->ClickBy("all", visitor, 1, when).ok()) ++failures;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  ASSERT_EQ(failures.load(), 0);
  const int64_t per_thread = 15 * unit + cold;
  auto heavy = counters->TopKApprox(kDay0, kDay0 + 2 * kHour, 5);
  ASSERT_OK(heavy);
  EXPECT_EQ(heavy->clicks, 2 * kThreads * per_thread);  // "all" has as many as the rest
  ASSERT_EQ(heavy->items.size(), 5u);
  EXPECT_EQ(heavy->items[0].item, "all");
  for (int j = 0; j < 4; ++j) {
    const ItemCount& c = heavy->items[j + 1];
    EXPECT_EQ(c.item, "hot" + std::to_string(j));
    const int64_t want = kThreads * (5 - j) * unit;
    EXPECT_GE(c.count, want) << c.item;
    EXPECT_LE(c.count, want + heavy->error_bound) << c.item;
  }
  sketch::HyperLogLog model;
  for (int t = 0; t < kThreads; ++t) {
    for (int64_t i = 0; i < per_thread; ++i) {
      model.Add("t" + std::to_string(t) + "-" + std::to_string(i));
    }
  }
  auto distinct = counters->DistinctVisitors("all", kDay0, kDay0 + 2 * kHour);
  ASSERT_OK(distinct);
  EXPECT_EQ(*distinct, model.Estimate());
}

BASALT_INSTANTIATE_STORE_TEST(ClickCountersTest);

}  // namespace
}  // namespace basalt::recipes
