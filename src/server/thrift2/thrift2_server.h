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
// port 9090, served by a thread pool (reference §4.1). Clients must match framed/compact exactly.
//
// What one client may hold is capped (docs/security.md, "Resource caps"): connections and
// scanners per client address and in all, the bytes of one message, of one string (allocated as
// they arrive, growing_protocol.h), the elements of one list, and the bytes of one call's
// results (Thrift2Handler::kMaxResultBytes).

#ifndef BASALT_SERVER_THRIFT2_THRIFT2_SERVER_H_
#define BASALT_SERVER_THRIFT2_THRIFT2_SERVER_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "basalt/connection.h"
#include "basalt/status.h"

namespace basalt::server {

struct Thrift2ServerOptions {
  // Address to listen on. Default: every interface (HBase's 0.0.0.0).
  std::string bind_address = "0.0.0.0";
  // TCP port; 0 picks a free one (read it with Thrift2Server::port()). Default: 9090.
  int port = 9090;
  // TFramedTransport instead of a buffered socket (HBase -f). Default: false.
  bool framed = false;
  // TCompactProtocol instead of TBinaryProtocol (HBase -c). Default: false.
  bool compact = false;
  // Framed transport: largest frame accepted, bytes; a larger one closes the connection.
  // Default: 2 MiB (hbase.regionserver.thrift.framed.max_frame_size_in_mb).
  int32_t max_frame_bytes = 2 * 1024 * 1024;
  // Largest message read on one connection, bytes (Thrift's TConfiguration), and so the largest
  // string a request may declare (Thrift allocates a declared string before reading it).
  // Default: 100 MiB.
  int32_t max_message_bytes = 100 * 1024 * 1024;
  // Most elements one list, set or map of a request may declare; a larger one closes the
  // connection. The generated code allocates every declared element before reading any, so
  // without this a 30-byte message declaring 4 million puts made the server allocate 540 MB.
  // Worst case per declared list: about this many times 200 bytes. Larger batches must be
  // split. Default: 100000.
  int32_t max_list_elements = 100000;
  // Threads serving connections; each open connection holds one while it is open (Thrift's
  // thread-pool server), so this is also the most concurrent connections: once they are all
  // taken, new connections wait in the listen backlog (no memory is spent on them) until one
  // closes. Default: 32.
  int worker_threads = 32;
  // Most connections open at once from one client address; one more is closed as soon as it is
  // accepted (Thrift has no way to answer before a request), and the server logs why. Keeps one
  // client from taking every worker thread. 0: no cap. Default: 24.
  int max_connections_per_client = 24;
  // Most scanners open at once, in all and per client address; openScanner beyond either is a
  // TIOError (retryable) saying which cap was reached. 0: no cap. Defaults: 10000 and 1000.
  size_t max_scanners = 10000;
  size_t max_scanners_per_client = 1000;
  // A connection that sends nothing for this long is closed, which frees its thread: without it,
  // worker_threads idle connections would shut every other client out. Clients reconnect
  // (basalt's thrift:// pool drops connections idle for half this long before reuse).
  // Default: 60 s (hbase.thrift.server.socket.read.timeout).
  std::chrono::milliseconds read_timeout{60000};
  // A scanner unused for this long is closed (hbase.client.scanner.timeout.period). Default: 60 s.
  std::chrono::milliseconds scanner_idle_timeout{60000};
  // Namespaces no method may name, tables or the namespace itself: a TIOError saying permission
  // denied (server/reserved_namespaces.h). Thrift2 carries no credentials, so nothing lifts
  // this. Listings still show them. Default: none.
  std::vector<std::string> reserved_namespaces;
};

// Thread safety: Start and Stop from one thread; port() from any.
class Thrift2Server {
 public:
  // `conn` must outlive the server.
  Thrift2Server(Connection& conn, Thrift2ServerOptions options);
  // Stops the server if it is running.
  ~Thrift2Server();

  Thrift2Server(const Thrift2Server&) = delete;
  Thrift2Server& operator=(const Thrift2Server&) = delete;

  // Binds, starts serving on background threads, and returns once the socket listens.
  // IOError when the address cannot be bound; FailedPrecondition when already started.
  Status Start();

  // The port the server listens on (the chosen one when options.port is 0); 0 before Start.
  int port() const;

  // Graceful: stops accepting connections, lets calls in progress finish, closes connections
  // and open scanners, and returns when every worker is done. Idempotent.
  void Stop();

  const Thrift2ServerOptions& options() const { return options_; }

 private:
  class Impl;
  Connection& conn_;
  Thrift2ServerOptions options_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace basalt::server

#endif  // BASALT_SERVER_THRIFT2_THRIFT2_SERVER_H_
