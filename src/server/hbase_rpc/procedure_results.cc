#include "server/hbase_rpc/procedure_results.h"

namespace basalt::server::hbase_rpc {

uint64_t ProcedureResults::Record(ProcedureOutcome outcome, std::optional<NonceKey> nonce) {
  util::MutexLock lock(mu_);
  const uint64_t id = ++last_id_;
  if (nonce) by_nonce_[*nonce] = id;
  outcomes_.emplace(id, Entry{std::move(outcome), nonce});
  while (outcomes_.size() > capacity_) {
    auto oldest = outcomes_.begin();
    if (oldest->second.nonce) {
      auto it = by_nonce_.find(*oldest->second.nonce);
      if (it != by_nonce_.end() && it->second == oldest->first) by_nonce_.erase(it);
    }
    outcomes_.erase(oldest);
  }
  return id;
}

std::optional<ProcedureOutcome> ProcedureResults::Find(uint64_t proc_id) const {
  util::MutexLock lock(mu_);
  auto it = outcomes_.find(proc_id);
  if (it == outcomes_.end()) return std::nullopt;
  return it->second.outcome;
}

std::optional<uint64_t> ProcedureResults::FindByNonce(const NonceKey& nonce) const {
  util::MutexLock lock(mu_);
  auto it = by_nonce_.find(nonce);
  if (it == by_nonce_.end()) return std::nullopt;
  return it->second;
}

}  // namespace basalt::server::hbase_rpc
