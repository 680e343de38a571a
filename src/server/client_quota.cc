#include "server/client_quota.h"

namespace basalt::server {

Status ClientQuota::Acquire(std::string_view client) {
  util::MutexLock lock(mu_);
  if (max_total_ > 0 && total_ >= max_total_) {
    return Status::Busy("too many open " + what_ + " on this server (at most " +
                        std::to_string(max_total_) + "); close some or retry later");
  }
  auto it = held_.find(std::string(client));
  size_t held = it == held_.end() ? 0 : it->second;
  if (max_per_client_ > 0 && held >= max_per_client_) {
    return Status::Busy("too many open " + what_ + " for client " + std::string(client) +
                        " (at most " + std::to_string(max_per_client_) +
                        " per client); close some or retry later");
  }
  if (it == held_.end()) {
    held_.emplace(std::string(client), 1);
  } else {
    ++it->second;
  }
  ++total_;
  return Status::OK();
}

void ClientQuota::Release(std::string_view client) {
  util::MutexLock lock(mu_);
  auto it = held_.find(std::string(client));
  if (it == held_.end()) return;
  if (--it->second == 0) held_.erase(it);
  --total_;
}

size_t ClientQuota::total() const {
  util::MutexLock lock(mu_);
  return total_;
}

size_t ClientQuota::held_by(std::string_view client) const {
  util::MutexLock lock(mu_);
  auto it = held_.find(std::string(client));
  return it == held_.end() ? 0 : it->second;
}

}  // namespace basalt::server
