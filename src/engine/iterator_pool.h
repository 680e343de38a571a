// IteratorPool: idle RocksDB iterators kept for reuse by single-family reads.
//
// Creating a RocksDB iterator costs about as much as the point lookup it serves (an arena, a
// reference on the column family's current memtables and files, a merging iterator). A pooled
// iterator is brought up to date with Iterator::Refresh(), which is cheap while the column
// family's memtables and files are unchanged, and rebuilds the iterator after a flush or a
// compaction. A refreshed iterator sees every write acknowledged before Acquire() returned.
//
// When no write has been made since an idle iterator was last brought up to date (the store's
// latest sequence number is the one it was refreshed at), it is handed out as it is: it sees
// exactly what a fresh one would, and a read-mostly store saves the refresh.
//
// An idle iterator pins the memtables and files it last saw. Every flush and compaction bumps
// a shared epoch (the engine's event listener does); the next Acquire or Release destroys idle
// iterators older than it, so obsolete files outlive a compaction by at most one read.
//
// Thread safety: every method may be called concurrently.

#ifndef BASALT_ENGINE_ITERATOR_POOL_H_
#define BASALT_ENGINE_ITERATOR_POOL_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include <rocksdb/iterator.h>

#include "basalt/status.h"
#include "util/futex_mutex.h"

namespace rocksdb {
class ColumnFamilyHandle;
class DB;
}  // namespace rocksdb

namespace basalt::engine {

enum class IteratorKind {
  kRow,   // reads within one row: prefix_same_as_start, so prefix bloom filters skip files
  kScan,  // reads across rows: total order
};

class IteratorPool;

// Returns an iterator to its pool (or deletes it when it has none).
class IteratorReturner {
 public:
  IteratorReturner() = default;
  // `epoch` and `seq`: the storage epoch and the store's latest sequence number, both read
  // before the iterator was last refreshed.
  IteratorReturner(IteratorPool* pool, rocksdb::ColumnFamilyHandle* cf, IteratorKind kind,
                   uint64_t epoch, uint64_t seq)
      : pool_(pool), cf_(cf), kind_(kind), epoch_(epoch), seq_(seq) {}
  void operator()(rocksdb::Iterator* it) const;

 private:
  IteratorPool* pool_ = nullptr;
  rocksdb::ColumnFamilyHandle* cf_ = nullptr;
  IteratorKind kind_ = IteratorKind::kScan;
  uint64_t epoch_ = 0;
  uint64_t seq_ = 0;
};

using PooledIterator = std::unique_ptr<rocksdb::Iterator, IteratorReturner>;

class IteratorPool {
 public:
  // `db` must outlive the pool's iterators: call Clear() before closing it. `storage_epoch`
  // changes whenever a flush or compaction finishes.
  IteratorPool(rocksdb::DB* db, std::shared_ptr<const std::atomic<uint64_t>> storage_epoch)
      : db_(db), epoch_(std::move(storage_epoch)) {}
  ~IteratorPool();
  IteratorPool(const IteratorPool&) = delete;
  IteratorPool& operator=(const IteratorPool&) = delete;

  // An up-to-date iterator over `cf`, not positioned. Returned to the pool when released.
  Result<PooledIterator> Acquire(rocksdb::ColumnFamilyHandle* cf, IteratorKind kind);

  // Destroys the idle iterators of `cf` (call before the column family is dropped); an iterator
  // over `cf` released later (a scan open across the drop) is deleted, not pooled, since nobody
  // reads the family again and an idle iterator would keep its files on disk.
  void Drop(rocksdb::ColumnFamilyHandle* cf);

  // Destroys every idle iterator and stops pooling: released iterators are deleted from now
  // on. Call before the database closes, after every pooled iterator has been released.
  void Clear();

  // For tests: how many iterators sit idle.
  size_t IdleCount();

 private:
  friend class IteratorReturner;

  struct Idle {
    std::unique_ptr<rocksdb::Iterator> it;
    uint64_t epoch;
    uint64_t seq;  // see IteratorReturner
  };
  using Key = std::pair<rocksdb::ColumnFamilyHandle*, IteratorKind>;

  void Release(rocksdb::ColumnFamilyHandle* cf, IteratorKind kind, uint64_t epoch, uint64_t seq,
               rocksdb::Iterator* it);
  // Moves idle iterators older than the current epoch into `*garbage` (deleted by the caller
  // outside the lock).
  void TrimLocked(std::vector<std::unique_ptr<rocksdb::Iterator>>* garbage) BASALT_REQUIRES(mu_);

  // Enough for the threads of a busy server; more idle iterators would only pin memory.
  static constexpr size_t kMaxIdlePerKey = 16;

  rocksdb::DB* const db_;
  const std::shared_ptr<const std::atomic<uint64_t>> epoch_;
  util::FutexMutex mu_;
  bool closed_ BASALT_GUARDED_BY(mu_) = false;
  uint64_t trimmed_epoch_ BASALT_GUARDED_BY(mu_) = 0;
  std::map<Key, std::vector<Idle>> idle_ BASALT_GUARDED_BY(mu_);
  // Families dropped while the pool lived. Their handles live until the store closes, so an
  // address here is never reused for a new family.
  std::set<rocksdb::ColumnFamilyHandle*> dropped_ BASALT_GUARDED_BY(mu_);
};

// Pooled iterators kept from one read to the next by a caller making several (a multi-get), at
// most one per column family, and given back to the pool when it goes. The caller must not let
// it outlive the store: hold the engine's lifecycle lock for its whole life.
class HeldIterators {
 public:
  explicit HeldIterators(IteratorPool* pool) : pool_(pool) {}

  // The held iterator over `cf`, acquired from the pool on first use. Not positioned.
  Result<rocksdb::Iterator*> Get(rocksdb::ColumnFamilyHandle* cf, IteratorKind kind);

 private:
  struct Held {
    rocksdb::ColumnFamilyHandle* cf;
    IteratorKind kind;
    PooledIterator it;
  };
  IteratorPool* const pool_;
  std::vector<Held> held_;
};

}  // namespace basalt::engine

#endif  // BASALT_ENGINE_ITERATOR_POOL_H_
