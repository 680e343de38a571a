// Thrift1Server: serves HBase's original Thrift protocol (service Hbase, HBase's `hbase thrift`
// gateway) over a basalt Connection, so Thrift1 clients such as happybase can use a basalt store.
//
//   basalt::server::Thrift1ServerOptions options;   // 0.0.0.0:9091, buffered, binary
//   options.port = 0;                              // any free port
//   basalt::server::Thrift1Server server(*conn, options);
//   BASALT_RETURN_IF_ERROR(server.Start());        // listening when it returns
//   int port = server.port();
//   ...
//   server.Stop();                                 // stop accepting, finish calls, return
//
// The wire defaults are HBase's Thrift1 gateway's: TBinaryProtocol over a buffered socket; the
// connections are served by a fixed pool of threads on epoll (thrift/thrift_server.h), where
// HBase gives each a thread; framed and compact are options, as HBase's -f and -c, and clients must
// match them exactly. The port is not HBase's: HBase uses 9090 for whichever gateway runs, and
// basalt serves Thrift2 there, so Thrift1 defaults to the next one, 9091.
//
// The options and caps are Thrift2's (thrift/thrift_server.h); one call's results are capped by
// Thrift1Handler::kMaxResultBytes.

#ifndef BASALT_SERVER_THRIFT1_THRIFT1_SERVER_H_
#define BASALT_SERVER_THRIFT1_THRIFT1_SERVER_H_

#include "basalt/connection.h"
#include "basalt/status.h"
#include "server/thrift/thrift_server.h"

namespace basalt::server {

inline constexpr int kThrift1DefaultPort = 9091;

// ThriftServerOptions with Thrift1's default port.
struct Thrift1ServerOptions : ThriftServerOptions {
  Thrift1ServerOptions() { port = kThrift1DefaultPort; }
};

// Start, Stop and port() are ThriftServer's (thrift/thrift_server.h).
class Thrift1Server : public ThriftServer {
 public:
  // `conn` must outlive the server.
  Thrift1Server(Connection& conn, Thrift1ServerOptions options);
};

}  // namespace basalt::server

#endif  // BASALT_SERVER_THRIFT1_THRIFT1_SERVER_H_
