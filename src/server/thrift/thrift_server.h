// What basalt's Thrift servers (Thrift2's THBaseService, Thrift1's Hbase) share: the options, the
// caps, and the serving machinery. Each protocol's server (thrift2/thrift2_server.h,
// thrift1/thrift1_server.h) only says which generated processor and which handler serve a
// connection.
//
// The machinery is event-driven (server/net/event_server.h): a connection holds no thread. A fixed
// pool of threads (`worker_threads`) waits on every connection's socket at once in one epoll set;
// when a socket is ready, one thread takes it (EPOLLONESHOT: no other thread serves that connection
// until it is handed back), reads what has arrived, and for each request that is complete (a frame,
// or, buffered, where message_scanner.h's walk says it ends) runs the generated processor on the
// request's bytes in memory, then sends every answer of that read in one send
// (thrift_connection.h). The handler runs on that thread: no hand-off to another thread, whose
// wake-up would cost every call; a long call (a 16 MiB scan, a write waiting on the store) holds
// its one thread and the others go on serving every other connection. A slow reader of its answers
// holds no thread either: what the socket does not take waits in the connection.
//
// What one client may hold is capped (docs/security.md, "Resource caps"): connections in all and
// per client address (a full server makes room by closing an idle connection of the client
// holding the most, connection_table.h), the bytes held for unfinished requests and unsent
// answers in all, scanners per client address and in all, the bytes of one message, of one
// string, and the elements of one list.

#ifndef BASALT_SERVER_THRIFT_THRIFT_SERVER_H_
#define BASALT_SERVER_THRIFT_THRIFT_SERVER_H_

#include <thrift/TConfiguration.h>
#include <thrift/TProcessor.h>
#include <thrift/transport/TTransport.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "basalt/connection.h"
#include "basalt/status.h"
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
  // Threads serving calls: each waits on every connection at once and serves the one whose
  // socket is ready, so this is the most calls in progress at once, whatever the number of
  // connections (which hold no thread). More than the cores, so that calls waiting on the store
  // or a long call do not hold up the rest. Default: 32.
  int worker_threads = 32;
  // Most connections open at once, in all. A new connection past it takes the place of the
  // connection idle longest (no complete request for the longest time) of the client holding
  // the most, which is closed; it is refused (closed at once, and logged) only when that
  // client's every connection is in a call. An idle connection costs a few KiB and a file
  // descriptor (the process's RLIMIT_NOFILE must allow them). 0: no cap. Default: 10000.
  size_t max_connections = 10000;
  // Most connections open at once from one client address; one more is closed as soon as it is
  // accepted (Thrift has no way to answer before a request), and the server logs why (at most a
  // line a second). 0: no cap. Default: 1000 (a tenth of max_connections: pooled application
  // servers, or many processes behind one address, fit easily; past ten such addresses a full
  // server sheds the idle connections of the one holding the most).
  int max_connections_per_client = 1000;
  // Bytes held in all for connections' requests not yet complete and answers the client has not
  // read yet; past it, the connection holding the most is closed (as Redis's
  // maxmemory-clients). Without it, 10,000 connections each sending most of a 100 MiB request,
  // or each leaving a 16 MiB answer unread, would hold what they sent or asked for. 0: no cap.
  // Default: 1 GiB.
  size_t max_buffered_bytes = size_t{1} << 30;
  // Most scanners open at once, in all and per client address; opening one beyond either is an
  // IOError (retryable) saying which cap was reached. 0: no cap. Defaults: 10000 and 1000.
  size_t max_scanners = 10000;
  size_t max_scanners_per_client = 1000;
  // A connection with no byte in or out for this long, and no call in progress, is closed.
  // Clients reconnect (basalt's thrift:// pool drops a connection idle past its idle_ms, 20 s by
  // default, before reuse). Default: 60 s (hbase.thrift.server.socket.read.timeout).
  std::chrono::milliseconds read_timeout{60000};
  // How long the thread that has answered a connection polls its socket for the next request
  // before it goes back to waiting in epoll, while no other connection is calling
  // (arrival_spin.h): saves the wake-up of a sleeping core per call at the price of up to this
  // much CPU after each answer. Zero turns it off. Default: 50 µs.
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

// What a handler factory learns of a new connection: TConnectionInfo's transport is one of these,
// naming the client's address (the peer's IP address, an IPv4-mapped IPv6 address as IPv4).
class ClientAddressTransport : public apache::thrift::transport::TTransport {
 public:
  ClientAddressTransport(std::string address,
                         std::shared_ptr<apache::thrift::TConfiguration> config)
      : TTransport(std::move(config)), address_(std::move(address)) {}
  const std::string& address() const { return address_; }

 private:
  const std::string address_;
};

// The client's address of a connection ("unknown" when the transport does not say).
std::string ClientAddressOf(const apache::thrift::TConnectionInfo& info);

// The generated `<Service>IfFactory` of a service, handing each connection a new `Handler` (a
// subclass of the service's `If` whose constructor takes the context's parts and the client's
// address, as Thrift2Handler and Thrift1Handler do), made at the connection's first request and
// released when it closes. Thread safety: getHandler and releaseHandler from any thread.
template <class IfFactory, class Handler>
class PerConnectionHandlers : public IfFactory {
 public:
  using If = typename IfFactory::Handler;

  explicit PerConnectionHandlers(const ThriftServiceContext& context) : context_(context) {}

  If* getHandler(const apache::thrift::TConnectionInfo& info) override {
    return new ForConnection(context_, ClientAddressOf(info));
  }

  void releaseHandler(If* handler) override { delete static_cast<ForConnection*>(handler); }

 private:
  struct ForConnection : Handler {
    ForConnection(const ThriftServiceContext& c, const std::string& client)
        : Handler(c.conn, c.scanners, c.host, c.port, c.reserved_namespaces, client) {}
  };

  const ThriftServiceContext& context_;
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

  // Graceful: stops accepting connections, lets calls in progress finish and sends their answers
  // (waiting up to 5 s for clients to take them), closes connections and open scanners, and
  // returns when every thread is done. Idempotent.
  void Stop();

  const ThriftServerOptions& options() const { return options_; }
  // Calls this server has answered or is answering, since it was made (across Stop and Start):
  // what one logical operation costs in round trips, for /metrics and for the tests that pin it.
  uint64_t calls() const { return calls_->load(std::memory_order_relaxed); }
  // Sends of answers since it was made: one per call for a client that waits for each answer,
  // fewer than the calls when a client pipelines (the answers to the requests of one read go
  // out in one send), more when a socket takes a large answer piecemeal.
  uint64_t answer_writes() const { return answer_writes_->load(std::memory_order_relaxed); }
  // "thrift2", "thrift1".
  const std::string& name() const { return name_; }
  // Connections open now (0 when stopped), and those closed to make room or for the bytes cap
  // since the last Start.
  size_t connections() const;
  uint64_t connections_shed() const;

 private:
  class Impl;
  const std::string name_;
  Connection& conn_;
  const ThriftServerOptions options_;
  const ProcessorFactoryMaker make_processor_factory_;
  std::atomic<int> port_{0};
  // Shared with the processors, which may outlive a Stop by a moment.
  std::shared_ptr<std::atomic<uint64_t>> calls_ = std::make_shared<std::atomic<uint64_t>>(0);
  std::shared_ptr<std::atomic<uint64_t>> answer_writes_ =
      std::make_shared<std::atomic<uint64_t>>(0);
  std::unique_ptr<Impl> impl_;  // while started
};

// The processor factory of a service whose connections each get a new `Handler` (see
// PerConnectionHandlers), for ThriftServer's constructor.
template <class ProcessorFactory, class IfFactory, class Handler>
ThriftServer::ProcessorFactoryMaker PerConnectionProcessor() {
  return [](const ThriftServiceContext& context) {
    return std::make_shared<ProcessorFactory>(
        std::make_shared<PerConnectionHandlers<IfFactory, Handler>>(context));
  };
}

}  // namespace basalt::server

#endif  // BASALT_SERVER_THRIFT_THRIFT_SERVER_H_
