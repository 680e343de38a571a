#include "server/hbase_rpc/procedure_results.h"

namespace basalt::server::hbase_rpc {

uint64_t ProcedureResults::Record(ProcedureOutcome outcome) {
  std::lock_guard<std::mutex> lock(mu_);
  const uint64_t id = ++last_id_;
  outcomes_.emplace(id, std::move(outcome));
  while (outcomes_.size() > capacity_) outcomes_.erase(outcomes_.begin());
  return id;
}

std::optional<ProcedureOutcome> ProcedureResults::Find(uint64_t proc_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = outcomes_.find(proc_id);
  if (it == outcomes_.end()) return std::nullopt;
  return it->second;
}

}  // namespace basalt::server::hbase_rpc
