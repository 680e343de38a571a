#include "server/net/arrival_spin.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

namespace basalt::server {
namespace {

// Long enough that a wait which should have ended early hangs the test instead of passing, and
// that every call a test notes stays recent.
constexpr std::chrono::microseconds kLongSpin = std::chrono::minutes(10);
constexpr std::chrono::nanoseconds kLongLately = std::chrono::minutes(10);

// A connected pair of sockets: `server` is what a connection thread reads, `client` the peer.
struct SocketPair {
  SocketPair() {
    int fds[2];
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    server = fds[0];
    client = fds[1];
  }
  ~SocketPair() {
    if (server >= 0) ::close(server);
    if (client >= 0) ::close(client);
  }
  void Send() const { ASSERT_EQ(::send(client, "x", 1, 0), 1); }
  int server = -1;
  int client = -1;
};

void WaitUntilSpinning(const ArrivalSpin& spin) {
  while (!spin.spinning()) std::this_thread::yield();
}

// Sends to `pair` as soon as a connection spins, unless `stop` comes first: a wait that should
// not have spun then sees data and says so.
class SendWhenSpinning {
 public:
  SendWhenSpinning(const ArrivalSpin& spin, const SocketPair& pair)
      : thread_([this, &spin, &pair] {
          while (!stop_.load()) {
            if (spin.spinning()) {
              pair.Send();
              return;
            }
            std::this_thread::yield();
          }
        }) {}
  ~SendWhenSpinning() {
    stop_.store(true);
    thread_.join();
  }

 private:
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

TEST(ArrivalSpinTest, DataWaitingIsSeenAndLeftForTheRead) {
  ArrivalSpin spin(kLongSpin, kLongLately);
  SocketPair pair;
  pair.Send();
  int me = 0;
  EXPECT_TRUE(spin.AwaitData(pair.server, &me));
  char byte = 0;
  ASSERT_EQ(::recv(pair.server, &byte, 1, MSG_DONTWAIT), 1);
  EXPECT_EQ(byte, 'x');
}

TEST(ArrivalSpinTest, ASpinEndsWhenTheRequestArrives) {
  ArrivalSpin spin(kLongSpin, kLongLately);
  SocketPair pair;
  int me = 0;
  spin.NoteCall(&me);  // its own last call does not keep it from spinning
  std::thread peer([&] {
    WaitUntilSpinning(spin);
    pair.Send();
  });
  EXPECT_TRUE(spin.AwaitData(pair.server, &me));
  peer.join();
  EXPECT_FALSE(spin.spinning());
}

TEST(ArrivalSpinTest, AnotherConnectionsRecentCallMakesItSleepInstead) {
  ArrivalSpin spin(kLongSpin, kLongLately);
  SocketPair pair;
  int me = 0, other = 0;
  SendWhenSpinning peer(spin, pair);
  spin.NoteCall(&other);
  EXPECT_FALSE(spin.AwaitData(pair.server, &me));
  // Its own calls since then do not hide the other's.
  spin.NoteCall(&me);
  spin.NoteCall(&me);
  EXPECT_FALSE(spin.AwaitData(pair.server, &me));
  EXPECT_FALSE(spin.spinning());
}

TEST(ArrivalSpinTest, OnlyOneConnectionSpinsAtATime) {
  ArrivalSpin spin(kLongSpin, kLongLately);
  SocketPair first, second;
  int a = 0, b = 0;
  std::future<bool> spinner =
      std::async(std::launch::async, [&] { return spin.AwaitData(first.server, &a); });
  WaitUntilSpinning(spin);
  second.Send();
  // Data is waiting for the second, but it may not spin: its blocking read will take it.
  EXPECT_FALSE(spin.AwaitData(second.server, &b));
  first.Send();
  EXPECT_TRUE(spinner.get());
}

TEST(ArrivalSpinTest, APeerThatClosedEndsTheSpin) {
  ArrivalSpin spin(kLongSpin, kLongLately);
  SocketPair pair;
  ::close(pair.client);
  pair.client = -1;
  int me = 0;
  EXPECT_FALSE(spin.AwaitData(pair.server, &me));
}

TEST(ArrivalSpinTest, AZeroLimitNeverSpins) {
  ArrivalSpin spin(std::chrono::microseconds(0));
  SocketPair pair;
  SendWhenSpinning peer(spin, pair);
  int me = 0;
  EXPECT_FALSE(spin.AwaitData(pair.server, &me));
}

}  // namespace
}  // namespace basalt::server
