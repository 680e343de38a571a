#include "server/net/arrival_spin.h"

#include <sys/socket.h>

#include <cerrno>

namespace basalt::server {

namespace {

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

void ArrivalSpin::NoteCall(const void* caller) {
  if (limit_.count() <= 0) return;
  const int64_t now = NowNs();
  // Keeps the latest call of the caller before this one too: a connection answering call after
  // call would otherwise hide that another called meanwhile. Races between callers only blur
  // which of them spins; they never make one wait.
  const void* last = last_caller_.load(std::memory_order_relaxed);
  if (last != caller) {
    previous_call_ns_.store(last_call_ns_.load(std::memory_order_relaxed),
                            std::memory_order_relaxed);
    last_caller_.store(caller, std::memory_order_relaxed);
  }
  last_call_ns_.store(now, std::memory_order_relaxed);
}

bool ArrivalSpin::OtherCalledLately(const void* caller, int64_t now_ns) const {
  if (last_caller_.load(std::memory_order_relaxed) != caller) {
    return now_ns - last_call_ns_.load(std::memory_order_relaxed) < lately_ns_;
  }
  return now_ns - previous_call_ns_.load(std::memory_order_relaxed) < lately_ns_;
}

bool ArrivalSpin::AwaitData(int fd, const void* caller) {
  if (limit_.count() <= 0) return false;
  int64_t now = NowNs();
  if (OtherCalledLately(caller, now)) return false;
  bool expected = false;
  if (!spinning_.compare_exchange_strong(expected, true, std::memory_order_acquire)) return false;
  const int64_t deadline =
      now + std::chrono::duration_cast<std::chrono::nanoseconds>(limit_).count();
  bool ready = false;
  while (true) {
    char byte;
    ssize_t n = ::recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    if (n > 0) {
      ready = true;
      break;
    }
    // The peer closed (0) or the socket failed: the blocking read reports it.
    if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) break;
    now = NowNs();
    if (now >= deadline || OtherCalledLately(caller, now)) break;
  }
  spinning_.store(false, std::memory_order_release);
  return ready;
}

}  // namespace basalt::server
