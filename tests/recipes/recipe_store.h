// Test support for the recipes: their tables are pre-split into several regions on every store
// kind, so that on an HBase (the thrift_target kind, scripts/hbase.sh) their scans, pages,
// multi-gets and salted merges cross region boundaries, as on a cluster.
//
// Two ways, as a deployment has them:
//   - the recipes' own presplit_regions option (docs/recipes.md), kPresplitRegions, where the
//     recipe takes it (the sessions table, the tall follow graph, salted counter tables);
//   - every other table the recipe creates (it would create them as one region) is created
//     pre-split at kSplitKeys by RecipeConnection's Admin, as an operator who pre-creates a
//     recipe's tables with split keys of their own: a recipe takes an existing table as it is,
//     whatever its regions.
// On the embedded kinds a region is only a record, so every kind runs the same test code.

#ifndef BASALT_TESTS_RECIPES_RECIPE_STORE_H_
#define BASALT_TESTS_RECIPES_RECIPE_STORE_H_

#include <memory>
#include <string>
#include <vector>

#include "basalt/basalt.h"
#include "support/test_store.h"

namespace basalt::testing {

// presplit_regions for the recipes that take it.
inline constexpr int kPresplitRegions = 4;

// The split keys of a table the recipe creates without any, chosen to fall inside the keys the
// recipe tests write (a table of 5 regions: each region costs HBase time to open and close, and
// every test creates and drops its tables), sorted:
//   "\x01" "b"                the feed's post rows (kind byte 1, then the author): alice's posts
//                             apart from bob's and later authors', so a home page's posts come
//                             from two regions;
//   "\x05"                    the feed's job queue (kind byte 5) apart from the posts;
//   Bytes("a") + ReverseTimestamp(1020)
//                             inside user "a" of the tall activity log (its model test records
//                             mostly at 1000-1040 ms), so that one user's pages and ranges cross
//                             a region boundary;
//   "b"                       rows keyed by a name or an item (accounts, inboxes, wide logs and
//                             graphs, counters by item): "a..." apart from "b...".
std::vector<std::string> SplitKeysForRecipeTables();

// A Connection over the TestStore's current connection (so it follows TestStore::Reopen) whose
// Admin creates tables given no split keys pre-split at SplitKeysForRecipeTables(). Everything
// else goes to the store's connection unchanged, MutateRows included.
class RecipeConnection : public Connection {
 public:
  explicit RecipeConnection(TestStore& store);
  ~RecipeConnection() override;

  using Connection::GetTable;
  Admin& admin() override;
  Result<std::unique_ptr<Table>> GetTable(const TableName& name) override;
  Result<bool> MutateRows(const MultiRowMutation& m) override;
  std::string target() const override;
  // The store closes its own connection.
  Status Close() override { return Status::OK(); }

 private:
  class PresplitAdmin;
  TestStore& store_;
  std::unique_ptr<PresplitAdmin> admin_;
};

// Fixture: StoreTest with conn(), the RecipeConnection the recipes are opened on.
class RecipeTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    conn_ = std::make_unique<RecipeConnection>(store());
  }
  void TearDown() override {
    conn_.reset();
    StoreTest::TearDown();
  }
  Connection& conn() { return *conn_; }

 private:
  std::unique_ptr<RecipeConnection> conn_;
};

}  // namespace basalt::testing

#endif  // BASALT_TESTS_RECIPES_RECIPE_STORE_H_
