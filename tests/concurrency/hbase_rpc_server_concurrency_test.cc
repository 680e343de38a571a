// HBase's native RPC server under many clients at once, over real sockets: connections handed
// from one serving thread to the next, pipelined calls answered in order, a client that breaks
// the protocol closed while the others go on, and Stop while clients call. A hot counter must
// equal the acknowledged increments. Runs under ThreadSanitizer too (scripts/test.sh).

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <google/protobuf/io/coded_stream.h>

#include "hbase_proto/proto/Client.pb.h"
#include "hbase_rpc/rpc_codec.h"
#include "server/hbase_rpc/rpc_server.h"
#include "support/test_store.h"

namespace basalt::testing {
namespace {

namespace pb = ::hbase::pb;
namespace rpc = ::basalt::hbase_rpc;

// One client connection speaking the native RPC with raw frames.
class RpcClient {
 public:
  RpcClient(int port, const std::string& service) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    timeval timeout{20, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
    ok_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
    pb::ConnectionHeader header;
    header.set_service_name(service);
    header.set_cell_block_codec_class(std::string(rpc::kKeyValueCodec));
    ok_ = ok_ && Send(std::string("HBas\x00\x50", 6) + rpc::EncodeConnectionHeader(header));
  }
  ~RpcClient() { ::close(fd_); }

  bool ok() const { return ok_; }

  bool Send(const std::string& bytes) {
    size_t sent = 0;
    while (sent < bytes.size()) {
      ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return false;
      sent += static_cast<size_t>(n);
    }
    return true;
  }

  bool Call(uint32_t id, const std::string& method, const google::protobuf::MessageLite& request) {
    pb::RequestHeader header;
    header.set_call_id(id);
    header.set_method_name(method);
    return Send(rpc::EncodeCall(header, &request));
  }

  // The next answer: its header, and its message's bytes. False when the connection closed.
  bool Read(pb::ResponseHeader* header, std::string* message) {
    uint8_t length_bytes[4];
    if (!ReadExactly(length_bytes, 4)) return false;
    const uint32_t length = uint32_t{length_bytes[0]} << 24 | uint32_t{length_bytes[1]} << 16 |
                            uint32_t{length_bytes[2]} << 8 | length_bytes[3];
    std::string body(length, '\0');
    if (!ReadExactly(reinterpret_cast<uint8_t*>(body.data()), length)) return false;
    google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(body.data()),
                                              static_cast<int>(body.size()));
    uint32_t size = 0;
    std::string bytes;
    if (!in.ReadVarint32(&size) || !in.ReadString(&bytes, static_cast<int>(size))) return false;
    if (!header->ParseFromString(bytes)) return false;
    message->clear();
    if (in.ReadVarint32(&size)) in.ReadString(message, static_cast<int>(size));
    return true;
  }

 private:
  bool ReadExactly(uint8_t* out, size_t n) {
    size_t got = 0;
    while (got < n) {
      ssize_t r = ::recv(fd_, out + got, n - got, 0);
      if (r <= 0) return false;
      got += static_cast<size_t>(r);
    }
    return true;
  }

  int fd_ = -1;
  bool ok_ = false;
};

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
    RpcClient client(server_->port(), "ClientService");
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
      RpcClient client(server_->port(), "ClientService");
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
    RpcClient bad(server_->port(), "ClientService");
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
      RpcClient client(server_->port(), "ClientService");
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
