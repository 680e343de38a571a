// What a recipe operation costs served: the Thrift2 calls one operation makes through basalt's
// thrift:// backend, counted by the server. Over loopback each call is a round trip of tens of
// microseconds, so these counts are most of a served operation's latency (docs/benchmarks.md).

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>

#include "basalt/recipes/activity_log.h"
#include "basalt/recipes/fanout_worker.h"
#include "basalt/recipes/feed.h"
#include "basalt/recipes/follow_graph.h"
#include "server/thrift2/thrift2_server.h"
#include "support/test_store.h"

namespace basalt::recipes {
namespace {

class RoundTripsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto backing = Connection::Open("mem:");
    ASSERT_OK(backing);
    backing_ = std::move(*backing);
    server::Thrift2ServerOptions options;
    options.bind_address = "127.0.0.1";
    options.port = 0;
    server_ = std::make_unique<server::Thrift2Server>(*backing_, options);
    ASSERT_OK(server_->Start());
    auto remote = Connection::Open("thrift://127.0.0.1:" + std::to_string(server_->port()));
    ASSERT_OK(remote);
    remote_ = std::move(*remote);
  }

  void TearDown() override {
    if (remote_) EXPECT_OK(remote_->Close());
    server_->Stop();
    EXPECT_OK(backing_->Close());
  }

  // The calls the server answered while `op` ran.
  uint64_t CallsOf(const std::function<void()>& op) {
    const uint64_t before = server_->calls();
    op();
    return server_->calls() - before;
  }

  std::unique_ptr<Connection> backing_;
  std::unique_ptr<server::Thrift2Server> server_;
  std::unique_ptr<Connection> remote_;
};

TEST_F(RoundTripsTest, ALatestPageOfActivityIsOneCall) {
  auto log = ActivityLog::Open(*remote_);
  ASSERT_OK(log);
  for (int i = 0; i < 40; ++i)
    ASSERT_OK((*log)->Record("alice", "click", "item" + std::to_string(i)));
  // Note 000's query, "the 10 latest actions after skipping 20": one getScannerResults.
  EXPECT_EQ(CallsOf([&] {
              auto page = (*log)->Latest("alice", 10, 20);
              ASSERT_OK(page);
              EXPECT_EQ(page->size(), 10u);
            }),
            1u);
}

TEST_F(RoundTripsTest, AHomeTimelinePageIsTwoCallsWhateverItsAuthors) {
  auto graph = FollowGraph::Open(*remote_);
  ASSERT_OK(graph);
  for (int64_t refresh_ms : {int64_t{60000}, int64_t{0}}) {
    FeedOptions options;
    options.marks_refresh_ms = refresh_ms;
    options.table_prefix = "feed" + std::to_string(refresh_ms);
    auto feed = Feed::Open(*remote_, **graph, options);
    ASSERT_OK(feed);
    const std::vector<std::string> authors = {"bob", "carol", "dave", "erin", "frank"};
    for (const auto& author : authors) {
      ASSERT_OK((*feed)->Follow("alice", author));
      for (int i = 0; i < 6; ++i) {
        ASSERT_OK((*feed)->Post(author, author + " says " + std::to_string(i)));
      }
    }
    ASSERT_OK((*feed)->Post("alice", "hello"));
    while (true) {
      auto ran = FanoutWorkerPool::RunOnce(**feed, {}, "w");
      ASSERT_OK(ran);
      if (!*ran) break;
    }
    // Her inbox, which holds her own posts too (1 get), and the posts of the page (1 multi-get):
    // the authors of the page need no check (she never unfollowed anyone), and which authors are
    // high-follower comes from a copy of the marks (one scan of the mark rows when it is older
    // than marks_refresh_ms; none is marked here, so no follow edge is read).
    EXPECT_EQ(CallsOf([&] {
                auto page = (*feed)->HomeTimeline("alice", 20);
                ASSERT_OK(page);
                EXPECT_EQ(page->posts.size(), 20u);
              }),
              refresh_ms == 0 ? 3u : 2u)
        << "marks_refresh_ms " << refresh_ms;
  }
}

// A reader who has unfollowed someone may hold late deliveries of that author, so their pages
// check the page's authors against the graph: one multi-get more. Marked (high-follower)
// authors cost one multi-get of the reader's edges to them, and a scan each one followed.
TEST_F(RoundTripsTest, AnUnfollowAndAMarkedAuthorCostAMultiGetEach) {
  auto graph = FollowGraph::Open(*remote_);
  ASSERT_OK(graph);
  FeedOptions options;
  options.marks_refresh_ms = 60000;
  options.fanout_threshold = 2;
  auto feed = Feed::Open(*remote_, **graph, options);
  ASSERT_OK(feed);
  const std::vector<std::string> authors = {"bob", "carol", "dave", "erin", "frank", "gus"};
  for (const auto& author : authors) ASSERT_OK((*feed)->Follow("alice", author));
  ASSERT_OK((*feed)->Follow("zoe", "bob"));
  ASSERT_OK((*feed)->Follow("yan", "bob"));
  for (const auto& author : authors) {
    for (int i = 0; i < 6; ++i) {
      ASSERT_OK((*feed)->Post(author, author + " says " + std::to_string(i)));
    }
  }
  while (true) {
    auto ran = FanoutWorkerPool::RunOnce(**feed, {}, "w");
    ASSERT_OK(ran);
    if (!*ran) break;
  }
  auto page_of = [&](const std::string& user) {
    return CallsOf([&] {
      auto page = (*feed)->HomeTimeline(user, 20);
      ASSERT_OK(page);
      EXPECT_EQ(page->posts.size(), 20u);
    });
  };
  // bob (3 followers) is marked: the reader's edges to the marked authors (1 multi-get) and
  // bob's posts merged in (1 scan), then as above (2 calls).
  (void)page_of("alice");  // reads the marks once
  EXPECT_EQ(page_of("alice"), 4u);
  ASSERT_OK((*feed)->Unfollow("alice", "gus"));
  EXPECT_EQ(page_of("alice"), 5u);
}

// Past the inbox, a page is a k-way merge of the followees' own timelines: one scan per author
// (with a limit: one getScannerResults, no scanner left open) instead of the inbox Get.
TEST_F(RoundTripsTest, APulledPageIsOneCallPerFolloweeMore) {
  auto graph = FollowGraph::Open(*remote_);
  ASSERT_OK(graph);
  FeedOptions options;
  options.marks_refresh_ms = 60000;
  options.inbox_cap = 3;
  options.inbox_trim_every = 1;
  auto feed = Feed::Open(*remote_, **graph, options);
  ASSERT_OK(feed);
  const std::vector<std::string> authors = {"bob", "carol", "dave", "erin", "frank"};
  for (const auto& author : authors) {
    ASSERT_OK((*feed)->Follow("alice", author));
    for (int i = 0; i < 6; ++i) ASSERT_OK((*feed)->Post(author, author + std::to_string(i)));
  }
  ASSERT_OK((*feed)->Post("alice", "hello"));
  while (true) {
    auto ran = FanoutWorkerPool::RunOnce(**feed, {}, "w");
    ASSERT_OK(ran);
    if (!*ran) break;
  }
  auto first = (*feed)->HomeTimeline("alice", 20);
  ASSERT_OK(first);
  ASSERT_EQ(first->posts.size(), 20u);
  // Whom alice follows (1 scan), the five followees' and her own posts (6 scans), the posts of
  // the page (1 multi-get).
  EXPECT_EQ(CallsOf([&] {
              auto page = (*feed)->HomeTimeline("alice", 20, first->cursor);
              ASSERT_OK(page);
              EXPECT_EQ(page->posts.size(), 11u);
              EXPECT_TRUE(page->cursor.empty());
            }),
            8u);
}

}  // namespace
}  // namespace basalt::recipes
