// HBase's native RPC server: the one port on which basalt answers the stock HBase client (its
// blocking and async Connection, the HBase shell, tools built on them) as HBase's master and
// region server together. Every service a connection may name is served here:
// ClientMetaService (the registry the client bootstraps from: `hbase.client.registry.impl` =
// RpcConnectionRegistry, `hbase.client.bootstrap.servers` = this host:port), MasterService
// (DDL), ClientService (data, and the synthetic hbase:meta) and AdminService (refused call by
// call: basalt has no region server operations).
//
// Connections run on the event-driven machinery of server/net/event_server.h: no thread per
// connection. A connection's calls are answered one after another, in the order they came (the
// client matches answers by call id), so each connection has at most one call in progress;
// answers not yet taken by the client are held up to a budget, past which the connection reads
// no more calls until the client takes them.
//
// Security (docs/security.md): HBase's SIMPLE authentication is a user name the client states,
// not a credential, so the server refuses to start on an address beyond loopback unless the
// operator allows it (allow_unauthenticated_remote); the caps bound what one client holds
// (connections, bytes held, frame and cell-block sizes, scanners, rows and bytes per call).
//
// Thread safety: Start and Stop from one thread; port() from any.

#ifndef BASALT_SERVER_HBASE_RPC_RPC_SERVER_H_
#define BASALT_SERVER_HBASE_RPC_RPC_SERVER_H_

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "basalt/connection.h"
#include "basalt/status.h"
#include "server/hbase_rpc/client_service_options.h"

namespace basalt::server::hbase_rpc {

// HBase's region server port: the client's default for region servers, and the port most
// HBase tooling expects a region server on. (HBase's master listens on 16000; basalt's one
// server is both, and the client learns it from the registry, so one port serves.)
inline constexpr int kDefaultRpcPort = 16020;

struct RpcServerOptions {
  // Address to listen on. Default: loopback.
  std::string bind_address = "127.0.0.1";
  // TCP port; 0 picks a free one (port() tells which). Default: 16020.
  int port = kDefaultRpcPort;
  // The host the server tells clients to connect to (as master, region server and meta's
  // server). Empty: the bind address, or "localhost" for a wildcard address.
  std::string advertised_host;
  // Serve on an address beyond loopback although SIMPLE authentication proves nothing.
  // Default: false (Start fails with InvalidArgument saying so).
  bool allow_unauthenticated_remote = false;
  // Threads answering calls: the most calls in progress at once. Default: 16.
  int worker_threads = 16;
  // Connections in all and per client address; bytes held for requests and answers in all
  // (event_server.h). 0: no cap. Defaults: 10000, 1000, 1 GiB.
  size_t max_connections = 10000;
  size_t max_connections_per_client = 1000;
  size_t max_buffered_bytes = size_t{1} << 30;
  // A connection with no byte in or out for this long is closed (the client reconnects).
  // Default: 10 minutes (HBase's client closes its own idle connections after 2).
  std::chrono::milliseconds idle_timeout{600000};
  // Largest call frame and largest cell block of one call, bytes (hbase_rpc/rpc_codec.h's
  // RpcCaps). Defaults: 64 MiB each.
  uint32_t max_frame_bytes = 64u << 20;
  uint32_t max_cell_block_bytes = 64u << 20;
  // Answers one connection holds before it reads more calls. Default: 16 MiB.
  size_t max_pending_answer_bytes = 16u << 20;
  // Scanners in all and per client address; a scanner unused this long is closed (HBase's
  // hbase.client.scanner.timeout.period). Defaults: 10000, 1000, 60 s.
  size_t max_scanners = 10000;
  size_t max_scanners_per_client = 1000;
  std::chrono::milliseconds scanner_idle_timeout{60000};
  // Rows, bytes per Scan call, actions per Multi.
  ClientServiceOptions client;
  // Namespaces no call may name (server/reserved_namespaces.h): their tables are absent from
  // hbase:meta and from listings, and naming one is AccessDeniedException. Default: none.
  std::vector<std::string> reserved_namespaces;
};

class RpcServer {
 public:
  // `conn` must outlive the server.
  RpcServer(Connection& conn, RpcServerOptions options);
  ~RpcServer();

  RpcServer(const RpcServer&) = delete;
  RpcServer& operator=(const RpcServer&) = delete;

  // Binds and starts serving on background threads. IOError when the address cannot be bound,
  // InvalidArgument for an address beyond loopback without allow_unauthenticated_remote,
  // FailedPrecondition when already started.
  Status Start();
  // Graceful (event_server.h's Stop), then closes the scanners. Idempotent.
  void Stop();

  int port() const { return port_.load(); }
  const RpcServerOptions& options() const { return options_; }

 private:
  class Impl;
  Connection& conn_;
  const RpcServerOptions options_;
  std::atomic<int> port_{0};
  std::unique_ptr<Impl> impl_;
};

}  // namespace basalt::server::hbase_rpc

#endif  // BASALT_SERVER_HBASE_RPC_RPC_SERVER_H_
