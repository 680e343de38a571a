// The follow graph's stored layouts (follow_graph.h), pinned byte for byte, and Open's check of
// their format version.
// The golden listings were written by hand from the layouts in follow_graph.h and
// docs/recipes.md.

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "basalt/connection.h"
#include "basalt/recipes/follow_graph.h"
#include "recipes/golden_rows.h"

namespace basalt::recipes {
namespace {

using golden::RawCells;

class FollowGraphFormatTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto conn = Connection::Open("mem:");
    ASSERT_TRUE(conn.ok()) << conn.status().ToString();
    conn_ = std::move(*conn);
  }

  Status OpenGraph(FollowGraphOptions::Layout layout) {
    FollowGraphOptions options;
    options.layout = layout;
    auto graph = FollowGraph::Open(*conn_, options);
    if (!graph.ok()) return graph.status();
    graph_ = std::move(*graph);
    return Status::OK();
  }

  // alice and carol follow bob.
  void WriteDataSet(FollowGraphOptions::Layout layout) {
    ASSERT_TRUE(OpenGraph(layout).ok());
    ASSERT_TRUE(graph_->Follow("alice", "bob").ok());
    ASSERT_TRUE(graph_->Follow("carol", "bob").ok());
  }

  std::unique_ptr<Connection> conn_;
  std::unique_ptr<FollowGraph> graph_;
};

// MD5("alice")[0..8) = 6384e2b2184bcbf5, MD5("bob")[0..8) = 9f9d51bc70ef21ca,
// MD5("carol")[0..8) = a9a0198010a6073d (md5sum). Counters are BE64.
TEST_F(FollowGraphFormatTest, TallLayoutIsPinned) {
  WriteDataSet(FollowGraphOptions::Layout::kTall);
  EXPECT_EQ(RawCells(*conn_, TableName("default", "follow_follows")),
            (std::vector<std::string>{
                // meta row "\0meta": c:v = "1"
                "006d657461 c:76 = 31",
                // alice's following counter: row MD5(alice), c:n = 1
                "6384e2b2184bcbf5 c:6e = 0000000000000001",
                // the edge alice -> bob: row MD5(alice) + MD5(bob), f:u = "bob"
                "6384e2b2184bcbf59f9d51bc70ef21ca f:75 = 626f62",
                "a9a0198010a6073d c:6e = 0000000000000001",
                "a9a0198010a6073d9f9d51bc70ef21ca f:75 = 626f62",
            }));
  EXPECT_EQ(RawCells(*conn_, TableName("default", "follow_followers")),
            (std::vector<std::string>{
                // bob's follower counter: 2
                "9f9d51bc70ef21ca c:6e = 0000000000000002",
                // the reverse edges: row MD5(bob) + MD5(follower), f:u = the follower
                "9f9d51bc70ef21ca6384e2b2184bcbf5 f:75 = 616c696365",
                "9f9d51bc70ef21caa9a0198010a6073d f:75 = 6361726f6c",
            }));
}

TEST_F(FollowGraphFormatTest, WideLayoutIsPinned) {
  WriteDataSet(FollowGraphOptions::Layout::kWide);
  EXPECT_EQ(RawCells(*conn_, TableName("default", "follow_users")),
            (std::vector<std::string>{
                // meta row "\0meta": counts:v = "1"
                "006d657461 counts:76 = 31",
                // row "alice": counts:following = 1, follows:bob = "bob"
                "616c696365 counts:666f6c6c6f77696e67 = 0000000000000001",
                "616c696365 follows:626f62 = 626f62",
                // row "bob": fans:alice, fans:carol, counts:followers = 2
                "626f62 counts:666f6c6c6f77657273 = 0000000000000002",
                "626f62 fans:616c696365 = 616c696365",
                "626f62 fans:6361726f6c = 6361726f6c",
                "6361726f6c counts:666f6c6c6f77696e67 = 0000000000000001",
                "6361726f6c follows:626f62 = 626f62",
            }));
}

TEST_F(FollowGraphFormatTest, OpenRefusesAFutureAndATooOldFormatVersion) {
  for (auto layout : {FollowGraphOptions::Layout::kTall, FollowGraphOptions::Layout::kWide}) {
    const bool tall = layout == FollowGraphOptions::Layout::kTall;
    SCOPED_TRACE(tall ? "tall" : "wide");
    ASSERT_TRUE(OpenGraph(layout).ok());
    const std::string table = tall ? "follow_follows" : "follow_users";
    const std::string family = tall ? "c" : "counts";
    for (const char* version : {"2", "0"}) {
      golden::ExpectOpenRefuses(
          *conn_, TableName("default", table), std::string("\0meta", 5), family, version,
          [&] { return OpenGraph(layout); },
          "follow graph: table " + table + " holds format version '" + version +
              "' of the follow graph layout (" + family +
              ":v of its meta row); this basalt reads versions 1 to 1");
    }
  }
}

}  // namespace
}  // namespace basalt::recipes
