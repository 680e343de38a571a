// FutexMutex: a mutex in four bytes whose uncontended lock and unlock are one atomic operation
// each, inline.

#ifndef BASALT_UTIL_FUTEX_MUTEX_H_
#define BASALT_UTIL_FUTEX_MUTEX_H_

#include <atomic>
#include <cstdint>

namespace basalt::util {

// 0 free, 1 held, 2 held and maybe waited for: the futex mutex of Drepper's "Futexes Are
// Tricky", with std::atomic::wait as the futex wait. Meets Lockable, for std::lock_guard.
//
// Where basalt uses it instead of std::mutex:
// - row lock stripes: std::mutex takes 40 bytes, and a batch of 100 rows locks 100 random
//   stripes; 4096 of them in 16 KiB stay in the cache where 160 KiB did not (row locks were
//   3% of a batched put);
// - the iterator pool, locked twice per point read: glibc's mutex calls cost readrandom about
//   3% of its throughput against raw RocksDB.
class FutexMutex {
 public:
  void lock() {
    uint32_t state = 0;
    if (state_.compare_exchange_strong(state, 1, std::memory_order_acquire)) return;
    if (state != 2) state = state_.exchange(2, std::memory_order_acquire);
    while (state != 0) {
      state_.wait(2, std::memory_order_relaxed);
      state = state_.exchange(2, std::memory_order_acquire);
    }
  }
  void unlock() {
    if (state_.exchange(0, std::memory_order_release) == 2) state_.notify_one();
  }

 private:
  std::atomic<uint32_t> state_{0};
};

}  // namespace basalt::util

#endif  // BASALT_UTIL_FUTEX_MUTEX_H_
