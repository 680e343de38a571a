// The event-driven Thrift server (server/thrift/thrift_server.h) seen by clients on loopback:
// connections hold no thread, so idle ones from a few addresses cannot keep anyone out; a full
// server makes room by closing an idle connection of the client holding the most; pipelined
// requests are answered in order and in one write; a slow reader, slow senders (one byte at a
// time, or a byte a second on a full server) and floods of connections (held, or opened and
// closed) leave the server answering; the bytes held for connections are capped. Clients
// connect from chosen source addresses of 127.0.0.0/8, each one a "client" to the caps.

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TSocket.h>
#include <thrift/transport/TTransportException.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "server/thrift2/thrift2_server.h"
#include "support/test_store.h"
#include "thrift2/gen/THBaseService.h"

namespace basalt::testing {
namespace {

using namespace ::basalt::thrift2;  // NOLINT: the generated types are this test's vocabulary
using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::protocol::TCompactProtocol;
using apache::thrift::protocol::TProtocol;
using apache::thrift::transport::TBufferedTransport;
using apache::thrift::transport::TFramedTransport;
using apache::thrift::transport::TMemoryBuffer;
using apache::thrift::transport::TSocket;
using apache::thrift::transport::TTransport;
using apache::thrift::transport::TTransportException;

// A socket connected to 127.0.0.1:`port` from `source` (any address of 127.0.0.0/8); -1 if the
// connection failed.
int ConnectFrom(const std::string& source, int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  const int one = 1;
  // The port is picked at connect, per destination: many sockets may share a source address.
  ::setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof(one));
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  sockaddr_in from{};
  from.sin_family = AF_INET;
  ::inet_pton(AF_INET, source.c_str(), &from.sin_addr);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(static_cast<uint16_t>(port));
  ::inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&from), sizeof(from)) != 0 ||
      ::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof(to)) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Whether the server closed `fd` within `ms`: it reads the end of the stream (or a reset).
bool ClosedWithin(int fd, int ms) {
  pollfd p{fd, POLLIN, 0};
  if (::poll(&p, 1, ms) <= 0) return false;
  char byte;
  ssize_t n = ::recv(fd, &byte, 1, MSG_DONTWAIT);
  return n == 0 || (n < 0 && errno == ECONNRESET);
}

// This process's threads.
int ThreadCount() {
  int n = 0;
  if (DIR* dir = ::opendir("/proc/self/task")) {
    while (dirent* e = ::readdir(dir)) n += e->d_name[0] != '.';
    ::closedir(dir);
  }
  return n;
}

// A generated client on its own connection from `source`.
struct Client {
  Client(const std::string& source, int port, bool framed = false, bool compact = false,
         int timeout_ms = 5000) {
    int fd = ConnectFrom(source, port);
    EXPECT_GE(fd, 0) << "connect from " << source;
    socket = std::make_shared<TSocket>(fd);
    socket->setRecvTimeout(timeout_ms);
    if (framed) {
      transport = std::make_shared<TFramedTransport>(socket);
    } else {
      transport = std::make_shared<TBufferedTransport>(socket);
    }
    std::shared_ptr<TProtocol> protocol;
    if (compact) {
      protocol = std::make_shared<TCompactProtocol>(transport);
    } else {
      protocol = std::make_shared<TBinaryProtocol>(transport);
    }
    client = std::make_unique<THBaseServiceClient>(protocol);
  }
  int fd() const { return static_cast<int>(socket->getSocketFD()); }

  std::shared_ptr<TSocket> socket;
  std::shared_ptr<TTransport> transport;
  std::unique_ptr<THBaseServiceClient> client;
};

TGet GetOf(const std::string& row) {
  TGet get;
  get.row = row;
  return get;
}

TPut PutOf(const std::string& row, const std::string& value) {
  TPut put;
  put.row = row;
  TColumnValue cv;
  cv.family = "f";
  cv.qualifier = "q";
  cv.value = value;
  put.columnValues = {cv};
  return put;
}

// The bytes a client sends for `send` (a generated client's send_ call) on a connection of this
// transport and protocol.
std::string RequestBytes(bool framed, bool compact,
                         const std::function<void(THBaseServiceClient&)>& send) {
  auto memory = std::make_shared<TMemoryBuffer>();
  std::shared_ptr<TTransport> transport = memory;
  if (framed) transport = std::make_shared<TFramedTransport>(memory);
  std::shared_ptr<TProtocol> protocol;
  if (compact) {
    protocol = std::make_shared<TCompactProtocol>(transport);
  } else {
    protocol = std::make_shared<TBinaryProtocol>(transport);
  }
  THBaseServiceClient client(protocol);
  send(client);
  return memory->getBufferAsString();
}

void SendAll(int fd, const std::string& bytes) {
  size_t sent = 0;
  while (sent < bytes.size()) {
    ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    ASSERT_GT(n, 0) << std::strerror(errno);
    sent += static_cast<size_t>(n);
  }
}

class ThriftEventServerTest : public ::testing::Test {
 protected:
  void TearDown() override { StopServer(); }

  void StartServer(server::Thrift2ServerOptions options) {
    auto conn = Connection::Open("mem:");
    ASSERT_OK(conn);
    conn_ = std::move(*conn);
    options.bind_address = "127.0.0.1";
    options.port = 0;
    server_ = std::make_unique<server::Thrift2Server>(*conn_, options);
    ASSERT_OK(server_->Start());
    TableDescriptor desc(TableName("default", "t"));
    desc.AddFamily(FamilyDescriptor("f"));
    ASSERT_OK(conn_->admin().CreateTable(desc));
  }

  void StopServer() {
    for (int fd : raw_) ::close(fd);
    raw_.clear();
    if (server_) server_->Stop();
    server_.reset();
    if (conn_) EXPECT_OK(conn_->Close());
    conn_.reset();
  }

  // `n` connections from `source` that send nothing, closed at the end of the test.
  std::vector<int> Idle(const std::string& source, int n) {
    std::vector<int> fds;
    for (int i = 0; i < n; ++i) {
      int fd = ConnectFrom(source, server_->port());
      EXPECT_GE(fd, 0);
      fds.push_back(fd);
      raw_.push_back(fd);
    }
    return fds;
  }

  // The server's answer writes since `from`, once they reach `at_least` (the client may read an
  // answer before the server's thread counts its send) or after 5 s.
  uint64_t AnswerWritesSince(uint64_t from, uint64_t at_least) {
    for (int i = 0; i < 500 && server_->answer_writes() - from < at_least; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return server_->answer_writes() - from;
  }

  // Until the server holds `n` connections (it accepts in its own time).
  void AwaitConnections(size_t n) {
    for (int i = 0; i < 500 && server_->connections() != n; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_EQ(server_->connections(), n);
  }

  std::unique_ptr<Connection> conn_;
  std::unique_ptr<server::Thrift2Server> server_;
  std::vector<int> raw_;
};

// The attack pass: two addresses took every worker thread of the thread-per-connection server
// (32 in all, 24 per address): connections that had called once, then stayed idle as a pool's
// do, each held a thread while it waited for its next call, and a new client's first call timed
// out. Connections hold no thread now: 40 such connections from two addresses leave a third
// answered, and they are not closed to make room.
TEST_F(ThriftEventServerTest, IdleConnectionsFromTwoAddressesDoNotKeepANewClientOut) {
  StartServer({});
  std::vector<std::unique_ptr<Client>> holders;
  for (int i = 0; i < 40; ++i) {
    holders.push_back(std::make_unique<Client>(i % 2 == 0 ? "127.0.0.2" : "127.0.0.3",
                                               server_->port(), false, false, 2000));
    try {
      holders.back()->client->exists("t", GetOf("r"));
    } catch (const TTransportException&) {
      // The old server: past its 32 threads, a holder waits in the backlog.
    }
  }
  Client fresh("127.0.0.4", server_->port(), false, false, 2000);
  EXPECT_FALSE(fresh.client->exists("t", GetOf("r")));
  for (auto& holder : holders) EXPECT_FALSE(holder->client->exists("t", GetOf("r")));
}

// A full server makes room: the new connection takes the place of the connection idle longest
// of the client holding the most, and the other clients' connections are left alone.
TEST_F(ThriftEventServerTest, AFullServerAdmitsANewClientByClosingAnIdleConnectionOfTheBiggest) {
  server::Thrift2ServerOptions options;
  options.max_connections = 10;
  options.max_connections_per_client = 8;
  StartServer(options);
  std::vector<int> many = Idle("127.0.0.2", 7);
  std::vector<std::unique_ptr<Client>> few;
  for (int i = 0; i < 3; ++i) {
    few.push_back(std::make_unique<Client>("127.0.0.3", server_->port()));
    ASSERT_FALSE(few.back()->client->exists("t", GetOf("r")));
  }
  AwaitConnections(10);

  std::vector<std::unique_ptr<Client>> newcomers;
  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE("newcomer " + std::to_string(i));
    newcomers.push_back(
        std::make_unique<Client>("127.0.0." + std::to_string(10 + i), server_->port()));
    EXPECT_FALSE(newcomers.back()->client->exists("t", GetOf("r")));
    EXPECT_EQ(server_->connections(), 10u);
    EXPECT_EQ(server_->connections_shed(), static_cast<uint64_t>(i + 1));
    int closed = 0;
    for (int fd : many) closed += ClosedWithin(fd, 0) ? 1 : 0;
    // Closes are seen in their own time: wait for the one expected.
    for (int tries = 0; closed < i + 1 && tries < 200; ++tries) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      closed = 0;
      for (int fd : many) closed += ClosedWithin(fd, 0) ? 1 : 0;
    }
    EXPECT_EQ(closed, i + 1) << "the client holding the most lost one per newcomer";
  }
  for (auto& c : few) EXPECT_FALSE(c->client->exists("t", GetOf("r")));
  for (auto& c : newcomers) EXPECT_FALSE(c->client->exists("t", GetOf("r")));
}

// Requests written back to back in one write are answered in order, on every transport, and
// their answers go out together: the whole batch (a few KB) arrives in one read on loopback,
// and its 150 answers in one send (two if the read was split), where a server answering each
// request on its own would send 150 times.
TEST_F(ThriftEventServerTest, PipelinedRequestsAreAnsweredInOrderInOneWrite) {
  for (bool framed : {false, true}) {
    for (bool compact : {false, true}) {
      SCOPED_TRACE(std::string(framed ? "framed" : "buffered") +
                   (compact ? " compact" : " binary"));
      StopServer();
      server::Thrift2ServerOptions options;
      options.framed = framed;
      options.compact = compact;
      StartServer(options);
      Client c("127.0.0.2", server_->port(), framed, compact);
      std::string batch;
      for (int i = 0; i < 50; ++i) {
        const std::string row = "r" + std::to_string(i);
        batch += RequestBytes(framed, compact, [&](THBaseServiceClient& client) {
          client.send_put("t", PutOf(row, "v" + std::to_string(i)));
          client.send_get("t", GetOf(row));
          client.send_exists("t", GetOf(row + "-missing"));
        });
      }
      const uint64_t calls = server_->calls();
      const uint64_t writes = server_->answer_writes();
      SendAll(c.fd(), batch);
      for (int i = 0; i < 50; ++i) {
        ASSERT_NO_THROW(c.client->recv_put()) << i;
        TResult result;
        c.client->recv_get(result);
        ASSERT_EQ(result.columnValues.size(), 1u) << i;
        EXPECT_EQ(result.columnValues[0].value, "v" + std::to_string(i));
        EXPECT_FALSE(c.client->recv_exists());
      }
      EXPECT_EQ(server_->calls() - calls, 150u);
      const uint64_t sends = AnswerWritesSince(writes, 1);
      EXPECT_GE(sends, 1u);
      EXPECT_LE(sends, 2u);
    }
  }
}

// A client that waits for each answer before it sends the next request gets each in its own
// send, as before pipelined answers were batched: nothing waits for a batch to fill.
TEST_F(ThriftEventServerTest, AClientWaitingForEachAnswerGetsOneWriteACall) {
  StartServer({});
  Client c("127.0.0.2", server_->port());
  const uint64_t writes = server_->answer_writes();
  for (int i = 0; i < 20; ++i) {
    c.client->put("t", PutOf("r" + std::to_string(i), "v"));
    EXPECT_TRUE(c.client->exists("t", GetOf("r" + std::to_string(i))));
  }
  EXPECT_EQ(AnswerWritesSince(writes, 40), 40u);
}

// A client that does not read a large answer holds no thread: with one thread, another client
// is answered while 16 MiB wait to be sent, and the slow client still gets all of it.
TEST_F(ThriftEventServerTest, ASlowReaderOfALargeAnswerHoldsNoThread) {
  server::Thrift2ServerOptions options;
  options.worker_threads = 1;
  StartServer(options);
  Client writer("127.0.0.2", server_->port());
  const std::string mib(1 << 20, 'x');
  for (int i = 0; i < 20; ++i) {
    char row[8];
    std::snprintf(row, sizeof(row), "r%02d", i);
    writer.client->put("t", PutOf(row, mib));
  }
  Client slow("127.0.0.3", server_->port());
  const int32_t id = slow.client->openScanner("t", TScan());
  SendAll(slow.fd(), RequestBytes(false, false, [&](THBaseServiceClient& c) {
            c.send_getScannerRows(id, 1000);
          }));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the answer is made, unread
  Client other("127.0.0.4", server_->port());
  EXPECT_TRUE(other.client->exists("t", GetOf("r00")));
  std::vector<TResult> rows;
  slow.client->recv_getScannerRows(rows);
  EXPECT_EQ(rows.size(), 16u);  // the result cap
}

// Slow senders, a byte at a time, hold no thread and are answered once their request is whole;
// meanwhile another client is answered at every step.
TEST_F(ThriftEventServerTest, RequestsArrivingAByteAtATimeLeaveTheServerAnswering) {
  for (bool framed : {false, true}) {
    SCOPED_TRACE(framed ? "framed compact" : "buffered binary");
    StopServer();
    server::Thrift2ServerOptions options;
    options.framed = framed;
    options.compact = framed;
    options.worker_threads = 2;
    StartServer(options);
    Client steady("127.0.0.2", server_->port(), framed, framed);
    steady.client->put("t", PutOf("there", "v"));
    std::vector<std::unique_ptr<Client>> slow;
    for (int i = 0; i < 50; ++i) {
      slow.push_back(std::make_unique<Client>("127.0.0." + std::to_string(3 + i % 5),
                                              server_->port(), framed, framed));
    }
    const std::string request = RequestBytes(
        framed, framed, [](THBaseServiceClient& c) { c.send_exists("t", GetOf("there")); });
    for (size_t at = 0; at < request.size(); ++at) {
      for (auto& s : slow) SendAll(s->fd(), request.substr(at, 1));
      if (at % 4 == 0) {
        ASSERT_TRUE(steady.client->exists("t", GetOf("there"))) << "byte " << at;
      }
    }
    for (auto& s : slow) EXPECT_TRUE(s->client->recv_exists());
  }
}

// A flood of connections from many addresses, past the server's cap, leaves a client that keeps
// calling answered, and a new client after it too.
TEST_F(ThriftEventServerTest, AConnectionFloodLeavesTheServerAnswering) {
  server::Thrift2ServerOptions options;
  options.max_connections = 300;
  options.max_connections_per_client = 100;
  StartServer(options);
  Client steady("127.0.0.2", server_->port());
  ASSERT_FALSE(steady.client->exists("t", GetOf("r")));
  int calls = 0;
  for (int i = 0; i < 3000; ++i) {
    int fd = ConnectFrom("127.0.1." + std::to_string(1 + i % 30), server_->port());
    if (fd >= 0) raw_.push_back(fd);
    if (i % 100 == 0) {
      ASSERT_FALSE(steady.client->exists("t", GetOf("r"))) << "after " << i << " connections";
      ++calls;
    }
  }
  EXPECT_EQ(calls, 30);
  EXPECT_LE(server_->connections(), 300u);
  EXPECT_GT(server_->connections_shed(), 0u);
  Client fresh("127.0.0.3", server_->port());
  EXPECT_FALSE(fresh.client->exists("t", GetOf("r")));
  EXPECT_FALSE(steady.client->exists("t", GetOf("r")));
}

// A slow loris: a full server's every connection sends one byte of a request about once a
// second and never completes one. The bytes keep each connection from the idle timeout, but not
// from being shed: "idle" counts from the last complete request, so each new client takes the
// place of a loris, is answered, and a client that kept calling throughout is never the one
// closed. Bounded: three rounds, a second apart.
TEST_F(ThriftEventServerTest, ASlowLorisFillingTheServerLeavesNewClientsAnswered) {
  server::Thrift2ServerOptions options;
  options.max_connections = 61;
  options.max_connections_per_client = 10;
  StartServer(options);
  Client steady("127.0.0.2", server_->port());
  ASSERT_FALSE(steady.client->exists("t", GetOf("r")));
  const std::string request =
      RequestBytes(false, false, [](THBaseServiceClient& c) { c.send_put("t", PutOf("r", "v")); });
  std::vector<int> lorises;
  for (int i = 0; i < 60; ++i) {
    const int fd = ConnectFrom("127.0.2." + std::to_string(1 + i / 10), server_->port());
    ASSERT_GE(fd, 0);
    raw_.push_back(fd);
    lorises.push_back(fd);
  }
  AwaitConnections(61);
  std::vector<std::unique_ptr<Client>> newcomers;
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    // MSG_NOSIGNAL, unchecked: a loris the server has shed fails its send, as it should.
    for (int fd : lorises) ::send(fd, request.data() + round, 1, MSG_NOSIGNAL | MSG_DONTWAIT);
    for (int i = 0; i < 3; ++i) {
      newcomers.push_back(std::make_unique<Client>("127.0.3." + std::to_string(1 + round * 3 + i),
                                                   server_->port(), false, false, 10000));
      EXPECT_FALSE(newcomers.back()->client->exists("t", GetOf("r")));
    }
    EXPECT_FALSE(steady.client->exists("t", GetOf("r")));
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  EXPECT_LE(server_->connections(), 61u);
  EXPECT_GE(server_->connections_shed(), 9u);
  for (auto& c : newcomers) EXPECT_FALSE(c->client->exists("t", GetOf("r")));
  // Closes are seen in their own time: wait for the ones expected.
  int closed = 0;
  for (int tries = 0; closed < 9 && tries < 200; ++tries) {
    if (tries > 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    closed = 0;
    for (int fd : lorises) closed += ClosedWithin(fd, 0) ? 1 : 0;
  }
  EXPECT_GE(closed, 9) << "each newcomer took a loris's place";
}

// A flood of connections opened and closed as fast as four threads can for two seconds (some
// closed with a reset, some after half a request) leaves a client calling throughout answered,
// a new client answered after it, and the server holding none of the flood's connections.
TEST_F(ThriftEventServerTest, AnOpenAndCloseFloodLeavesTheServerAnswering) {
  StartServer({});
  Client steady("127.0.0.2", server_->port());
  ASSERT_FALSE(steady.client->exists("t", GetOf("r")));
  const std::string request =
      RequestBytes(false, false, [](THBaseServiceClient& c) { c.send_exists("t", GetOf("r")); });
  std::atomic<bool> stop{false};
  std::atomic<int64_t> opened{0};
  std::vector<std::thread> flood;
  for (int t = 0; t < 4; ++t) {
    flood.emplace_back([&, t] {
      for (int64_t i = 0; !stop.load(); ++i) {
        const int fd =
            ConnectFrom("127.0.4." + std::to_string(1 + t * 50 + i % 50), server_->port());
        if (fd < 0) continue;
        opened.fetch_add(1);
        if (i % 3 == 1) {
          const linger reset{1, 0};
          ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
        } else if (i % 3 == 2) {
          ::send(fd, request.data(), request.size() / 2, MSG_NOSIGNAL);
        }
        ::close(fd);
      }
    });
  }
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  int calls = 0;
  while (std::chrono::steady_clock::now() < until) {
    EXPECT_FALSE(steady.client->exists("t", GetOf("r"))) << "call " << calls;
    ++calls;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  stop.store(true);
  for (auto& t : flood) t.join();
  EXPECT_GT(opened.load(), 200) << "the flood opened too few connections to test anything";
  EXPECT_GT(calls, 10);
  Client fresh("127.0.0.3", server_->port());
  EXPECT_FALSE(fresh.client->exists("t", GetOf("r")));
  EXPECT_FALSE(steady.client->exists("t", GetOf("r")));
  AwaitConnections(2);
}

// Requests not yet complete (and answers not yet read) are held in memory: past the cap on those
// bytes, the connection holding the most is closed and the rest are served.
TEST_F(ThriftEventServerTest, BytesHeldPastTheCapCloseTheConnectionHoldingTheMost) {
  server::Thrift2ServerOptions options;
  options.max_buffered_bytes = 8 << 20;
  StartServer(options);
  // put("t", TPut{row: <a 50 MiB string, of which the first 3 MiB are sent>}), three times.
  std::string start = RequestBytes(false, false, [](THBaseServiceClient& c) {
    c.send_put("t", PutOf(std::string(1, 'r'), "v"));
  });
  // Cut the real request after its row's length prefix and declare 50 MiB instead.
  const std::string marker = std::string("\x00\x00\x00\x01r", 5);
  const size_t at = start.find(marker);
  ASSERT_NE(at, std::string::npos);
  start = start.substr(0, at);
  const int32_t declared = 50 << 20;
  for (int shift : {24, 16, 8, 0}) start.push_back(static_cast<char>(declared >> shift));
  std::vector<int> holders;
  for (int i = 0; i < 3; ++i) {
    int fd = ConnectFrom("127.0.0." + std::to_string(2 + i), server_->port());
    ASSERT_GE(fd, 0);
    raw_.push_back(fd);
    holders.push_back(fd);
    SendAll(fd, start + std::string((3 << 20) + i * 1000, 'x'));
  }
  int closed = 0;
  for (int tries = 0; closed == 0 && tries < 500; ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    for (int fd : holders) closed += ClosedWithin(fd, 0) ? 1 : 0;
  }
  EXPECT_GE(closed, 1);
  EXPECT_GE(server_->connections_shed(), 1u);
  Client other("127.0.0.9", server_->port());
  EXPECT_FALSE(other.client->exists("t", GetOf("r")));
}

TEST_F(ThriftEventServerTest, AConnectionIdlePastTheReadTimeoutIsClosed) {
  server::Thrift2ServerOptions options;
  options.read_timeout = std::chrono::milliseconds(300);
  StartServer(options);
  Client c("127.0.0.2", server_->port());
  EXPECT_FALSE(c.client->exists("t", GetOf("r")));
  EXPECT_TRUE(ClosedWithin(c.fd(), 5000));
  EXPECT_EQ(server_->connections(), 0u);
}

// No thread per connection: 500 connections, each having called, leave the process's threads as
// they were.
TEST_F(ThriftEventServerTest, ConnectionsTakeNoThreads) {
  StartServer({});
  Client first("127.0.0.2", server_->port());
  ASSERT_FALSE(first.client->exists("t", GetOf("r")));
  const int threads = ThreadCount();
  std::vector<std::unique_ptr<Client>> clients;
  for (int i = 0; i < 500; ++i) {
    clients.push_back(
        std::make_unique<Client>("127.0.0." + std::to_string(2 + i % 5), server_->port()));
    ASSERT_FALSE(clients.back()->client->exists("t", GetOf("r"))) << i;
  }
  EXPECT_EQ(server_->connections(), 501u);
  EXPECT_LE(ThreadCount(), threads + 2);
}

}  // namespace
}  // namespace basalt::testing
