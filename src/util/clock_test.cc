#include "util/clock.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace basalt::util {
namespace {

TEST(ClockTest, MonotonicWallMillisNeverGoesBackwardsAcrossThreads) {
  std::vector<std::thread> threads;
  std::atomic<bool> ok{true};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      int64_t last = 0;
      for (int i = 0; i < 200000; ++i) {
        int64_t now = MonotonicWallMillis();
        if (now < last) ok = false;
        last = now;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_TRUE(ok.load());
}

TEST(ClockTest, MonotonicWallMillisTracksTheSystemClock) {
  int64_t sys = SystemWallMillis();
  int64_t mono = MonotonicWallMillis();
  EXPECT_GE(mono, sys - 1000);
  EXPECT_LE(mono, sys + 60000);
}

}  // namespace
}  // namespace basalt::util
