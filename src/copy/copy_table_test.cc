#include "copy/copy_table.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "copy/copy_test_stores.h"

namespace basalt::copy {
namespace {

using test::AllCells;
using test::MakeStore;

TEST(CopyTableTest, CopiesRangeVersionsAndRenamesFamilies) {
  auto src = MakeStore({"a", "b"});
  auto dst = MakeStore({"a", "c"});
  auto t = src->GetTable("t");
  for (int i = 0; i < 10; ++i) {
    std::string row = "r" + std::to_string(i);
    ASSERT_TRUE((*t)->Put(Put(row).Add("a", "q", 100, "old").Add("a", "q", 200, "new")).ok());
    ASSERT_TRUE((*t)->Put(Put(row).Add("b", "x", 150, row)).ok());
  }
  CopyTableOptions o;
  o.table = "t";
  o.start_row = "r2";
  o.stop_row = "r5";
  o.families = *ParseFamilies("a,b:c");
  o.versions = 2;
  o.end_time = 201;
  auto stats = CopyTable(*src, *dst, o);
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_EQ(stats->rows, 3);
  EXPECT_EQ(stats->cells, 9);
  auto cells = AllCells(*dst);
  ASSERT_EQ(cells.size(), 9u);
  EXPECT_EQ(cells.front().row, "r2");
  EXPECT_EQ(cells.back().row, "r4");
  EXPECT_EQ(cells.back().family, "c");
  EXPECT_EQ(cells.back().value, "r4");

  // A time range drops the newer version.
  auto dst2 = MakeStore({"a", "b"});
  CopyTableOptions o2;
  o2.table = "t";
  o2.start_time = 100;
  o2.end_time = 200;
  o2.versions = 3;
  ASSERT_TRUE(CopyTable(*src, *dst2, o2).ok());
  for (const Cell& c : AllCells(*dst2)) EXPECT_LT(c.timestamp, 200);
  EXPECT_EQ(AllCells(*dst2).size(), 20u);
}

TEST(CopyTableTest, ResumesAfterTheRecordedRow) {
  auto src = MakeStore({"a"});
  auto dst = MakeStore({"a"});
  auto t = src->GetTable("t");
  for (int i = 0; i < 10; ++i)
    ASSERT_TRUE((*t)->Put(Put("r" + std::to_string(i)).Add("a", "q", 5, "v")).ok());
  std::string state = testing::TempDir() + "/copy_state";
  std::remove(state.c_str());
  CopyTableOptions o;
  o.table = "t";
  o.state_file = state;
  o.batch_rows = 4;
  o.stop_row = "r6";  // a first run that stops part way
  ASSERT_TRUE(CopyTable(*src, *dst, o).ok());
  EXPECT_EQ(AllCells(*dst).size(), 6u);
  o.stop_row.clear();
  auto again = CopyTable(*src, *dst, o);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->resumed);
  EXPECT_EQ(again->rows, 4);  // r6..r9 only
  EXPECT_EQ(AllCells(*dst).size(), 10u);

  std::ofstream(state) << "garbage\n";
  EXPECT_EQ(CopyTable(*src, *dst, o).status().code(), Status::Code::kInvalidArgument);
  std::remove(state.c_str());
}

TEST(CopyTableTest, RejectsBadInput) {
  EXPECT_FALSE(ParseFamilies("a,,b").ok());
  EXPECT_FALSE(ParseFamilies(":b").ok());
  auto src = MakeStore({"a"});
  auto dst = MakeStore({"a"});
  CopyTableOptions o;
  o.table = "missing";
  EXPECT_FALSE(CopyTable(*src, *dst, o).ok());
  o.table = "t";
  o.versions = 0;
  EXPECT_FALSE(CopyTable(*src, *dst, o).ok());
}

}  // namespace
}  // namespace basalt::copy
