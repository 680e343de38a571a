#include "server/http/memory_budget.h"

namespace basalt::server::http {

bool MemoryBudget::TryReserve(uint64_t bytes) {
  uint64_t used = used_.load(std::memory_order_relaxed);
  do {
    if (bytes > limit_ || used > limit_ - bytes) return false;
  } while (!used_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
  return true;
}

void MemoryBudget::Release(uint64_t bytes) {
  used_.fetch_sub(bytes, std::memory_order_relaxed);
}

MemoryLease::Outcome MemoryLease::Reserve(uint64_t bytes) {
  if (bytes > per_request_limit_ || held_ > per_request_limit_ - bytes) {
    return Outcome::kOverRequestLimit;
  }
  if (!budget_.TryReserve(bytes)) return Outcome::kBudgetSpent;
  held_ += bytes;
  return Outcome::kReserved;
}

MemoryLease::Outcome MemoryLease::ReserveTotal(uint64_t bytes) {
  if (bytes >= held_) return Reserve(bytes - held_);
  budget_.Release(held_ - bytes);
  held_ = bytes;
  return Outcome::kReserved;
}

void MemoryLease::Clear() {
  if (held_ == 0) return;
  budget_.Release(held_);
  held_ = 0;
}

}  // namespace basalt::server::http
