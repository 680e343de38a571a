// LoginRateLimiter: refuses log-ins for a key (a user name, a client address) that has failed
// too often lately, so passwords cannot be guessed at speed.
//
// A key is blocked while it has `max_failures` failures within the last `window_ms`; it is free
// again once the oldest of them leaves the window (RetryAfterMs says when). A success does not
// erase failures: a guesser who also knows one password gains nothing.
//
// Memory is bounded: at most `max_keys` keys are tracked; when a new key would exceed that, the
// least recently failed key is forgotten (under a flood of distinct keys the limiter forgets
// the coldest, which a guesser rotating keys would escape anyway; the per-address limit still
// binds them).
//
// Thread safety: all methods may be called concurrently.

#ifndef BASALT_APP_API_V1_LOGIN_RATE_LIMITER_H_
#define BASALT_APP_API_V1_LOGIN_RATE_LIMITER_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <string>
#include <string_view>
#include <unordered_map>

#include "util/mutex.h"

namespace basalt::app::api_v1 {

struct LoginRateLimiterOptions {
  int max_failures = 5;        // REQUIRES: >= 1
  int64_t window_ms = 60'000;  // REQUIRES: >= 1
  size_t max_keys = 100'000;   // REQUIRES: >= 1
  // Milliseconds on any monotonic scale. Default (empty): std::chrono::steady_clock.
  std::function<int64_t()> now_ms;
};

class LoginRateLimiter {
 public:
  explicit LoginRateLimiter(LoginRateLimiterOptions options = {});

  // 0 when `key` may try now; else how many ms until it may.
  int64_t RetryAfterMs(std::string_view key);
  // Counts a failed attempt of `key`.
  void RecordFailure(std::string_view key);

  // Keys tracked now (for tests of the bound).
  size_t tracked_keys() const;

 private:
  struct Entry {
    std::deque<int64_t> failures;  // times, oldest first; at most max_failures
    std::list<std::string>::iterator lru;
  };
  int64_t Now() const;
  // Drops failures that left the window; erases the entry (returning true) when none are left.
  bool Expire(std::unordered_map<std::string, Entry>::iterator it, int64_t now)
      BASALT_REQUIRES(mu_);

  LoginRateLimiterOptions options_;
  mutable util::Mutex mu_;
  std::unordered_map<std::string, Entry> entries_ BASALT_GUARDED_BY(mu_);
  std::list<std::string> lru_ BASALT_GUARDED_BY(mu_);  // most recent first
};

}  // namespace basalt::app::api_v1

#endif  // BASALT_APP_API_V1_LOGIN_RATE_LIMITER_H_
