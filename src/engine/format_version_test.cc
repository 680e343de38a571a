// Opening stores written in an older on-disk format, and refusing unknown ones.

#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "basalt/basalt.h"
#include "engine/key_format.h"
#include "util/coding.h"

namespace basalt::engine {
namespace {

class FormatVersionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("basalt-format-version-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::unique_ptr<Connection> Open() {
    auto conn = Connection::Open(dir_.string());
    EXPECT_TRUE(conn.ok()) << conn.status().ToString();
    return conn.ok() ? std::move(*conn) : nullptr;
  }

  // Opens the store with plain RocksDB and hands every column family to `fn`.
  template <class Fn>
  void WithRawStore(Fn fn) {
    std::vector<std::string> names;
    ASSERT_TRUE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), dir_.string(), &names).ok());
    std::vector<rocksdb::ColumnFamilyDescriptor> descs;
    for (const auto& n : names) descs.emplace_back(n, rocksdb::ColumnFamilyOptions());
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(rocksdb::DBOptions(), dir_.string(), descs, &handles, &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    fn(db.get(), handles);
    for (auto* h : handles) ASSERT_TRUE(db->DestroyColumnFamilyHandle(h).ok());
  }

  std::string StoredFormatVersion() {
    std::string version;
    WithRawStore([&](rocksdb::DB* db, const std::vector<rocksdb::ColumnFamilyHandle*>& cfs) {
      ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), cfs[0], MetaFormatVersionKey(), &version).ok());
    });
    return version;
  }

  // Rewrites every cell value in format 1's layout (a zero flags byte and a BE64 sequence
  // number) and records format version 1: the store an older basalt would have left.
  void DowngradeToFormat1() {
    WithRawStore([](rocksdb::DB* db, const std::vector<rocksdb::ColumnFamilyHandle*>& cfs) {
      for (auto* cf : cfs) {
        if (cf->GetName() == rocksdb::kDefaultColumnFamilyName) continue;
        std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions(), cf));
        for (it->SeekToFirst(); it->Valid(); it->Next()) {
          ParsedValue v;
          ASSERT_TRUE(ParseValue({it->value().data(), it->value().size()}, &v));
          std::string old(1, '\0');
          util::PutFixed64BE(&old, v.seq);
          old.append(v.payload);
          ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), cf, it->key(), old).ok());
        }
      }
      ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), cfs[0], MetaFormatVersionKey(), "1").ok());
    });
  }

  std::filesystem::path dir_;
};

std::vector<std::string> Values(const RowResult& r) {
  std::vector<std::string> out;
  for (const auto& c : r.cells()) out.push_back(c.value);
  return out;
}

TEST_F(FormatVersionTest, NewStoreRecordsTheCurrentVersion) {
  Open().reset();
  EXPECT_EQ(StoredFormatVersion(), std::to_string(kFormatVersion));
}

TEST_F(FormatVersionTest, Format1StoreOpensReadsTheSameAndIsRecordedAsCurrent) {
  {
    auto conn = Open();
    TableDescriptor desc(TableName("default", "t"));
    FamilyDescriptor family("f");
    family.max_versions = 3;
    desc.AddFamily(family);
    ASSERT_TRUE(conn->admin().CreateTable(desc).ok());
    auto t = conn->GetTable("t");
    ASSERT_TRUE(t.ok());
    ASSERT_TRUE((*t)->Put(Put("r1").Add("f", "a", 10, "v1").Add("f", "a", 20, "v2")).ok());
    ASSERT_TRUE((*t)->Put(Put("r2").Add("f", "b", 30, "old")).ok());
    ASSERT_TRUE((*t)->Delete(Delete("r2").AddColumns("f", "b", 40)).ok());
    // Written after the delete, so visible although older than it: this needs the sequence
    // numbers to survive the downgrade.
    ASSERT_TRUE((*t)->Put(Put("r2").Add("f", "b", 35, "new")).ok());
  }
  DowngradeToFormat1();
  ASSERT_EQ(StoredFormatVersion(), "1");

  {
    auto conn = Open();
    ASSERT_NE(conn, nullptr);
    auto t = conn->GetTable("t");
    ASSERT_TRUE(t.ok());
    Get all_versions("r1");
    all_versions.ReadVersions(3);
    EXPECT_EQ(Values(*(*t)->Get(all_versions)), (std::vector<std::string>{"v2", "v1"}));
    EXPECT_EQ(Values(*(*t)->Get(Get("r2"))), (std::vector<std::string>{"new"}));
    // New cells (format 2) and old ones (format 1) side by side, and a delete that must mask an
    // old cell by comparing sequence numbers across the two layouts.
    ASSERT_TRUE((*t)->Put(Put("r1").Add("f", "a", 5, "v0")).ok());
    ASSERT_TRUE((*t)->Delete(Delete("r1").AddColumn("f", "a", 20)).ok());
    EXPECT_EQ(Values(*(*t)->Get(all_versions)), (std::vector<std::string>{"v1", "v0"}));
    ASSERT_TRUE(conn->admin().MajorCompact(TableName("default", "t")).ok());
    EXPECT_EQ(Values(*(*t)->Get(all_versions)), (std::vector<std::string>{"v1", "v0"}));
  }
  EXPECT_EQ(StoredFormatVersion(), std::to_string(kFormatVersion));
}

TEST_F(FormatVersionTest, UnknownVersionIsRefusedAndLeftAsItWas) {
  Open().reset();
  WithRawStore([](rocksdb::DB* db, const std::vector<rocksdb::ColumnFamilyHandle*>& cfs) {
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), cfs[0], MetaFormatVersionKey(), "99").ok());
  });
  auto conn = Connection::Open(dir_.string());
  ASSERT_FALSE(conn.ok());
  EXPECT_TRUE(conn.status().IsNotSupported()) << conn.status().ToString();
  EXPECT_NE(conn.status().ToString().find("format version 99"), std::string::npos);
  EXPECT_EQ(StoredFormatVersion(), "99");
}

}  // namespace
}  // namespace basalt::engine
