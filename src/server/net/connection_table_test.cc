#include "server/net/connection_table.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace basalt::server {
namespace {

// A connection on one end of a socket pair: the test reads the other end to see whether the
// table shut the connection down.
struct Pair {
  explicit Pair(const std::string& client) {
    int fds[2];
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds), 0);
    peer = fds[1];
    conn = std::make_unique<TrackedConnection>(fds[0], client);
  }
  ~Pair() {
    ::close(conn->fd());
    ::close(peer);
  }
  // Whether the table shut the connection's socket down: the peer reads the end.
  bool shut_down() const {
    char byte;
    return ::recv(peer, &byte, 1, 0) == 0;
  }
  // Idle since `ago_ms` (both clocks).
  void IdleFor(int ago_ms) {
    const int64_t at = SteadyNowNs() - int64_t{ago_ms} * 1'000'000;
    conn->last_request_ns.store(at);
    conn->last_io_ns.store(at);
  }

  int peer = -1;
  std::unique_ptr<TrackedConnection> conn;
};

TEST(ConnectionTableTest, AClientPastItsShareIsRefusedAndAClosedOneMakesRoom) {
  ConnectionTable table("test", 0, 2, 0);
  Pair a("10.0.0.1"), b("10.0.0.1"), c("10.0.0.1"), other("10.0.0.2");
  ASSERT_TRUE(table.Admit(a.conn.get()).ok());
  ASSERT_TRUE(table.Admit(b.conn.get()).ok());
  Status s = table.Admit(c.conn.get());
  EXPECT_TRUE(s.IsBusy());
  EXPECT_NE(s.message().find("too many connections for client 10.0.0.1 (at most 2 per client)"),
            std::string::npos)
      << s.message();
  EXPECT_TRUE(table.Admit(other.conn.get()).ok());
  table.Remove(a.conn.get());
  EXPECT_TRUE(table.Admit(c.conn.get()).ok());
  EXPECT_EQ(table.held_by("10.0.0.1"), 2u);
  EXPECT_EQ(table.size(), 3u);
  for (Pair* p : {&b, &c, &other}) table.Remove(p->conn.get());
  EXPECT_EQ(table.size(), 0u);
}

TEST(ConnectionTableTest, AFullTableClosesTheIdleLongestOfTheClientHoldingTheMost) {
  ConnectionTable table("test", 5, 0, 0);
  std::vector<std::unique_ptr<Pair>> many, few;
  for (int i = 0; i < 3; ++i) many.push_back(std::make_unique<Pair>("10.0.0.1"));
  for (int i = 0; i < 2; ++i) few.push_back(std::make_unique<Pair>("10.0.0.2"));
  for (auto& p : many) ASSERT_TRUE(table.Admit(p->conn.get()).ok());
  for (auto& p : few) ASSERT_TRUE(table.Admit(p->conn.get()).ok());
  // The few's connections are idle longer, but the many hold more.
  many[0]->IdleFor(1000);
  many[1]->IdleFor(5000);  // the oldest of the many, but in a call
  many[1]->conn->busy.store(true);
  many[2]->IdleFor(2000);
  few[0]->IdleFor(60000);
  few[1]->IdleFor(60000);

  Pair newcomer("10.0.0.3");
  ASSERT_TRUE(table.Admit(newcomer.conn.get()).ok());
  EXPECT_TRUE(many[2]->conn->closing());
  EXPECT_TRUE(many[2]->shut_down());
  for (Pair* p : {many[0].get(), many[1].get(), few[0].get(), few[1].get()}) {
    EXPECT_FALSE(p->conn->closing());
  }
  EXPECT_EQ(table.size(), 5u);
  EXPECT_EQ(table.shed(), 1u);
  EXPECT_EQ(table.held_by("10.0.0.1"), 2u);

  // Now both hold two: the newcomer of a holder of two counts its own client too, which then
  // holds the most.
  Pair second("10.0.0.2");
  ASSERT_TRUE(table.Admit(second.conn.get()).ok());
  EXPECT_TRUE(few[0]->conn->closing() || few[1]->conn->closing());
  EXPECT_EQ(table.held_by("10.0.0.2"), 2u);

  // The one left to the many is in a call, the other is its last: when the clients holding the
  // most have every connection in a call, the newcomer is refused.
  many[0]->conn->busy.store(true);
  for (auto& p : few) p->conn->busy.store(true);
  second.conn->busy.store(true);
  newcomer.conn->busy.store(true);
  Pair refused("10.0.0.4");
  Status s = table.Admit(refused.conn.get());
  EXPECT_TRUE(s.IsBusy());
  EXPECT_NE(s.message().find("too many connections on this server (at most 5"), std::string::npos)
      << s.message();

  for (auto& p : many) table.Remove(p->conn.get());
  for (auto& p : few) table.Remove(p->conn.get());
  table.Remove(newcomer.conn.get());
  table.Remove(second.conn.get());
  EXPECT_EQ(table.size(), 0u);
}

TEST(ConnectionTableTest, IdleConnectionsNotInACallAreClosed) {
  ConnectionTable table("test", 0, 0, 0);
  Pair idle("10.0.0.1"), busy("10.0.0.1"), fresh("10.0.0.1");
  for (Pair* p : {&idle, &busy, &fresh}) ASSERT_TRUE(table.Admit(p->conn.get()).ok());
  idle.IdleFor(500);
  busy.IdleFor(500);
  busy.conn->busy.store(true);
  table.CloseIdle(std::chrono::milliseconds(200));
  EXPECT_TRUE(idle.conn->closing());
  EXPECT_TRUE(idle.shut_down());
  EXPECT_FALSE(busy.conn->closing());
  EXPECT_FALSE(fresh.conn->closing());
  // A closing connection no longer counts, but is listed until its thread removes it.
  EXPECT_EQ(table.size(), 2u);
  EXPECT_FALSE(table.WaitEmpty(std::chrono::steady_clock::now()));
  for (Pair* p : {&idle, &busy, &fresh}) table.Remove(p->conn.get());
  EXPECT_TRUE(table.WaitEmpty(std::chrono::steady_clock::now()));
}

TEST(ConnectionTableTest, AConnectionTricklingBytesOfARequestItNeverCompletesIsClosed) {
  ConnectionTable table("test", 0, 0, 0);
  Pair loris("10.0.0.1"), caller("10.0.0.1");
  for (Pair* p : {&loris, &caller}) ASSERT_TRUE(table.Admit(p->conn.get()).ok());
  // Both sent a byte just now; the loris's last complete request is past twice the timeout, the
  // caller's within it.
  loris.IdleFor(500);
  loris.conn->last_io_ns.store(SteadyNowNs());
  caller.IdleFor(300);
  caller.conn->last_io_ns.store(SteadyNowNs());
  table.CloseIdle(std::chrono::milliseconds(200));
  EXPECT_TRUE(loris.conn->closing());
  EXPECT_FALSE(caller.conn->closing());
  for (Pair* p : {&loris, &caller}) table.Remove(p->conn.get());
}

TEST(ConnectionTableTest, BytesHeldPastTheCapCloseTheConnectionHoldingTheMost) {
  ConnectionTable table("test", 0, 0, 1000);
  Pair small("10.0.0.1"), large("10.0.0.2"), reader("10.0.0.3");
  for (Pair* p : {&small, &large, &reader}) ASSERT_TRUE(table.Admit(p->conn.get()).ok());
  table.NoteBuffered(small.conn.get(), 100);
  table.NoteBuffered(large.conn.get(), 700);
  EXPECT_EQ(table.buffered_bytes(), 800u);
  table.NoteBuffered(reader.conn.get(), 300);  // 1,100 > 1,000: the one holding 700 goes
  EXPECT_TRUE(large.conn->closing());
  EXPECT_FALSE(small.conn->closing());
  EXPECT_FALSE(reader.conn->closing());
  EXPECT_EQ(table.buffered_bytes(), 400u);
  table.NoteBuffered(small.conn.get(), 0);
  EXPECT_EQ(table.buffered_bytes(), 300u);
  for (Pair* p : {&small, &large, &reader}) table.Remove(p->conn.get());
  EXPECT_EQ(table.buffered_bytes(), 0u);
}

TEST(ConnectionTableTest, CloseAllRefusesNewOnesAndLeavesCallsToTheirThreads) {
  ConnectionTable table("test", 0, 0, 0);
  Pair idle("10.0.0.1"), in_call("10.0.0.1");
  ASSERT_TRUE(table.Admit(idle.conn.get()).ok());
  ASSERT_TRUE(table.Admit(in_call.conn.get()).ok());
  in_call.conn->busy.store(true);
  table.CloseAll(/*even_busy=*/false);
  EXPECT_TRUE(idle.shut_down());
  EXPECT_TRUE(in_call.conn->closing());
  EXPECT_FALSE(in_call.shut_down());  // its answer may still go out
  Pair late("10.0.0.2");
  EXPECT_TRUE(table.Admit(late.conn.get()).IsBusy());
  table.CloseAll(/*even_busy=*/true);
  EXPECT_TRUE(in_call.shut_down());
  table.Remove(idle.conn.get());
  table.Remove(in_call.conn.get());
}

// Admissions, removals, shedding and the idle sweep from several threads at once. (The server
// as a whole runs under ThreadSanitizer in tests/concurrency/thrift_server_concurrency_test.cc.)
TEST(ConnectionTableTest, ThreadsAdmitRemoveAndSweepAtOnce) {
  ConnectionTable table("test", 40, 30, 1 << 20);
  std::atomic<bool> done{false};
  std::thread sweeper([&] {
    while (!done.load()) table.CloseIdle(std::chrono::milliseconds(1));
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&table, t] {
      std::vector<std::unique_ptr<Pair>> held;
      for (int i = 0; i < 300; ++i) {
        auto p = std::make_unique<Pair>("10.0.0." + std::to_string(t % 2));
        if (table.Admit(p->conn.get()).ok()) {
          table.NoteBuffered(p->conn.get(), 1000 * (i % 7));
          held.push_back(std::move(p));
        }
        if (held.size() > 10 || (i % 3 == 0 && !held.empty())) {
          table.Remove(held.front()->conn.get());
          held.erase(held.begin());
        }
      }
      for (auto& p : held) table.Remove(p->conn.get());
    });
  }
  for (auto& t : threads) t.join();
  done.store(true);
  sweeper.join();
  EXPECT_EQ(table.size(), 0u);
  EXPECT_EQ(table.buffered_bytes(), 0u);
  EXPECT_TRUE(table.WaitEmpty(std::chrono::steady_clock::now()));
}

}  // namespace
}  // namespace basalt::server
