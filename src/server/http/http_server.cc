#include "server/http/http_server.h"

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>
#include <vector>

#include "server/http/browser_guard.h"
#include "server/http/request_framing.h"
#include "server/http/status_mapping.h"
#include "server/http/url.h"

namespace basalt::server::http {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bh = boost::beast::http;
using tcp = boost::asio::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {

// Sets `res`'s body to a server-side error in the shape of the API `target` belongs to.
void SetErrorBody(Response& res, std::string_view target, std::string_view code,
                  const std::string& message) {
  Response shaped = ServerErrorResponse(res.version(), target, res.result(), code, message);
  res.set(bh::field::content_type, shaped[bh::field::content_type]);
  res.body() = std::move(shaped.body());
  res.prepare_payload();
}

// The number of event loops (and threads) config.threads asks for.
unsigned LoopCount(const ServerConfig& config) {
  if (config.threads != 0) return config.threads;
  return std::max(4u, 2 * std::thread::hardware_concurrency());
}

// A connection's stream: a TCP socket on one event loop's executor (no type-erased executor, no
// strand: only that loop's thread ever touches it).
using LoopExecutor = net::io_context::executor_type;
using Socket = tcp::socket::rebind_executor<LoopExecutor>::other;
using Stream = beast::basic_stream<tcp, LoopExecutor, beast::unlimited_rate_policy>;

// Answers 503 on a connection over config.max_connections and closes it.
void Refuse(Socket& socket, Metrics& metrics) {
  // One small write that the socket's send buffer takes at once (never blocking the acceptor),
  // then close: a client over the limit learns why instead of seeing a bare reset.
  static constexpr std::string_view kBusy =
      "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: 22\r\n"
      "X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\ntoo many connections\r\n";
  beast::error_code ec;
  socket.non_blocking(true, ec);
  if (!ec) socket.write_some(net::buffer(kBusy.data(), kBusy.size()), ec);
  socket.shutdown(tcp::socket::shutdown_both, ec);
  socket.close(ec);
  metrics.ConnectionRefused();
}

}  // namespace

struct HttpServer::Impl {
  explicit Impl(const ServerConfig& config) : budget(config.request_memory_budget) {
    acceptor.emplace(control);
    signals.emplace(control, SIGINT, SIGTERM);
  }

  void AddLoop() {
    // Concurrency hint 1: one thread runs each loop, so its scheduler never wakes another.
    loops.push_back(std::make_unique<net::io_context>(1));
    work.push_back(net::make_work_guard(*loops.back()));
  }

  // Outlives the loops: sessions destroyed with them give their memory back to it.
  MemoryBudget budget;
  // The acceptor, the signals and the shutdown run here, on a thread of their own (the one that
  // calls Run), never on a connection's loop: a handler that blocks its loop must not keep new
  // connections waiting, nor SIGTERM. One thread: an acceptor is not safe to close on one thread
  // while another starts an accept. Its pending accept and signal wait keep it running until
  // the shutdown cancels both.
  net::io_context control{1};
  // One event loop per thread (from Run, which reads config.threads); a connection lives on one
  // of them for its whole life.
  std::vector<std::unique_ptr<net::io_context>> loops;
  // Keeps the loops without connections running until the shutdown.
  std::vector<net::executor_work_guard<LoopExecutor>> work;
  size_t next_loop = 0;  // round-robin; touched on the control thread only
  // Destroyed before the loops and the control context.
  std::optional<tcp::acceptor> acceptor;
  std::optional<net::signal_set> signals;
};

// One connection: reads requests one after another (keep-alive), hands each to the server and
// writes the response. Lives on one event loop: every handler of it runs on that loop's thread.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(Socket socket, HttpServer& server)
      : stream_(std::move(socket)),
        server_(server),
        lease_(server.memory_budget(), RequestMemoryLimit(server.config())) {
    beast::error_code ec;
    auto ep = stream_.socket().remote_endpoint(ec);
    if (!ec) remote_ = ep.address().to_string() + ":" + std::to_string(ep.port());
  }

  ~Session() {
    server_.metrics().ConnectionClosed();
    server_.Unregister(this);
  }

  void Start() {
    server_.metrics().ConnectionOpened();
    net::dispatch(stream_.get_executor(),
                  beast::bind_front_handler(&Session::ReadHeader, shared_from_this()));
  }

  // Called on shutdown: a connection waiting for its next request is closed now; one in the
  // middle of a request, or whose next request has arrived already, finishes it first. The wait
  // is cancelled rather than the socket closed: a read that has taken the next request's bytes
  // from the socket but whose completion is still queued then completes with them.
  void StopIfIdle() {
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] {
      beast::error_code ec;
      if (self->idle_ && self->stream_.socket().available(ec) == 0) {
        self->stream_.socket().cancel(ec);  // the read completes with an error: Close
      }
    });
  }

 private:
  void ReadHeader() {
    if (server_.stopping()) return Close();
    const ServerConfig& cfg = server_.config();
    parser_.emplace();  // frees the previous request's body, whose memory the lease gives back
    lease_.Clear();
    memory_refused_.reset();
    parser_->header_limit(cfg.max_header);
    parser_->body_limit(cfg.max_body);
    parser_->on_chunk_header(on_chunk_header_);
    idle_ = buffer_.size() == 0;
    stream_.expires_after(std::chrono::seconds(cfg.idle_timeout_seconds));
    ParseHeader();
  }

  // Feeds what is buffered to the parser, reading more until the header is whole. Not Beast's
  // async_read_header: the header's raw bytes are checked here (HasObsFold) before the parser
  // folds them away.
  void ParseHeader() {
    if (buffer_.size() > 0) {
      beast::error_code ec;
      size_t used = parser_->put(buffer_.data(), ec);
      if (!ec && parser_->is_header_done()) {
        auto bytes = net::buffer_cast<const char*>(buffer_.data());
        bool folded = HasObsFold(std::string_view(bytes, used));
        buffer_.consume(used);
        if (folded) {
          idle_ = false;
          return SendMalformed("a header line continued on the next (obs-fold, RFC 9112 5.2)");
        }
        return OnHeader(ec);
      }
      buffer_.consume(used);
      if (ec != bh::error::need_more) return OnHeader(ec);
    }
    // A header is at most max_header bytes (the parser says header_limit past it): read in
    // steps of at most 16 KiB so the buffer stays near that size.
    size_t room = std::min<size_t>(16 * 1024, server_.config().max_header + 4);
    stream_.async_read_some(buffer_.prepare(room),
                            [self = shared_from_this()](beast::error_code ec, size_t n) {
                              self->buffer_.commit(n);
                              if (ec) return self->Close();  // end of stream, timeout, reset
                              self->idle_ = false;
                              self->ParseHeader();
                            });
  }

  void OnHeader(beast::error_code ec) {
    idle_ = false;
    if (ec == bh::error::header_limit) {
      return SendLimitError(
          bh::status::request_header_fields_too_large,
          "request header larger than " + std::to_string(server_.config().max_header) + " bytes");
    }
    if (ec == bh::error::body_limit) return SendBodyTooLarge();
    if (IsMalformedRequest(ec)) return SendMalformed(ec.message());
    if (ec) return Close();
    started_ = Clock::now();
    const Request& header = parser_->get();
    if (std::optional<std::string> framing = FramingError(header)) {
      return SendMalformed(*framing);
    }
    if (!parser_->is_done()) {
      // A body follows. Whatever would refuse the request from its header refuses it now,
      // before the body costs memory or time; the body stays unread, so the connection closes.
      route_.clear();
      if (std::optional<Response> refusal = server_.Screen(header, &route_)) {
        res_ = std::move(*refusal);
        res_.keep_alive(false);
        return Write(/*close=*/true);
      }
      if (boost::optional<uint64_t> length = parser_->content_length()) {
        // The string body reserves the whole length as the body starts: count it now.
        MemoryLease::Outcome outcome = lease_.Reserve(*length);
        if (outcome != MemoryLease::Outcome::kReserved) {
          return SendMemoryRefusal(outcome,
                                   "a request body of " + std::to_string(*length) + " bytes");
        }
      }
    }
    stream_.expires_after(std::chrono::seconds(server_.config().read_timeout_seconds));
    bh::async_read(stream_, buffer_, *parser_,
                   beast::bind_front_handler(&Session::OnBody, shared_from_this()));
  }

  // Before each chunk of a chunked body: the body's string grows to hold it, and the lease holds
  // what it grows to (a string grows by doubling), or the read stops with memory_refused_ set.
  void OnChunkHeader(uint64_t size, beast::string_view, beast::error_code& ec) {
    std::string& body = parser_->get().body();
    uint64_t needed = body.size() + size;
    if (needed <= body.capacity()) return;
    uint64_t grown = std::max<uint64_t>(needed, 2 * uint64_t{body.capacity()});
    MemoryLease::Outcome outcome = lease_.ReserveTotal(grown);
    if (outcome != MemoryLease::Outcome::kReserved) {
      memory_refused_ = outcome;
      ec = bh::error::body_limit;
      return;
    }
    body.reserve(needed);
    // What the string took, if not what was foreseen (it only ever takes less).
    if (lease_.ReserveTotal(body.capacity()) != MemoryLease::Outcome::kReserved) {
      memory_refused_ = MemoryLease::Outcome::kBudgetSpent;
      ec = bh::error::body_limit;
    }
  }

  void OnBody(beast::error_code ec, size_t) {
    if (memory_refused_) {
      return SendMemoryRefusal(*memory_refused_, "a chunked request body of more than " +
                                                     std::to_string(parser_->get().body().size()) +
                                                     " bytes");
    }
    if (ec == bh::error::body_limit) return SendBodyTooLarge();
    if (IsMalformedRequest(ec)) return SendMalformed(ec.message());
    if (ec) return Close();
    stream_.expires_never();
    const Request& req = parser_->get();
    route_.clear();
    res_ = server_.Handle(req, remote_, &route_, &lease_);
    bool keep_alive = req.keep_alive() && !server_.stopping();
    res_.keep_alive(keep_alive);
    Write(!keep_alive);
  }

  // A parse error of the request's bytes (bad request line, header or chunk framing), as opposed
  // to the connection ending or timing out, which no response could reach.
  static bool IsMalformedRequest(const beast::error_code& ec) {
    return ec && ec.category() == bh::make_error_code(bh::error::bad_method).category() &&
           ec != bh::error::end_of_stream && ec != bh::error::partial_message &&
           ec != bh::error::need_more && ec != bh::error::need_buffer;
  }

  void SendMalformed(const std::string& why) {
    SendLimitError(bh::status::bad_request, "malformed request: " + why);
  }

  void SendBodyTooLarge() {
    SendLimitError(
        bh::status::payload_too_large,
        "request body larger than " + std::to_string(server_.config().max_body) + " bytes");
  }

  void SendMemoryRefusal(MemoryLease::Outcome outcome, const std::string& what) {
    SendRefusal(MemoryRefusal(11, Target(), outcome, lease_, what));
  }

  // Answers a request that broke a limit.
  void SendLimitError(bh::status status, const std::string& message) {
    SendRefusal(ServerErrorResponse(
        11, Target(), status, status == bh::status::payload_too_large ? "too_large" : "bad_request",
        message));
  }

  // The request's target, as far as it was parsed (a body limit is seen as soon as
  // Content-Length is parsed, before the header is "done"; the request line is in the message
  // by then).
  std::string_view Target() const {
    return parser_ ? View(parser_->get().target()) : std::string_view();
  }

  // Sends `res`, the server's own refusal of a request the handler never saw (so nothing was
  // written), then closes the connection: the request's remaining bytes are not read.
  void SendRefusal(Response res) {
    started_ = Clock::now();
    res_ = std::move(res);
    res_.keep_alive(false);
    std::string_view method = parser_ ? View(parser_->get().method_string()) : std::string_view();
    server_.metrics().ObserveRequest("", method, static_cast<int>(res_.result_int()), 0);
    route_.clear();
    Write(/*close=*/true);
  }

  // Sends res_ (one response at a time per connection: the next request is read only after
  // it), then logs the request, whose method and target are still in parser_.
  void Write(bool close) {
    // On every response, errors included: no browser may sniff a body into HTML or script.
    res_.set("X-Content-Type-Options", "nosniff");
    stream_.expires_after(std::chrono::seconds(server_.config().read_timeout_seconds));
    bh::async_write(stream_, res_,
                    [self = shared_from_this(), close](beast::error_code ec, size_t) {
                      self->LogRequest();
                      if (ec || close) return self->CloseAfterWrite();
                      self->ReadHeader();
                    });
  }

  void LogRequest() {
    AccessLogEntry entry;
    if (parser_) {
      entry.method = View(parser_->get().method_string());
      entry.target = View(parser_->get().target());
    }
    entry.route = route_;
    entry.status = static_cast<int>(res_.result_int());
    entry.bytes = res_.body().size();
    entry.duration_ms = std::chrono::duration<double, std::milli>(Clock::now() - started_).count();
    entry.remote = remote_;
    server_.access_log().Write(entry);
  }

  // Half-closes, then reads and drops what the client still sends for a short while, so that
  // it sees the response rather than a connection reset.
  void CloseAfterWrite() {
    parser_.reset();  // the request is logged: its body is needed no more
    lease_.Clear();
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream_.expires_after(std::chrono::seconds(2));
    Drain();
  }

  void Drain() {
    drain_buf_.resize(64 * 1024);
    stream_.async_read_some(net::buffer(drain_buf_),
                            [self = shared_from_this()](beast::error_code ec, size_t n) {
                              self->drained_ += n;
                              if (ec || self->drained_ > (uint64_t{64} << 20)) {
                                return self->Close();
                              }
                              self->Drain();
                            });
  }

  void Close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
    stream_.socket().close(ec);
  }

  Stream stream_;
  HttpServer& server_;
  beast::flat_buffer buffer_;
  std::optional<bh::request_parser<bh::string_body>> parser_;
  // The current request's share of the server's memory budget: its body, and what its handler
  // decodes it into.
  MemoryLease lease_;
  // Set when a chunk of the body did not fit in the lease (the read then stops).
  std::optional<MemoryLease::Outcome> memory_refused_;
  // The parser holds a reference to it.
  std::function<void(uint64_t, beast::string_view, beast::error_code&)> on_chunk_header_ =
      [this](uint64_t size, beast::string_view extensions, beast::error_code& ec) {
        OnChunkHeader(size, extensions, ec);
      };
  Response res_;       // the response being written
  std::string route_;  // the route pattern of the request answered
  std::string remote_;
  Clock::time_point started_;
  bool idle_ = false;
  std::vector<char> drain_buf_;
  uint64_t drained_ = 0;
};

HttpServer::HttpServer(const ServerConfig& config, const Router& router, Metrics& metrics,
                       AccessLog& access_log)
    : config_(config),
      router_(router),
      metrics_(metrics),
      access_log_(access_log),
      impl_(std::make_unique<Impl>(config)) {}

HttpServer::~HttpServer() {
  // Handlers still queued (after a cut-off shutdown) hold sessions, which unregister from this
  // server when destroyed: destroy them while the rest of the server is alive.
  impl_.reset();
}

Status HttpServer::Listen() {
  beast::error_code ec;
  auto address = net::ip::make_address(config_.bind, ec);
  if (ec) return Status::InvalidArgument("bad bind address '" + config_.bind + "'");
  tcp::endpoint endpoint(address, config_.port);
  std::string where = config_.bind + ":" + std::to_string(config_.port);
  tcp::acceptor& acceptor = *impl_->acceptor;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) return Status::IOError("cannot listen on " + where + ": " + ec.message());
  port_ = acceptor.local_endpoint().port();
  return Status::OK();
}

void HttpServer::Accept() {
  // The new connection's socket goes to the next loop, round-robin; the completion runs on the
  // control thread, and the session starts on its own loop.
  net::io_context& loop = *impl_->loops[impl_->next_loop];
  impl_->next_loop = (impl_->next_loop + 1) % impl_->loops.size();
  impl_->acceptor->async_accept(loop, [this](beast::error_code ec, Socket socket) {
    if (stopping_.load() || !impl_->acceptor->is_open()) return;  // drops `socket`
    if (!ec && !HasRoomForConnection()) {
      Refuse(socket, metrics_);
    } else if (!ec) {
      auto session = std::make_shared<Session>(std::move(socket), *this);
      Register(session);
      session->Start();
    }
    Accept();
  });
}

bool HttpServer::HasRoomForConnection() {
  util::MutexLock lock(sessions_mu_);
  return sessions_.size() < config_.max_connections;
}

void HttpServer::Register(const std::shared_ptr<Session>& session) {
  util::MutexLock lock(sessions_mu_);
  sessions_[session.get()] = session;
}

void HttpServer::Unregister(Session* session) {
  util::MutexLock lock(sessions_mu_);
  sessions_.erase(session);
}

void HttpServer::Run() {
  impl_->signals->async_wait([this](beast::error_code ec, int) {
    if (!ec) BeginShutdown();
  });
  while (impl_->loops.size() < LoopCount(config_)) impl_->AddLoop();
  Accept();
  std::vector<std::thread> pool;
  for (size_t i = 0; i < impl_->loops.size(); ++i) {
    pool.emplace_back([this, i] { impl_->loops[i]->run(); });
  }
  // The watchdog cuts off what is still running shutdown_timeout_seconds after the signal.
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  std::thread watchdog([&] {
    std::unique_lock<std::mutex> lock(mu);
    std::optional<Clock::time_point> deadline;
    while (!done) {
      cv.wait_for(lock, std::chrono::milliseconds(100));
      if (stopping_.load() && !deadline) {
        deadline = Clock::now() + std::chrono::seconds(config_.shutdown_timeout_seconds);
      }
      if (deadline && Clock::now() > *deadline) {
        for (auto& loop : impl_->loops) loop->stop();
        impl_->control.stop();
        return;
      }
    }
  });
  // Returns once the shutdown has closed the acceptor and cancelled the signal wait.
  impl_->control.run();
  for (auto& t : pool) t.join();
  {
    std::lock_guard<std::mutex> lock(mu);
    done = true;
  }
  cv.notify_all();
  watchdog.join();
}

void HttpServer::Stop() {
  net::post(impl_->control, [this] { BeginShutdown(); });
}

MemoryBudget& HttpServer::memory_budget() {
  return impl_->budget;
}

void HttpServer::BeginShutdown() {
  if (stopping_.exchange(true)) return;
  beast::error_code ec;
  impl_->acceptor->close(ec);
  impl_->signals->cancel(ec);
  // Each loop returns once its last connection is done.
  for (auto& guard : impl_->work) guard.reset();
  std::vector<std::shared_ptr<Session>> live;
  {
    util::MutexLock lock(sessions_mu_);
    for (auto& [ptr, weak] : sessions_) {
      if (auto s = weak.lock()) live.push_back(std::move(s));
    }
  }
  for (auto& s : live) s->StopIfIdle();
}

std::optional<Response> HttpServer::Refusal(const Request& request, const Router::Match& match,
                                            QueryParams* query_out) {
  std::string_view target = View(request.target());
  if (std::optional<std::string> refusal = BrowserGuardRefusal(request, config_)) {
    // Before any handler: the request may come from a page on another site.
    Response res{bh::status::forbidden, request.version()};
    SetErrorBody(res, target, "forbidden", *refusal);
    return res;
  }
  size_t q = target.find('?');
  if (q != std::string_view::npos) {
    auto query = ParseQuery(target.substr(q + 1));
    if (!query.ok()) {
      Response res = ErrorResponse(request, query.status());
      if (IsJsonApiTarget(target)) {
        SetErrorBody(res, target, "bad_request", query.status().message());
      }
      return res;
    }
    if (query_out != nullptr) *query_out = std::move(*query);
  }
  if (match.handler == nullptr) {
    if (match.allowed.empty()) {
      return MakeResponse(request, bh::status::not_found, "text/plain", "Not found\r\n");
    }
    Response res = MakeResponse(request, bh::status::method_not_allowed, "text/plain",
                                "Method not allowed\r\n");
    std::string allow;
    for (Verb v : match.allowed) {
      if (!allow.empty()) allow += ", ";
      allow += std::string(bh::to_string(v));
    }
    res.set(bh::field::allow, allow);
    return res;
  }
  for (const RequestGuard* guard : match.guards) {
    if (std::optional<Response> res = (*guard)(request)) return res;
  }
  return std::nullopt;
}

std::optional<Response> HttpServer::Screen(const Request& header, std::string* route) {
  std::string_view target = View(header.target());
  Router::Match match = router_.Find(header.method(), target.substr(0, target.find('?')));
  std::optional<Response> res = Refusal(header, match, nullptr);
  if (!res && match.fallback) {
    // A namespace's own 404 or 405: its fallback answers from the header too.
    RequestContext ctx{header, std::move(match.params), {}, ""};
    res = (*match.handler)(ctx);
  }
  if (!res) return std::nullopt;
  *route = match.pattern;
  res->set(bh::field::server, "basalt");
  metrics_.ObserveRequest(match.pattern, View(header.method_string()),
                          static_cast<int>(res->result_int()), 0);
  return res;
}

Response HttpServer::Handle(const Request& request, const std::string& remote, std::string* route,
                            MemoryLease* memory) {
  auto start = Clock::now();
  std::string_view target = View(request.target());
  Router::Match match = router_.Find(request.method(), target.substr(0, target.find('?')));
  QueryParams query;
  std::optional<Response> refusal = Refusal(request, match, &query);
  Response res;
  if (refusal) {
    res = std::move(*refusal);
  } else {
    RequestContext ctx{request, std::move(match.params), std::move(query), remote, memory};
    try {
      res = (*match.handler)(ctx);
    } catch (const std::exception& e) {
      // Handlers return errors as values; an exception here is a bug, not a client error.
      res = ErrorResponse(request, Status::Internal(e.what()));
    }
  }
  *route = match.pattern;
  res.set(bh::field::server, "basalt");
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  metrics_.ObserveRequest(match.pattern, View(request.method_string()),
                          static_cast<int>(res.result_int()), seconds);
  return res;
}

}  // namespace basalt::server::http
