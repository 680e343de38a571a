// Feed::Post stopped at each of its writes, on a backend whose batches are not atomic (as HBase
// over Thrift2): an acknowledged post is always delivered, an unacknowledged one is delivered or
// absent, and no job is left behind (docs/recipes.md, "Post without cross-row atomicity").

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "basalt/recipes/fanout_worker.h"
#include "basalt/recipes/feed.h"
#include "basalt/recipes/follow_graph.h"
#include "recipes/faulty_connection.h"
#include "support/test_store.h"

namespace basalt::recipes {
namespace {

using ::basalt::testing::FaultPlan;
using ::basalt::testing::FaultyConnection;

constexpr int64_t kPostLeaseMs = 100;

class FeedCrashTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto conn = Connection::Open("mem:");
    ASSERT_OK(conn);
    conn_ = std::move(*conn);
    auto graph = FollowGraph::Open(*conn_);
    ASSERT_OK(graph);
    graph_ = std::move(*graph);
    plan_.split_batches = true;
    faulty_ = std::make_unique<FaultyConnection>(*conn_, &plan_);
    auto posting = Feed::Open(*faulty_, *graph_, options());
    ASSERT_OK(posting);
    posting_feed_ = std::move(*posting);
    // The feed of the process that comes after the crash: same tables, no faults.
    auto after = Feed::Open(*conn_, *graph_, options());
    ASSERT_OK(after);
    feed_ = std::move(*after);
    ASSERT_OK(feed_->Follow("bob", "alice"));
    ASSERT_OK(feed_->Follow("carol", "alice"));
  }

  static FeedOptions options() {
    FeedOptions o;
    o.post_lease_ms = kPostLeaseMs;
    return o;
  }

  // Runs jobs as a fresh worker until none can be claimed.
  void RunWorkers() {
    for (int i = 0; i < 100; ++i) {
      auto ran = FanoutWorkerPool::RunOnce(*feed_, {.lease_ms = 1000}, "after-crash");
      ASSERT_OK(ran);
      if (!*ran) return;
    }
    FAIL() << "jobs never ran out";
  }

  std::vector<std::string> HomeIds(const std::string& user) {
    std::vector<std::string> ids;
    auto page = feed_->HomeTimeline(user, 100);
    EXPECT_OK(page);
    if (page.ok()) {
      for (const auto& p : page->posts) ids.push_back(p.id);
    }
    return ids;
  }

  std::unique_ptr<Connection> conn_;
  std::unique_ptr<FollowGraph> graph_;
  FaultPlan plan_;
  std::unique_ptr<FaultyConnection> faulty_;
  std::unique_ptr<Feed> posting_feed_;
  std::unique_ptr<Feed> feed_;
};

TEST_F(FeedCrashTest, PostStoppedAtEachWriteLeavesNoPostOrADeliveredOne) {
  // Post makes four writes (job, the author's own inbox entry, post, hand-over); crash before
  // the first, ..., after the last.
  for (int writes = 0; writes <= 4; ++writes) {
    SCOPED_TRACE("writes before the crash: " + std::to_string(writes));
    const std::string text = "post " + std::to_string(writes);
    plan_.writes_left = writes;
    auto id = posting_feed_->Post("alice", text);
    plan_.writes_left = -1;
    EXPECT_EQ(id.ok(), writes == 4) << id.status().ToString();

    // The writes were stopped by a crash; a worker that comes later must finish the story once
    // the posting call's lease is over.
    std::this_thread::sleep_for(std::chrono::milliseconds(kPostLeaseMs + 20));
    RunWorkers();
    auto pending = feed_->PendingJobs();
    ASSERT_OK(pending);
    EXPECT_EQ(*pending, 0) << "a job was left behind";

    auto own = feed_->UserTimeline("alice", 100);
    ASSERT_OK(own);
    const PostView* written = nullptr;
    for (const auto& p : own->posts) {
      if (p.text == text) written = &p;
    }
    // Before the post row is written (0-2 writes) there is no post; after it (3, 4) there is.
    EXPECT_EQ(written != nullptr, writes >= 3);
    if (id.ok()) {
      ASSERT_NE(written, nullptr) << "an acknowledged post is missing";
      EXPECT_EQ(written->id, *id);
    }
    // The author's own home timeline has it as soon as it is written: the entry came first.
    for (const std::string user : {"alice", "bob", "carol"}) {
      auto home = HomeIds(user);
      bool delivered =
          written != nullptr && std::find(home.begin(), home.end(), written->id) != home.end();
      EXPECT_EQ(delivered, written != nullptr)
          << "a written post is missing from " << user << "'s home timeline";
    }
  }
}

TEST_F(FeedCrashTest, WorkerRunningBetweenPostsWritesLeavesTheJobAlone) {
  // A lease long enough that a slow machine cannot let it run out between two writes.
  FeedOptions o = options();
  o.post_lease_ms = 60000;
  auto posting = Feed::Open(*faulty_, *graph_, o);
  ASSERT_OK(posting);
  std::vector<Result<bool>> claims;
  // The first hook fires before the job row is written, the second before the post row.
  plan_.hook_table = "feed_posts";
  plan_.hook = [&] {
    plan_.hook = [&] { claims.push_back(FanoutWorkerPool::RunOnce(*feed_, {}, "eager")); };
  };
  auto id = (*posting)->Post("alice", "hello");
  ASSERT_OK(id);
  ASSERT_EQ(claims.size(), 1u);
  ASSERT_OK(claims[0]);
  EXPECT_FALSE(*claims[0]) << "a worker claimed the job of a post not written yet";
  RunWorkers();
  EXPECT_EQ(HomeIds("bob"), std::vector<std::string>{*id});
}

TEST_F(FeedCrashTest, PostSlowerThanItsLeaseWritesTheDroppedJobAgain) {
  FeedOptions o = options();
  o.post_lease_ms = 0;
  auto slow = Feed::Open(*faulty_, *graph_, o);
  ASSERT_OK(slow);
  std::vector<Result<bool>> claims;
  plan_.hook_table = "feed_posts";
  plan_.hook = [&] {
    plan_.hook = [&] {
      // The lease is over: the worker takes the job, finds no post and drops the job.
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      claims.push_back(FanoutWorkerPool::RunOnce(*feed_, {}, "eager"));
    };
  };
  auto id = (*slow)->Post("alice", "late");
  ASSERT_OK(id);
  ASSERT_EQ(claims.size(), 1u);
  ASSERT_OK(claims[0]);
  EXPECT_TRUE(*claims[0]) << "the worker did not take the job whose lease ran out";
  RunWorkers();
  EXPECT_EQ(HomeIds("bob"), std::vector<std::string>{*id});
  EXPECT_EQ(HomeIds("carol"), std::vector<std::string>{*id});
  auto pending = feed_->PendingJobs();
  ASSERT_OK(pending);
  EXPECT_EQ(*pending, 0);
}

}  // namespace
}  // namespace basalt::recipes
