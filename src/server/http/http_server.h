// HttpServer: HTTP/1.1 on Boost.Beast, with keep-alive, header and body limits, read and idle
// timeouts, an access log, metrics per route, and graceful shutdown.
//
// Threads: config.threads event loops (io_contexts), one thread each, run the connections; one
// more thread runs the acceptor and the signal handling, which never share a thread with a
// handler, so a handler that blocks delays neither new connections nor SIGTERM. The acceptor
// deals new connections out to the loops in turn; a connection stays on its loop, which reads
// its requests one at a time, runs their handlers and writes the responses, all on that loop's
// thread, so no request wakes another thread (a shared io_context run by a pool woke idle
// threads through a futex and paid for a strand per connection: bench/results/history.md,
// "One io_context per thread"). The price: handlers run synchronously and may block (on the store,
// on a password hash), and while one does, the other connections of its loop wait; those of the
// other loops do not. The default, 2 x cores and at least 4 loops, keeps one slow request to
// about a quarter of the connections or fewer.
//
// Request memory: each request's body is counted against config.request_memory_budget
// (memory_budget.h) from its header on, and the request is screened from its header alone
// (Host, Origin, the route and method, the query string, the route's guards such as the admin
// token) before its body is read: a request that would be refused is answered without reading
// the body, and its connection closes. The framing of the body is checked as RFC 9112 says
// (request_framing.h).
//
//   HttpServer server(config, router, metrics, access_log);
//   BASALT_RETURN_IF_ERROR(server.Listen());     // binds; the port is now known
//   server.Run();   // serves until SIGTERM / SIGINT or Stop(), then drains and returns
//
// Shutdown: the listening socket closes at once; idle keep-alive connections are closed;
// requests already being read or handled finish and get their response (with
// "Connection: close"); after config.shutdown_timeout_seconds whatever is left is cut off.

#ifndef BASALT_SERVER_HTTP_HTTP_SERVER_H_
#define BASALT_SERVER_HTTP_HTTP_SERVER_H_

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "basalt/status.h"
#include "server/http/access_log.h"
#include "server/http/memory_budget.h"
#include "server/http/metrics.h"
#include "server/http/router.h"
#include "server/http/server_config.h"
#include "util/mutex.h"

namespace basalt::server::http {

class Session;

class HttpServer {
 public:
  // All references must outlive the server.
  HttpServer(const ServerConfig& config, const Router& router, Metrics& metrics,
             AccessLog& access_log);
  ~HttpServer();

  // Binds and listens. IOError (one line: the address and the reason) when that fails.
  Status Listen();
  // The port listened on (after Listen).
  uint16_t port() const { return port_; }
  // Serves until a signal or Stop(); returns after the in-flight requests are done.
  // REQUIRES: Listen() succeeded.
  void Run();
  // Starts the graceful shutdown; callable from any thread.
  void Stop();

  // Used by sessions.
  const ServerConfig& config() const { return config_; }
  bool stopping() const { return stopping_.load(); }
  // The response that refuses `header` (a request whose body is not read yet) from its header
  // alone, or nullopt when the request may go on; records metrics for a refusal and sets
  // `*route` to the matched route's pattern.
  std::optional<Response> Screen(const Request& header, std::string* route);
  // Routes and handles one request; records metrics. `memory` holds the request's body already
  // (handlers may reserve more through it); null: nothing is counted. Never throws.
  Response Handle(const Request& request, const std::string& remote, std::string* route,
                  MemoryLease* memory);
  void Register(const std::shared_ptr<Session>& session);
  void Unregister(Session* session);
  Metrics& metrics() { return metrics_; }
  MemoryBudget& memory_budget();
  AccessLog& access_log() { return access_log_; }

 private:
  struct Impl;
  void Accept();
  // Whether another connection fits under config.max_connections.
  bool HasRoomForConnection();
  void BeginShutdown();
  using QueryParams = std::vector<std::pair<std::string, std::string>>;
  // The response refusing `request` before its handler (a browser guard, a bad query, no route,
  // a route guard), or nullopt; `match` is the router's for it. The decoded query string goes
  // to `*query_out` when not null.
  std::optional<Response> Refusal(const Request& request, const Router::Match& match,
                                  QueryParams* query_out);

  const ServerConfig& config_;
  const Router& router_;
  Metrics& metrics_;
  AccessLog& access_log_;
  std::unique_ptr<Impl> impl_;
  uint16_t port_ = 0;
  std::atomic<bool> stopping_{false};
  util::Mutex sessions_mu_;
  std::map<Session*, std::weak_ptr<Session>> sessions_ BASALT_GUARDED_BY(sessions_mu_);
};

}  // namespace basalt::server::http

#endif  // BASALT_SERVER_HTTP_HTTP_SERVER_H_
