// A schema change makes and drops its column families in one RocksDB call, and an open drops the
// column families no table owns (left by a schema change that crashed) in one call too. RocksDB
// rewrites its OPTIONS file, which lists every column family of the store, once per call: made
// one family at a time, a table of N families cost N rewrites of a file of up to N entries, and
// an open after a crash N rewrites more. The tests count the OPTIONS files written.

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/file_system.h>

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "basalt/basalt.h"
#include "engine/engine.h"

namespace basalt::engine {
namespace {

// Counts the OPTIONS files RocksDB writes (each is written as OPTIONS-<n>.dbtmp, then renamed).
class OptionsFileCounter : public rocksdb::FileSystemWrapper {
 public:
  OptionsFileCounter() : FileSystemWrapper(rocksdb::FileSystem::Default()) {}
  const char* Name() const override { return "OptionsFileCounter"; }

  rocksdb::IOStatus NewWritableFile(const std::string& fname, const rocksdb::FileOptions& options,
                                    std::unique_ptr<rocksdb::FSWritableFile>* result,
                                    rocksdb::IODebugContext* dbg) override {
    if (std::filesystem::path(fname).filename().string().starts_with("OPTIONS-")) ++written_;
    return target()->NewWritableFile(fname, options, result, dbg);
  }

  int Take() { return written_.exchange(0); }

 private:
  std::atomic<int> written_{0};
};

TableDescriptor WithFamilies(const std::string& table, size_t families) {
  TableDescriptor desc(TableName("default", table));
  for (size_t i = 0; i < families; ++i) desc.AddFamily(FamilyDescriptor("f" + std::to_string(i)));
  return desc;
}

std::vector<std::string> ColumnFamilies(const std::string& dir) {
  std::vector<std::string> names;
  EXPECT_TRUE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), dir, &names).ok());
  return names;
}

#define ASSERT_ENGINE_OK(expr)                              \
  do {                                                      \
    const Status s_ = (expr);                               \
    ASSERT_TRUE(s_.ok()) << #expr << ": " << s_.ToString(); \
  } while (0)

class ColumnFamilyBatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (std::filesystem::temp_directory_path() /
            ("basalt-cf-batch-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name()))
               .string();
    std::filesystem::remove_all(dir_);
    counter_ = std::make_shared<OptionsFileCounter>();
    env_ = rocksdb::NewCompositeEnv(counter_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::shared_ptr<Engine> Open() {
    EngineOptions engine_options;
    engine_options.env = env_.get();
    auto engine = Engine::Open(dir_, ConnectionOptions(), engine_options);
    EXPECT_TRUE(engine.ok()) << engine.status().ToString();
    return engine.ok() ? *engine : nullptr;
  }

  std::string dir_;
  std::shared_ptr<OptionsFileCounter> counter_;
  std::unique_ptr<rocksdb::Env> env_;
};

TEST_F(ColumnFamilyBatchTest, TableOfTheMostFamiliesIsMadeAndDroppedWithOneOptionsWriteEach) {
  auto engine = Open();
  ASSERT_NE(engine, nullptr);
  const TableName name("default", "t");
  counter_->Take();
  ASSERT_ENGINE_OK(engine->CreateTable(WithFamilies("t", kMaxFamiliesPerTable), {}));
  EXPECT_EQ(counter_->Take(), 1);
  ASSERT_ENGINE_OK(engine->SetEnabled(name, false));
  counter_->Take();
  // Fresh families for all, then the old ones dropped.
  ASSERT_ENGINE_OK(engine->TruncateTable(name, true));
  EXPECT_EQ(counter_->Take(), 2);
  ASSERT_ENGINE_OK(engine->SetEnabled(name, false));
  ASSERT_ENGINE_OK(engine->DeleteTable(name));
  EXPECT_EQ(counter_->Take(), 1);
  ASSERT_ENGINE_OK(engine->Close());
  EXPECT_EQ(ColumnFamilies(dir_).size(), 1u);  // the default one, the catalog's
}

TEST_F(ColumnFamilyBatchTest, OpenDropsColumnFamiliesNoTableOwnsInOneCall) {
  {
    auto engine = Open();
    ASSERT_NE(engine, nullptr);
    ASSERT_ENGINE_OK(engine->CreateTable(WithFamilies("kept", 2), {}));
    auto t = engine->FindTable(TableName("default", "kept"));
    ASSERT_ENGINE_OK(t.status());
    const Put put = Put("r").Add("f1", "q", 1, "v");
    ASSERT_ENGINE_OK(engine->WritePuts(**t, std::span<const Put>(&put, 1)));
    ASSERT_ENGINE_OK(engine->Close());
  }
  // What a table creation that crashed before its catalog write leaves: column families that
  // no catalog record names.
  constexpr int kOrphans = 100;
  {
    std::vector<rocksdb::ColumnFamilyDescriptor> existing;
    for (const auto& n : ColumnFamilies(dir_)) {
      existing.emplace_back(n, rocksdb::ColumnFamilyOptions());
    }
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(rocksdb::DBOptions(), dir_, existing, &handles, &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    std::vector<rocksdb::ColumnFamilyDescriptor> orphans;
    for (int i = 0; i < kOrphans; ++i) {
      orphans.emplace_back("f" + std::to_string(1000 + i), rocksdb::ColumnFamilyOptions());
    }
    std::vector<rocksdb::ColumnFamilyHandle*> made;
    ASSERT_TRUE(db->CreateColumnFamilies(orphans, &made).ok());
    handles.insert(handles.end(), made.begin(), made.end());
    for (auto* h : handles) ASSERT_TRUE(db->DestroyColumnFamilyHandle(h).ok());
    ASSERT_TRUE(db->Close().ok());
  }
  ASSERT_EQ(ColumnFamilies(dir_).size(), 3u + kOrphans);

  counter_->Take();
  auto engine = Open();
  ASSERT_NE(engine, nullptr);
  // The open's own, and the one of the drop.
  EXPECT_LE(counter_->Take(), 2);
  auto t = engine->FindTable(TableName("default", "kept"));
  ASSERT_ENGINE_OK(t.status());
  auto row = engine->Get(**t, Get("r"));
  ASSERT_ENGINE_OK(row.status());
  ASSERT_EQ(row->size(), 1u);
  EXPECT_EQ(row->cells()[0].value, "v");
  ASSERT_ENGINE_OK(engine->Close());
  EXPECT_EQ(ColumnFamilies(dir_).size(), 3u);
}

}  // namespace
}  // namespace basalt::engine
