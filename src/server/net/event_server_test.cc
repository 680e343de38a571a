#include "server/net/event_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

namespace basalt::server {
namespace {

// A protocol small enough to read at a glance: every line a client sends comes back to it.
// Counts what the server asks of it, and can hold a connection inside Serve until released.
class EchoLineProtocol : public ConnectionProtocol {
 public:
  class Line : public ServedConnection {
   public:
    Line(int fd, std::string client, EchoLineProtocol& protocol)
        : ServedConnection(fd, std::move(client)), protocol_(protocol) {
      protocol_.live.fetch_add(1);
    }
    ~Line() override { protocol_.live.fetch_sub(1); }

    Next Serve(ServingThreadState& /*thread*/) override {
      char buffer[4096];
      while (true) {
        const ssize_t n = ::recv(fd(), buffer, sizeof(buffer), 0);
        if (n == 0) return Next::kClose;
        if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK ? Next::kRead : Next::kClose;
        pending_.append(buffer, static_cast<size_t>(n));
        last_request_ns.store(SteadyNowNs());
        last_io_ns.store(SteadyNowNs());
        protocol_.HoldIfAsked();
        for (size_t end; (end = pending_.find('\n')) != std::string::npos;) {
          const std::string line = pending_.substr(0, end + 1);
          pending_.erase(0, end + 1);
          // The test's lines are far smaller than a socket buffer: one send takes each.
          if (::send(fd(), line.data(), line.size(), MSG_NOSIGNAL) !=
              static_cast<ssize_t>(line.size())) {
            return Next::kClose;
          }
        }
      }
    }

   private:
    EchoLineProtocol& protocol_;
    std::string pending_;
  };

  std::unique_ptr<ServingThreadState> NewThreadState() override {
    thread_states.fetch_add(1);
    return std::make_unique<ServingThreadState>();
  }

  std::unique_ptr<ServedConnection> NewConnection(int fd, std::string client_address,
                                                  ConnectionTable& /*table*/) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      last_client_ = client_address;
    }
    return std::make_unique<Line>(fd, std::move(client_address), *this);
  }

  void OnReap() override { reaps.fetch_add(1); }

  // From now on, the next connection to read bytes waits in Serve until Release.
  void HoldNextServe() {
    std::lock_guard<std::mutex> lock(mu_);
    hold_ = true;
  }
  // Returns once a connection waits in Serve.
  void AwaitHeld() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return held_; });
  }
  void Release() {
    std::lock_guard<std::mutex> lock(mu_);
    hold_ = false;
    cv_.notify_all();
  }
  std::string last_client() {
    std::lock_guard<std::mutex> lock(mu_);
    return last_client_;
  }

  std::atomic<int> live{0};  // connections made and not yet deleted
  std::atomic<int> thread_states{0};
  std::atomic<int> reaps{0};

 private:
  void HoldIfAsked() {
    std::unique_lock<std::mutex> lock(mu_);
    if (!hold_) return;
    held_ = true;
    cv_.notify_all();
    cv_.wait(lock, [this] { return !hold_; });
  }

  std::mutex mu_;
  std::condition_variable cv_;
  bool hold_ = false;
  bool held_ = false;
  std::string last_client_;
};

EventServerOptions EchoOptions() {
  EventServerOptions o;
  o.name = "echo";
  o.bind_address = "127.0.0.1";
  o.port = 0;
  o.worker_threads = 2;
  o.reap_period = std::chrono::milliseconds(10);
  return o;
}

// A client socket on the loopback, reads timing out after 5 s so that a failing test ends.
int ConnectEcho(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  timeval timeout{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

void SendEcho(int fd, const std::string& text) {
  ASSERT_EQ(::send(fd, text.data(), text.size(), MSG_NOSIGNAL), static_cast<ssize_t>(text.size()));
}

// Bytes up to and including the next newline; what came before the end of the stream (or a
// timeout) when there is none.
std::string ReadEchoLine(int fd) {
  std::string line;
  char c;
  while (::recv(fd, &c, 1, 0) == 1) {
    line.push_back(c);
    if (c == '\n') break;
  }
  return line;
}

// Whether the server closed `fd`: the stream ends (or is reset) before any byte.
bool ClosedByServer(int fd) {
  char c;
  const ssize_t n = ::recv(fd, &c, 1, 0);
  return n == 0 || (n < 0 && errno == ECONNRESET);
}

template <class Condition>
bool EventuallyTrue(Condition condition) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

TEST(EventServerTest, EchoesEachConnectionsLinesAndEndsItWhenTheClientCloses) {
  EchoLineProtocol protocol;
  EventServer server(EchoOptions(), protocol);
  ASSERT_TRUE(server.Start().ok());
  ASSERT_GT(server.port(), 0);
  const int a = ConnectEcho(server.port());
  const int b = ConnectEcho(server.port());
  ASSERT_GE(a, 0);
  ASSERT_GE(b, 0);
  SendEcho(a, "one\ntw");
  SendEcho(b, "three\n");
  EXPECT_EQ(ReadEchoLine(a), "one\n");
  EXPECT_EQ(ReadEchoLine(b), "three\n");
  // The rest of a line waits in the connection until it is complete.
  SendEcho(a, "o\n");
  EXPECT_EQ(ReadEchoLine(a), "two\n");
  EXPECT_EQ(server.connections(), 2u);
  EXPECT_EQ(protocol.last_client(), "127.0.0.1");
  EXPECT_TRUE(EventuallyTrue([&] { return protocol.thread_states.load() == 2; }));
  EXPECT_TRUE(EventuallyTrue([&] { return protocol.reaps.load() >= 2; }));
  // A client's close ends its connection, the other goes on.
  ::close(a);
  EXPECT_TRUE(EventuallyTrue([&] { return server.connections() == 1; }));
  SendEcho(b, "four\n");
  EXPECT_EQ(ReadEchoLine(b), "four\n");
  ::close(b);
  server.Stop();
}

TEST(EventServerTest, ClosesAConnectionIdlePastTheReadTimeout) {
  EchoLineProtocol protocol;
  EventServerOptions options = EchoOptions();
  options.read_timeout = std::chrono::milliseconds(200);
  EventServer server(options, protocol);
  ASSERT_TRUE(server.Start().ok());
  const int idle = ConnectEcho(server.port());
  const int talking = ConnectEcho(server.port());
  ASSERT_GE(idle, 0);
  ASSERT_GE(talking, 0);
  const auto start = std::chrono::steady_clock::now();
  // The talking connection has a byte through every 50 ms; the idle one none.
  std::atomic<bool> done{false};
  std::thread talker([&] {
    while (!done.load()) {
      SendEcho(talking, "x\n");
      EXPECT_EQ(ReadEchoLine(talking), "x\n");
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  EXPECT_TRUE(ClosedByServer(idle));
  EXPECT_GE(std::chrono::steady_clock::now() - start, options.read_timeout);
  EXPECT_TRUE(EventuallyTrue([&] { return protocol.live.load() == 1; }));
  std::this_thread::sleep_for(options.read_timeout * 2);
  done.store(true);
  talker.join();
  EXPECT_EQ(server.connections(), 1u);
  ::close(idle);
  ::close(talking);
  server.Stop();
}

TEST(EventServerTest, StopClosesOpenConnectionsAndFreesThePort) {
  EchoLineProtocol protocol;
  auto server = std::make_unique<EventServer>(EchoOptions(), protocol);
  ASSERT_TRUE(server->Start().ok());
  const int port = server->port();
  const int fd = ConnectEcho(port);
  ASSERT_GE(fd, 0);
  SendEcho(fd, "hello\n");
  EXPECT_EQ(ReadEchoLine(fd), "hello\n");
  server->Stop();
  // Every connection is closed and deleted when Stop returns.
  EXPECT_EQ(protocol.live.load(), 0);
  EXPECT_EQ(server->connections(), 0u);
  EXPECT_EQ(server->port(), 0);
  EXPECT_TRUE(ClosedByServer(fd));
  ::close(fd);
  // No reaping after Stop.
  const int reaps = protocol.reaps.load();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(protocol.reaps.load(), reaps);
  server->Stop();  // idempotent
  server.reset();
  // The port is free: a new server binds it.
  EventServerOptions again = EchoOptions();
  again.port = port;
  EchoLineProtocol second;
  EventServer rebound(again, second);
  ASSERT_TRUE(rebound.Start().ok());
  EXPECT_EQ(rebound.port(), port);
}

TEST(EventServerTest, StopWaitsForAConnectionBeingServedAndSendsItsAnswer) {
  EchoLineProtocol protocol;
  EventServer server(EchoOptions(), protocol);
  ASSERT_TRUE(server.Start().ok());
  const int fd = ConnectEcho(server.port());
  ASSERT_GE(fd, 0);
  protocol.HoldNextServe();
  SendEcho(fd, "in flight\n");
  protocol.AwaitHeld();
  auto stopped = std::async(std::launch::async, [&] { server.Stop(); });
  EXPECT_EQ(stopped.wait_for(std::chrono::milliseconds(200)), std::future_status::timeout);
  protocol.Release();
  stopped.get();
  EXPECT_EQ(ReadEchoLine(fd), "in flight\n");
  EXPECT_TRUE(ClosedByServer(fd));
  EXPECT_EQ(protocol.live.load(), 0);
  ::close(fd);
}

TEST(EventServerTest, RefusesAConnectionPastTheClientsShare) {
  EchoLineProtocol protocol;
  EventServerOptions options = EchoOptions();
  options.max_connections_per_client = 1;
  EventServer server(options, protocol);
  ASSERT_TRUE(server.Start().ok());
  const int first = ConnectEcho(server.port());
  ASSERT_GE(first, 0);
  SendEcho(first, "a\n");
  EXPECT_EQ(ReadEchoLine(first), "a\n");
  const int second = ConnectEcho(server.port());
  ASSERT_GE(second, 0);
  // Accepted by the kernel, then closed unserved.
  EXPECT_TRUE(ClosedByServer(second));
  EXPECT_EQ(server.connections(), 1u);
  EXPECT_TRUE(EventuallyTrue([&] { return protocol.live.load() == 1; }));
  SendEcho(first, "b\n");
  EXPECT_EQ(ReadEchoLine(first), "b\n");
  ::close(second);
  ::close(first);
  server.Stop();
}

TEST(EventServerTest, StartTwiceIsAFailedPreconditionAndABoundPortAnIOError) {
  EchoLineProtocol protocol;
  EventServer server(EchoOptions(), protocol);
  ASSERT_TRUE(server.Listen().ok());
  const int port = server.port();
  ASSERT_GT(port, 0);
  ASSERT_TRUE(server.Start().ok());
  EXPECT_EQ(server.port(), port);
  EXPECT_TRUE(server.Start().IsFailedPrecondition());
  EventServerOptions same = EchoOptions();
  same.port = port;
  EchoLineProtocol other;
  EventServer clash(same, other);
  EXPECT_TRUE(clash.Start().IsIOError());
  server.Stop();
}

}  // namespace
}  // namespace basalt::server
