// The feed's stored layout (feed_layout.h), pinned byte for byte, and Open's check of its format
// version.
// The golden listing was dumped once and reviewed against the layout in feed_layout.h.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "basalt/connection.h"
#include "basalt/recipes/fanout_worker.h"
#include "basalt/recipes/feed.h"
#include "basalt/recipes/follow_graph.h"
#include "basalt/types.h"
#include "recipes/golden_rows.h"

namespace basalt::recipes {
namespace {

using golden::RawCells;

class FeedFormatTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto conn = Connection::Open("mem:");
    ASSERT_TRUE(conn.ok()) << conn.status().ToString();
    conn_ = std::move(*conn);
    auto graph = FollowGraph::Open(*conn_);
    ASSERT_TRUE(graph.ok()) << graph.status().ToString();
    graph_ = std::move(*graph);
  }

  Status OpenFeed() {
    FeedOptions options;
    options.fanout_threshold = 2;               // an author of three followers is not fanned out
    options.deliver_in_post_max_followers = 1;  // one of two followers takes a fan-out job
    options.inactive_after_ms = 0;              // no reader rows: their times are the wall clock's
    auto feed = Feed::Open(*conn_, *graph_, options);
    if (!feed.ok()) return feed.status();
    feed_ = std::move(*feed);
    return Status::OK();
  }

  std::unique_ptr<Connection> conn_;
  std::unique_ptr<FollowGraph> graph_;
  std::unique_ptr<Feed> feed_;
};

// The post ids' sequence numbers start at random, and a fanned-out post's p:o holds the wall
// clock time its job was queued at: both are listed as places, checked here by other means.
TEST_F(FeedFormatTest, LayoutIsPinned) {
  ASSERT_TRUE(OpenFeed().ok());
  for (const char* follower : {"bob", "carol"}) ASSERT_TRUE(feed_->Follow(follower, "alice").ok());
  for (const char* follower : {"bob", "carol", "dan"}) {
    ASSERT_TRUE(feed_->Follow(follower, "star").ok());
  }
  ASSERT_TRUE(feed_->Follow("bob", "ivy").ok());
  const int64_t before_ms = SystemWallMillis();
  auto fanned = feed_->PostAt("alice", "hi", 1000);
  auto high = feed_->PostAt("star", "yo", 2000);
  const int64_t after_ms = SystemWallMillis();
  auto inline_post = feed_->PostAt("ivy", "ok", 3000);
  ASSERT_TRUE(fanned.ok()) << fanned.status().ToString();
  ASSERT_TRUE(high.ok()) << high.status().ToString();
  ASSERT_TRUE(inline_post.ok()) << inline_post.status().ToString();
  auto pending = feed_->PendingJobs();
  ASSERT_TRUE(pending.ok());
  EXPECT_EQ(*pending, 1) << "alice's post alone takes a job";
  for (;;) {
    auto ran = FanoutWorkerPool::RunOnce(*feed_, {}, "w");
    ASSERT_TRUE(ran.ok()) << ran.status().ToString();
    if (!*ran) break;
  }
  std::map<std::string, std::string> subs;
  // A post id ends in its sequence number (uint32, descending).
  subs[golden::Hex(fanned->substr(fanned->size() - 4))] = "~seq1";
  subs[golden::Hex(high->substr(high->size() - 4))] = "~seq2";
  subs[golden::Hex(inline_post->substr(inline_post->size() - 4))] = "~seq3";
  auto posts = conn_->GetTable(TableName("default", "feed_posts"));
  ASSERT_TRUE(posts.ok());
  auto post = (*posts)->Get(Get("\x01" + *fanned).AddColumn("p", "o"));
  ASSERT_TRUE(post.ok());
  const std::string queued(post->Value("p", "o").value_or(""));
  ASSERT_EQ(queued.size(), 8u);
  int64_t queued_ms = 0;
  for (unsigned char c : queued) queued_ms = queued_ms << 8 | c;
  EXPECT_GE(queued_ms, before_ms);
  EXPECT_LE(queued_ms, after_ms);
  subs[golden::Hex(queued)] = "BE64(queued ms)";

  // bytes("alice") = 616c696365 0001, bytes("star") = 73746172 0001, bytes("ivy") = 697679 0001,
  // rts(1000) = 7ffffffffffffc17, rts(2000) = 7ffffffffffff82f, rts(3000) = 7ffffffffffff447;
  // post id = bytes(author) rts(time) ~u32(seq).
  // Version 2 added ivy's p:o = "d" (a post delivered in its own write) and the meta row's "2";
  // the other bytes are version 1's.
  EXPECT_EQ(RawCells(*conn_, TableName("default", "feed_posts"), subs),
            (std::vector<std::string>{
                // alice's post (fanned out; its job row is gone, the job done): row u8(1) + post
                // id, p:o = BE64 queued at, p:t = "hi"
                "01616c69636500017ffffffffffffc17{~seq1} p:6f = {BE64(queued ms)}",
                "01616c69636500017ffffffffffffc17{~seq1} p:74 = 6869",
                // ivy's post (one follower: delivered in its own write), p:o = "d", p:t = "ok"
                "0169767900017ffffffffffff447{~seq3} p:6f = 64",
                "0169767900017ffffffffffff447{~seq3} p:74 = 6f6b",
                // star's post (a high-follower author: not fanned out), p:t = "yo"
                "017374617200017ffffffffffff82f{~seq2} p:74 = 796f",
                // star's mark row: u8(3) + bytes("star"), p:h = "1"
                "03737461720001 p:68 = 31",
                // the meta row: u8(4), p:v = "2"
                "04 p:76 = 32",
            }));
  EXPECT_EQ(RawCells(*conn_, TableName("default", "feed_inbox"), subs),
            (std::vector<std::string>{
                // row bytes(reader), i:(rts(time) + post id) = "": alice's own post in her inbox,
                "616c6963650001 i:7ffffffffffffc17616c69636500017ffffffffffffc17{~seq1} = ",
                // bob's: ivy's post delivered with it, alice's by the fan-out,
                "626f620001 i:7ffffffffffff44769767900017ffffffffffff447{~seq3} = ",
                "626f620001 i:7ffffffffffffc17616c69636500017ffffffffffffc17{~seq1} = ",
                // carol's: alice's by the fan-out,
                "6361726f6c0001 i:7ffffffffffffc17616c69636500017ffffffffffffc17{~seq1} = ",
                // ivy's own post in ivy's inbox,
                "6976790001 i:7ffffffffffff44769767900017ffffffffffff447{~seq3} = ",
                // star's own post in star's inbox (bob, carol and dan merge it at read time)
                "737461720001 i:7ffffffffffff82f7374617200017ffffffffffff82f{~seq2} = ",
            }));
}

TEST_F(FeedFormatTest, OpenRefusesAFutureAndATooOldFormatVersion) {
  ASSERT_TRUE(OpenFeed().ok());
  for (const char* version : {"3", "0"}) {
    golden::ExpectOpenRefuses(
        *conn_, TableName("default", "feed_posts"), "\x04", "p", version,
        [&] { return OpenFeed(); },
        std::string("feed: table feed_posts holds format version '") + version +
            "' of the feed layout (p:v of its meta row); this basalt reads versions 1 to 2");
  }
}

// A version 1 store holds no p:o "d" and means by every other byte what version 2 does: Open
// reads it and records version 2, which a basalt that reads only version 1 then refuses.
TEST_F(FeedFormatTest, OpenReadsAVersionOneStoreAndRecordsVersionTwo) {
  ASSERT_TRUE(OpenFeed().ok());
  auto posts = conn_->GetTable(TableName("default", "feed_posts"));
  ASSERT_TRUE(posts.ok());
  ASSERT_TRUE((*posts)->Put(Put("\x04").Add("p", "v", "1")).ok());
  ASSERT_TRUE(OpenFeed().ok());
  auto meta = (*posts)->Get(Get("\x04").AddColumn("p", "v"));
  ASSERT_TRUE(meta.ok());
  EXPECT_EQ(meta->Value("p", "v").value_or(""), "2");
}

}  // namespace
}  // namespace basalt::recipes
