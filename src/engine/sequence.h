// Store-wide write sequence numbers. Every mutation gets a number greater than any number handed
// out before, in this process or an earlier one, so that a delete marker hides exactly the
// cells written before it.
//
// Numbers are reserved in blocks: the end of the current block is persisted (synced) before any
// number in it is handed out, and a reopened store starts at the persisted end. A crash wastes
// the rest of a block, never reuses a number.

#ifndef BASALT_ENGINE_SEQUENCE_H_
#define BASALT_ENGINE_SEQUENCE_H_

#include <atomic>
#include <cstdint>
#include <functional>

#include "basalt/status.h"
#include "util/mutex.h"

namespace basalt::engine {

class SequenceAllocator {
 public:
  static constexpr uint64_t kBlock = 1 << 20;

  // `persist_limit` durably records a new block end; called with the allocator's mutex held.
  SequenceAllocator(uint64_t first, std::function<Status(uint64_t)> persist_limit)
      : next_(first), limit_(first), persist_limit_(std::move(persist_limit)) {}

  // The number the next call of Next returns first (unless another call takes it meanwhile):
  // every number handed out so far is smaller.
  uint64_t Peek() const { return next_.load(std::memory_order_relaxed); }

  // Returns the first of `n` consecutive fresh numbers.
  Result<uint64_t> Next(uint64_t n = 1) {
    uint64_t first = next_.fetch_add(n, std::memory_order_relaxed);
    if (first + n <= limit_.load(std::memory_order_acquire)) return first;
    util::MutexLock l(mu_);
    while (first + n > limit_.load(std::memory_order_relaxed)) {
      uint64_t new_limit = std::max(limit_.load(std::memory_order_relaxed), first + n) + kBlock;
      BASALT_RETURN_IF_ERROR(persist_limit_(new_limit));
      limit_.store(new_limit, std::memory_order_release);
    }
    return first;
  }

 private:
  std::atomic<uint64_t> next_;
  std::atomic<uint64_t> limit_;
  // Held while a block end is made durable, so that one caller at a time moves limit_.
  util::Mutex mu_;
  std::function<Status(uint64_t)> persist_limit_;
};

}  // namespace basalt::engine

#endif  // BASALT_ENGINE_SEQUENCE_H_
