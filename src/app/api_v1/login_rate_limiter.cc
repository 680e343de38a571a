#include "app/api_v1/login_rate_limiter.h"

#include <chrono>

namespace basalt::app::api_v1 {

LoginRateLimiter::LoginRateLimiter(LoginRateLimiterOptions options)
    : options_(std::move(options)) {}

int64_t LoginRateLimiter::Now() const {
  if (options_.now_ms) return options_.now_ms();
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

bool LoginRateLimiter::Expire(std::unordered_map<std::string, Entry>::iterator it, int64_t now) {
  std::deque<int64_t>& failures = it->second.failures;
  while (!failures.empty() && now - failures.front() >= options_.window_ms) failures.pop_front();
  if (!failures.empty()) return false;
  lru_.erase(it->second.lru);
  entries_.erase(it);
  return true;
}

int64_t LoginRateLimiter::RetryAfterMs(std::string_view key) {
  util::MutexLock lock(mu_);
  auto it = entries_.find(std::string(key));
  if (it == entries_.end()) return 0;
  int64_t now = Now();
  if (Expire(it, now)) return 0;
  const std::deque<int64_t>& failures = it->second.failures;
  if (static_cast<int>(failures.size()) < options_.max_failures) return 0;
  return failures.front() + options_.window_ms - now;
}

void LoginRateLimiter::RecordFailure(std::string_view key) {
  util::MutexLock lock(mu_);
  int64_t now = Now();
  std::string k(key);
  auto it = entries_.find(k);
  if (it == entries_.end()) {
    while (entries_.size() >= options_.max_keys) {
      entries_.erase(lru_.back());
      lru_.pop_back();
    }
    lru_.push_front(k);
    it = entries_.emplace(std::move(k), Entry{{}, lru_.begin()}).first;
  } else {
    lru_.splice(lru_.begin(), lru_, it->second.lru);
  }
  std::deque<int64_t>& failures = it->second.failures;
  failures.push_back(now);
  // Only the newest max_failures matter: the block lasts until the oldest of them expires.
  while (static_cast<int>(failures.size()) > options_.max_failures) failures.pop_front();
}

size_t LoginRateLimiter::tracked_keys() const {
  util::MutexLock lock(mu_);
  return entries_.size();
}

}  // namespace basalt::app::api_v1
