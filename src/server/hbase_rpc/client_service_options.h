// ClientService's caps (client_service.h), apart from the service so that what configures the
// server (rpc_server.h) needs none of the protocol's headers.

#ifndef BASALT_SERVER_HBASE_RPC_CLIENT_SERVICE_OPTIONS_H_
#define BASALT_SERVER_HBASE_RPC_CLIENT_SERVICE_OPTIONS_H_

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace basalt::server::hbase_rpc {

struct ClientServiceOptions {
  // Most rows one Scan call answers, whatever the client's caching. Default: 100000.
  uint32_t max_rows_per_call = 100000;
  // Most bytes of cells one Scan call answers (the client asks for 2 MiB by default,
  // hbase.client.scanner.max.result.size); at least one row is always answered. Default: 8 MiB.
  uint64_t max_result_bytes = 8u << 20;
  // Most actions one Multi may carry. Default: 100000.
  size_t max_multi_actions = 100000;
  // The lease told to the client (ScanResponse.ttl), ms: the scanners' idle timeout.
  std::chrono::milliseconds scanner_lease{60000};
};

}  // namespace basalt::server::hbase_rpc

#endif  // BASALT_SERVER_HBASE_RPC_CLIENT_SERVICE_OPTIONS_H_
