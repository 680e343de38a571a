// The recipes' compression options: each recipe creates its tables with the compression chosen
// for them (docs/recipes.md), or the one its options give, as Admin::DescribeTable reports it on
// every store kind; an existing table keeps the compression it has.

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "basalt/recipes/activity_log.h"
#include "basalt/recipes/click_counters.h"
#include "basalt/recipes/feed.h"
#include "basalt/recipes/follow_graph.h"
#include "basalt/recipes/users.h"
#include "recipes/recipe_store.h"
#include "support/test_store.h"

namespace basalt::testing {
namespace {

using recipes::ActivityLog;
using recipes::ActivityLogOptions;
using recipes::ClickCounters;
using recipes::ClickCountersOptions;
using recipes::Feed;
using recipes::FeedOptions;
using recipes::FollowGraph;
using recipes::FollowGraphOptions;
using recipes::UserStore;
using recipes::UserStoreOptions;

// Each family of `table` and its compression, as DescribeTable reports them.
std::map<std::string, Compression> Compressions(Connection& conn, const std::string& table) {
  std::map<std::string, Compression> out;
  auto name = TableName::Parse(table);
  EXPECT_TRUE(name.ok()) << name.status().ToString();
  if (!name.ok()) return out;
  auto info = conn.admin().DescribeTable(*name);
  EXPECT_TRUE(info.ok()) << table << ": " << info.status().ToString();
  if (!info.ok()) return out;
  for (const FamilyDescriptor& f : info->descriptor.families) out[f.name] = f.compression;
  return out;
}

// Expects every family of `table`, and at least `families` of them, compressed with `c`.
void ExpectCompression(Connection& conn, const std::string& table, size_t families, Compression c) {
  const auto found = Compressions(conn, table);
  EXPECT_EQ(found.size(), families) << table;
  for (const auto& [family, compression] : found) {
    EXPECT_EQ(CompressionName(compression), CompressionName(c)) << table << ":" << family;
  }
}

UserStoreOptions Users() {
  UserStoreOptions options;
  options.hash_cost = UserStoreOptions::HashCost::kMinimum;
  return options;
}

class TableCompressionTest : public RecipeTest {};

TEST_P(TableCompressionTest, RecipesCreateTheirTablesWithTheChosenCompression) {
  Connection& conn = this->conn();
  ASSERT_OK(UserStore::Open(conn, Users()));
  auto graph = FollowGraph::Open(conn);
  ASSERT_OK(graph);
  ASSERT_OK(Feed::Open(conn, **graph));
  ASSERT_OK(ActivityLog::Open(conn));
  ASSERT_OK(ClickCounters::Open(conn));
  ExpectCompression(conn, "social_users", 2, Compression::kLz4);
  ExpectCompression(conn, "social_sessions", 1, Compression::kLz4);
  ExpectCompression(conn, "follow_follows", 2, Compression::kLz4);
  ExpectCompression(conn, "follow_followers", 2, Compression::kLz4);
  ExpectCompression(conn, "feed_posts", 2, Compression::kLz4);
  ExpectCompression(conn, "feed_inbox", 1, Compression::kLz4);
  ExpectCompression(conn, "activity_events", 2, Compression::kLz4);
  for (const char* table :
       {"clicks_by_item", "clicks_by_minute", "clicks_totals", "clicks_visitors"}) {
    ExpectCompression(conn, table, 1, Compression::kLz4);
  }
  ExpectCompression(conn, "clicks_heavy", 2, Compression::kLz4);
}

TEST_P(TableCompressionTest, OptionsChooseAnotherCompression) {
  Connection& conn = this->conn();
  UserStoreOptions users = Users();
  users.compression = Compression::kZstd;
  ASSERT_OK(UserStore::Open(conn, users));
  FollowGraphOptions graph_options;
  graph_options.compression = Compression::kNone;
  auto graph = FollowGraph::Open(conn, graph_options);
  ASSERT_OK(graph);
  FeedOptions feed_options;
  feed_options.posts_compression = Compression::kZstd;
  feed_options.inbox_compression = Compression::kNone;
  ASSERT_OK(Feed::Open(conn, **graph, feed_options));
  ActivityLogOptions log_options;
  log_options.compression = Compression::kNone;
  ASSERT_OK(ActivityLog::Open(conn, log_options));
  ClickCountersOptions click_options;
  click_options.compression = Compression::kZstd;
  ASSERT_OK(ClickCounters::Open(conn, click_options));
  ExpectCompression(conn, "social_users", 2, Compression::kZstd);
  ExpectCompression(conn, "social_sessions", 1, Compression::kZstd);
  ExpectCompression(conn, "follow_follows", 2, Compression::kNone);
  ExpectCompression(conn, "follow_followers", 2, Compression::kNone);
  ExpectCompression(conn, "feed_posts", 2, Compression::kZstd);
  ExpectCompression(conn, "feed_inbox", 1, Compression::kNone);
  ExpectCompression(conn, "activity_events", 2, Compression::kNone);
  ExpectCompression(conn, "clicks_totals", 1, Compression::kZstd);
  ExpectCompression(conn, "clicks_heavy", 2, Compression::kZstd);
}

TEST_P(TableCompressionTest, WideFollowGraphTableToo) {
  FollowGraphOptions options;
  options.layout = FollowGraphOptions::Layout::kWide;
  ASSERT_OK(FollowGraph::Open(conn(), options));
  ExpectCompression(conn(), "follow_users", 3, Compression::kLz4);
}

TEST_P(TableCompressionTest, ExistingTablesKeepTheirCompression) {
  Connection& conn = this->conn();
  ActivityLogOptions none;
  none.compression = Compression::kNone;
  auto log = ActivityLog::Open(conn, none);
  ASSERT_OK(log);
  ASSERT_OK((*log)->Record("alice", "login", "", 1000));
  log->reset();
  auto again = ActivityLog::Open(conn);  // the default would be LZ4
  ASSERT_OK(again);
  ExpectCompression(conn, "activity_events", 2, Compression::kNone);
  auto events = (*again)->Latest("alice", 10);
  ASSERT_OK(events);
  EXPECT_EQ(events->size(), 1u);

  UserStoreOptions users = Users();
  users.compression = Compression::kNone;
  ASSERT_OK(UserStore::Open(conn, users));
  ASSERT_OK(UserStore::Open(conn, Users()));
  ExpectCompression(conn, "social_users", 2, Compression::kNone);
}

BASALT_INSTANTIATE_STORE_TEST(TableCompressionTest);

}  // namespace
}  // namespace basalt::testing
