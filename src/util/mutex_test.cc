#include "util/mutex.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

namespace basalt::util {
namespace {

struct Counter {
  Mutex mu;
  int64_t value BASALT_GUARDED_BY(mu) = 0;
};

struct Signal {
  Mutex mu;
  CondVar cv;
  bool ready BASALT_GUARDED_BY(mu) = false;
  int64_t seen BASALT_GUARDED_BY(mu) = 0;
};

TEST(MutexTest, MutexLockExcludesOtherHolders) {
  Counter c;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20000; ++i) {
        MutexLock lock(c.mu);
        const int64_t seen = c.value;
        if (i % 1000 == 0) std::this_thread::yield();
        c.value = seen + 1;
      }
    });
  }
  for (auto& th : threads) th.join();
  MutexLock lock(c.mu);
  EXPECT_EQ(c.value, 4 * 20000);
}

TEST(CondVarTest, WaitUntilReturnsFalseOnceTheDeadlinePasses) {
  Mutex mu;
  CondVar cv;
  MutexLock lock(mu);
  const auto start = std::chrono::steady_clock::now();
  bool woken = true;
  // A spurious wake-up returns true early; the loop waits out the deadline.
  while (woken && std::chrono::steady_clock::now() < start + std::chrono::milliseconds(20)) {
    woken = cv.WaitUntil(mu, start + std::chrono::milliseconds(20));
  }
  EXPECT_FALSE(woken);
  EXPECT_GE(std::chrono::steady_clock::now(), start + std::chrono::milliseconds(20));
}

TEST(CondVarTest, NotifyWakesAWaiterThatHoldsTheMutexAgainAfter) {
  Signal s;
  std::thread waiter([&] {
    MutexLock lock(s.mu);
    while (!s.ready) s.cv.Wait(s.mu);
    s.seen = 1;  // written under the mutex the wait took back
  });
  {
    MutexLock lock(s.mu);
    s.ready = true;
  }
  s.cv.NotifyAll();
  waiter.join();
  MutexLock lock(s.mu);
  EXPECT_EQ(s.seen, 1);
}

}  // namespace
}  // namespace basalt::util
