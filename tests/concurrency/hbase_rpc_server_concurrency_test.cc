// HBase's native RPC server under many clients at once, over real sockets: connections handed
// from one serving thread to the next, pipelined calls answered in order, a client that breaks
// the protocol closed while the others go on, and Stop while clients call. A hot counter must
// equal the acknowledged increments. Runs under ThreadSanitizer too (scripts/test.sh).

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "hbase_proto/proto/Client.pb.h"
#include "hbase_rpc/rpc_codec.h"
#include "server/hbase_rpc/rpc_server.h"
#include "support/raw_rpc_client.h"
#include "support/test_store.h"

namespace basalt::testing {
namespace {

namespace pb = ::hbase::pb;
namespace rpc = ::basalt::hbase_rpc;

constexpr std::chrono::seconds kReadTimeout{20};

pb::RegionSpecifier Region(const std::string& name) {
  pb::RegionSpecifier region;
  region.set_type(pb::RegionSpecifier::REGION_NAME);
  region.set_value(name);
  return region;
}

class HBaseRpcServerConcurrencyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto conn = Connection::Open("mem:");
    ASSERT_OK(conn);
    conn_ = std::move(*conn);
    TableDescriptor desc(TableName("default", "t"));
    desc.AddFamily(FamilyDescriptor("f"));
    ASSERT_OK(conn_->admin().CreateTable(desc));
    server::hbase_rpc::RpcServerOptions options;
    options.port = 0;
    options.worker_threads = 4;
    server_ = std::make_unique<server::hbase_rpc::RpcServer>(*conn_, options);
    ASSERT_OK(server_->Start());
    region_ = LocateRegion();
    ASSERT_FALSE(region_.empty());
  }
  void TearDown() override {
    if (server_) server_->Stop();
    server_.reset();
    if (conn_) EXPECT_OK(conn_->Close());
  }

  // The table's region name, as a client finds it: a scan of hbase:meta.
  std::string LocateRegion() {
    RawRpcClient client(ConnectToLoopback(server_->port()), "ClientService", kReadTimeout);
    pb::ScanRequest scan;
    *scan.mutable_region() = Region("hbase:meta,,1");
    scan.mutable_scan()->add_column()->set_family("info");
    scan.set_number_of_rows(10);
    pb::ResponseHeader header;
    std::string message;
    pb::ScanResponse response;
    if (!client.Call(1, "Scan", scan) || !client.Read(&header, &message) ||
        !response.ParseFromString(message) || response.results_size() == 0) {
      return "";
    }
    return response.results(0).cell(0).row();
  }

  pb::MutateRequest IncrementOfTheCounter() const {
    pb::MutateRequest request;
    *request.mutable_region() = Region(region_);
    pb::MutationProto* m = request.mutable_mutation();
    m->set_row("hot");
    m->set_mutate_type(pb::MutationProto::INCREMENT);
    auto* column = m->add_column_value();
    column->set_family("f");
    auto* qv = column->add_qualifier_value();
    qv->set_qualifier("n");
    qv->set_value(std::string("\0\0\0\0\0\0\0\x01", 8));
    return request;
  }

  std::unique_ptr<Connection> conn_;
  std::unique_ptr<server::hbase_rpc::RpcServer> server_;
  std::string region_;
};

TEST_F(HBaseRpcServerConcurrencyTest, PipelinedIncrementsFromManyClientsAreAllCounted) {
  constexpr int kClients = 8, kBatches = 20, kPipelined = 5;
  std::atomic<int> acknowledged{0};
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&] {
      RawRpcClient client(ConnectToLoopback(server_->port()), "ClientService", kReadTimeout);
      if (!client.ok()) return;
      const pb::MutateRequest increment = IncrementOfTheCounter();
      uint32_t next_id = 1;
      for (int b = 0; b < kBatches; ++b) {
        const uint32_t first = next_id;
        for (int i = 0; i < kPipelined; ++i) client.Call(next_id++, "Mutate", increment);
        for (uint32_t expected = first; expected < next_id; ++expected) {
          pb::ResponseHeader header;
          std::string message;
          if (!client.Read(&header, &message)) return;
          // Answers come in the order of the calls.
          EXPECT_EQ(header.call_id(), expected);
          EXPECT_FALSE(header.has_exception()) << header.exception().stack_trace();
          if (!header.has_exception()) acknowledged.fetch_add(1);
        }
      }
    });
  }
  // Meanwhile a client breaks the protocol: its connection alone is closed.
  {
    RawRpcClient bad(ConnectToLoopback(server_->port()), "ClientService", kReadTimeout);
    bad.Send(std::string("\x7f\xff\xff\xff", 4));  // a frame of 2 GiB
    pb::ResponseHeader header;
    std::string message;
    ASSERT_TRUE(bad.Read(&header, &message));
    EXPECT_EQ(header.exception().exception_class_name(), rpc::kRequestTooBigException);
    EXPECT_FALSE(bad.Read(&header, &message));
  }
  for (auto& t : clients) t.join();
  EXPECT_EQ(acknowledged.load(), kClients * kBatches * kPipelined);
  auto table = conn_->GetTable("t");
  ASSERT_OK(table);
  auto row = (*table)->Get(Get("hot"));
  ASSERT_OK(row);
  auto value = row->Value("f", "n");
  ASSERT_TRUE(value.has_value());
  EXPECT_EQ(*DecodeCounter(*value), acknowledged.load());
}

TEST_F(HBaseRpcServerConcurrencyTest, StopWhileClientsCallReturns) {
  std::atomic<bool> stop{false};
  std::vector<std::thread> clients;
  for (int c = 0; c < 4; ++c) {
    clients.emplace_back([&] {
      RawRpcClient client(ConnectToLoopback(server_->port()), "ClientService", kReadTimeout);
      const pb::MutateRequest increment = IncrementOfTheCounter();
      pb::ResponseHeader header;
      std::string message;
      for (uint32_t id = 1; !stop.load(); ++id) {
        if (!client.Call(id, "Mutate", increment) || !client.Read(&header, &message)) return;
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  server_->Stop();
  stop.store(true);
  for (auto& t : clients) t.join();
  EXPECT_EQ(server_->port(), 0);
}

}  // namespace
}  // namespace basalt::testing
