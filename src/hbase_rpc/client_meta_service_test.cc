#include "hbase_rpc/client_meta_service.h"

#include <google/protobuf/io/coded_stream.h>
#include <gtest/gtest.h>

#include <string>

#include "hbase_proto/proto/Registry.pb.h"

namespace basalt::hbase_rpc {
namespace {

namespace pb = ::hbase::pb;

// One call over a fresh ClientMetaService connection; the answer's header and message bytes.
struct MetaAnswer {
  pb::ResponseHeader header;
  std::string message;
};

MetaAnswer CallMeta(ClientMetaService& service, const std::string& method,
                    const google::protobuf::MessageLite& request) {
  RpcSession session(RpcCaps{}, [&service](std::string_view name) -> RpcService* {
    return name == "ClientMetaService" ? &service : nullptr;
  });
  pb::ConnectionHeader connection;
  connection.set_service_name("ClientMetaService");
  pb::RequestHeader header;
  header.set_call_id(11);
  header.set_method_name(method);
  std::string out;
  EXPECT_TRUE(session.Feed(std::string("HBas\x00\x50", 6) + EncodeConnectionHeader(connection) +
                               EncodeCall(header, &request),
                           &out));
  MetaAnswer answer;
  LengthPrefixed unit;
  EXPECT_FALSE(NextLengthPrefixed(out, UINT32_MAX, &unit).has_value());
  EXPECT_TRUE(unit.complete);
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(unit.body.data()),
                                            static_cast<int>(unit.body.size()));
  uint32_t length = 0;
  std::string bytes;
  EXPECT_TRUE(in.ReadVarint32(&length) && in.ReadString(&bytes, static_cast<int>(length)));
  EXPECT_TRUE(answer.header.ParseFromString(bytes));
  if (in.ReadVarint32(&length)) {
    EXPECT_TRUE(in.ReadString(&answer.message, static_cast<int>(length)));
  }
  return answer;
}

class ClientMetaServiceTest : public ::testing::Test {
 protected:
  ClientMetaService service_{ServerIdentity{"basalt-cluster", "127.0.0.1", 16020, 1234}};
};

void ExpectOurServer(const pb::ServerName& name) {
  EXPECT_EQ(name.host_name(), "127.0.0.1");
  EXPECT_EQ(name.port(), 16020u);
  EXPECT_EQ(name.start_code(), 1234u);
}

TEST_F(ClientMetaServiceTest, NamesTheClusterAndOneServerForEveryRole) {
  MetaAnswer id = CallMeta(service_, "GetClusterId", pb::GetClusterIdRequest());
  EXPECT_EQ(id.header.call_id(), 11u);
  pb::GetClusterIdResponse cluster;
  ASSERT_TRUE(cluster.ParseFromString(id.message));
  EXPECT_EQ(cluster.cluster_id(), "basalt-cluster");

  pb::GetActiveMasterResponse master;
  ASSERT_TRUE(master.ParseFromString(
      CallMeta(service_, "GetActiveMaster", pb::GetActiveMasterRequest()).message));
  ExpectOurServer(master.server_name());

  pb::GetMastersResponse masters;
  ASSERT_TRUE(
      masters.ParseFromString(CallMeta(service_, "GetMasters", pb::GetMastersRequest()).message));
  ASSERT_EQ(masters.master_servers_size(), 1);
  EXPECT_TRUE(masters.master_servers(0).is_active());
  ExpectOurServer(masters.master_servers(0).server_name());

  pb::GetBootstrapNodesResponse nodes;
  ASSERT_TRUE(nodes.ParseFromString(
      CallMeta(service_, "GetBootstrapNodes", pb::GetBootstrapNodesRequest()).message));
  ASSERT_EQ(nodes.server_name_size(), 1);
  ExpectOurServer(nodes.server_name(0));
}

TEST_F(ClientMetaServiceTest, MetaIsOneRegionOnThisServer) {
  pb::GetMetaRegionLocationsResponse meta;
  ASSERT_TRUE(meta.ParseFromString(
      CallMeta(service_, "GetMetaRegionLocations", pb::GetMetaRegionLocationsRequest()).message));
  ASSERT_EQ(meta.meta_locations_size(), 1);
  const pb::RegionLocation& location = meta.meta_locations(0);
  EXPECT_EQ(location.region_info().table_name().namespace_(), "hbase");
  EXPECT_EQ(location.region_info().table_name().qualifier(), "meta");
  EXPECT_EQ(location.region_info().region_id(), kMetaRegionId);
  EXPECT_EQ(location.region_info().replica_id(), 0);
  ExpectOurServer(location.server_name());
}

TEST_F(ClientMetaServiceTest, OtherMethodsAndBadRequestsAreDoNotRetry) {
  MetaAnswer other = CallMeta(service_, "GetTableNames", pb::GetClusterIdRequest());
  EXPECT_EQ(other.header.exception().exception_class_name(), kDoNotRetryIOException);
  EXPECT_TRUE(other.message.empty());
  // A param that is not a valid encoding: a field tag with its value missing.
  RpcSession session(RpcCaps{}, [this](std::string_view) -> RpcService* { return &service_; });
  pb::ConnectionHeader connection;
  connection.set_service_name("ClientMetaService");
  pb::RequestHeader header;
  header.set_call_id(12);
  header.set_method_name("GetClusterId");
  header.set_request_param(true);
  std::string body;
  const std::string header_bytes = header.SerializeAsString();
  body.push_back(static_cast<char>(header_bytes.size()));
  body += header_bytes;
  body += std::string("\x01\x08", 2);
  std::string frame = std::string(3, '\0') + static_cast<char>(body.size()) + body;
  std::string out;
  ASSERT_TRUE(session.Feed(
      std::string("HBas\x00\x50", 6) + EncodeConnectionHeader(connection) + frame, &out));
  EXPECT_NE(out.find(kDoNotRetryIOException), std::string::npos);
  EXPECT_NE(out.find("not a valid message"), std::string::npos);
}

}  // namespace
}  // namespace basalt::hbase_rpc
