// Fan-out workers under concurrency (runs under ThreadSanitizer in CI): writers post while two
// worker pools compete for the same jobs; every follower gets every post exactly once and each
// job is finished by exactly one worker.

#include <gtest/gtest.h>

#include <algorithm>
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

TEST(FanoutConcurrencyTest, CompetingPoolsDeliverEveryPostOnceWhileWritersPost) {
  TestStore store(StoreKind::kMem);
  auto graph = FollowGraph::Open(store.conn());
  ASSERT_OK(graph);
  // Every post takes a job (none delivered in its own write), for the pools to compete over.
  FeedOptions options;
  options.deliver_in_post_max_followers = 0;
  auto feed = Feed::Open(store.conn(), **graph, options);
  ASSERT_OK(feed);
  constexpr int kFollowers = 30;
  constexpr int kWriters = 3;
  constexpr int kPostsPerWriter = 15;
  for (int w = 0; w < kWriters; ++w) {
    for (int f = 0; f < kFollowers; ++f) {
      ASSERT_OK((*feed)->Follow("fan" + std::to_string(f), "author" + std::to_string(w)));
    }
  }
  FanoutWorkerPool pool_a(**feed, {.threads = 2, .chunk_size = 4, .poll_interval_ms = 1});
  FanoutWorkerPool pool_b(**feed, {.threads = 2, .chunk_size = 7, .poll_interval_ms = 1});
  pool_a.Start();
  pool_b.Start();

  std::mutex mu;
  std::set<std::string> ids;
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      for (int i = 0; i < kPostsPerWriter; ++i) {
        auto id = (*feed)->Post("author" + std::to_string(w), std::to_string(i));
        EXPECT_OK(id);
        if (id.ok()) {
          std::lock_guard<std::mutex> lock(mu);
          ids.insert(*id);
        }
      }
    });
  }
  for (auto& t : writers) t.join();
  ASSERT_OK(pool_a.Drain(std::chrono::seconds(60)));
  pool_a.Stop();
  pool_b.Stop();
  ASSERT_OK(pool_a.last_error());
  ASSERT_OK(pool_b.last_error());
  ASSERT_EQ(ids.size(), static_cast<size_t>(kWriters * kPostsPerWriter));
  EXPECT_EQ(pool_a.stats().jobs_finished + pool_b.stats().jobs_finished,
            kWriters * kPostsPerWriter);
  // No job ran twice: a claim is a CheckAndMutate on the lease as the worker read it, so a job
  // another worker has claimed since is not run again (each follower page is written once).
  const FanoutStats a = pool_a.stats(), b = pool_b.stats();
  EXPECT_EQ(a.inbox_writes + a.skipped_inactive + b.inbox_writes + b.skipped_inactive,
            kWriters * kPostsPerWriter * kFollowers);

  for (int f = 0; f < kFollowers; ++f) {
    std::vector<std::string> got;
    std::string cursor;
    do {
      auto page = (*feed)->HomeTimeline("fan" + std::to_string(f), 10, cursor);
      ASSERT_OK(page);
      for (const auto& p : page->posts) got.push_back(p.id);
      cursor = page->cursor;
    } while (!cursor.empty());
    std::set<std::string> distinct(got.begin(), got.end());
    EXPECT_EQ(distinct.size(), got.size()) << "a post was delivered twice";
    EXPECT_EQ(distinct, ids);
  }
}

}  // namespace
}  // namespace basalt::recipes
