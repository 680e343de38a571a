// FollowGraph under concurrent calls: counts stay exact and both sides agree. Runs in the normal
// suite and under ThreadSanitizer.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "basalt/recipes/follow_graph.h"
#include "support/test_store.h"

namespace basalt::testing {
namespace {

using recipes::FollowGraph;
using recipes::FollowGraphOptions;
using Layout = FollowGraphOptions::Layout;

constexpr int kFollowThreads = 4;

std::unique_ptr<FollowGraph> OpenGraph(Connection& conn, Layout layout) {
  FollowGraphOptions options;
  options.layout = layout;
  options.table_prefix = layout == Layout::kTall ? "tall" : "wide";
  auto graph = FollowGraph::Open(conn, options);
  EXPECT_TRUE(graph.ok()) << graph.status().ToString();
  return graph.ok() ? std::move(graph).value() : nullptr;
}

std::vector<std::string> All(FollowGraph& graph, bool following, const std::string& user) {
  std::vector<std::string> all;
  std::string cursor;
  do {
    auto page = following ? graph.Following(user, 7, cursor) : graph.Followers(user, 7, cursor);
    EXPECT_TRUE(page.ok()) << page.status().ToString();
    if (!page.ok()) break;
    all.insert(all.end(), page->users.begin(), page->users.end());
    cursor = page->cursor;
  } while (!cursor.empty());
  std::sort(all.begin(), all.end());
  return all;
}

class FollowGraphConcurrencyTest : public StoreTest {};

TEST_P(FollowGraphConcurrencyTest, RacingFollowsOfOneEdgeCountOnce) {
  for (Layout layout : {Layout::kTall, Layout::kWide}) {
    auto graph = OpenGraph(store().conn(), layout);
    ASSERT_NE(graph, nullptr);
    constexpr int kFollowed = 40;
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kFollowThreads; ++t) {
      threads.emplace_back([&] {
        for (int i = 0; i < kFollowed; ++i) {
          if (!graph->Follow("fan", "star" + std::to_string(i)).ok()) ++failures;
          if (!graph->Follow("user" + std::to_string(i), "star").ok()) ++failures;
        }
      });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ(*graph->FollowingCount("fan"), kFollowed);
    EXPECT_EQ(*graph->FollowerCount("star"), kFollowed);
    EXPECT_EQ(All(*graph, true, "fan").size(), static_cast<size_t>(kFollowed));
    EXPECT_EQ(All(*graph, false, "star").size(), static_cast<size_t>(kFollowed));
    for (int i = 0; i < kFollowed; ++i) {
      EXPECT_EQ(*graph->FollowerCount("star" + std::to_string(i)), 1);
    }
  }
}

// Follows and unfollows of the same edges race; afterwards every edge's two sides agree and
// every count equals its list.
TEST_P(FollowGraphConcurrencyTest, RacingFollowsAndUnfollowsLeaveBothSidesAgreeing) {
  for (Layout layout : {Layout::kTall, Layout::kWide}) {
    auto graph = OpenGraph(store().conn(), layout);
    ASSERT_NE(graph, nullptr);
    constexpr int kUsers = 5;
    constexpr int kRounds = 60;
    auto user = [](int i) { return "u" + std::to_string(i); };
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kFollowThreads; ++t) {
      threads.emplace_back([&, t] {
        for (int r = 0; r < kRounds; ++r) {
          int a = (r + t) % kUsers;
          int b = (r * 3 + 1) % kUsers;
          if (a == b) continue;
          Status s = (r + t) % 2 == 0 ? graph->Follow(user(a), user(b))
                                      : graph->Unfollow(user(a), user(b));
          if (!s.ok()) ++failures;
        }
      });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(failures.load(), 0);
    for (int i = 0; i < kUsers; ++i) {
      std::vector<std::string> following = All(*graph, true, user(i));
      std::vector<std::string> followers = All(*graph, false, user(i));
      EXPECT_EQ(*graph->FollowingCount(user(i)), static_cast<int64_t>(following.size()));
      EXPECT_EQ(*graph->FollowerCount(user(i)), static_cast<int64_t>(followers.size()));
      for (int j = 0; j < kUsers; ++j) {
        if (i == j) continue;
        bool follows = *graph->IsFollowing(user(i), user(j));
        EXPECT_EQ(std::binary_search(following.begin(), following.end(), user(j)), follows);
        std::vector<std::string> their_followers = All(*graph, false, user(j));
        EXPECT_EQ(std::binary_search(their_followers.begin(), their_followers.end(), user(i)),
                  follows)
            << user(i) << " -> " << user(j);
      }
      EXPECT_EQ(*graph->Repair(user(i)), 0);
    }
  }
}

// Threads import the same complete graph in different orders and batch sizes, mixed with
// single Follows: every edge is made once and counted once.
TEST_P(FollowGraphConcurrencyTest, RacingFollowManyCallsCountEachEdgeOnce) {
  for (Layout layout : {Layout::kTall, Layout::kWide}) {
    auto graph = OpenGraph(store().conn(), layout);
    ASSERT_NE(graph, nullptr);
    constexpr int kUsers = 10;
    auto user = [](int i) { return "m" + std::to_string(i); };
    std::vector<std::pair<std::string, std::string>> all;
    for (int i = 0; i < kUsers; ++i) {
      for (int j = 0; j < kUsers; ++j) {
        if (i != j) all.emplace_back(user(i), user(j));
      }
    }
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kFollowThreads; ++t) {
      threads.emplace_back([&, t] {
        std::vector<std::pair<std::string, std::string>> mine = all;
        std::mt19937 rng(t);
        std::shuffle(mine.begin(), mine.end(), rng);
        if (t == 0) {  // one thread follows one edge at a time
          for (const auto& [follower, followed] : mine) {
            if (!graph->Follow(follower, followed).ok()) ++failures;
          }
          return;
        }
        const size_t batch = 7 * static_cast<size_t>(t) - 4;  // 3, 10, 17
        for (size_t i = 0; i < mine.size(); i += batch) {
          std::vector<std::pair<std::string, std::string>> part(
              mine.begin() + static_cast<std::ptrdiff_t>(i),
              mine.begin() + static_cast<std::ptrdiff_t>(std::min(mine.size(), i + batch)));
          if (!graph->FollowMany(part).ok()) ++failures;
        }
      });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(failures.load(), 0);
    for (int i = 0; i < kUsers; ++i) {
      EXPECT_EQ(*graph->FollowingCount(user(i)), kUsers - 1) << user(i);
      EXPECT_EQ(*graph->FollowerCount(user(i)), kUsers - 1) << user(i);
      EXPECT_EQ(All(*graph, false, user(i)).size(), static_cast<size_t>(kUsers - 1));
      EXPECT_EQ(*graph->Repair(user(i)), 0);
    }
  }
}

// FollowMany, Follow and Unfollow of overlapping edges race; afterwards every count equals its
// list and both sides agree.
TEST_P(FollowGraphConcurrencyTest, FollowManyRacingUnfollowsLeavesBothSidesAgreeing) {
  for (Layout layout : {Layout::kTall, Layout::kWide}) {
    auto graph = OpenGraph(store().conn(), layout);
    ASSERT_NE(graph, nullptr);
    constexpr int kUsers = 6;
    constexpr int kRounds = 40;
    auto user = [](int i) { return "r" + std::to_string(i); };
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kFollowThreads; ++t) {
      threads.emplace_back([&, t] {
        std::mt19937 rng(100 + t);
        for (int r = 0; r < kRounds; ++r) {
          int a = static_cast<int>(rng() % kUsers), b = static_cast<int>(rng() % kUsers);
          if (a == b) continue;
          Status s;
          switch (rng() % 3) {
            case 0:
              s = graph->Unfollow(user(a), user(b));
              break;
            case 1:
              s = graph->Follow(user(a), user(b));
              break;
            default: {
              std::vector<std::pair<std::string, std::string>> edges;
              for (int k = 0; k < 5; ++k) {
                int c = static_cast<int>(rng() % kUsers), d = static_cast<int>(rng() % kUsers);
                if (c != d) edges.emplace_back(user(c), user(d));
              }
              s = graph->FollowMany(edges);
            }
          }
          if (!s.ok()) ++failures;
        }
      });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(failures.load(), 0);
    for (int i = 0; i < kUsers; ++i) {
      std::vector<std::string> following = All(*graph, true, user(i));
      EXPECT_EQ(*graph->FollowingCount(user(i)), static_cast<int64_t>(following.size()));
      EXPECT_EQ(*graph->FollowerCount(user(i)),
                static_cast<int64_t>(All(*graph, false, user(i)).size()));
      for (const std::string& followed : following) {
        std::vector<std::string> theirs = All(*graph, false, followed);
        EXPECT_TRUE(std::binary_search(theirs.begin(), theirs.end(), user(i)))
            << user(i) << " -> " << followed;
      }
      EXPECT_EQ(*graph->Repair(user(i)), 0);
    }
  }
}

BASALT_INSTANTIATE_STORE_TEST(FollowGraphConcurrencyTest);

}  // namespace
}  // namespace basalt::testing
