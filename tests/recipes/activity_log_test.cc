// The activity log on every store kind: both layouts against std::map models, ids, retention.

#include "basalt/recipes/activity_log.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "recipes/recipe_store.h"
#include "support/test_store.h"

namespace basalt::recipes {
namespace {

using basalt::testing::RecipeTest;
using Layout = ActivityLogOptions::Layout;

// trim_every is 1 unless a test says otherwise, so that the cap is exact.
std::unique_ptr<ActivityLog> OpenLog(Connection& conn, Layout layout, std::string prefix,
                                     int64_t cap = 0, int32_t ttl = kForeverTtl,
                                     int32_t trim_every = 1) {
  ActivityLogOptions options;
  options.layout = layout;
  options.table_prefix = std::move(prefix);
  options.max_events_per_user = cap;
  options.ttl_seconds = ttl;
  options.trim_every = trim_every;
  auto log = ActivityLog::Open(conn, options);
  EXPECT_TRUE(log.ok()) << log.status().ToString();
  return log.ok() ? std::move(*log) : nullptr;
}

std::string LayoutName(Layout layout) {
  return layout == Layout::kTall ? "tall" : "wide";
}

// A user's events, newest first: time descending, then seq descending.
using UserModel = std::map<EventId, ActivityEvent, std::greater<>>;

std::vector<ActivityEvent> Slice(const UserModel& m, int64_t offset, int64_t limit) {
  std::vector<ActivityEvent> out;
  int64_t i = 0;
  for (const auto& [id, e] : m) {
    if (i++ < offset) continue;
    if (static_cast<int64_t>(out.size()) == limit) break;
    out.push_back(e);
  }
  return out;
}

class ActivityLogTest : public RecipeTest {};

TEST_P(ActivityLogTest, TallAndWideMatchAModelUnderRandomOperations) {
  for (int64_t cap : {int64_t{0}, int64_t{9}}) {
    SCOPED_TRACE("cap " + std::to_string(cap));
    const std::string suffix = "_cap" + std::to_string(cap);
    std::vector<std::unique_ptr<ActivityLog>> logs;
    auto open_logs = [&] {
      logs.clear();
      logs.push_back(OpenLog(conn(), Layout::kTall, "tall" + suffix, cap));
      logs.push_back(OpenLog(conn(), Layout::kWide, "wide" + suffix, cap));
      ASSERT_TRUE(logs[0] && logs[1]);
    };
    // An ASSERT in the lambda returns from the lambda only: stop here rather than use a null log.
    open_logs();
    if (::testing::Test::HasFatalFailure()) return;
    // Users whose plain bytes are prefixes of one another, and bytes 00 / FF.
    const std::vector<std::string> users = {"a", std::string("a\0", 2), "ab", "", "b\xff"};
    // One model per log: each log numbers its events with its own sequence.
    std::map<std::string, UserModel> models[2];
    std::mt19937_64 rng(20261123 + cap);
    auto rand = [&](int64_t lo, int64_t hi) {  // [lo, hi]
      return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
    };
    auto random_time = [&] { return rand(0, 9) == 0 ? rand(0, 100000) : 1000 + rand(0, 40); };

    auto trim = [&](UserModel& m) {
      while (cap > 0 && static_cast<int64_t>(m.size()) > cap) m.erase(std::prev(m.end()));
    };
    auto random_event = [&](const std::string& user) {
      NewEvent e{user, "n" + std::to_string(rand(0, 5)),
                 std::string(static_cast<size_t>(rand(0, 6)), '\0'), random_time()};
      for (char& c : e.payload) c = static_cast<char>(rand(0, 255));
      return e;
    };

    for (int step = 0; step < 700; ++step) {
      const std::string& user = users[rand(0, users.size() - 1)];
      const int op = static_cast<int>(rand(0, 99));
      SCOPED_TRACE("step " + std::to_string(step) + " op " + std::to_string(op));
      if (op < 40) {
        const NewEvent e = random_event(user);
        for (size_t li = 0; li < logs.size(); ++li) {
          auto id = logs[li]->Record(user, e.name, e.payload, e.time_ms);
          ASSERT_OK(id);
          EXPECT_EQ(id->time_ms, e.time_ms);
          UserModel& m = models[li][user];
          ASSERT_EQ(m.count(*id), 0u) << "an id was handed out twice";
          m[*id] = ActivityEvent{user, *id, e.name, e.payload};
          trim(m);
        }
        continue;
      }
      if (op < 50) {  // a batch of events of several users
        std::vector<NewEvent> batch;
        for (int64_t n = rand(0, 4); n > 0; --n) {
          batch.push_back(random_event(users[rand(0, users.size() - 1)]));
        }
        for (size_t li = 0; li < logs.size(); ++li) {
          auto ids = logs[li]->RecordMany(batch);
          ASSERT_OK(ids);
          ASSERT_EQ(ids->size(), batch.size());
          for (size_t i = 0; i < batch.size(); ++i) {
            const NewEvent& e = batch[i];
            EXPECT_EQ((*ids)[i].time_ms, e.time_ms);
            UserModel& m = models[li][e.user];
            ASSERT_EQ(m.count((*ids)[i]), 0u) << "an id was handed out twice";
            m[(*ids)[i]] = ActivityEvent{e.user, (*ids)[i], e.name, e.payload};
            trim(m);
          }
        }
        continue;
      }
      if (op == 50 && store().kind() == basalt::testing::StoreKind::kReopen) {
        logs.clear();
        store().Reopen();
        open_logs();
        if (::testing::Test::HasFatalFailure()) return;
        continue;
      }
      for (size_t li = 0; li < logs.size(); ++li) {
        ActivityLog* log = logs[li].get();
        const UserModel& m = models[li][user];
        SCOPED_TRACE(LayoutName(log->options().layout));
        if (op < 60) {
          const int64_t limit = rand(0, 12), offset = rand(0, 25);
          auto got = log->Latest(user, limit, offset);
          ASSERT_OK(got);
          EXPECT_EQ(*got, Slice(m, offset, limit));
        } else if (op < 70) {
          const int32_t page_size = static_cast<int32_t>(rand(1, 7));
          std::vector<ActivityEvent> all;
          std::string cursor;
          for (int pages = 0;; ++pages) {
            ASSERT_LT(pages, 1000);
            auto page = log->Page(user, page_size, cursor);
            ASSERT_OK(page);
            ASSERT_LE(page->events.size(), static_cast<size_t>(page_size));
            all.insert(all.end(), page->events.begin(), page->events.end());
            if (page->cursor.empty()) break;
            cursor = page->cursor;
          }
          EXPECT_EQ(all, Slice(m, 0, INT64_MAX));
        } else if (op < 80) {
          const int64_t from = random_time(), to = from + rand(-2, 30);
          const int64_t limit = rand(0, 3) == 0 ? rand(1, 4) : 0;
          std::vector<ActivityEvent> want;
          for (const auto& [id, e] : m) {
            if (limit > 0 && static_cast<int64_t>(want.size()) == limit) break;
            if (id.time_ms >= from && id.time_ms < to) want.push_back(e);
          }
          auto got = log->Range(user, from, to, limit);
          ASSERT_OK(got);
          EXPECT_EQ(*got, want) << "range [" << from << ", " << to << ") limit " << limit;
        } else if (op < 88) {
          const int64_t t = random_time();
          std::vector<ActivityEvent> want;
          for (const auto& [id, e] : m) {
            if (id.time_ms == t) want.push_back(e);
          }
          auto got = log->At(user, t);
          ASSERT_OK(got);
          EXPECT_EQ(*got, want);
        } else if (op < 94) {
          EventId id{random_time(), static_cast<uint64_t>(rand(1, 60))};
          if (!m.empty() && rand(0, 1) == 0) {
            auto it = m.begin();
            std::advance(it, rand(0, m.size() - 1));
            id = it->first;
          }
          auto got = log->Find(user, id);
          auto it = m.find(id);
          if (it == m.end()) {
            EXPECT_TRUE(got.status().IsNotFound()) << got.status().ToString();
          } else {
            ASSERT_OK(got);
            EXPECT_EQ(*got, it->second);
          }
        } else {
          auto got = log->Count(user);
          ASSERT_OK(got);
          EXPECT_EQ(*got, static_cast<int64_t>(m.size()));
        }
      }
      if (::testing::Test::HasFatalFailure()) return;
    }
    // Every user's whole log, at the end.
    for (size_t li = 0; li < logs.size(); ++li) {
      for (const auto& [user, m] : models[li]) {
        auto got = logs[li]->Latest(user, 1000);
        ASSERT_OK(got);
        EXPECT_EQ(*got, Slice(m, 0, INT64_MAX)) << LayoutName(logs[li]->options().layout);
      }
    }
  }
}

TEST_P(ActivityLogTest, EventsOfOneMillisecondGetDistinctIdsNewestLast) {
  for (Layout layout : {Layout::kTall, Layout::kWide}) {
    auto log = OpenLog(conn(), layout, LayoutName(layout));
    ASSERT_TRUE(log);
    std::vector<EventId> ids;
    for (int i = 0; i < 5; ++i) {
      auto id = log->Record("u", "click", std::to_string(i), 5000);
      ASSERT_OK(id);
      ids.push_back(*id);
    }
    EXPECT_EQ(std::set<EventId>(ids.begin(), ids.end()).size(), 5u);
    auto latest = log->Latest("u", 10);
    ASSERT_OK(latest);
    ASSERT_EQ(latest->size(), 5u);
    for (int i = 0; i < 5; ++i) EXPECT_EQ((*latest)[i].payload, std::to_string(4 - i));
  }
}

TEST_P(ActivityLogTest, IdsStayUniqueAcrossReopen) {
  std::set<EventId> ids;
  for (int round = 0; round < 2; ++round) {
    auto log = OpenLog(conn(), Layout::kTall, "log");
    ASSERT_TRUE(log);
    for (int i = 0; i < 3; ++i) {
      auto id = log->Record("u", "x", "", 7);
      ASSERT_OK(id);
      EXPECT_TRUE(ids.insert(*id).second);
    }
    log.reset();
    store().Reopen();
  }
  auto log = OpenLog(conn(), Layout::kTall, "log");
  ASSERT_TRUE(log);
  auto count = log->Count("u");
  ASSERT_OK(count);
  EXPECT_EQ(*count, 6);
}

TEST_P(ActivityLogTest, TtlHidesEventsOlderThanTheRetention) {
  for (Layout layout : {Layout::kTall, Layout::kWide}) {
    auto log = OpenLog(conn(), layout, LayoutName(layout), 0, /*ttl=*/3600);
    ASSERT_TRUE(log);
    const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
    ASSERT_OK(log->Record("u", "old", "", now - 2 * 3600 * 1000));
    auto recent = log->Record("u", "new", "");
    ASSERT_OK(recent);
    auto latest = log->Latest("u", 10);
    ASSERT_OK(latest);
    ASSERT_EQ(latest->size(), 1u);
    EXPECT_EQ((*latest)[0].name, "new");
    auto count = log->Count("u");
    ASSERT_OK(count);
    EXPECT_EQ(*count, 1);
  }
}

TEST_P(ActivityLogTest, CapDeletesTheOldestEventsOnWrite) {
  for (Layout layout : {Layout::kTall, Layout::kWide}) {
    auto log = OpenLog(conn(), layout, LayoutName(layout), /*cap=*/3);
    ASSERT_TRUE(log);
    // Written out of time order: the cap keeps the three newest times, not the last three.
    for (int64_t t : {50, 10, 40, 20, 30}) ASSERT_OK(log->Record("u", "e", "", t));
    auto latest = log->Latest("u", 10);
    ASSERT_OK(latest);
    std::vector<int64_t> times;
    for (const auto& e : *latest) times.push_back(e.id.time_ms);
    EXPECT_EQ(times, (std::vector<int64_t>{50, 40, 30}));
  }
}

TEST_P(ActivityLogTest, RejectsBadArguments) {
  auto log = OpenLog(conn(), Layout::kTall, "log");
  ASSERT_TRUE(log);
  EXPECT_TRUE(log->Record("u", "e", "", -5).status().IsInvalidArgument());
  EXPECT_TRUE(log->Latest("u", -1).status().IsInvalidArgument());
  EXPECT_TRUE(log->Page("u", 0).status().IsInvalidArgument());
  ActivityLogOptions bad;
  bad.max_events_per_user = -1;
  EXPECT_TRUE(ActivityLog::Open(conn(), bad).status().IsInvalidArgument());
  ActivityLogOptions no_trims;
  no_trims.trim_every = 0;
  EXPECT_TRUE(ActivityLog::Open(conn(), no_trims).status().IsInvalidArgument());
}

TEST_P(ActivityLogTest, RecordManyWritesNothingWhenOneEventIsBad) {
  for (Layout layout : {Layout::kTall, Layout::kWide}) {
    auto log = OpenLog(conn(), layout, LayoutName(layout));
    ASSERT_TRUE(log);
    std::vector<NewEvent> batch = {{"u", "a", "", 10}, {"v", "b", "", -7}, {"u", "c", "", 12}};
    EXPECT_TRUE(log->RecordMany(batch).status().IsInvalidArgument());
    for (const char* user : {"u", "v"}) {
      auto count = log->Count(user);
      ASSERT_OK(count);
      EXPECT_EQ(*count, 0) << user;
    }
    auto none = log->RecordMany({});
    ASSERT_OK(none);
    EXPECT_TRUE(none->empty());
  }
}

TEST_P(ActivityLogTest, RecordManyKeepsTheBatchOrderWithinAMillisecond) {
  for (Layout layout : {Layout::kTall, Layout::kWide}) {
    auto log = OpenLog(conn(), layout, LayoutName(layout));
    ASSERT_TRUE(log);
    std::vector<NewEvent> batch;
    for (int i = 0; i < 5; ++i) batch.push_back({"u", "e", std::to_string(i), 5000});
    ASSERT_OK(log->RecordMany(batch));
    ASSERT_OK(log->Record("u", "e", "5", 5000));
    auto latest = log->Latest("u", 10);
    ASSERT_OK(latest);
    ASSERT_EQ(latest->size(), 6u);
    for (int i = 0; i < 6; ++i) EXPECT_EQ((*latest)[i].payload, std::to_string(5 - i));
  }
}

// With trim_every > 1 the cap is enforced on about one Record in trim_every: the log never
// grows far past the cap, and a trim brings it back to exactly the cap.
TEST_P(ActivityLogTest, AmortisedTrimsKeepTheLogNearTheCap) {
  constexpr int64_t kCap = 20;
  constexpr int32_t kTrimEvery = 4;
  for (Layout layout : {Layout::kTall, Layout::kWide}) {
    auto log =
        OpenLog(conn(), layout, LayoutName(layout) + "_amortised", kCap, kForeverTtl, kTrimEvery);
    ASSERT_TRUE(log);
    int64_t largest = 0;
    int trims_seen = 0;
    for (int i = 0; i < 300; ++i) {
      ASSERT_OK(log->Record("u", "e", "", 1000 + i));
      auto count = log->Count("u");
      ASSERT_OK(count);
      // Exceeding cap + 25 x trim_every takes 100 writes in a row that skip their trim: odds of
      // (3/4)^100, 3e-13, per check. (The hash covers the event id, whose sequence starts at
      // random, so the trims differ from run to run: 10 x trim_every, (3/4)^40 a check, failed
      // about one run in 200.)
      EXPECT_LE(*count, kCap + 25 * kTrimEvery);
      if (i >= kCap && *count == kCap) ++trims_seen;
      largest = std::max(largest, *count);
    }
    EXPECT_GT(largest, kCap) << "no write ever skipped its trim";
    EXPECT_GE(trims_seen, 300 / kTrimEvery / 3) << "too few trims";
    // The newest events survive every trim.
    auto latest = log->Latest("u", kCap);
    ASSERT_OK(latest);
    ASSERT_EQ(latest->size(), static_cast<size_t>(kCap));
    EXPECT_EQ(latest->front().id.time_ms, 1000 + 299);
  }
}

// A log's trim stops where its previous trim began to delete (the deleted cells and their
// markers stay until a compaction). Events recorded older than that point are past the cap for
// good: the trim their own Record makes deletes them, and one trim in 16 reads on to the end for
// the others. Here every event is older than all before it: without those two, about half of the
// 600 would stay.
TEST_P(ActivityLogTest, EventsRecordedPastTheLastTrimDoNotPileUp) {
  constexpr int64_t kCap = 5;
  for (Layout layout : {Layout::kTall, Layout::kWide}) {
    auto log = OpenLog(conn(), layout, LayoutName(layout) + "_late", kCap, kForeverTtl,
                       /*trim_every=*/2);
    ASSERT_TRUE(log);
    for (int i = 0; i < 600; ++i) ASSERT_OK(log->Record("u", "e", "", 1'000'000 - i));
    auto count = log->Count("u");
    ASSERT_OK(count);
    // More than 200 would take a run of 400 Records without a whole trim (1 in 32 of them):
    // odds of e^-12.
    EXPECT_LE(*count, 205) << LayoutName(layout);
    EXPECT_GE(*count, kCap);
    // The newest events are the first five recorded.
    auto latest = log->Latest("u", kCap);
    ASSERT_OK(latest);
    ASSERT_EQ(latest->size(), static_cast<size_t>(kCap));
    EXPECT_EQ(latest->front().id.time_ms, 1'000'000);
    EXPECT_EQ(latest->back().id.time_ms, 1'000'000 - 4);
  }
}

// Ids come from a counter of the log, not of the store: many threads recording for one user at
// the same millisecond still get distinct ids, and every event is stored.
TEST_P(ActivityLogTest, ConcurrentRecordsOfOneUserGetDistinctIds) {
  auto log = OpenLog(conn(), Layout::kTall, "concurrent");
  ASSERT_TRUE(log);
  constexpr int kThreads = 4, kPerThread = 50;
  std::vector<std::vector<EventId>> ids(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        if (i % 2 == 0) {
          auto id = log->Record("u", "e", "", 42);
          if (id.ok()) ids[t].push_back(*id);
        } else {
          auto batch = log->RecordMany({{"u", "e", "", 42}, {"u", "e", "", 42}});
          if (batch.ok()) ids[t].insert(ids[t].end(), batch->begin(), batch->end());
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  std::set<EventId> all;
  for (const auto& v : ids) all.insert(v.begin(), v.end());
  EXPECT_EQ(all.size(), static_cast<size_t>(kThreads * kPerThread * 3 / 2));
  auto count = log->Count("u");
  ASSERT_OK(count);
  EXPECT_EQ(*count, kThreads * kPerThread * 3 / 2);
}

BASALT_INSTANTIATE_STORE_TEST(ActivityLogTest);

}  // namespace
}  // namespace basalt::recipes
