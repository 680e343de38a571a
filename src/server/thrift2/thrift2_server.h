// Thrift2Server: serves HBase's Thrift2 protocol (THBaseService) over a basalt Connection, so
// HBase Thrift2 clients (and basalt's own thrift:// backend) can use a basalt store.
//
//   basalt::server::Thrift2Server server(*conn, {.port = 0});
//   BASALT_RETURN_IF_ERROR(server.Start());   // listening when it returns
//   int port = server.port();                  // the bound port (useful with port 0)
//   ...
//   server.Stop();                             // stop accepting, finish calls, return
//
// The wire defaults are HBase's Thrift2 server's: TBinaryProtocol over a buffered socket on
// port 9090 (reference §4.1), the connections served by a fixed pool of threads on epoll
// (thrift/thrift_server.h). Clients must match framed/compact exactly.
//
// What one client may hold is capped (docs/security.md, "Resource caps"): connections and
// scanners per client address and in all, the bytes of one message, of one string, the elements
// of one list (thrift/thrift_server.h), and the bytes of one call's results
// (Thrift2Handler::kMaxResultBytes).

#ifndef BASALT_SERVER_THRIFT2_THRIFT2_SERVER_H_
#define BASALT_SERVER_THRIFT2_THRIFT2_SERVER_H_

#include "basalt/connection.h"
#include "basalt/status.h"
#include "server/thrift/thrift_server.h"

namespace basalt::server {

// The options (thrift/thrift_server.h), whose defaults are HBase's Thrift2 server's.
using Thrift2ServerOptions = ThriftServerOptions;

// Start, Stop and port() are ThriftServer's (thrift/thrift_server.h).
class Thrift2Server : public ThriftServer {
 public:
  // `conn` must outlive the server.
  Thrift2Server(Connection& conn, Thrift2ServerOptions options);
};

}  // namespace basalt::server

#endif  // BASALT_SERVER_THRIFT2_THRIFT2_SERVER_H_
