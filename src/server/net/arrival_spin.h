// Waiting for a connection's next request by polling its socket for a moment before sleeping.
//
// A thread blocked in recv() is woken by the kernel when the request arrives: on this kind of
// machine (a VM) that wake-up of a sleeping core costs microseconds at each end of every call: a
// quarter of a served point get's time (docs/benchmarks.md). A connection thread that has just
// answered will usually see the client's next call within microseconds, so it first polls the
// socket without blocking for a short while, and sleeps in the transport's blocking read only if
// nothing came.
//
// Spinning only pays while a core would otherwise idle: a server lets one connection spin at a
// time, and only while no other connection has read a request lately. With several clients
// calling, every connection sleeps as before and the cores serve calls instead.

#ifndef BASALT_SERVER_NET_ARRIVAL_SPIN_H_
#define BASALT_SERVER_NET_ARRIVAL_SPIN_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>

namespace basalt::server {

// Shared by every connection of one server. Thread safety: every method from any thread.
class ArrivalSpin {
 public:
  // `limit` of zero turns spinning off. Another connection's call counts as recent for `lately`.
  explicit ArrivalSpin(std::chrono::microseconds limit,
                       std::chrono::nanoseconds lately = std::chrono::milliseconds(1))
      : limit_(limit), lately_ns_(lately.count()) {}

  ArrivalSpin(const ArrivalSpin&) = delete;
  ArrivalSpin& operator=(const ArrivalSpin&) = delete;

  // Polls `fd` for up to the limit, unless another connection spins or another connection than
  // `caller` (any distinct address per connection) read a request lately; stops early when one
  // does. Returns true once data is waiting (it is left in the socket), false when the wait ended
  // without it or the peer closed or the socket failed: the caller's blocking read then meets
  // any of these as it would have.
  bool AwaitData(int fd, const void* caller);

  // `caller` read (part of) a request.
  void NoteCall(const void* caller);

  // Whether a connection spins now.
  bool spinning() const { return spinning_.load(std::memory_order_relaxed); }

 private:
  bool OtherCalledLately(const void* caller, int64_t now_ns) const;

  // Long before any call: no call is recent, however short the clock's time since boot.
  static constexpr int64_t kNever = std::numeric_limits<int64_t>::min() / 2;

  const std::chrono::microseconds limit_;
  const int64_t lately_ns_;
  std::atomic<int64_t> last_call_ns_{kNever};
  std::atomic<const void*> last_caller_{nullptr};
  // The latest call of the caller before last_caller_.
  std::atomic<int64_t> previous_call_ns_{kNever};
  std::atomic<bool> spinning_{false};
};

// What one connection's transport keeps to use an ArrivalSpin.
class ConnectionSpin {
 public:
  // `spin` may be null (no spinning); it must outlive this.
  explicit ConnectionSpin(ArrivalSpin* spin) : spin_(spin) {}

  ConnectionSpin(const ConnectionSpin&) = delete;
  ConnectionSpin& operator=(const ConnectionSpin&) = delete;

  // Before a read of the connection's socket `fd` that would block; -1 (a closed socket) does
  // not wait.
  void BeforeBlockingRead(int fd) {
    if (spin_ != nullptr && fd >= 0) spin_->AwaitData(fd, this);
  }
  // After a read returned data.
  void AfterRead() {
    if (spin_ != nullptr) spin_->NoteCall(this);
  }

 private:
  ArrivalSpin* const spin_;
};

}  // namespace basalt::server

#endif  // BASALT_SERVER_NET_ARRIVAL_SPIN_H_
