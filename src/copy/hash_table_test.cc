#include "copy/hash_table.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "copy/copy_test_stores.h"

namespace basalt::copy {
namespace {

using test::MakeStore;

void FillOneVersionEach(Connection& c, int rows) {
  auto t = c.GetTable("t");
  for (int i = 0; i < rows; ++i) {
    char row[16];
    std::snprintf(row, sizeof row, "r%03d", i);
    ASSERT_TRUE(
        (*t)->Put(Put(row).Add("a", "q", 100, std::string(50, 'x')).Add("b", "z", 7, row)).ok());
  }
}

std::string TempDir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() /
             ("basalt_hash_" + name + "_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  return dir.string();
}

TEST(HashTableTest, RangesAreContiguousAndCoverTheKeyRange) {
  auto store = MakeStore();
  FillOneVersionEach(*store, 100);
  HashTableOptions o;
  o.table = "t";
  o.start_row = "r010";
  o.stop_row = "r090";
  o.batch_size = 1000;
  auto hash = HashTable(*store, o);
  ASSERT_TRUE(hash.ok()) << hash.status().ToString();
  EXPECT_EQ(hash->rows, 80);
  EXPECT_EQ(hash->cells, 160);
  ASSERT_GT(hash->ranges.size(), 5u);
  EXPECT_EQ(hash->ranges.front().start_row, "r010");
  EXPECT_EQ(hash->ranges.back().stop_row, "r090");
  for (size_t i = 0; i + 1 < hash->ranges.size(); ++i) {
    EXPECT_EQ(hash->ranges[i].stop_row, hash->ranges[i + 1].start_row);
  }
}

TEST(HashTableTest, EqualStoresHashEqualAndAChangedCellChangesOneRange) {
  auto a = MakeStore();
  auto b = MakeStore();
  FillOneVersionEach(*a, 50);
  FillOneVersionEach(*b, 50);
  HashTableOptions o;
  o.table = "t";
  o.batch_size = 500;
  auto ha = HashTable(*a, o);
  auto hb = HashTable(*b, o);
  ASSERT_TRUE(ha.ok() && hb.ok());
  EXPECT_EQ(ha->ranges, hb->ranges);
  auto digests = DigestRanges(*b, "t", o, ha->ranges);
  ASSERT_TRUE(digests.ok());
  for (size_t i = 0; i < digests->size(); ++i) EXPECT_EQ((*digests)[i], ha->ranges[i].digest);

  ASSERT_TRUE((*b->GetTable("t"))->Put(Put("r020").Add("b", "z", 7, "other")).ok());
  digests = DigestRanges(*b, "t", o, ha->ranges);
  ASSERT_TRUE(digests.ok());
  int differing = 0;
  for (size_t i = 0; i < digests->size(); ++i) {
    if ((*digests)[i] != ha->ranges[i].digest) {
      ++differing;
      EXPECT_LE(ha->ranges[i].start_row, "r020");
      EXPECT_TRUE(ha->ranges[i].stop_row > "r020" || ha->ranges[i].stop_row.empty());
    }
  }
  EXPECT_EQ(differing, 1);
}

TEST(HashTableTest, TimestampAndFamilyChangeTheDigest) {
  auto a = MakeStore();
  auto t = a->GetTable("t");
  HashTableOptions o;
  o.table = "t";
  ASSERT_TRUE((*t)->Put(Put("r").Add("a", "q", 1, "v")).ok());
  auto h1 = HashTable(*a, o);
  ASSERT_TRUE((*t)->Put(Put("r").Add("a", "q", 2, "v")).ok());
  auto h2 = HashTable(*a, o);
  ASSERT_TRUE(h1.ok() && h2.ok());
  EXPECT_NE(h1->ranges[0].digest, h2->ranges[0].digest);
  o.families = {"b"};
  auto h3 = HashTable(*a, o);
  ASSERT_TRUE(h3.ok());
  EXPECT_EQ(h3->cells, 0);
  EXPECT_NE(h3->ranges[0].digest, h2->ranges[0].digest);
}

TEST(HashTableTest, WritesAndReadsBackTheSameHash) {
  auto store = MakeStore();
  FillOneVersionEach(*store, 30);
  ASSERT_TRUE((*store->GetTable("t"))
                  ->Put(Put(std::string("\x00 \\\"\xff", 5)).Add("a", "q", 1, "v"))
                  .ok());
  HashTableOptions o;
  o.table = "t";
  o.stop_row = "r025";
  o.end_time = 1000;
  o.versions = 2;
  o.families = {"a", "b"};
  o.batch_size = 300;
  auto hash = HashTable(*store, o);
  ASSERT_TRUE(hash.ok());
  const std::string dir = TempDir("roundtrip");
  ASSERT_TRUE(WriteTableHash(*hash, dir).ok());
  auto back = ReadTableHash(dir);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->options, o);
  EXPECT_EQ(back->ranges, hash->ranges);
  EXPECT_EQ(back->ranges.front().start_row, "");
  // No second write over it, and nothing left beside it.
  EXPECT_TRUE(WriteTableHash(*hash, dir).IsAlreadyExists());
  int entries = 0;
  for (const auto& e :
       std::filesystem::directory_iterator(std::filesystem::path(dir).parent_path())) {
    if (e.path().filename().string().rfind(std::filesystem::path(dir).filename().string(), 0) == 0)
      ++entries;
  }
  EXPECT_EQ(entries, 1);
  std::filesystem::remove_all(dir);
}

TEST(HashTableTest, CorruptOutputIsRefused) {
  auto store = MakeStore();
  FillOneVersionEach(*store, 10);
  HashTableOptions o;
  o.table = "t";
  o.batch_size = 100;
  auto hash = HashTable(*store, o);
  ASSERT_TRUE(hash.ok());
  const std::string dir = TempDir("corrupt");
  ASSERT_TRUE(WriteTableHash(*hash, dir).ok());
  {
    std::ofstream out(std::filesystem::path(dir) / "hashes", std::ios::app);
    out << "r\\xZZ r2 0123\n";
  }
  EXPECT_TRUE(ReadTableHash(dir).status().IsInvalidArgument());
  EXPECT_TRUE(ReadTableHash(dir + "-missing").status().IsNotFound());
  std::filesystem::remove_all(dir);
}

TEST(HashTableTest, EscapedRowsRoundTrip) {
  for (const std::string& row : {std::string(), std::string("plain"), std::string("a b\\c\"d"),
                                 std::string("\x00\x01\x7f\x80\xff", 5)}) {
    auto back = UnescapeRow(EscapeRow(row));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, row);
    EXPECT_EQ(EscapeRow(row).find(' '), std::string::npos);
  }
  EXPECT_FALSE(UnescapeRow("\\x4").ok());
  EXPECT_FALSE(UnescapeRow("").ok());
}

TEST(HashTableTest, BadOptionsAreRefused) {
  auto store = MakeStore();
  HashTableOptions o;
  o.table = "t";
  o.versions = 0;
  EXPECT_TRUE(HashTable(*store, o).status().IsInvalidArgument());
  o.versions = 1;
  o.start_row = "b";
  o.stop_row = "a";
  EXPECT_TRUE(HashTable(*store, o).status().IsInvalidArgument());
  o.stop_row.clear();
  o.table = "missing";
  EXPECT_TRUE(HashTable(*store, o).status().IsNotFound());
}

}  // namespace
}  // namespace basalt::copy
