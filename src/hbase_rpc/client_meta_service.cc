#include "hbase_rpc/client_meta_service.h"

#include <climits>

#include "hbase_proto/proto/Registry.pb.h"

namespace basalt::hbase_rpc {
namespace {

namespace pb = ::hbase::pb;

void FillServerName(const ServerIdentity& identity, pb::ServerName* out) {
  out->set_host_name(identity.host);
  out->set_port(identity.port);
  out->set_start_code(identity.start_code);
}

CallAnswer Answer(const google::protobuf::MessageLite& message) {
  return CallAnswer{message.SerializeAsString(), {}};
}

// Every request of this service is an empty message: anything else in it is a client bug.
template <class Request>
bool ParsesAs(std::string_view bytes) {
  Request request;
  return bytes.size() <= static_cast<size_t>(INT_MAX) &&
         request.ParsePartialFromArray(bytes.data(), static_cast<int>(bytes.size()));
}

}  // namespace

std::variant<CallAnswer, RpcError> ClientMetaService::Call(const DecodedCall& call,
                                                           const Caller& /*caller*/) {
  const std::string& method = call.header.method_name();
  auto bad_request = [&method]() {
    return RpcError{std::string(kDoNotRetryIOException),
                    "the request of " + method + " is not a valid message", false};
  };
  if (method == "GetClusterId") {
    if (!ParsesAs<pb::GetClusterIdRequest>(call.param)) return bad_request();
    pb::GetClusterIdResponse response;
    response.set_cluster_id(identity_.cluster_id);
    return Answer(response);
  }
  if (method == "GetActiveMaster") {
    if (!ParsesAs<pb::GetActiveMasterRequest>(call.param)) return bad_request();
    pb::GetActiveMasterResponse response;
    FillServerName(identity_, response.mutable_server_name());
    return Answer(response);
  }
  if (method == "GetMasters") {
    if (!ParsesAs<pb::GetMastersRequest>(call.param)) return bad_request();
    pb::GetMastersResponse response;
    pb::GetMastersResponseEntry* entry = response.add_master_servers();
    FillServerName(identity_, entry->mutable_server_name());
    entry->set_is_active(true);
    return Answer(response);
  }
  if (method == "GetBootstrapNodes") {
    if (!ParsesAs<pb::GetBootstrapNodesRequest>(call.param)) return bad_request();
    pb::GetBootstrapNodesResponse response;
    FillServerName(identity_, response.add_server_name());
    return Answer(response);
  }
  if (method == "GetMetaRegionLocations") {
    if (!ParsesAs<pb::GetMetaRegionLocationsRequest>(call.param)) return bad_request();
    pb::GetMetaRegionLocationsResponse response;
    pb::RegionLocation* location = response.add_meta_locations();
    pb::RegionInfo* region = location->mutable_region_info();
    region->set_region_id(kMetaRegionId);
    region->mutable_table_name()->set_namespace_("hbase");
    region->mutable_table_name()->set_qualifier("meta");
    FillServerName(identity_, location->mutable_server_name());
    location->set_seq_num(0);
    return Answer(response);
  }
  return RpcError{std::string(kDoNotRetryIOException),
                  "method " + method.substr(0, 200) + " is not served by ClientMetaService", false};
}

}  // namespace basalt::hbase_rpc
