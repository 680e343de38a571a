// MemoryBudget: the bytes of request data the whole HTTP server holds at once, over every
// connection: request bodies as they are buffered, and what a handler expands a body into (a
// decoded CellSet). Without it each connection could hold max_body for up to the read timeout,
// and max_connections of them would need max_connections x max_body of memory.
//
// A MemoryLease is one request's share: it reserves from the budget and gives everything back
// when the request is done (Clear, or its destruction). A reservation that does not fit is
// refused whole and nothing is held for it; the caller answers 503.
//
// Thread safety: a MemoryBudget may be used from any number of threads; a MemoryLease by one
// thread at a time (its connection's loop).

#ifndef BASALT_SERVER_HTTP_MEMORY_BUDGET_H_
#define BASALT_SERVER_HTTP_MEMORY_BUDGET_H_

#include <atomic>
#include <cstdint>

namespace basalt::server::http {

class MemoryBudget {
 public:
  explicit MemoryBudget(uint64_t limit) : limit_(limit) {}
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;

  // Takes `bytes` if they fit under the limit with what is held already; false (nothing taken)
  // otherwise.
  bool TryReserve(uint64_t bytes);
  // Gives back `bytes`. REQUIRES: they were reserved.
  void Release(uint64_t bytes);

  uint64_t limit() const { return limit_; }
  uint64_t used() const { return used_.load(std::memory_order_relaxed); }

 private:
  const uint64_t limit_;
  std::atomic<uint64_t> used_{0};
};

class MemoryLease {
 public:
  // `per_request_limit`: the most this lease may hold at once, whatever the budget has free.
  // REQUIRES: `budget` outlives the lease.
  MemoryLease(MemoryBudget& budget, uint64_t per_request_limit)
      : budget_(budget), per_request_limit_(per_request_limit) {}
  ~MemoryLease() { Clear(); }
  MemoryLease(const MemoryLease&) = delete;
  MemoryLease& operator=(const MemoryLease&) = delete;

  enum class Outcome {
    kReserved,
    kOverRequestLimit,  // more than per_request_limit for this request alone
    kBudgetSpent,       // the server holds too much for other requests now
  };
  // Holds `bytes` more for this request.
  Outcome Reserve(uint64_t bytes);
  // Holds `bytes` in total: reserves the difference, or gives back what is over.
  Outcome ReserveTotal(uint64_t bytes);
  // Gives everything back.
  void Clear();

  uint64_t held() const { return held_; }
  uint64_t per_request_limit() const { return per_request_limit_; }
  const MemoryBudget& budget() const { return budget_; }

 private:
  MemoryBudget& budget_;
  const uint64_t per_request_limit_;
  uint64_t held_ = 0;
};

}  // namespace basalt::server::http

#endif  // BASALT_SERVER_HTTP_MEMORY_BUDGET_H_
