// Connections held by a real `basalt serve`: 10,000 idle Thrift2 connections (half of them having
// made a call, as a pool's idle connections have) and 1,000 busy ones, from many loopback source
// addresses, with the server's memory measured per connection (VmRSS in /proc/PID/status), its
// threads counted (/proc/PID/task) before and after, and new clients' calls answered meanwhile;
// then the same for idle connections on the Thrift1 and native RPC ports, which run on the same
// event server. Heavy (11,000 sockets each side, about 30 s in all): labelled `thrift_load`, so
// it runs with the release flags, not under the sanitizers. Speed is not asserted (the
// connection's p99 is measured by bench/connections_bench.py); the figures are printed.
//
// The test process raises its own RLIMIT_NOFILE to the hard limit (`basalt serve` raises its
// own), and needs at least 12,000.

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TSocket.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "hbase_proto/proto/Client.pb.h"
#include "support/raw_rpc_client.h"
#include "support/test_store.h"
#include "thrift1/gen/Hbase.h"
#include "thrift2/gen/THBaseService.h"

namespace basalt::testing {
namespace {

using namespace ::basalt::thrift2;  // NOLINT: the generated types are this test's vocabulary
using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::transport::TBufferedTransport;
using apache::thrift::transport::TSocket;

constexpr int kIdleNeverCalled = 5000;
constexpr int kIdleAfterACall = 5000;
constexpr int kActive = 1000;
constexpr int kActiveThreads = 8;
constexpr int kFreshClients = 200;
// On each of Thrift1's and the native RPC's ports.
constexpr int kIdleOtherPorts = 4000;

// `basalt serve` on a fresh data directory: Thrift2 on a free port, and, with `every_port`,
// Thrift1 and HBase's native RPC too (otherwise off).
class Server {
 public:
  explicit Server(const std::string& dir, bool every_port = false) {
    int out[2];
    EXPECT_EQ(::pipe(out), 0);
    const std::string log = dir + "/serve.log";
    std::vector<std::string> args = {BASALT_BINARY,
                                     "serve",
                                     "--data",
                                     dir + "/data",
                                     "--port",
                                     "0",
                                     "--thrift-port",
                                     "0",
                                     "--access-log",
                                     "/dev/null",
                                     "--thrift-max-connections",
                                     "20000",
                                     "--thrift-max-connections-per-client",
                                     "1000"};
    if (every_port) {
      args.insert(args.end(), {"--thrift1-port", "0", "--hbase-rpc-port", "0"});
    } else {
      args.insert(args.end(), {"--no-thrift1", "--no-hbase-rpc"});
    }
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(out[1], 1);
      FILE* err = std::fopen(log.c_str(), "w");
      if (err != nullptr) ::dup2(fileno(err), 2);
      ::close(out[0]);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(BASALT_BINARY, argv.data());
      ::_exit(127);
    }
    ::close(out[1]);
    std::string line;
    const std::regex thrift2("thrift2 on [0-9.]+:(\\d+)");
    const std::regex thrift1("thrift1 on [0-9.]+:(\\d+)");
    const std::regex hbase_rpc("hbase-rpc on [0-9.]+:(\\d+)");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
      pollfd p{out[0], POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0) continue;
      char c;
      if (::read(out[0], &c, 1) <= 0) break;
      if (c != '\n') {
        line.push_back(c);
        continue;
      }
      std::smatch m;
      if (std::regex_search(line, m, thrift2)) port_ = std::stoi(m[1].str());
      if (std::regex_search(line, m, thrift1)) thrift1_port_ = std::stoi(m[1].str());
      if (std::regex_search(line, m, hbase_rpc)) hbase_rpc_port_ = std::stoi(m[1].str());
      if (line.find("listening on http") != std::string::npos) break;
      line.clear();
    }
    stdout_ = out[0];
  }

  ~Server() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      int status = 0;
      ::waitpid(pid_, &status, 0);
    }
    if (stdout_ >= 0) ::close(stdout_);
  }

  int port() const { return port_; }
  int thrift1_port() const { return thrift1_port_; }
  int hbase_rpc_port() const { return hbase_rpc_port_; }

  int64_t RssKb() const {
    std::ifstream status("/proc/" + std::to_string(pid_) + "/status");
    std::string line;
    while (std::getline(status, line)) {
      if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6));
    }
    return -1;
  }

  int Threads() const {
    int n = 0;
    if (DIR* dir = ::opendir(("/proc/" + std::to_string(pid_) + "/task").c_str())) {
      while (dirent* e = ::readdir(dir)) n += e->d_name[0] != '.';
      ::closedir(dir);
    }
    return n;
  }

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  int thrift1_port_ = 0;
  int hbase_rpc_port_ = 0;
  int stdout_ = -1;
};

int ConnectFrom(const std::string& source, int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  const int one = 1;
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

// A generated client on a connection from `source`.
struct Client {
  Client(const std::string& source, int port) {
    const int fd = ConnectFrom(source, port);
    EXPECT_GE(fd, 0) << "connect from " << source << ": " << std::strerror(errno);
    socket = std::make_shared<TSocket>(fd);
    socket->setRecvTimeout(30000);
    transport = std::make_shared<TBufferedTransport>(socket);
    client = std::make_unique<THBaseServiceClient>(std::make_shared<TBinaryProtocol>(transport));
  }
  std::shared_ptr<TSocket> socket;
  std::shared_ptr<TBufferedTransport> transport;
  std::unique_ptr<THBaseServiceClient> client;
};

TGet GetOf(const std::string& row) {
  TGet get;
  get.row = row;
  return get;
}

// A Thrift1 client on a connection from `source`.
struct Thrift1Client {
  Thrift1Client(const std::string& source, int port) {
    const int fd = ConnectFrom(source, port);
    EXPECT_GE(fd, 0) << "connect from " << source << ": " << std::strerror(errno);
    socket = std::make_shared<TSocket>(fd);
    socket->setRecvTimeout(30000);
    transport = std::make_shared<TBufferedTransport>(socket);
    client = std::make_unique<::basalt::thrift1::HbaseClient>(
        std::make_shared<TBinaryProtocol>(transport));
  }
  // Whether the server lists table `t`.
  bool ListsTheTable() {
    std::vector<std::string> names;
    client->getTableNames(names);
    return std::find(names.begin(), names.end(), "t") != names.end();
  }
  std::shared_ptr<TSocket> socket;
  std::shared_ptr<TBufferedTransport> transport;
  std::unique_ptr<::basalt::thrift1::HbaseClient> client;
};

// A connection to HBase's native RPC port, set up as HBase's client sets one up (the preamble and
// the connection header, ClientService), from `source`.
class RpcConnection {
 public:
  RpcConnection(const std::string& source, int port)
      : client_(ConnectFrom(source, port), "ClientService", std::chrono::seconds(30)) {
    EXPECT_TRUE(client_.ok()) << "connect from " << source << ": " << std::strerror(errno);
  }

  // A scan of hbase:meta, as a client locating table `t` makes: whether it was answered with
  // the table's region.
  bool LocatesTheTable(uint32_t call_id) {
    ::hbase::pb::ScanRequest scan;
    scan.mutable_region()->set_type(::hbase::pb::RegionSpecifier::REGION_NAME);
    scan.mutable_region()->set_value("hbase:meta,,1");
    scan.mutable_scan()->add_column()->set_family("info");
    scan.set_number_of_rows(10);
    ::hbase::pb::ResponseHeader header;
    std::string message;
    ::hbase::pb::ScanResponse answer;
    return client_.Call(call_id, "Scan", scan) && client_.Read(&header, &message) &&
           !header.has_exception() && header.call_id() == call_id &&
           answer.ParseFromString(message) && answer.results_size() > 0;
  }

 private:
  RawRpcClient client_;
};

// The address of the `i`-th connection of a group: 250 a source address, in 127.0.<block>.x.
std::string Source(int block, int i) {
  return "127.0." + std::to_string(block + i / 250 / 250) + "." + std::to_string(1 + i / 250 % 250);
}

double Percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

// Table `t` (family `f`) with row `r`, through Thrift2.
void CreateTableWithARow(int port) {
  {
    Client admin("127.0.0.1", port);
    TTableDescriptor desc;
    desc.tableName.__set_ns("default");
    desc.tableName.qualifier = "t";
    TColumnFamilyDescriptor family;
    family.name = "f";
    desc.__set_columns({family});
    admin.client->createTable(desc, {});
    TPut put;
    put.row = "r";
    TColumnValue cv;
    cv.family = "f";
    cv.qualifier = "q";
    cv.value = std::string(100, 'v');
    put.columnValues = {cv};
    admin.client->put("t", put);
  }
}

TEST(ThriftConnectionsLoadTest, TenThousandIdleAndAThousandBusyConnectionsOnAFixedPool) {
  rlimit limit{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &limit), 0);
  limit.rlim_cur = limit.rlim_max;
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &limit), 0);
  const int needed = kIdleNeverCalled + kIdleAfterACall + kActive + 1000;
  ASSERT_GE(limit.rlim_cur, static_cast<rlim_t>(needed))
      << "this test holds " << needed << " sockets: raise the hard RLIMIT_NOFILE (ulimit -Hn)";

  TempDir dir;
  Server server(dir.path());
  ASSERT_GT(server.port(), 0) << "basalt serve did not start";
  CreateTableWithARow(server.port());
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const int64_t rss_start = server.RssKb();
  const int threads_start = server.Threads();

  // Idle connections that never call (what an attacker holds).
  std::vector<int> never_called;
  for (int i = 0; i < kIdleNeverCalled; ++i) {
    const int fd = ConnectFrom(Source(2, i), server.port());
    ASSERT_GE(fd, 0) << "connection " << i << ": " << std::strerror(errno);
    never_called.push_back(fd);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));  // the server takes them in
  const int64_t rss_never_called = server.RssKb();

  // Idle connections that have called once (what a pool holds): each has its handler.
  std::vector<std::unique_ptr<Client>> called;
  for (int i = 0; i < kIdleAfterACall; ++i) {
    called.push_back(std::make_unique<Client>(Source(30, i), server.port()));
    ASSERT_TRUE(called.back()->client->exists("t", GetOf("r"))) << "connection " << i;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const int64_t rss_idle = server.RssKb();
  const int threads_idle = server.Threads();

  // 1,000 busy connections: each thread keeps a call in flight on each of its connections.
  std::vector<std::unique_ptr<Client>> active;
  for (int i = 0; i < kActive; ++i)
    active.push_back(std::make_unique<Client>(Source(60, i), server.port()));
  std::atomic<bool> stop{false};
  std::atomic<int64_t> calls{0};
  std::atomic<int> failures{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < kActiveThreads; ++t) {
    workers.emplace_back([&, t] {
      const int per = kActive / kActiveThreads;
      while (!stop.load()) {
        try {
          for (int i = t * per; i < (t + 1) * per; ++i)
            active[i]->client->send_get("t", GetOf("r"));
          for (int i = t * per; i < (t + 1) * per; ++i) {
            TResult result;
            active[i]->client->recv_get(result);
            if (result.columnValues.size() != 1) failures.fetch_add(1);
          }
          calls.fetch_add(per);
        } catch (const std::exception& e) {
          std::cerr << "busy connection: " << e.what() << "\n";
          failures.fetch_add(1);
          return;
        }
      }
    });
  }

  // Meanwhile, new clients: each connects and calls once.
  std::vector<double> fresh_ms;
  for (int i = 0; i < kFreshClients; ++i) {
    const auto started = std::chrono::steady_clock::now();
    Client fresh(Source(90, i), server.port());
    EXPECT_TRUE(fresh.client->exists("t", GetOf("r"))) << "fresh client " << i;
    fresh_ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count());
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const int64_t rss_busy = server.RssKb();
  const int threads_busy = server.Threads();
  stop.store(true);
  for (auto& w : workers) w.join();

  EXPECT_EQ(failures.load(), 0);
  EXPECT_GT(calls.load(), 0);
  // No thread per connection: 11,000 connections, and the threads the server started with.
  EXPECT_LE(threads_idle, threads_start + 2);
  EXPECT_LE(threads_busy, threads_start + 2);
  const double never_called_kib =
      static_cast<double>(rss_never_called - rss_start) / kIdleNeverCalled;
  const double called_kib = static_cast<double>(rss_idle - rss_never_called) / kIdleAfterACall;
  // Generous bounds: a thread per connection alone would take its stack's touched pages.
  EXPECT_LT(never_called_kib, 16.0);
  EXPECT_LT(called_kib, 64.0);
  std::cout << "basalt serve, Thrift2: RSS " << rss_start / 1024 << " MiB at the start; "
            << kIdleNeverCalled << " idle connections that never called: +"
            << (rss_never_called - rss_start) / 1024 << " MiB (" << never_called_kib
            << " KiB each); " << kIdleAfterACall << " idle after one call: +"
            << (rss_idle - rss_never_called) / 1024 << " MiB (" << called_kib << " KiB each); "
            << kActive << " busy ones on top: " << rss_busy / 1024
            << " MiB in all. Threads: " << threads_start << " at the start, " << threads_idle
            << " with 10,000 idle, " << threads_busy
            << " with 1,000 busy too. Busy calls: " << calls.load()
            << ". A new client's connect and first call, " << kFreshClients << " of them: p50 "
            << Percentile(fresh_ms, 0.5) << " ms, p99 " << Percentile(fresh_ms, 0.99) << " ms, max "
            << Percentile(fresh_ms, 1.0) << " ms\n";
  for (int fd : never_called) ::close(fd);
}

// Thrift1 and HBase's native RPC serve on the same event server: 4,000 idle connections on each
// port (half never called, half having called once: a Thrift1 call, or a native connection set
// up and its first call made), from many source addresses, take no thread, and new clients of
// both are answered meanwhile.
TEST(ThriftConnectionsLoadTest, IdleConnectionsOnTheThrift1AndNativeRpcPortsTakeNoThreads) {
  rlimit limit{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &limit), 0);
  limit.rlim_cur = limit.rlim_max;
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &limit), 0);
  const int needed = 2 * kIdleOtherPorts + 1000;
  ASSERT_GE(limit.rlim_cur, static_cast<rlim_t>(needed))
      << "this test holds " << needed << " sockets: raise the hard RLIMIT_NOFILE (ulimit -Hn)";

  TempDir dir;
  Server server(dir.path(), /*every_port=*/true);
  ASSERT_GT(server.port(), 0) << "basalt serve did not start";
  ASSERT_GT(server.thrift1_port(), 0) << "basalt serve did not say its Thrift1 port";
  ASSERT_GT(server.hbase_rpc_port(), 0) << "basalt serve did not say its native RPC port";
  CreateTableWithARow(server.port());
  {
    RpcConnection first("127.0.0.1", server.hbase_rpc_port());
    ASSERT_TRUE(first.LocatesTheTable(1));
    Thrift1Client thrift1("127.0.0.1", server.thrift1_port());
    ASSERT_TRUE(thrift1.ListsTheTable());
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const int64_t rss_start = server.RssKb();
  const int threads_start = server.Threads();
  const int half = kIdleOtherPorts / 2;

  std::vector<int> never_called;
  for (int i = 0; i < half; ++i) {
    const int fd = ConnectFrom(Source(120, i), server.thrift1_port());
    ASSERT_GE(fd, 0) << "Thrift1 connection " << i << ": " << std::strerror(errno);
    never_called.push_back(fd);
  }
  std::vector<std::unique_ptr<Thrift1Client>> thrift1;
  for (int i = 0; i < half; ++i) {
    thrift1.push_back(std::make_unique<Thrift1Client>(Source(150, i), server.thrift1_port()));
    ASSERT_TRUE(thrift1.back()->ListsTheTable()) << "Thrift1 connection " << half + i;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const int64_t rss_thrift1 = server.RssKb();

  for (int i = 0; i < half; ++i) {
    const int fd = ConnectFrom(Source(180, i), server.hbase_rpc_port());
    ASSERT_GE(fd, 0) << "native RPC connection " << i << ": " << std::strerror(errno);
    never_called.push_back(fd);
  }
  std::vector<std::unique_ptr<RpcConnection>> rpc;
  for (int i = 0; i < half; ++i) {
    rpc.push_back(std::make_unique<RpcConnection>(Source(210, i), server.hbase_rpc_port()));
    ASSERT_TRUE(rpc.back()->LocatesTheTable(1)) << "native RPC connection " << half + i;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const int64_t rss_rpc = server.RssKb();
  const int threads_idle = server.Threads();

  // New clients of both, while everything is held.
  for (int i = 0; i < kFreshClients / 2; ++i) {
    Thrift1Client fresh1(Source(240, i), server.thrift1_port());
    EXPECT_TRUE(fresh1.ListsTheTable()) << "fresh Thrift1 client " << i;
    RpcConnection fresh_rpc(Source(240, i), server.hbase_rpc_port());
    EXPECT_TRUE(fresh_rpc.LocatesTheTable(1)) << "fresh native RPC client " << i;
  }
  // Those held are still served.
  EXPECT_TRUE(thrift1.front()->ListsTheTable());
  EXPECT_TRUE(thrift1.back()->ListsTheTable());
  EXPECT_TRUE(rpc.front()->LocatesTheTable(2));
  EXPECT_TRUE(rpc.back()->LocatesTheTable(2));

  EXPECT_LE(threads_idle, threads_start + 2);
  const double thrift1_kib = static_cast<double>(rss_thrift1 - rss_start) / kIdleOtherPorts;
  const double rpc_kib = static_cast<double>(rss_rpc - rss_thrift1) / kIdleOtherPorts;
  // Generous bounds: a thread per connection alone would take its stack's touched pages.
  EXPECT_LT(thrift1_kib, 64.0);
  EXPECT_LT(rpc_kib, 64.0);
  std::cout << "basalt serve: RSS " << rss_start / 1024 << " MiB at the start; " << kIdleOtherPorts
            << " idle Thrift1 connections (half having called): +"
            << (rss_thrift1 - rss_start) / 1024 << " MiB (" << thrift1_kib << " KiB each); "
            << kIdleOtherPorts << " idle native RPC connections (half set up and called): +"
            << (rss_rpc - rss_thrift1) / 1024 << " MiB (" << rpc_kib
            << " KiB each). Threads: " << threads_start << " at the start, " << threads_idle
            << " with them all held\n";
  for (int fd : never_called) ::close(fd);
}

}  // namespace
}  // namespace basalt::testing
