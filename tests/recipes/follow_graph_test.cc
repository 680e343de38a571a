// FollowGraph: both layouts on every store kind, the same scenarios and the same answers.

#include "basalt/recipes/follow_graph.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "recipes/faulty_connection.h"
#include "recipes/recipe_store.h"
#include "support/test_store.h"

namespace basalt::testing {
namespace {

using recipes::FollowGraph;
using recipes::FollowGraphOptions;
using Layout = FollowGraphOptions::Layout;

constexpr Layout kLayouts[] = {Layout::kTall, Layout::kWide};

std::string LayoutName(Layout layout) {
  return layout == Layout::kTall ? "tall" : "wide";
}

std::unique_ptr<FollowGraph> OpenGraph(Connection& conn, Layout layout,
                                       FollowGraphOptions options = {}) {
  options.layout = layout;
  options.table_prefix = "g_" + LayoutName(layout);
  if (layout == Layout::kTall) options.presplit_regions = kPresplitRegions;
  auto graph = FollowGraph::Open(conn, options);
  EXPECT_TRUE(graph.ok()) << graph.status().ToString();
  return graph.ok() ? std::move(graph).value() : nullptr;
}

// Every user of a list, walked page by page.
std::vector<std::string> Walk(FollowGraph& graph, bool following, const std::string& user,
                              int32_t page_size) {
  std::vector<std::string> all;
  std::string cursor;
  do {
    auto page = following ? graph.Following(user, page_size, cursor)
                          : graph.Followers(user, page_size, cursor);
    EXPECT_TRUE(page.ok()) << page.status().ToString();
    if (!page.ok()) break;
    EXPECT_LE(page->users.size(), static_cast<size_t>(page_size));
    all.insert(all.end(), page->users.begin(), page->users.end());
    cursor = page->cursor;
  } while (!cursor.empty());
  return all;
}

std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

class FollowGraphTest : public RecipeTest {};

TEST_P(FollowGraphTest, FollowShowsInCheckListsAndCounts) {
  for (Layout layout : kLayouts) {
    SCOPED_TRACE(LayoutName(layout));
    auto graph = OpenGraph(conn(), layout);
    ASSERT_NE(graph, nullptr);
    ASSERT_OK(graph->Follow("alice", "bob"));
    ASSERT_OK(graph->Follow("carol", "bob"));
    EXPECT_TRUE(*graph->IsFollowing("alice", "bob"));
    EXPECT_FALSE(*graph->IsFollowing("bob", "alice"));
    EXPECT_EQ(Walk(*graph, true, "alice", 10), std::vector<std::string>{"bob"});
    EXPECT_EQ(Sorted(Walk(*graph, false, "bob", 10)), (std::vector<std::string>{"alice", "carol"}));
    EXPECT_TRUE(Walk(*graph, false, "alice", 10).empty());
    EXPECT_EQ(*graph->FollowingCount("alice"), 1);
    EXPECT_EQ(*graph->FollowerCount("bob"), 2);
    EXPECT_EQ(*graph->FollowerCount("alice"), 0);
    EXPECT_EQ(*graph->FollowingCount("nobody"), 0);
  }
}

TEST_P(FollowGraphTest, IsFollowingEachAnswersAsIsFollowingInOrder) {
  for (Layout layout : kLayouts) {
    SCOPED_TRACE(LayoutName(layout));
    auto graph = OpenGraph(conn(), layout);
    ASSERT_NE(graph, nullptr);
    ASSERT_OK(graph->Follow("alice", "bob"));
    ASSERT_OK(graph->Follow("alice", "dave"));
    ASSERT_OK(graph->Follow("carol", "erin"));
    ASSERT_OK(graph->Follow("alice", "erin"));
    ASSERT_OK(graph->Unfollow("alice", "erin"));
    auto each = graph->IsFollowingEach("alice", {"dave", "carol", "bob", "erin", "bob", "zed"});
    ASSERT_OK(each);
    EXPECT_EQ(*each, (std::vector<bool>{true, false, true, false, true, false}));
    auto none = graph->IsFollowingEach("alice", {});
    ASSERT_OK(none);
    EXPECT_TRUE(none->empty());
    EXPECT_TRUE(graph->IsFollowingEach("alice", {"bob", "alice"}).status().IsInvalidArgument());
    EXPECT_TRUE(graph->IsFollowingEach("", {"bob"}).status().IsInvalidArgument());
  }
}

TEST_P(FollowGraphTest, FollowTwiceIsOneEdge) {
  for (Layout layout : kLayouts) {
    SCOPED_TRACE(LayoutName(layout));
    auto graph = OpenGraph(conn(), layout);
    ASSERT_NE(graph, nullptr);
    ASSERT_OK(graph->Follow("alice", "bob"));
    ASSERT_OK(graph->Follow("alice", "bob"));
    EXPECT_EQ(*graph->FollowingCount("alice"), 1);
    EXPECT_EQ(*graph->FollowerCount("bob"), 1);
    EXPECT_EQ(Walk(*graph, false, "bob", 10), std::vector<std::string>{"alice"});
  }
}

TEST_P(FollowGraphTest, UnfollowRemovesBothSidesAndIsIdempotent) {
  for (Layout layout : kLayouts) {
    SCOPED_TRACE(LayoutName(layout));
    auto graph = OpenGraph(conn(), layout);
    ASSERT_NE(graph, nullptr);
    ASSERT_OK(graph->Follow("alice", "bob"));
    ASSERT_OK(graph->Unfollow("alice", "bob"));
    ASSERT_OK(graph->Unfollow("alice", "bob"));
    ASSERT_OK(graph->Unfollow("alice", "carol"));  // never followed
    EXPECT_FALSE(*graph->IsFollowing("alice", "bob"));
    EXPECT_TRUE(Walk(*graph, true, "alice", 10).empty());
    EXPECT_TRUE(Walk(*graph, false, "bob", 10).empty());
    EXPECT_EQ(*graph->FollowingCount("alice"), 0);
    EXPECT_EQ(*graph->FollowerCount("bob"), 0);
    ASSERT_OK(graph->Follow("alice", "bob"));  // and back again
    EXPECT_EQ(*graph->FollowerCount("bob"), 1);
  }
}

TEST_P(FollowGraphTest, SelfFollowAndEmptyNamesAreInvalidArgument) {
  for (Layout layout : kLayouts) {
    SCOPED_TRACE(LayoutName(layout));
    auto graph = OpenGraph(conn(), layout);
    ASSERT_NE(graph, nullptr);
    EXPECT_TRUE(graph->Follow("alice", "alice").IsInvalidArgument());
    EXPECT_TRUE(graph->Unfollow("alice", "alice").IsInvalidArgument());
    EXPECT_TRUE(graph->Follow("", "bob").IsInvalidArgument());
    EXPECT_TRUE(graph->Following("", 10).status().IsInvalidArgument());
    EXPECT_EQ(*graph->FollowingCount("alice"), 0);
  }
}

TEST_P(FollowGraphTest, UnknownUserIsNotFound) {
  for (Layout layout : kLayouts) {
    SCOPED_TRACE(LayoutName(layout));
    FollowGraphOptions options;
    options.user_exists = [](std::string_view user) -> Result<bool> {
      return user == "alice" || user == "bob";
    };
    auto graph = OpenGraph(conn(), layout, options);
    ASSERT_NE(graph, nullptr);
    EXPECT_TRUE(graph->Follow("alice", "mallory").IsNotFound());
    EXPECT_TRUE(graph->Follow("mallory", "alice").IsNotFound());
    EXPECT_FALSE(*graph->IsFollowing("alice", "mallory"));
    EXPECT_EQ(*graph->FollowingCount("alice"), 0);
    EXPECT_OK(graph->Follow("alice", "bob"));
  }
}

TEST_P(FollowGraphTest, UserCheckErrorsAreReturned) {
  FollowGraphOptions options;
  options.user_exists = [](std::string_view) -> Result<bool> {
    return Status::IOError("user table down");
  };
  auto graph = OpenGraph(conn(), Layout::kTall, options);
  ASSERT_NE(graph, nullptr);
  EXPECT_TRUE(graph->Follow("alice", "bob").IsIOError());
  EXPECT_FALSE(*graph->IsFollowing("alice", "bob"));
}

TEST_P(FollowGraphTest, ListsPageWithoutRepeatsOrSkips) {
  for (Layout layout : kLayouts) {
    SCOPED_TRACE(LayoutName(layout));
    auto graph = OpenGraph(conn(), layout);
    ASSERT_NE(graph, nullptr);
    std::vector<std::string> expected;
    for (int i = 0; i < 23; ++i) {
      std::string other = "user" + std::to_string(i);
      ASSERT_OK(graph->Follow("hub", other));
      ASSERT_OK(graph->Follow(other, "hub"));
      expected.push_back(other);
    }
    std::sort(expected.begin(), expected.end());
    for (int32_t page_size : {1, 5, 23, 100}) {
      SCOPED_TRACE(page_size);
      std::vector<std::string> following = Walk(*graph, true, "hub", page_size);
      EXPECT_EQ(following.size(), expected.size());
      EXPECT_EQ(Sorted(following), expected);
      EXPECT_EQ(Sorted(Walk(*graph, false, "hub", page_size)), expected);
    }
    // The order is stable: two walks agree.
    EXPECT_EQ(Walk(*graph, true, "hub", 4), Walk(*graph, true, "hub", 7));
    EXPECT_TRUE(graph->Following("hub", 0).status().IsInvalidArgument());
  }
}

TEST_P(FollowGraphTest, EdgesSurviveReopen) {
  for (Layout layout : kLayouts) {
    SCOPED_TRACE(LayoutName(layout));
    {
      auto graph = OpenGraph(conn(), layout);
      ASSERT_NE(graph, nullptr);
      ASSERT_OK(graph->Follow("alice", "bob"));
    }
    store().Reopen();
    auto graph = OpenGraph(conn(), layout);
    ASSERT_NE(graph, nullptr);
    EXPECT_TRUE(*graph->IsFollowing("alice", "bob"));
    EXPECT_EQ(*graph->FollowerCount("bob"), 1);
    EXPECT_EQ(Walk(*graph, false, "bob", 10), std::vector<std::string>{"alice"});
  }
}

// The same random scenario through both layouts and a model: the same answers everywhere.
TEST_P(FollowGraphTest, BothLayoutsAgreeWithAModelOnARandomScenario) {
  auto tall = OpenGraph(conn(), Layout::kTall);
  auto wide = OpenGraph(conn(), Layout::kWide);
  ASSERT_NE(tall, nullptr);
  ASSERT_NE(wide, nullptr);
  std::mt19937 rng(20261123);
  constexpr int kUsers = 8;
  auto user = [](int i) { return "u" + std::to_string(i); };
  std::set<std::pair<std::string, std::string>> model;
  for (int step = 0; step < 300; ++step) {
    std::string a = user(static_cast<int>(rng() % kUsers));
    std::string b = user(static_cast<int>(rng() % kUsers));
    if (a == b) continue;
    if (rng() % 3 == 0) {
      ASSERT_OK(tall->Unfollow(a, b));
      ASSERT_OK(wide->Unfollow(a, b));
      model.erase({a, b});
    } else {
      ASSERT_OK(tall->Follow(a, b));
      ASSERT_OK(wide->Follow(a, b));
      model.insert({a, b});
    }
  }
  for (int i = 0; i < kUsers; ++i) {
    std::vector<std::string> following, followers;
    for (const auto& [from, to] : model) {
      if (from == user(i)) following.push_back(to);
      if (to == user(i)) followers.push_back(from);
    }
    for (FollowGraph* graph : {tall.get(), wide.get()}) {
      EXPECT_EQ(Sorted(Walk(*graph, true, user(i), 3)), following) << user(i);
      EXPECT_EQ(Sorted(Walk(*graph, false, user(i), 3)), followers) << user(i);
      EXPECT_EQ(*graph->FollowingCount(user(i)), static_cast<int64_t>(following.size()));
      EXPECT_EQ(*graph->FollowerCount(user(i)), static_cast<int64_t>(followers.size()));
      for (int j = 0; j < kUsers; ++j) {
        if (i == j) continue;
        EXPECT_EQ(*graph->IsFollowing(user(i), user(j)), model.count({user(i), user(j)}) == 1);
      }
    }
  }
}

using Edges = std::vector<std::pair<std::string, std::string>>;

TEST_P(FollowGraphTest, FollowManyDedupesAndCountsEachEdgeOnce) {
  for (Layout layout : kLayouts) {
    SCOPED_TRACE(LayoutName(layout));
    auto graph = OpenGraph(conn(), layout);
    ASSERT_NE(graph, nullptr);
    ASSERT_OK(graph->Follow("alice", "bob"));  // already there: not counted again
    ASSERT_OK(graph->FollowMany({{"alice", "bob"},
                                 {"alice", "carol"},
                                 {"alice", "carol"},  // twice in one call
                                 {"carol", "bob"},
                                 {"bob", "alice"},
                                 {"dave", "bob"}}));
    EXPECT_EQ(*graph->FollowingCount("alice"), 2);
    EXPECT_EQ(*graph->FollowingCount("carol"), 1);
    EXPECT_EQ(*graph->FollowingCount("bob"), 1);
    EXPECT_EQ(*graph->FollowerCount("bob"), 3);
    EXPECT_EQ(*graph->FollowerCount("carol"), 1);
    EXPECT_EQ(*graph->FollowerCount("alice"), 1);
    EXPECT_EQ(Sorted(Walk(*graph, false, "bob", 2)),
              (std::vector<std::string>{"alice", "carol", "dave"}));
    EXPECT_EQ(Sorted(Walk(*graph, true, "alice", 2)), (std::vector<std::string>{"bob", "carol"}));
    EXPECT_TRUE(*graph->IsFollowing("dave", "bob"));
    // The same call again changes nothing; an empty one neither.
    ASSERT_OK(graph->FollowMany({{"alice", "carol"}, {"dave", "bob"}}));
    ASSERT_OK(graph->FollowMany({}));
    EXPECT_EQ(*graph->FollowingCount("alice"), 2);
    EXPECT_EQ(*graph->FollowerCount("bob"), 3);
    EXPECT_EQ(*graph->Repair("bob"), 0);
    EXPECT_EQ(*graph->Repair("alice"), 0);
    EXPECT_EQ(*graph->FollowerCount("bob"), 3);
  }
}

TEST_P(FollowGraphTest, FollowManyChecksEveryPairBeforeWritingAny) {
  for (Layout layout : kLayouts) {
    SCOPED_TRACE(LayoutName(layout));
    FollowGraphOptions options;
    options.user_exists = [](std::string_view user) -> Result<bool> { return user != "mallory"; };
    auto graph = OpenGraph(conn(), layout, options);
    ASSERT_NE(graph, nullptr);
    EXPECT_TRUE(graph->FollowMany({{"alice", "bob"}, {"carol", "carol"}}).IsInvalidArgument());
    EXPECT_TRUE(graph->FollowMany({{"alice", "bob"}, {"", "carol"}}).IsInvalidArgument());
    EXPECT_TRUE(graph->FollowMany({{"alice", "bob"}, {"carol", "mallory"}}).IsNotFound());
    EXPECT_FALSE(*graph->IsFollowing("alice", "bob"));
    EXPECT_EQ(*graph->FollowingCount("alice"), 0);
    EXPECT_EQ(*graph->FollowerCount("bob"), 0);
    EXPECT_TRUE(Walk(*graph, false, "bob", 10).empty());
  }
}

// Many edges in one call, then unfollows of some, against a model; both layouts.
TEST_P(FollowGraphTest, FollowManyAgreesWithAModel) {
  for (Layout layout : kLayouts) {
    SCOPED_TRACE(LayoutName(layout));
    auto graph = OpenGraph(conn(), layout);
    ASSERT_NE(graph, nullptr);
    std::mt19937 rng(20261126);
    constexpr int kUsers = 12;
    auto user = [](int i) { return "m" + std::to_string(i); };
    std::set<std::pair<std::string, std::string>> model;
    for (int batch = 0; batch < 4; ++batch) {
      Edges edges;
      for (int k = 0; k < 40; ++k) {
        int a = static_cast<int>(rng() % kUsers), b = static_cast<int>(rng() % kUsers);
        if (a == b) continue;
        edges.emplace_back(user(a), user(b));
        model.insert({user(a), user(b)});
      }
      ASSERT_OK(graph->FollowMany(edges));
      for (int k = 0; k < 5; ++k) {
        int a = static_cast<int>(rng() % kUsers), b = static_cast<int>(rng() % kUsers);
        if (a == b) continue;
        ASSERT_OK(graph->Unfollow(user(a), user(b)));
        model.erase({user(a), user(b)});
      }
    }
    for (int i = 0; i < kUsers; ++i) {
      std::vector<std::string> following, followers;
      for (const auto& [from, to] : model) {
        if (from == user(i)) following.push_back(to);
        if (to == user(i)) followers.push_back(from);
      }
      EXPECT_EQ(Sorted(Walk(*graph, true, user(i), 5)), following) << user(i);
      EXPECT_EQ(Sorted(Walk(*graph, false, user(i), 5)), followers) << user(i);
      EXPECT_EQ(*graph->FollowingCount(user(i)), static_cast<int64_t>(following.size()));
      EXPECT_EQ(*graph->FollowerCount(user(i)), static_cast<int64_t>(followers.size()));
    }
  }
}

// An edge half-written by a backend without atomic writes (the record without its reverse) is
// completed by a later Follow or FollowMany through the store itself, and counted once.
TEST_P(FollowGraphTest, FollowAndFollowManyCompleteAHalfWrittenEdge) {
  for (Layout layout : kLayouts) {
    SCOPED_TRACE(LayoutName(layout));
    FaultPlan plan;
    FaultyConnection faulty(conn(), &plan);
    auto broken = OpenGraph(faulty, layout);
    auto graph = OpenGraph(conn(), layout);
    ASSERT_NE(broken, nullptr);
    ASSERT_NE(graph, nullptr);
    // Tall: the reverse table fails. Wide: every write after the record and its counter.
    for (const char* follower : {"alice", "carol"}) {
      if (layout == Layout::kTall) {
        plan.table = "g_tall_followers";
      } else {
        plan.writes_left = 2;
      }
      EXPECT_TRUE(broken->Follow(follower, "bob").IsIOError());
      plan.table.clear();
      plan.writes_left = -1;
    }
    EXPECT_TRUE(*graph->IsFollowing("alice", "bob"));
    EXPECT_TRUE(Walk(*graph, false, "bob", 10).empty());

    ASSERT_OK(graph->Follow("alice", "bob"));
    ASSERT_OK(graph->FollowMany({{"carol", "bob"}, {"dave", "bob"}}));
    EXPECT_EQ(Sorted(Walk(*graph, false, "bob", 10)),
              (std::vector<std::string>{"alice", "carol", "dave"}));
    EXPECT_EQ(*graph->FollowerCount("bob"), 3);
    EXPECT_EQ(*graph->FollowingCount("alice"), 1);
    EXPECT_EQ(*graph->FollowingCount("carol"), 1);
    EXPECT_EQ(*graph->Repair("bob"), 0);
  }
}

// A backend without atomic multi-table writes fails after the record is written: the reverse
// side and the followed user's count lag until Repair.
TEST_P(FollowGraphTest, RepairAddsTheReverseEdgeAFailedFollowMissed) {
  for (Layout layout : kLayouts) {
    SCOPED_TRACE(LayoutName(layout));
    FaultPlan plan;
    FaultyConnection conn(this->conn(), &plan);
    auto graph = OpenGraph(conn, layout);
    ASSERT_NE(graph, nullptr);
    ASSERT_OK(graph->Follow("carol", "bob"));
    // Tall: the reverse table fails. Wide: one table holds both sides, so fail the counter
    // update that follows the record instead.
    if (layout == Layout::kTall) {
      plan.table = "g_tall_followers";
    } else {
      plan.table = "g_wide_users";
      plan.op = FaultPlan::Op::kIncrement;
    }
    EXPECT_TRUE(graph->Follow("alice", "bob").IsIOError());
    EXPECT_GT(plan.failures.load(), 0);
    plan.table.clear();

    EXPECT_TRUE(*graph->IsFollowing("alice", "bob"));  // the record was written
    EXPECT_EQ(Walk(*graph, false, "bob", 10), std::vector<std::string>{"carol"});
    EXPECT_EQ(*graph->FollowerCount("bob"), 1);
    if (layout == Layout::kWide) {
      EXPECT_EQ(*graph->FollowingCount("alice"), 0);  // the counter update was lost too
    }

    auto fixed = graph->Repair("alice");
    ASSERT_OK(fixed);
    EXPECT_EQ(*fixed, 1);
    EXPECT_EQ(Sorted(Walk(*graph, false, "bob", 10)), (std::vector<std::string>{"alice", "carol"}));
    EXPECT_EQ(*graph->FollowerCount("bob"), 2);
    EXPECT_EQ(*graph->FollowingCount("alice"), 1);
    // Nothing left to fix.
    EXPECT_EQ(*graph->Repair("alice"), 0);
    EXPECT_EQ(*graph->Repair("bob"), 0);
  }
}

TEST_P(FollowGraphTest, RepairRemovesTheReverseEdgeAFailedUnfollowLeft) {
  FaultPlan plan;
  FaultyConnection conn(this->conn(), &plan);
  auto graph = OpenGraph(conn, Layout::kTall);
  ASSERT_NE(graph, nullptr);
  ASSERT_OK(graph->Follow("alice", "bob"));
  ASSERT_OK(graph->Follow("carol", "bob"));
  plan.table = "g_tall_followers";
  EXPECT_TRUE(graph->Unfollow("alice", "bob").IsIOError());
  plan.table.clear();

  EXPECT_FALSE(*graph->IsFollowing("alice", "bob"));
  EXPECT_EQ(*graph->FollowingCount("alice"), 0);
  EXPECT_EQ(Sorted(Walk(*graph, false, "bob", 10)),
            (std::vector<std::string>{"alice", "carol"}));  // stale

  auto fixed = graph->Repair("bob");
  ASSERT_OK(fixed);
  EXPECT_EQ(*fixed, 1);
  EXPECT_EQ(Walk(*graph, false, "bob", 10), std::vector<std::string>{"carol"});
  EXPECT_EQ(*graph->FollowerCount("bob"), 1);
  EXPECT_EQ(*graph->Repair("bob"), 0);
}

TEST_P(FollowGraphTest, RepairRecomputesALostCount) {
  FaultPlan plan;
  FaultyConnection conn(this->conn(), &plan);
  auto graph = OpenGraph(conn, Layout::kTall);
  ASSERT_NE(graph, nullptr);
  plan.table = "g_tall_follows";
  plan.op = FaultPlan::Op::kIncrement;
  EXPECT_TRUE(graph->Follow("alice", "carol").IsIOError());
  plan.table.clear();
  EXPECT_EQ(*graph->FollowingCount("alice"), 0);
  // Following again does not recount: the record exists.
  ASSERT_OK(graph->Follow("alice", "carol"));
  EXPECT_EQ(*graph->FollowingCount("alice"), 0);
  ASSERT_OK(graph->Repair("alice"));
  EXPECT_EQ(*graph->FollowingCount("alice"), 1);
  EXPECT_EQ(*graph->FollowerCount("carol"), 1);
}

// An Unfollow completes between a Follow's write of the record and its write of the reverse
// edge: the Follow sees the record gone when it checks again, and takes its reverse edge back.
TEST_P(FollowGraphTest, FollowOvertakenByUnfollowLeavesNoStaleReverseEdge) {
  for (Layout layout : kLayouts) {
    SCOPED_TRACE(LayoutName(layout));
    FaultPlan plan;
    FaultyConnection conn(this->conn(), &plan);
    auto slow = OpenGraph(conn, layout);
    auto fast = OpenGraph(this->conn(), layout);
    ASSERT_NE(slow, nullptr);
    ASSERT_NE(fast, nullptr);
    ASSERT_OK(slow->Follow("carol", "bob"));
    std::string reverse_table = layout == Layout::kTall ? "g_tall_followers" : "g_wide_users";
    // The wide layout writes the record to the same table, so skip that write and the
    // follower's counter before hooking.
    int writes_to_skip = layout == Layout::kTall ? 0 : 2;
    std::function<void()> unfollow = [&] { EXPECT_OK(fast->Unfollow("alice", "bob")); };
    std::function<void()> arm = [&] {
      if (writes_to_skip-- > 0) {
        plan.hook_table = reverse_table;
        plan.hook = arm;
        return;
      }
      unfollow();
    };
    plan.hook_table = reverse_table;
    plan.hook = arm;
    ASSERT_OK(slow->Follow("alice", "bob"));
    EXPECT_FALSE(plan.hook);  // the Unfollow ran in between

    EXPECT_FALSE(*slow->IsFollowing("alice", "bob"));
    EXPECT_EQ(Walk(*slow, false, "bob", 10), std::vector<std::string>{"carol"});
    EXPECT_EQ(*slow->FollowerCount("bob"), 1);
    EXPECT_EQ(*slow->FollowingCount("alice"), 0);
  }
}

BASALT_INSTANTIATE_STORE_TEST(FollowGraphTest);

}  // namespace
}  // namespace basalt::testing
