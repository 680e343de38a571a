// Fan-out while the follow graph changes, by jobs and by posts delivered in their own write:
// authors post while two worker pools deliver,
// some users follow the authors in the middle of the posting, and others follow and unfollow
// them over and over, ending unfollowed. Afterwards (runs under ThreadSanitizer in CI):
//   - a user who followed before the posts, or followed during them and stayed, has every post
//     of the authors in the home timeline exactly once (the fan-out job or the follow's backfill
//     brought it; both write the same inbox entry);
//   - a user who ended unfollowed sees none of the authors' posts.

#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "basalt/recipes/fanout_worker.h"
#include "basalt/recipes/feed.h"
#include "basalt/recipes/follow_graph.h"
#include "support/test_store.h"

namespace basalt::recipes {
namespace {

using ::basalt::testing::StoreKind;
using ::basalt::testing::TestStore;

constexpr int kAuthors = 3;
constexpr int kPostsPerAuthor = 12;
constexpr int kEarlyFollowers = 8;
constexpr int kLateFollowers = 6;
constexpr int kChurners = 3;

std::string Author(int a) {
  return "author" + std::to_string(a);
}

std::vector<std::string> Timeline(Feed& feed, const std::string& user) {
  std::vector<std::string> got;
  std::string cursor;
  do {
    auto page = feed.HomeTimeline(user, 7, cursor);
    EXPECT_OK(page);
    if (!page.ok()) break;
    for (const auto& p : page->posts) got.push_back(p.id);
    cursor = page->cursor;
  } while (!cursor.empty());
  return got;
}

// `deliver_in_post_max_followers` 0: every post takes a fan-out job; above the followers an
// author ends with (17), every post is delivered in its own write, whose second read of the
// followers, or the follow's backfill, must then reach the late followers.
void RunChurn(int32_t deliver_in_post_max_followers) {
  TestStore store(StoreKind::kMem);
  auto graph = FollowGraph::Open(store.conn());
  ASSERT_OK(graph);
  FeedOptions options;
  options.deliver_in_post_max_followers = deliver_in_post_max_followers;
  auto feed = Feed::Open(store.conn(), **graph, options);
  ASSERT_OK(feed);
  for (int f = 0; f < kEarlyFollowers; ++f) {
    for (int a = 0; a < kAuthors; ++a) {
      ASSERT_OK((*feed)->Follow("early" + std::to_string(f), Author(a)));
    }
  }
  FanoutWorkerPool pool_a(**feed, {.threads = 2, .chunk_size = 3, .poll_interval_ms = 1});
  FanoutWorkerPool pool_b(**feed, {.threads = 1, .chunk_size = 5, .poll_interval_ms = 1});
  pool_a.Start();
  pool_b.Start();

  std::mutex mu;
  std::set<std::string> ids;
  std::vector<std::thread> threads;
  for (int a = 0; a < kAuthors; ++a) {
    threads.emplace_back([&, a] {
      for (int i = 0; i < kPostsPerAuthor; ++i) {
        auto id = (*feed)->Post(Author(a), "post " + std::to_string(i));
        EXPECT_OK(id);
        if (id.ok()) {
          std::lock_guard<std::mutex> lock(mu);
          ids.insert(*id);
        }
      }
    });
  }
  threads.emplace_back([&] {
    for (int f = 0; f < kLateFollowers; ++f) {
      for (int a = 0; a < kAuthors; ++a) {
        EXPECT_OK((*feed)->Follow("late" + std::to_string(f), Author(a)));
      }
    }
  });
  for (int c = 0; c < kChurners; ++c) {
    threads.emplace_back([&, c] {
      const std::string user = "churn" + std::to_string(c);
      for (int round = 0; round < 4; ++round) {
        for (int a = 0; a < kAuthors; ++a) EXPECT_OK((*feed)->Follow(user, Author(a)));
        for (int a = 0; a < kAuthors; ++a) EXPECT_OK((*feed)->Unfollow(user, Author(a)));
      }
    });
  }
  for (auto& t : threads) t.join();
  ASSERT_OK(pool_a.Drain(std::chrono::seconds(120)));
  pool_a.Stop();
  pool_b.Stop();
  ASSERT_OK(pool_a.last_error());
  ASSERT_OK(pool_b.last_error());
  ASSERT_EQ(ids.size(), static_cast<size_t>(kAuthors * kPostsPerAuthor));

  std::vector<std::string> keepers;
  for (int f = 0; f < kEarlyFollowers; ++f) keepers.push_back("early" + std::to_string(f));
  for (int f = 0; f < kLateFollowers; ++f) keepers.push_back("late" + std::to_string(f));
  for (const std::string& user : keepers) {
    std::vector<std::string> got = Timeline(**feed, user);
    std::set<std::string> distinct(got.begin(), got.end());
    EXPECT_EQ(distinct.size(), got.size()) << user << ": a post appears twice";
    EXPECT_EQ(distinct, ids) << user;
  }
  for (int c = 0; c < kChurners; ++c) {
    EXPECT_EQ(Timeline(**feed, "churn" + std::to_string(c)), std::vector<std::string>())
        << "churn" << c << " ended unfollowed";
  }
}

TEST(FanoutFollowChurnTest, FollowsAndUnfollowsDuringPostsLeaveExactTimelines) {
  RunChurn(0);
}

TEST(FanoutFollowChurnTest, FollowsAndUnfollowsDuringPostsDeliveredInTheirOwnWrite) {
  RunChurn(200);
}

}  // namespace
}  // namespace basalt::recipes
