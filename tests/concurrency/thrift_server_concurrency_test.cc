// The event-driven Thrift2 server under many clients at once: connections handed from one
// serving thread to the next, pipelined and reconnecting clients, the idle sweep and shedding
// racing calls, and Stop while clients call. Every call that is not cut off by a close must be
// answered right, and a hot counter must equal the acknowledged increments. Runs under
// ThreadSanitizer too (scripts/test.sh).

#include <gtest/gtest.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TSocket.h>
#include <thrift/transport/TTransportException.h>

#include <atomic>
#include <chrono>
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
using apache::thrift::TException;
using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::transport::TBufferedTransport;
using apache::thrift::transport::TSocket;

struct ThriftClient {
  explicit ThriftClient(int port) {
    socket = std::make_shared<TSocket>("127.0.0.1", port);
    socket->setRecvTimeout(20000);
    transport = std::make_shared<TBufferedTransport>(socket);
    client = std::make_unique<THBaseServiceClient>(std::make_shared<TBinaryProtocol>(transport));
    transport->open();
  }
  std::shared_ptr<TSocket> socket;
  std::shared_ptr<TBufferedTransport> transport;
  std::unique_ptr<THBaseServiceClient> client;
};

TColumnValue Cell(const std::string& q, const std::string& v) {
  TColumnValue cv;
  cv.family = "f";
  cv.qualifier = q;
  cv.value = v;
  return cv;
}

class ThriftServerConcurrencyTest : public ::testing::Test {
 protected:
  void Start(server::Thrift2ServerOptions options) {
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
  void TearDown() override {
    if (server_) server_->Stop();
    server_.reset();
    if (conn_) EXPECT_OK(conn_->Close());
  }

  std::unique_ptr<Connection> conn_;
  std::unique_ptr<server::Thrift2Server> server_;
};

TEST_F(ThriftServerConcurrencyTest, ManyClientsPipelineReconnectAndIncrementAtOnce) {
  server::Thrift2ServerOptions options;
  options.worker_threads = 4;
  Start(options);
  constexpr int kSteady = 6, kReconnecting = 2, kRounds = 200;
  std::atomic<int64_t> increments{0};
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kSteady; ++t) {
    threads.emplace_back([&, t] {
      try {
        ThriftClient c(server_->port());
        for (int i = 0; i < kRounds; ++i) {
          const std::string row = "r" + std::to_string(t) + "-" + std::to_string(i % 5);
          const std::string value = std::to_string(i);
          TPut put;
          put.row = row;
          put.columnValues = {Cell("q", value)};
          TGet get;
          get.row = row;
          TIncrement inc;
          inc.row = "hot";
          TColumnIncrement ci;
          ci.family = "f";
          ci.qualifier = "n";
          inc.columns = {ci};
          // Pipelined: the put, the get of it and an increment in one write.
          c.client->send_put("t", put);
          c.client->send_get("t", get);
          c.client->send_increment("t", inc);
          c.client->recv_put();
          TResult result;
          c.client->recv_get(result);
          if (result.columnValues.size() != 1 || result.columnValues[0].value != value) {
            failures.fetch_add(1);
          }
          TResult counter;
          c.client->recv_increment(counter);
          increments.fetch_add(1);
          if (i % 20 == 0) {
            TScan scan;
            scan.__set_startRow("r" + std::to_string(t) + "-");
            scan.__set_stopRow("r" + std::to_string(t) + ".");
            std::vector<TResult> rows;
            c.client->getScannerResults(rows, "t", scan, 100);
            if (rows.empty()) failures.fetch_add(1);
          }
        }
      } catch (const TException& e) {
        ADD_FAILURE() << "steady client: " << e.what();
        failures.fetch_add(1);
      }
    });
  }
  for (int t = 0; t < kReconnecting; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kRounds / 2; ++i) {
        try {
          ThriftClient c(server_->port());
          TGet get;
          get.row = "nothing";
          if (c.client->exists("t", get)) failures.fetch_add(1);
        } catch (const TException& e) {
          ADD_FAILURE() << "reconnecting client: " << e.what();
          failures.fetch_add(1);
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  ThriftClient check(server_->port());
  TGet hot;
  hot.row = "hot";
  TResult result;
  check.client->get(result, "t", hot);
  ASSERT_EQ(result.columnValues.size(), 1u);
  int64_t value = 0;
  for (unsigned char b : result.columnValues[0].value) value = (value << 8) | b;
  EXPECT_EQ(value, increments.load());
}

// Shedding (a full server) and the idle sweep close connections while other threads call on
// them: a call may fail with the connection closed, never be answered wrong, and the server
// serves a fresh client after.
TEST_F(ThriftServerConcurrencyTest, SheddingAndTheIdleSweepRaceCalls) {
  server::Thrift2ServerOptions options;
  options.worker_threads = 3;
  options.max_connections = 8;
  options.read_timeout = std::chrono::milliseconds(30);
  Start(options);
  std::atomic<int> answered{0}, wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) {
        try {
          ThriftClient c(server_->port());
          for (int k = 0; k < 1 + (i + t) % 3; ++k) {
            TGet get;
            get.row = "none";
            if (c.client->exists("t", get)) wrong.fetch_add(1);
            answered.fetch_add(1);
            if ((i + k) % 4 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(40));
          }
        } catch (const TException&) {
          // Closed to make room, or for idling past the timeout.
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_GT(answered.load(), 0);
  ThriftClient fresh(server_->port());
  TGet get;
  get.row = "none";
  EXPECT_FALSE(fresh.client->exists("t", get));
}

TEST_F(ThriftServerConcurrencyTest, StopWhileClientsCallReturns) {
  server::Thrift2ServerOptions options;
  options.worker_threads = 3;
  Start(options);
  std::atomic<bool> started{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 5; ++t) {
    threads.emplace_back([&] {
      try {
        ThriftClient c(server_->port());
        for (int i = 0; i < 100000; ++i) {
          TPut put;
          put.row = "r" + std::to_string(i % 10);
          put.columnValues = {Cell("q", "v")};
          c.client->put("t", put);
          started.store(true);
        }
      } catch (const TException&) {
        // The server stopped.
      }
    });
  }
  while (!started.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  server_->Stop();
  for (auto& t : threads) t.join();
  EXPECT_EQ(server_->connections(), 0u);
}

}  // namespace
}  // namespace basalt::testing
