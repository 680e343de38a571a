// HBase's ClientMetaService, what the client's RpcConnectionRegistry bootstraps from: the cluster
// id, the active master, the masters, the bootstrap nodes and the location of hbase:meta. basalt
// is one process on one port, so every answer names the same server: the master, the only
// bootstrap node, and the server holding hbase:meta's one region.
//
// Thread safety: Call from any thread (the service holds only constants).

#ifndef BASALT_HBASE_RPC_CLIENT_META_SERVICE_H_
#define BASALT_HBASE_RPC_CLIENT_META_SERVICE_H_

#include <cstdint>
#include <string>
#include <variant>

#include "hbase_rpc/rpc_session.h"

namespace basalt::hbase_rpc {

// The server as clients reach it. The start code tells a restarted server from the old one; a
// fixed one per process is what HBase's ServerName carries.
struct ServerIdentity {
  std::string cluster_id;
  std::string host;
  uint32_t port = 0;
  uint64_t start_code = 0;
};

// hbase:meta's one region id: HBase's first meta region, 1.
inline constexpr uint64_t kMetaRegionId = 1;

class ClientMetaService : public RpcService {
 public:
  explicit ClientMetaService(ServerIdentity identity) : identity_(std::move(identity)) {}

  // GetClusterId, GetActiveMaster, GetMasters, GetMetaRegionLocations, GetBootstrapNodes; any
  // other method is a DoNotRetryIOException. Requests are empty messages and are checked to be
  // valid encodings.
  std::variant<CallAnswer, RpcError> Call(const DecodedCall& call, const Caller& caller) override;

 private:
  const ServerIdentity identity_;
};

}  // namespace basalt::hbase_rpc

#endif  // BASALT_HBASE_RPC_CLIENT_META_SERVICE_H_
