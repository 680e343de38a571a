#include "engine/iterator_pool.h"

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>

#include <memory>
#include <string>

namespace basalt::engine {
namespace {

class IteratorPoolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    env_.reset(rocksdb::NewMemEnv(rocksdb::Env::Default()));
    rocksdb::Options o;
    o.create_if_missing = true;
    o.env = env_.get();
    rocksdb::DB* db = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(o, "/pool", &db).ok());
    db_.reset(db);
    pool_ = std::make_unique<IteratorPool>(db_.get(), epoch_);
  }
  void TearDown() override {
    pool_->Clear();
    db_.reset();
  }

  std::string ReadAt(PooledIterator& it, const std::string& key) {
    it->Seek(key);
    if (!it->Valid() || it->key() != key) return "<none>";
    return it->value().ToString();
  }

  std::unique_ptr<rocksdb::Env> env_;
  std::unique_ptr<rocksdb::DB> db_;
  std::shared_ptr<std::atomic<uint64_t>> epoch_ = std::make_shared<std::atomic<uint64_t>>(0);
  std::unique_ptr<IteratorPool> pool_;
};

TEST_F(IteratorPoolTest, ReleasedIteratorIsReused) {
  rocksdb::Iterator* first = nullptr;
  {
    auto it = pool_->Acquire(db_->DefaultColumnFamily(), IteratorKind::kScan);
    ASSERT_TRUE(it.ok());
    first = it->get();
  }
  auto again = pool_->Acquire(db_->DefaultColumnFamily(), IteratorKind::kScan);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->get(), first);
}

TEST_F(IteratorPoolTest, ReusedIteratorSeesWritesMadeWhileItWasIdle) {
  ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), "k", "v1").ok());
  {
    auto it = pool_->Acquire(db_->DefaultColumnFamily(), IteratorKind::kScan);
    ASSERT_TRUE(it.ok());
    EXPECT_EQ(ReadAt(*it, "k"), "v1");
  }
  ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), "k", "v2").ok());
  ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), "other", "x").ok());
  auto it = pool_->Acquire(db_->DefaultColumnFamily(), IteratorKind::kScan);
  ASSERT_TRUE(it.ok());
  EXPECT_EQ(ReadAt(*it, "k"), "v2");
  EXPECT_EQ(ReadAt(*it, "other"), "x");
}

// With no write since it was last refreshed, an idle iterator is handed out as it is. The data
// it reads is still all there and all current, even when a flush has since moved it to a file
// (here the storage epoch is left alone, so the pool keeps the iterator).
TEST_F(IteratorPoolTest, IteratorReusedWithoutAWriteInBetweenReadsEveryAcknowledgedWrite) {
  ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), "k", "v1").ok());
  ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), "l", "w1").ok());
  rocksdb::Iterator* first = nullptr;
  {
    auto it = pool_->Acquire(db_->DefaultColumnFamily(), IteratorKind::kScan);
    ASSERT_TRUE(it.ok());
    first = it->get();
    EXPECT_EQ(ReadAt(*it, "k"), "v1");
  }
  ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
  for (int i = 0; i < 2; ++i) {
    auto it = pool_->Acquire(db_->DefaultColumnFamily(), IteratorKind::kScan);
    ASSERT_TRUE(it.ok());
    EXPECT_EQ(it->get(), first);
    EXPECT_EQ(ReadAt(*it, "l"), "w1");
    EXPECT_EQ(ReadAt(*it, "k"), "v1");
  }
  ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), "k", "v2").ok());
  auto it = pool_->Acquire(db_->DefaultColumnFamily(), IteratorKind::kScan);
  ASSERT_TRUE(it.ok());
  EXPECT_EQ(ReadAt(*it, "k"), "v2");
}

TEST_F(IteratorPoolTest, ReusedIteratorSeesDataMovedByAFlush) {
  ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), "k", "v1").ok());
  { ASSERT_TRUE(pool_->Acquire(db_->DefaultColumnFamily(), IteratorKind::kRow).ok()); }
  ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
  ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), "k", "v2").ok());
  auto it = pool_->Acquire(db_->DefaultColumnFamily(), IteratorKind::kRow);
  ASSERT_TRUE(it.ok());
  EXPECT_EQ(ReadAt(*it, "k"), "v2");
}

TEST_F(IteratorPoolTest, StorageChangeDiscardsIdleIterators) {
  { ASSERT_TRUE(pool_->Acquire(db_->DefaultColumnFamily(), IteratorKind::kScan).ok()); }
  EXPECT_EQ(pool_->IdleCount(), 1u);
  epoch_->fetch_add(1);
  { ASSERT_TRUE(pool_->Acquire(db_->DefaultColumnFamily(), IteratorKind::kRow).ok()); }
  // The scan iterator was discarded; the row iterator, acquired after the change, is kept.
  EXPECT_EQ(pool_->IdleCount(), 1u);
  auto row = pool_->Acquire(db_->DefaultColumnFamily(), IteratorKind::kRow);
  ASSERT_TRUE(row.ok());
  EXPECT_EQ(pool_->IdleCount(), 0u);
}

TEST_F(IteratorPoolTest, IteratorAcquiredBeforeAChangeIsNotPooled) {
  {
    auto it = pool_->Acquire(db_->DefaultColumnFamily(), IteratorKind::kScan);
    ASSERT_TRUE(it.ok());
    epoch_->fetch_add(1);
  }
  EXPECT_EQ(pool_->IdleCount(), 0u);
}

TEST_F(IteratorPoolTest, DropDiscardsTheFamilysIdleIterators) {
  { ASSERT_TRUE(pool_->Acquire(db_->DefaultColumnFamily(), IteratorKind::kScan).ok()); }
  { ASSERT_TRUE(pool_->Acquire(db_->DefaultColumnFamily(), IteratorKind::kRow).ok()); }
  EXPECT_EQ(pool_->IdleCount(), 2u);
  pool_->Drop(db_->DefaultColumnFamily());
  EXPECT_EQ(pool_->IdleCount(), 0u);
}

TEST_F(IteratorPoolTest, IteratorReleasedAfterItsFamilyIsDroppedIsNotPooled) {
  rocksdb::ColumnFamilyHandle* cf = nullptr;
  ASSERT_TRUE(db_->CreateColumnFamily(rocksdb::ColumnFamilyOptions(), "doomed", &cf).ok());
  {
    auto it = pool_->Acquire(cf, IteratorKind::kScan);  // a scan open across the drop
    ASSERT_TRUE(it.ok());
    pool_->Drop(cf);
    ASSERT_TRUE(db_->DropColumnFamily(cf).ok());
  }
  // Pooled, it would keep the dropped family's memtables and files alive until the next
  // flush or compaction anywhere in the store.
  EXPECT_EQ(pool_->IdleCount(), 0u);
  { ASSERT_TRUE(pool_->Acquire(db_->DefaultColumnFamily(), IteratorKind::kScan).ok()); }
  EXPECT_EQ(pool_->IdleCount(), 1u);  // other families pool as before
  ASSERT_TRUE(db_->DestroyColumnFamilyHandle(cf).ok());
}

TEST_F(IteratorPoolTest, KindsAreKeptApart) {
  rocksdb::Iterator* row = nullptr;
  {
    auto it = pool_->Acquire(db_->DefaultColumnFamily(), IteratorKind::kRow);
    ASSERT_TRUE(it.ok());
    row = it->get();
  }
  auto scan = pool_->Acquire(db_->DefaultColumnFamily(), IteratorKind::kScan);
  ASSERT_TRUE(scan.ok());
  EXPECT_NE(scan->get(), row);
}

TEST_F(IteratorPoolTest, IteratorsReleasedAfterClearAreDeletedNotPooled) {
  auto it = pool_->Acquire(db_->DefaultColumnFamily(), IteratorKind::kScan);
  ASSERT_TRUE(it.ok());
  pool_->Clear();
  it->reset();  // must not be kept: the database may close next
  EXPECT_EQ(pool_->IdleCount(), 0u);
}

}  // namespace
}  // namespace basalt::engine
