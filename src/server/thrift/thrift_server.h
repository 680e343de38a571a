// What basalt's Thrift servers (Thrift2's THBaseService, Thrift1's Hbase) share: the options, the
// caps, and the serving machinery (a thread-pool server on one port whose connections go
// through the size-limited transports and protocols of this folder, one handler per connection
// admitted by the per-client connection cap, and the idle-scanner reaper). Each protocol's
// server (thrift2/thrift2_server.h, thrift1/thrift1_server.h) only says which generated
// processor and which handler serve a connection.
//
// What one client may hold is capped (docs/security.md, "Resource caps"): connections and
// scanners per client address and in all, the bytes of one message, of one string (allocated as
// they arrive, growing_protocol.h), and the elements of one list.

#ifndef BASALT_SERVER_THRIFT_THRIFT_SERVER_H_
#define BASALT_SERVER_THRIFT_THRIFT_SERVER_H_

#include <thrift/TProcessor.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "basalt/connection.h"
#include "basalt/status.h"
#include "server/client_quota.h"
#include "server/thrift/scanner_registry.h"

namespace basalt::server {

struct ThriftServerOptions {
  // Address to listen on. Default: every interface (HBase's 0.0.0.0).
  std::string bind_address = "0.0.0.0";
  // TCP port; 0 picks a free one (read it with the server's port()). Default: 9090, HBase's
  // port for either gateway (Thrift1Server's options default to 9091, see thrift1_server.h).
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
  // Most scanners open at once, in all and per client address; opening one beyond either is an
  // IOError (retryable) saying which cap was reached. 0: no cap. Defaults: 10000 and 1000.
  size_t max_scanners = 10000;
  size_t max_scanners_per_client = 1000;
  // A connection that sends nothing for this long is closed, which frees its thread: without it,
  // worker_threads idle connections would shut every other client out. Clients reconnect
  // (basalt's thrift:// pool drops connections idle for half this long before reuse).
  // Default: 60 s (hbase.thrift.server.socket.read.timeout).
  std::chrono::milliseconds read_timeout{60000};
  // How long a connection that has answered polls its socket for the next request before it
  // sleeps in a blocking read, while no other connection is in a call (arrival_spin.h): saves the
  // wake-up of a sleeping core per call at the price of up to this much CPU after each answer.
  // Zero turns it off. Default: 50 µs.
  std::chrono::microseconds arrival_spin{50};
  // A scanner unused for this long is closed (hbase.client.scanner.timeout.period). Default: 60 s.
  std::chrono::milliseconds scanner_idle_timeout{60000};
  // Namespaces no method may name, tables or the namespace itself: an IOError saying permission
  // denied (server/reserved_namespaces.h). Thrift carries no credentials, so nothing lifts
  // this. Listings still show them. Default: none.
  std::vector<std::string> reserved_namespaces;
};

// What every handler of one server is built from (and must not outlive).
struct ThriftServiceContext {
  Connection& conn;
  ScannerRegistry& scanners;
  // What region locations report as the server: the bind address ("localhost" for 0.0.0.0)
  // and the bound port, known once the socket listens.
  std::string host;
  const std::atomic<int>* port;
  std::vector<std::string> reserved_namespaces;
};

// Admits or refuses a new connection by its client's share of connections. Thread safety: Admit
// (Thrift's accept thread) and Release (the worker that served the connection) may run at once.
class ConnectionAdmission {
 public:
  // `server` names the server in the log line of a refused connection ("thrift2").
  ConnectionAdmission(std::string server, int max_connections_per_client);

  // The peer address of the connection, and whether it was admitted. A refused connection's
  // transport is closed: its first read fails at once, so it holds its worker thread for no time.
  struct Admitted {
    std::string client;
    bool counted;
  };
  Admitted Admit(const apache::thrift::TConnectionInfo& info);
  // Gives back what Admit counted.
  void Release(const Admitted& admitted);

 private:
  const std::string server_;
  ClientQuota connections_;
};

// The generated `<Service>IfFactory` of a service, handing each connection a new `Handler` (a
// subclass of the service's `If` whose constructor takes the context's parts and the client's
// address, as Thrift2Handler and Thrift1Handler do).
template <class IfFactory, class Handler>
class PerConnectionHandlers : public IfFactory {
 public:
  using If = typename IfFactory::Handler;

  PerConnectionHandlers(const ThriftServiceContext& context, const std::string& server,
                        int max_connections_per_client)
      : context_(context), admission_(server, max_connections_per_client) {}

  If* getHandler(const apache::thrift::TConnectionInfo& info) override {
    return new Counted(context_, admission_.Admit(info));
  }

  void releaseHandler(If* handler) override {
    auto* counted = static_cast<Counted*>(handler);
    admission_.Release(counted->admitted);
    delete counted;
  }

 private:
  struct Counted : Handler {
    Counted(const ThriftServiceContext& c, ConnectionAdmission::Admitted a)
        : Handler(c.conn, c.scanners, c.host, c.port, c.reserved_namespaces, a.client),
          admitted(std::move(a)) {}
    const ConnectionAdmission::Admitted admitted;
  };

  const ThriftServiceContext& context_;
  ConnectionAdmission admission_;
};

// One Thrift server: the serving machinery, with the service's processor left to the subclass
// (Thrift2Server, Thrift1Server). Thread safety: Start and Stop from one thread; port() from any.
class ThriftServer {
 public:
  // The processor factory of the service, made at each Start once the context exists (it lives
  // until Stop).
  using ProcessorFactoryMaker = std::function<std::shared_ptr<apache::thrift::TProcessorFactory>(
      const ThriftServiceContext&)>;

  // `name` ("thrift2", "thrift1") prefixes errors and log lines. `conn` must outlive the server.
  ThriftServer(std::string name, Connection& conn, ThriftServerOptions options,
               ProcessorFactoryMaker make_processor_factory);
  // Stops the server if it is running.
  virtual ~ThriftServer();

  ThriftServer(const ThriftServer&) = delete;
  ThriftServer& operator=(const ThriftServer&) = delete;

  // Binds, starts serving on background threads, and returns once the socket listens.
  // IOError when the address cannot be bound; FailedPrecondition when already started.
  Status Start();

  // The port the server listens on (the chosen one when options.port is 0); 0 before Start and
  // after Stop.
  int port() const { return port_.load(); }

  // Graceful: stops accepting connections, lets calls in progress finish, closes connections
  // and open scanners, and returns when every worker is done. Idempotent.
  void Stop();

  const ThriftServerOptions& options() const { return options_; }
  // Calls this server has answered or is answering, since it was made (across Stop and Start):
  // what one logical operation costs in round trips, for /metrics and for the tests that pin it.
  uint64_t calls() const { return calls_->load(std::memory_order_relaxed); }
  // "thrift2", "thrift1".
  const std::string& name() const { return name_; }

 private:
  class Impl;
  const std::string name_;
  Connection& conn_;
  const ThriftServerOptions options_;
  const ProcessorFactoryMaker make_processor_factory_;
  std::atomic<int> port_{0};
  // Shared with the processors, which may outlive a Stop by a moment.
  std::shared_ptr<std::atomic<uint64_t>> calls_ = std::make_shared<std::atomic<uint64_t>>(0);
  std::unique_ptr<Impl> impl_;  // while started
};

// The processor factory of a service whose connections each get a new `Handler` (see
// PerConnectionHandlers), for ThriftServer's constructor.
template <class ProcessorFactory, class IfFactory, class Handler>
ThriftServer::ProcessorFactoryMaker PerConnectionProcessor(std::string name,
                                                           int max_connections_per_client) {
  return [name, max_connections_per_client](const ThriftServiceContext& context) {
    return std::make_shared<ProcessorFactory>(
        std::make_shared<PerConnectionHandlers<IfFactory, Handler>>(context, name,
                                                                    max_connections_per_client));
  };
}

}  // namespace basalt::server

#endif  // BASALT_SERVER_THRIFT_THRIFT_SERVER_H_
