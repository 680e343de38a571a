#include "util/clock.h"

#include <atomic>
#include <chrono>

namespace basalt {

int64_t SystemWallMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace basalt

namespace basalt::util {

int64_t MonotonicWallMillis() {
  static std::atomic<int64_t> last{0};
  int64_t now = SystemWallMillis();
  int64_t prev = last.load(std::memory_order_relaxed);
  while (now > prev) {
    if (last.compare_exchange_weak(prev, now, std::memory_order_relaxed)) return now;
  }
  return prev;
}

}  // namespace basalt::util
