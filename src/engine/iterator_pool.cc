#include "engine/iterator_pool.h"

#include <mutex>

#include <rocksdb/db.h>
#include <rocksdb/iterator.h>

#include "engine/rocksdb_status.h"

namespace basalt::engine {

void IteratorReturner::operator()(rocksdb::Iterator* it) const {
  if (pool_ == nullptr) {
    delete it;
  } else {
    pool_->Release(cf_, kind_, epoch_, seq_, it);
  }
}

IteratorPool::~IteratorPool() {
  Clear();
}

Result<PooledIterator> IteratorPool::Acquire(rocksdb::ColumnFamilyHandle* cf, IteratorKind kind) {
  // Read before refreshing: an iterator is never labelled newer than the data it pins.
  const uint64_t epoch = epoch_->load(std::memory_order_acquire);
  const uint64_t seq = db_->GetLatestSequenceNumber();
  std::unique_ptr<rocksdb::Iterator> it;
  uint64_t it_seq = 0;
  std::vector<std::unique_ptr<rocksdb::Iterator>> garbage;
  {
    util::FutexMutexLock l(mu_);
    TrimLocked(&garbage);
    auto found = idle_.find({cf, kind});
    if (found != idle_.end() && !found->second.empty()) {
      it = std::move(found->second.back().it);
      it_seq = found->second.back().seq;
      found->second.pop_back();
    }
  }
  garbage.clear();
  if (it != nullptr) {
    // Refreshed at `seq` and nothing written since: it sees what a new iterator would.
    if (it_seq == seq) {
      return PooledIterator(it.release(), IteratorReturner(this, cf, kind, epoch, seq));
    }
    Status s = FromRocks(it->Refresh());
    if (s.ok()) return PooledIterator(it.release(), IteratorReturner(this, cf, kind, epoch, seq));
    it.reset();  // not refreshable: fall back to a new one
  }
  rocksdb::ReadOptions ro;
  // basalt never writes range tombstones; skipping them makes Seek and Refresh cheaper.
  ro.ignore_range_deletions = true;
  if (kind == IteratorKind::kRow) {
    ro.prefix_same_as_start = true;
  } else {
    ro.total_order_seek = true;
  }
  it.reset(db_->NewIterator(ro, cf));
  BASALT_RETURN_IF_ERROR(FromRocks(it->status()));
  return PooledIterator(it.release(), IteratorReturner(this, cf, kind, epoch, seq));
}

void IteratorPool::Release(rocksdb::ColumnFamilyHandle* cf, IteratorKind kind, uint64_t epoch,
                           uint64_t seq, rocksdb::Iterator* raw) {
  std::unique_ptr<rocksdb::Iterator> it(raw);
  // A valid iterator has an OK status (RocksDB's contract), and asking a valid one walks every
  // merged child: only an invalid one is asked.
  const bool failed = !it->Valid() && !it->status().ok();
  std::vector<std::unique_ptr<rocksdb::Iterator>> garbage;
  {
    util::FutexMutexLock l(mu_);
    TrimLocked(&garbage);
    if (closed_ || failed || epoch != trimmed_epoch_ || dropped_.count(cf) != 0) {
      garbage.push_back(std::move(it));
    } else {
      auto& idle = idle_[{cf, kind}];
      if (idle.size() < kMaxIdlePerKey) {
        idle.push_back({std::move(it), epoch, seq});
      } else {
        garbage.push_back(std::move(it));
      }
    }
  }
}

void IteratorPool::TrimLocked(std::vector<std::unique_ptr<rocksdb::Iterator>>* garbage) {
  uint64_t epoch = epoch_->load(std::memory_order_acquire);
  if (epoch == trimmed_epoch_) return;
  trimmed_epoch_ = epoch;
  for (auto& [key, idle] : idle_) {
    std::erase_if(idle, [&](Idle& i) {
      if (i.epoch == epoch) return false;
      garbage->push_back(std::move(i.it));
      return true;
    });
  }
}

void IteratorPool::Drop(rocksdb::ColumnFamilyHandle* cf) {
  std::vector<std::unique_ptr<rocksdb::Iterator>> garbage;
  util::FutexMutexLock l(mu_);
  dropped_.insert(cf);
  for (IteratorKind kind : {IteratorKind::kRow, IteratorKind::kScan}) {
    auto found = idle_.find({cf, kind});
    if (found == idle_.end()) continue;
    for (auto& i : found->second) garbage.push_back(std::move(i.it));
    idle_.erase(found);
  }
}

size_t IteratorPool::IdleCount() {
  util::FutexMutexLock l(mu_);
  size_t n = 0;
  for (const auto& [key, idle] : idle_) n += idle.size();
  return n;
}

void IteratorPool::Clear() {
  util::FutexMutexLock l(mu_);
  closed_ = true;
  idle_.clear();
}

Result<rocksdb::Iterator*> HeldIterators::Get(rocksdb::ColumnFamilyHandle* cf, IteratorKind kind) {
  for (Held& h : held_) {
    if (h.cf == cf && h.kind == kind) return h.it.get();
  }
  BASALT_ASSIGN_OR_RETURN(PooledIterator it, pool_->Acquire(cf, kind));
  held_.push_back({cf, kind, std::move(it)});
  return held_.back().it.get();
}

}  // namespace basalt::engine
