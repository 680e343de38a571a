#include "copy/sync_table.h"

#include <gtest/gtest.h>

#include "copy/copy_test_stores.h"

namespace basalt::copy {
namespace {

using test::AllCells;
using test::MakeStore;

std::string Row(int i) {
  char row[16];
  std::snprintf(row, sizeof row, "r%03d", i);
  return row;
}

void FillTwoVersionsOfA(Connection& c, int rows) {
  auto t = c.GetTable("t");
  for (int i = 0; i < rows; ++i) {
    ASSERT_TRUE((*t)->Put(Put(Row(i))
                              .Add("a", "q", 100, std::string(40, 'x'))
                              .Add("a", "q", 50, "older")
                              .Add("b", "z", 7, Row(i)))
                    .ok());
  }
}

class SyncTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    source_ = MakeStore();
    target_ = MakeStore();
    FillTwoVersionsOfA(*source_, 60);
    FillTwoVersionsOfA(*target_, 60);
    options_.table = "t";
    options_.versions = 3;
    options_.batch_size = 400;
  }

  SyncTableStats Sync(bool dry_run = false) {
    auto hash = HashTable(*source_, options_);
    EXPECT_TRUE(hash.ok()) << hash.status().ToString();
    SyncTableOptions o;
    o.dry_run = dry_run;
    auto stats = SyncTable(*source_, *target_, *hash, o);
    EXPECT_TRUE(stats.ok()) << stats.status().ToString();
    return stats.ok() ? *stats : SyncTableStats{};
  }

  // Syncs, then checks that the target equals the source and a second sync finds nothing.
  SyncTableStats SyncAndExpectEqual() {
    SyncTableStats stats = Sync();
    EXPECT_EQ(AllCells(*source_), AllCells(*target_));
    SyncTableStats again = Sync();
    EXPECT_EQ(again.ranges_differing, 0);
    EXPECT_EQ(again.ranges_matched, again.ranges_checked);
    return stats;
  }

  Table& target_table() {
    table_ = std::move(*target_->GetTable("t"));
    return *table_;
  }

  std::unique_ptr<Connection> source_, target_;
  std::unique_ptr<Table> table_;
  HashTableOptions options_;
};

TEST_F(SyncTableTest, EqualStoresNeedNothing) {
  SyncTableStats stats = Sync();
  EXPECT_GT(stats.ranges_checked, 5);
  EXPECT_EQ(stats.ranges_matched, stats.ranges_checked);
  EXPECT_EQ(stats.ranges_differing, 0);
  EXPECT_EQ(stats.cells_put + stats.cells_deleted, 0);
}

TEST_F(SyncTableTest, AChangedValueIsPutBack) {
  ASSERT_TRUE(target_table().Put(Put(Row(10)).Add("b", "z", 7, "changed")).ok());
  SyncTableStats stats = SyncAndExpectEqual();
  EXPECT_EQ(stats.ranges_differing, 1);
  EXPECT_EQ(stats.rows_differing, 1);
  EXPECT_EQ(stats.cells_put, 1);
  EXPECT_EQ(stats.cells_deleted, 0);
}

TEST_F(SyncTableTest, AnExtraRowIsDeleted) {
  ASSERT_TRUE(
      target_table().Put(Put("r010x").Add("a", "q", 5, "extra").Add("b", "y", 5, "e")).ok());
  SyncTableStats stats = SyncAndExpectEqual();
  EXPECT_EQ(stats.ranges_differing, 1);
  EXPECT_EQ(stats.source_missing_rows, 1);
  EXPECT_EQ(stats.cells_deleted, 2);
  EXPECT_EQ(stats.rows_deleted, 1);
  EXPECT_EQ(stats.cells_put, 0);
}

TEST_F(SyncTableTest, AnExtraRowPastTheLastSourceRowIsDeleted) {
  ASSERT_TRUE(target_table().Put(Put("zzz").Add("a", "q", 5, "extra")).ok());
  SyncTableStats stats = SyncAndExpectEqual();
  EXPECT_EQ(stats.source_missing_rows, 1);
  EXPECT_EQ(stats.cells_deleted, 1);
}

TEST_F(SyncTableTest, AMissingRowIsPut) {
  ASSERT_TRUE(target_table().Delete(Delete(Row(33))).ok());
  SyncTableStats stats = SyncAndExpectEqual();
  EXPECT_EQ(stats.ranges_differing, 1);
  EXPECT_EQ(stats.target_missing_rows, 1);
  EXPECT_EQ(stats.cells_put, 3);
  EXPECT_EQ(stats.rows_put, 1);
}

TEST_F(SyncTableTest, AnExtraVersionIsDeleted) {
  ASSERT_TRUE(target_table().Put(Put(Row(5)).Add("a", "q", 75, "between")).ok());
  SyncTableStats stats = SyncAndExpectEqual();
  EXPECT_EQ(stats.ranges_differing, 1);
  EXPECT_EQ(stats.cells_deleted, 1);
  EXPECT_EQ(stats.cells_put, 0);
}

TEST_F(SyncTableTest, ADeletedColumnIsPutBack) {
  ASSERT_TRUE(target_table().Delete(Delete(Row(50)).AddColumns("a", "q")).ok());
  SyncTableStats stats = SyncAndExpectEqual();
  EXPECT_EQ(stats.ranges_differing, 1);
  EXPECT_EQ(stats.cells_put, 2);
  EXPECT_EQ(stats.target_missing_rows, 0);
}

TEST_F(SyncTableTest, DryRunCountsButChangesNothing) {
  ASSERT_TRUE(target_table().Put(Put(Row(10)).Add("b", "z", 7, "changed")).ok());
  ASSERT_TRUE(target_table().Delete(Delete(Row(40))).ok());
  ASSERT_TRUE(target_table().Put(Put("zzz").Add("a", "q", 5, "extra")).ok());
  const std::vector<Cell> before = AllCells(*target_);
  SyncTableStats stats = Sync(/*dry_run=*/true);
  EXPECT_EQ(stats.ranges_differing, 3);
  EXPECT_EQ(stats.differing.size(), 3u);
  EXPECT_EQ(stats.cells_put, 4);
  EXPECT_EQ(stats.cells_deleted, 1);
  EXPECT_EQ(AllCells(*target_), before);
  EXPECT_EQ(Sync(/*dry_run=*/true).ranges_differing, 3);
}

TEST_F(SyncTableTest, DoDeletesFalseKeepsTheTargetsExtraCells) {
  ASSERT_TRUE(target_table().Put(Put("zzz").Add("a", "q", 5, "extra")).ok());
  ASSERT_TRUE(target_table().Put(Put(Row(10)).Add("b", "z", 7, "changed")).ok());
  auto hash = HashTable(*source_, options_);
  ASSERT_TRUE(hash.ok());
  SyncTableOptions o;
  o.do_deletes = false;
  auto stats = SyncTable(*source_, *target_, *hash, o);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->cells_deleted, 0);
  EXPECT_EQ(stats->cells_put, 1);
  EXPECT_EQ(AllCells(*target_).back().row, "zzz");
  o.do_deletes = true;
  o.do_puts = false;
  ASSERT_TRUE(target_table().Put(Put(Row(11)).Add("b", "z", 7, "changed")).ok());
  stats = SyncTable(*source_, *target_, *hash, o);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->cells_put, 0);
  EXPECT_EQ(stats->cells_deleted, 1);
  EXPECT_EQ(stats->rows_differing, 2);
}

TEST_F(SyncTableTest, AMissingTargetTableIsNotFound) {
  auto hash = HashTable(*source_, options_);
  ASSERT_TRUE(hash.ok());
  SyncTableOptions o;
  o.target_table = "missing";
  EXPECT_TRUE(SyncTable(*source_, *target_, *hash, o).status().IsNotFound());
}

}  // namespace
}  // namespace basalt::copy
