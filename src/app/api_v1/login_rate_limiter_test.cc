#include "app/api_v1/login_rate_limiter.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace basalt::app::api_v1 {
namespace {

struct FakeClock {
  int64_t now = 1'000'000;
  std::function<int64_t()> Fn() {
    return [this] { return now; };
  }
};

LoginRateLimiterOptions Options(FakeClock& clock, size_t max_keys = 100) {
  LoginRateLimiterOptions options;
  options.max_failures = 5;
  options.window_ms = 60'000;
  options.max_keys = max_keys;
  options.now_ms = clock.Fn();
  return options;
}

TEST(LoginRateLimiterTest, BlocksAfterMaxFailuresWithinTheWindow) {
  FakeClock clock;
  LoginRateLimiter limiter(Options(clock));
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(limiter.RetryAfterMs("alice"), 0);
    limiter.RecordFailure("alice");
    clock.now += 1000;
  }
  EXPECT_EQ(limiter.RetryAfterMs("alice"), 0);
  limiter.RecordFailure("alice");  // the fifth, at t0 + 4 s
  // Blocked until the first failure (t0) is 60 s old.
  EXPECT_EQ(limiter.RetryAfterMs("alice"), 60'000 - 4000);
  EXPECT_EQ(limiter.RetryAfterMs("bob"), 0) << "keys are independent";
  clock.now += 60'000 - 4000 - 1;
  EXPECT_EQ(limiter.RetryAfterMs("alice"), 1);
  clock.now += 1;
  EXPECT_EQ(limiter.RetryAfterMs("alice"), 0);
}

TEST(LoginRateLimiterTest, FailuresSpreadBeyondTheWindowNeverBlock) {
  FakeClock clock;
  LoginRateLimiter limiter(Options(clock));
  for (int i = 0; i < 50; ++i) {
    EXPECT_EQ(limiter.RetryAfterMs("alice"), 0) << i;
    limiter.RecordFailure("alice");
    clock.now += 15'000;  // 4 per minute
  }
}

TEST(LoginRateLimiterTest, FailuresWhileBlockedExtendTheBlock) {
  FakeClock clock;
  LoginRateLimiter limiter(Options(clock));
  for (int i = 0; i < 5; ++i) limiter.RecordFailure("k");
  clock.now += 30'000;
  limiter.RecordFailure("k");  // drops the oldest of six
  EXPECT_EQ(limiter.RetryAfterMs("k"), 30'000);
  clock.now += 30'000;
  // The failures at t0 have left the window; one is left.
  EXPECT_EQ(limiter.RetryAfterMs("k"), 0);
}

TEST(LoginRateLimiterTest, MemoryIsBoundedByForgettingTheColdestKeys) {
  FakeClock clock;
  LoginRateLimiter limiter(Options(clock, /*max_keys=*/3));
  for (int i = 0; i < 5; ++i) limiter.RecordFailure("hot");
  for (int i = 0; i < 100; ++i) {
    clock.now += 1;
    limiter.RecordFailure("cold" + std::to_string(i));
    EXPECT_LE(limiter.tracked_keys(), 3u);
    // Refresh "hot" so that it stays among the most recent.
    if (i % 2 == 0) limiter.RecordFailure("hot");
  }
  EXPECT_GT(limiter.RetryAfterMs("hot"), 0);
  EXPECT_EQ(limiter.RetryAfterMs("cold0"), 0);
}

TEST(LoginRateLimiterTest, ExpiredKeysAreDropped) {
  FakeClock clock;
  LoginRateLimiter limiter(Options(clock));
  limiter.RecordFailure("a");
  EXPECT_EQ(limiter.tracked_keys(), 1u);
  clock.now += 60'000;
  EXPECT_EQ(limiter.RetryAfterMs("a"), 0);
  EXPECT_EQ(limiter.tracked_keys(), 0u);
}

TEST(LoginRateLimiterTest, ConcurrentFailuresAreAllCounted) {
  FakeClock clock;
  LoginRateLimiterOptions options = Options(clock);
  options.max_failures = 400;
  LoginRateLimiter limiter(options);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 100; ++i) limiter.RecordFailure("shared");
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(limiter.RetryAfterMs("shared"), 60'000);
}

}  // namespace
}  // namespace basalt::app::api_v1
