#include "util/futex_mutex.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace basalt::util {
namespace {

TEST(FutexMutexTest, ExcludesAndWakesWaitersUnderContention) {
  FutexMutex lock;
  int64_t counter = 0;  // guarded by `lock`
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20000; ++i) {
        std::lock_guard<FutexMutex> g(lock);
        const int64_t seen = counter;
        // Now and then hold the lock across a yield, so that others queue as waiters and the
        // unlock has someone to wake.
        if ((i + t) % 500 == 0) std::this_thread::yield();
        counter = seen + 1;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(counter, 4 * 20000);
}

}  // namespace
}  // namespace basalt::util
