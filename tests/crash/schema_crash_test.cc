// A table creation cut by a power failure (fault_injection_fs.h): after the reopen the table is
// either whole or gone, never half made, and the open drops the column families the cut left
// without a table in one RocksDB call (one OPTIONS file write, not one per family, which made
// the open quadratic in their number).

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "basalt/basalt.h"
#include "client/embedded.h"
#include "fault_injection_fs.h"
#include "support/test_store.h"

namespace basalt::crash {
namespace {

using testing::TempDir;

// Counts the OPTIONS files RocksDB writes (OPTIONS-<n>.dbtmp, renamed when complete).
class OptionsFileCounter : public rocksdb::FileSystemWrapper {
 public:
  OptionsFileCounter() : FileSystemWrapper(rocksdb::FileSystem::Default()) {}
  const char* Name() const override { return "OptionsFileCounter"; }
  rocksdb::IOStatus NewWritableFile(const std::string& fname, const rocksdb::FileOptions& options,
                                    std::unique_ptr<rocksdb::FSWritableFile>* result,
                                    rocksdb::IODebugContext* dbg) override {
    if (std::filesystem::path(fname).filename().string().starts_with("OPTIONS-")) ++written;
    return target()->NewWritableFile(fname, options, result, dbg);
  }
  std::atomic<int> written{0};
};

TableDescriptor WithFamilies(const std::string& table, size_t families) {
  TableDescriptor desc(TableName("default", table));
  for (size_t i = 0; i < families; ++i) desc.AddFamily(FamilyDescriptor("f" + std::to_string(i)));
  return desc;
}

size_t ColumnFamilyCount(const std::string& dir) {
  std::vector<std::string> names;
  EXPECT_TRUE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), dir, &names).ok());
  return names.size();
}

class SchemaCrashTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto conn = Connection::Open(dir_.path());
    ASSERT_OK(conn);
    ASSERT_OK((*conn)->admin().CreateTable(WithFamilies("kept", 1), {}));
    auto t = (*conn)->GetTable("kept");
    ASSERT_OK(t);
    ASSERT_OK((*t)->Put(Put("r").Add("f0", "q", 1, "v")));
    ASSERT_OK((*conn)->Close());
  }

  // Creates a table of the most families on a file system whose power is cut at `cut_at`
  // (kInCreate: once its column families exist, before the catalog record naming them is
  // written; kAfterCreate: once CreateTable returned), then makes the disk what the cut left.
  enum class CutAt { kInCreate, kAfterCreate };
  void CreateAndCut(CutAt cut_at) {
    auto fs = std::make_shared<FaultInjectionFileSystem>(rocksdb::FileSystem::Default());
    std::unique_ptr<rocksdb::Env> env = rocksdb::NewCompositeEnv(fs);
    engine::EngineOptions engine_options;
    engine_options.env = env.get();
    bool cut_in_create = false;
    if (cut_at == CutAt::kInCreate) {
      engine_options.TEST_families_created = [&] {
        if (!fs->power_cut()) fs->CutPower();
        cut_in_create = true;
      };
    }
    auto conn = client::OpenEmbedded(dir_.path(), ConnectionOptions(), engine_options);
    ASSERT_OK(conn);
    // The store runs on unaware of the cut, as the machine would until it stopped.
    ASSERT_OK((*conn)->admin().CreateTable(WithFamilies("half", kMaxFamiliesPerTable), {}));
    EXPECT_EQ(cut_in_create, cut_at == CutAt::kInCreate);
    if (cut_at == CutAt::kAfterCreate) fs->CutPower();
    ASSERT_OK((*conn)->Close());
    conn->reset();
    FaultInjectionFileSystem::PowerLossReport report;
    ASSERT_TRUE(
        fs->DropUnsyncedData(FaultInjectionFileSystem::UnsyncedTail::kDropAll, 1, &report).ok());
  }

  // Reopens the store after the cut, counting the OPTIONS files the open writes.
  std::unique_ptr<Connection> Reopen(int* options_written) {
    auto counter = std::make_shared<OptionsFileCounter>();
    counting_env_ = rocksdb::NewCompositeEnv(counter);
    engine::EngineOptions engine_options;
    engine_options.env = counting_env_.get();
    auto conn = client::OpenEmbedded(dir_.path(), ConnectionOptions(), engine_options);
    EXPECT_OK(conn);
    *options_written = counter->written.load();
    return conn.ok() ? std::move(*conn) : nullptr;
  }

  void ExpectKeptTableIntact(Connection& conn) {
    auto t = conn.GetTable("kept");
    ASSERT_OK(t);
    auto row = (*t)->Get(Get("r"));
    ASSERT_OK(row);
    EXPECT_EQ(testing::Describe(*row), (std::vector<std::string>{"f0:q@1=v"}));
  }

  TempDir dir_;
  std::unique_ptr<rocksdb::Env> counting_env_;
};

TEST_F(SchemaCrashTest, TableCutBeforeItsCatalogRecordIsGoneAfterTheReopen) {
  CreateAndCut(CutAt::kInCreate);
  // The column families were made (their manifest records synced); no catalog record names them.
  EXPECT_EQ(ColumnFamilyCount(dir_.path()), 2u + kMaxFamiliesPerTable);

  int options_written = 0;
  auto conn = Reopen(&options_written);
  ASSERT_NE(conn, nullptr);
  // The open's own OPTIONS file and the one of dropping every orphan at once.
  EXPECT_LE(options_written, 2);
  auto exists = conn->admin().TableExists(TableName("default", "half"));
  ASSERT_OK(exists);
  EXPECT_FALSE(*exists);
  ExpectKeptTableIntact(*conn);
  // The name is free again, and the store takes a table of the most families.
  ASSERT_OK(conn->admin().CreateTable(WithFamilies("half", kMaxFamiliesPerTable), {}));
  ASSERT_OK(conn->admin().DisableTable(TableName("default", "half")));
  ASSERT_OK(conn->admin().DeleteTable(TableName("default", "half")));
  ASSERT_OK(conn->Close());
  EXPECT_EQ(ColumnFamilyCount(dir_.path()), 2u);  // the catalog's and kept's
}

TEST_F(SchemaCrashTest, TableCutAfterItsCreationReturnedIsWholeAfterTheReopen) {
  CreateAndCut(CutAt::kAfterCreate);
  int options_written = 0;
  auto conn = Reopen(&options_written);
  ASSERT_NE(conn, nullptr);
  auto info = conn->admin().DescribeTable(TableName("default", "half"));
  ASSERT_OK(info);
  EXPECT_EQ(info->descriptor.families.size(), kMaxFamiliesPerTable);
  auto t = conn->GetTable("half");
  ASSERT_OK(t);
  const std::string last = "f" + std::to_string(kMaxFamiliesPerTable - 1);
  ASSERT_OK((*t)->Put(Put("r").Add(last, "q", 1, "v")));
  ExpectKeptTableIntact(*conn);
  ASSERT_OK(conn->Close());
  EXPECT_EQ(ColumnFamilyCount(dir_.path()), 2u + kMaxFamiliesPerTable);
}

}  // namespace
}  // namespace basalt::crash
