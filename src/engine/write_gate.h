// The write gate of one table (TableState::write_gate): every write to the table holds it shared
// for the length of its RocksDB write; a snapshot holds it exclusively while it flushes and links
// the table's files.
//
// It prefers the snapshot: once lock() waits, new shared holders wait behind it. std::shared_mutex
// (glibc's default rwlock) prefers readers, so under a steady write load a snapshot could wait
// for a moment with no write in flight that never comes.

#ifndef BASALT_ENGINE_WRITE_GATE_H_
#define BASALT_ENGINE_WRITE_GATE_H_

#include <pthread.h>

#include <cstdlib>

namespace basalt::engine {

class WriteGate {
 public:
  WriteGate() {
    pthread_rwlockattr_t attr;
    pthread_rwlockattr_init(&attr);
    // Non-recursive: no writer takes one gate twice (MutateRows takes each table's once).
    pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    if (pthread_rwlock_init(&lock_, &attr) != 0) std::abort();
    pthread_rwlockattr_destroy(&attr);
  }
  ~WriteGate() { pthread_rwlock_destroy(&lock_); }
  WriteGate(const WriteGate&) = delete;
  WriteGate& operator=(const WriteGate&) = delete;

  // SharedLockable and Lockable, for std::shared_lock and std::unique_lock.
  void lock_shared() {
    if (pthread_rwlock_rdlock(&lock_) != 0) std::abort();
  }
  void unlock_shared() { pthread_rwlock_unlock(&lock_); }
  void lock() {
    if (pthread_rwlock_wrlock(&lock_) != 0) std::abort();
  }
  void unlock() { pthread_rwlock_unlock(&lock_); }

 private:
  pthread_rwlock_t lock_;
};

}  // namespace basalt::engine

#endif  // BASALT_ENGINE_WRITE_GATE_H_
