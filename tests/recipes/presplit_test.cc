// The recipes' presplit_regions options: tables with spread keys come out pre-split at the
// expected keys on every store kind, and a Thrift2 server reports one region per split range.

#include <gtest/gtest.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TSocket.h>

#include "basalt/recipes/click_counters.h"
#include "basalt/recipes/follow_graph.h"
#include "basalt/recipes/users.h"
#include "recipes/recipe_store.h"
#include "server/thrift2/thrift2_server.h"
#include "support/test_store.h"
#include "thrift2/gen/THBaseService.h"

namespace basalt::testing {
namespace {

using recipes::ClickCounters;
using recipes::ClickCountersOptions;
using recipes::FollowGraph;
using recipes::FollowGraphOptions;
using recipes::UserStore;
using recipes::UserStoreOptions;

using Keys = std::vector<std::string>;

constexpr char kPassword[] = "Tr0ub4dor&3 horse";

Keys SplitKeysOf(Connection& conn, const std::string& table) {
  auto name = TableName::Parse(table);
  EXPECT_TRUE(name.ok()) << name.status().ToString();
  auto info = conn.admin().DescribeTable(*name);
  EXPECT_TRUE(info.ok()) << table << ": " << info.status().ToString();
  return info.ok() ? info->split_keys : Keys{};
}

UserStoreOptions Users(int presplit) {
  UserStoreOptions options;
  options.hash_cost = UserStoreOptions::HashCost::kMinimum;
  options.presplit_regions = presplit;
  return options;
}

class PresplitTest : public StoreTest {};

TEST_P(PresplitTest, DefaultIsOneRegionPerTable) {
  ASSERT_OK(UserStore::Open(store().conn(), Users(0)));
  ASSERT_OK(FollowGraph::Open(store().conn()));
  ClickCountersOptions clicks;
  clicks.salt_buckets = 8;
  ASSERT_OK(ClickCounters::Open(store().conn(), clicks));
  for (const char* table : {"social_users", "social_sessions", "follow_follows", "follow_followers",
                            "clicks_by_item", "clicks_by_minute"}) {
    EXPECT_EQ(SplitKeysOf(store().conn(), table), Keys{}) << table;
  }
}

TEST_P(PresplitTest, SessionsSplitAtEvenlySpacedHashBytes) {
  auto users = UserStore::Open(store().conn(), Users(4));
  ASSERT_OK(users);
  EXPECT_EQ(SplitKeysOf(store().conn(), "social_sessions"), (Keys{"\x40", "\x80", "\xC0"}));
  EXPECT_EQ(SplitKeysOf(store().conn(), "social_users"), Keys{});  // keyed by name
  // Sessions land in every region and all still work.
  ASSERT_OK((*users)->Register("alice", kPassword));
  for (int i = 0; i < 8; ++i) {
    auto session = (*users)->LogIn("alice", kPassword);
    ASSERT_OK(session);
    auto who = (*users)->ValidateSession(session->token);
    ASSERT_OK(who);
    EXPECT_EQ(*who, "alice");
  }
}

TEST_P(PresplitTest, TallFollowGraphTablesSplitAtEvenlySpacedHashBytes) {
  FollowGraphOptions options;
  options.presplit_regions = 3;
  auto graph = FollowGraph::Open(store().conn(), options);
  ASSERT_OK(graph);
  for (const char* table : {"follow_follows", "follow_followers"}) {
    EXPECT_EQ(SplitKeysOf(store().conn(), table), (Keys{"\x55", "\xAA"})) << table;
  }
  for (const char* fan : {"bob", "carol", "dave", "erin", "frank"}) {
    ASSERT_OK((*graph)->Follow(fan, "alice"));
  }
  auto count = (*graph)->FollowerCount("alice");
  ASSERT_OK(count);
  EXPECT_EQ(*count, 5);
  auto page = (*graph)->Followers("alice", 10);
  ASSERT_OK(page);
  EXPECT_EQ(page->users.size(), 5u);
}

TEST_P(PresplitTest, SaltedCounterTablesSplitAtBucketBoundaries) {
  ClickCountersOptions options;
  options.salt_buckets = 8;
  options.presplit_regions = 4;
  constexpr int64_t kNow = 1'800'000'000'000;
  options.clock = [] { return kNow; };
  auto counters = ClickCounters::Open(store().conn(), options);
  ASSERT_OK(counters);
  for (const char* table : {"clicks_by_item", "clicks_by_minute"}) {
    EXPECT_EQ(SplitKeysOf(store().conn(), table), (Keys{"\x02", "\x04", "\x06"})) << table;
  }
  EXPECT_EQ(SplitKeysOf(store().conn(), "clicks_totals"), Keys{});  // keyed by item
  for (int i = 0; i < 20; ++i) ASSERT_OK((*counters)->Click("item" + std::to_string(i % 5)));
  auto clicks = (*counters)->Count("item3", kNow - 60'000, kNow + 60'000);
  ASSERT_OK(clicks);
  EXPECT_EQ(*clicks, 4);
}

TEST_P(PresplitTest, MoreRegionsThanBucketsGiveOnePerBucket) {
  ClickCountersOptions options;
  options.salt_buckets = 3;
  options.presplit_regions = 16;
  ASSERT_OK(ClickCounters::Open(store().conn(), options));
  EXPECT_EQ(SplitKeysOf(store().conn(), "clicks_by_minute"), (Keys{"\x01", "\x02"}));
}

TEST_P(PresplitTest, ExistingTablesKeepTheirRegions) {
  ASSERT_OK(UserStore::Open(store().conn(), Users(0)));
  ASSERT_OK(UserStore::Open(store().conn(), Users(4)));
  EXPECT_EQ(SplitKeysOf(store().conn(), "social_sessions"), Keys{});
}

TEST_P(PresplitTest, BadOptionsAreInvalidArgumentAndCreateNothing) {
  EXPECT_TRUE(UserStore::Open(store().conn(), Users(257)).status().IsInvalidArgument());
  EXPECT_TRUE(UserStore::Open(store().conn(), Users(-1)).status().IsInvalidArgument());
  FollowGraphOptions wide;
  wide.layout = FollowGraphOptions::Layout::kWide;
  wide.presplit_regions = 4;
  EXPECT_TRUE(FollowGraph::Open(store().conn(), wide).status().IsInvalidArgument());
  ClickCountersOptions unsalted;
  unsalted.presplit_regions = 4;
  EXPECT_TRUE(ClickCounters::Open(store().conn(), unsalted).status().IsInvalidArgument());
  auto tables = store().admin().ListTables();
  ASSERT_OK(tables);
  EXPECT_TRUE(tables->empty());
}

// The recipe tests' own setup (recipe_store.h): each table comes out in several regions, at the
// recipe's own split keys where it takes presplit_regions and at SplitKeysForRecipeTables()
// elsewhere, so that on HBase those tests' reads really cross region boundaries.
TEST_P(PresplitTest, TheRecipeTestsTablesAreCreatedInSeveralRegions) {
  RecipeConnection conn(store());
  UserStoreOptions users = Users(kPresplitRegions);
  ASSERT_OK(UserStore::Open(conn, users));
  FollowGraphOptions tall;
  tall.presplit_regions = kPresplitRegions;
  ASSERT_OK(FollowGraph::Open(conn, tall));
  FollowGraphOptions wide;
  wide.layout = FollowGraphOptions::Layout::kWide;
  ASSERT_OK(FollowGraph::Open(conn, wide));
  ClickCountersOptions salted;
  salted.table_prefix = "salted";
  salted.salt_buckets = 8;
  salted.presplit_regions = kPresplitRegions;
  ASSERT_OK(ClickCounters::Open(conn, salted));
  const Keys hash_splits = {"\x40", "\x80", "\xC0"};
  const Keys bucket_splits = {"\x02", "\x04", "\x06"};
  const Keys test_splits = SplitKeysForRecipeTables();
  EXPECT_EQ(SplitKeysOf(conn, "social_sessions"), hash_splits);
  EXPECT_EQ(SplitKeysOf(conn, "social_users"), test_splits);
  EXPECT_EQ(SplitKeysOf(conn, "follow_follows"), hash_splits);
  EXPECT_EQ(SplitKeysOf(conn, "follow_followers"), hash_splits);
  EXPECT_EQ(SplitKeysOf(conn, "follow_users"), test_splits);
  EXPECT_EQ(SplitKeysOf(conn, "salted_by_item"), bucket_splits);
  EXPECT_EQ(SplitKeysOf(conn, "salted_by_minute"), bucket_splits);
  EXPECT_EQ(SplitKeysOf(conn, "salted_totals"), test_splits);
  EXPECT_EQ(test_splits.size(), 4u);
}

BASALT_INSTANTIATE_STORE_TEST(PresplitTest);

// Through basalt's Thrift2 server: the thrift:// backend sends the split keys with createTable,
// and getAllRegionLocations / getRegionLocation report one region per split range, as an HBase
// client locating rows would read them.
TEST(PresplitOverThrift2Test, RegionLocationsListOneRegionPerSplitRange) {
  auto backing = Connection::Open("mem:");
  ASSERT_OK(backing);
  server::Thrift2ServerOptions server_options;
  server_options.bind_address = "127.0.0.1";
  server_options.port = 0;
  server::Thrift2Server server(**backing, server_options);
  ASSERT_OK(server.Start());
  auto remote = Connection::Open("thrift://127.0.0.1:" + std::to_string(server.port()));
  ASSERT_OK(remote);
  ASSERT_OK(UserStore::Open(**remote, Users(4)));
  EXPECT_EQ(SplitKeysOf(**backing, "social_sessions"), (Keys{"\x40", "\x80", "\xC0"}));

  auto socket = std::make_shared<apache::thrift::transport::TSocket>("127.0.0.1", server.port());
  auto transport = std::make_shared<apache::thrift::transport::TBufferedTransport>(socket);
  thrift2::THBaseServiceClient client(
      std::make_shared<apache::thrift::protocol::TBinaryProtocol>(transport));
  transport->open();
  std::vector<thrift2::THRegionLocation> regions;
  client.getAllRegionLocations(regions, "social_sessions");
  ASSERT_EQ(regions.size(), 4u);
  const Keys bounds = {"", "\x40", "\x80", "\xC0", ""};
  for (size_t i = 0; i < regions.size(); ++i) {
    EXPECT_EQ(regions[i].regionInfo.startKey, bounds[i]) << i;
    EXPECT_EQ(regions[i].regionInfo.endKey, bounds[i + 1]) << i;
    EXPECT_EQ(regions[i].serverName.port, server.port());
  }
  thrift2::THRegionLocation location;
  client.getRegionLocation(location, "social_sessions", "\x90 a session hash", false);
  EXPECT_EQ(location.regionInfo.startKey, "\x80");
  EXPECT_EQ(location.regionInfo.endKey, "\xC0");
  transport->close();

  remote->reset();
  server.Stop();
  ASSERT_OK((*backing)->Close());
}

}  // namespace
}  // namespace basalt::testing
