#include "server/thrift/thrift_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <spdlog/spdlog.h>

#include "server/net/arrival_spin.h"
#include "server/net/connection_table.h"
#include "server/thrift/growing_protocol.h"
#include "server/thrift/thrift_connection.h"

namespace basalt::server {

namespace {

using apache::thrift::TConfiguration;

// Connections one thread accepts before it serves anything else: a flood of connections does not
// keep a thread from the calls of those already open.
constexpr int kAcceptsPerTurn = 64;
// How long accepting pauses when the process is out of file descriptors (or memory): accept
// would fail again at once, and the listening socket would wake a thread without end.
constexpr std::chrono::milliseconds kAcceptPause{100};
// How long Stop waits for calls in progress to be answered and their answers taken.
constexpr std::chrono::seconds kStopGrace{5};

// Counts every call a processor reads: Thrift's generated processors ask their event handler for
// a context once per call, before reading its arguments.
class CallCounter : public apache::thrift::TProcessorEventHandler {
 public:
  explicit CallCounter(std::shared_ptr<std::atomic<uint64_t>> calls) : calls_(std::move(calls)) {}

  void* getContext(const char* /*fn_name*/, void* /*server_context*/) override {
    calls_->fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }

 private:
  std::shared_ptr<std::atomic<uint64_t>> calls_;
};

// Gives every processor of `inner` the call counter.
class CountingProcessorFactory : public apache::thrift::TProcessorFactory {
 public:
  CountingProcessorFactory(std::shared_ptr<apache::thrift::TProcessorFactory> inner,
                           std::shared_ptr<std::atomic<uint64_t>> calls)
      : inner_(std::move(inner)), counter_(std::make_shared<CallCounter>(std::move(calls))) {}

  std::shared_ptr<apache::thrift::TProcessor> getProcessor(
      const apache::thrift::TConnectionInfo& info) override {
    std::shared_ptr<apache::thrift::TProcessor> processor = inner_->getProcessor(info);
    processor->setEventHandler(counter_);
    return processor;
  }

 private:
  std::shared_ptr<apache::thrift::TProcessorFactory> inner_;
  std::shared_ptr<CallCounter> counter_;
};

// The numeric address of a peer; an IPv4 client of a dual-stack socket as its IPv4 address, so
// that it has one per-client share whichever way it came.
std::string AddressOf(const sockaddr_storage& addr) {
  char text[INET6_ADDRSTRLEN] = "unknown";
  if (addr.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&addr);
    inet_ntop(AF_INET, &in->sin_addr, text, sizeof(text));
  } else if (addr.ss_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&addr);
    if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) {
      inet_ntop(AF_INET, in6->sin6_addr.s6_addr + 12, text, sizeof(text));
    } else {
      inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof(text));
    }
  }
  return text;
}

std::string Errno(int err) {
  return std::strerror(err);
}

// Tags of the epoll entries that are not connections.
char listener_tag;
char stop_tag;

}  // namespace

std::string ClientAddressOf(const apache::thrift::TConnectionInfo& info) {
  if (const auto* peer = dynamic_cast<const ClientAddressTransport*>(info.transport.get())) {
    return peer->address();
  }
  return "unknown";
}

class ThriftServer::Impl {
 public:
  Impl(const std::string& name, Connection& conn, const ThriftServerOptions& options)
      : name_(name),
        options_(options),
        scanners_(options.scanner_idle_timeout, options.max_scanners,
                  options.max_scanners_per_client),
        spin_(options.arrival_spin),
        table_(name, options.max_connections,
               static_cast<size_t>(std::max(options.max_connections_per_client, 0)),
               options.max_buffered_bytes),
        context_{conn, scanners_,
                 options.bind_address == "0.0.0.0" ? "localhost" : options.bind_address, &port_,
                 options.reserved_namespaces} {}

  ~Impl() {
    for (int fd : {listen_fd_, epoll_fd_, stop_fd_}) {
      if (fd >= 0) ::close(fd);
    }
  }

  Status Start(const ProcessorFactoryMaker& make_processor_factory,
               std::shared_ptr<std::atomic<uint64_t>> calls) {
    BASALT_RETURN_IF_ERROR(Listen());
    epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
    stop_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (epoll_fd_ < 0 || stop_fd_ < 0) {
      return Status::IOError(name_ + " server: epoll: " + Errno(errno));
    }
    // The stop event stays ready once written, so every thread sees it.
    epoll_event stop{};
    stop.events = EPOLLIN;
    stop.data.ptr = &stop_tag;
    if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, stop_fd_, &stop) != 0 ||
        !ArmListener(EPOLL_CTL_ADD)) {
      return Status::IOError(name_ + " server: epoll: " + Errno(errno));
    }
    processors_ = std::make_shared<CountingProcessorFactory>(make_processor_factory(context_),
                                                             std::move(calls));
    config_ =
        std::make_shared<TConfiguration>(options_.max_message_bytes, options_.max_frame_bytes);
    setup_.server = name_;
    setup_.framed = options_.framed;
    setup_.compact = options_.compact;
    setup_.caps = MessageCaps{options_.max_message_bytes, options_.max_list_elements};
    setup_.max_frame_bytes = options_.max_frame_bytes;
    setup_.processors = processors_.get();
    setup_.table = &table_;
    setup_.spin = options_.arrival_spin.count() > 0 ? &spin_ : nullptr;
    setup_.config = config_;
    // A string may declare at most the message size (and is read from memory, the whole request
    // having arrived), a list max_list_elements.
    setup_.protocols = GrowingProtocolFactory(options_.compact, options_.max_message_bytes,
                                              options_.max_list_elements);
    WarnIfDescriptorsFallShort();
    const int threads = std::max(options_.worker_threads, 1);
    for (int i = 0; i < threads; ++i) {
      threads_.emplace_back([this, i] { Serve(i); });
    }
    reaper_ = std::thread([this] { Reap(); });
    return Status::OK();
  }

  // Only after a successful Start.
  void Stop() {
    stopping_.store(true);
    ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, listen_fd_, nullptr);
    // Refuses new connections, closes the idle ones; those in a call close once answered.
    table_.CloseAll(/*even_busy=*/false);
    if (!table_.WaitEmpty(std::chrono::steady_clock::now() + kStopGrace)) {
      table_.CloseAll(/*even_busy=*/true);
      while (!table_.WaitEmpty(std::chrono::steady_clock::now() + std::chrono::seconds(1))) {
        table_.CloseAll(/*even_busy=*/true);
      }
    }
    const uint64_t one = 1;
    if (::write(stop_fd_, &one, sizeof(one)) != sizeof(one)) {
      spdlog::error("{}: could not wake the serving threads: {}", name_, Errno(errno));
    }
    for (std::thread& t : threads_) t.join();
    threads_.clear();
    {
      std::lock_guard<std::mutex> lock(mu_);
      reaper_stop_ = true;
    }
    cv_.notify_all();
    if (reaper_.joinable()) reaper_.join();
    // The port is free once Stop returns.
    ::close(listen_fd_);
    listen_fd_ = -1;
    // Close the scanners before the Connection can go away.
    scanners_.ExpireAll();
  }

  int port() const { return port_.load(); }
  size_t connections() const { return table_.size(); }
  uint64_t shed() const { return table_.shed(); }

 private:
  Status Listen() {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo* found = nullptr;
    const std::string port = std::to_string(options_.port);
    const char* host = options_.bind_address.empty() ? nullptr : options_.bind_address.c_str();
    if (int rc = ::getaddrinfo(host, port.c_str(), &hints, &found); rc != 0) {
      return Status::IOError(name_ + " server: cannot resolve " + options_.bind_address + ": " +
                             ::gai_strerror(rc));
    }
    std::string error = "no address";
    for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
      int fd =
          ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
      if (fd < 0) {
        error = Errno(errno);
        continue;
      }
      const int one = 1, zero = 0;
      ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
      // "::" takes IPv4 clients too, as Thrift's TServerSocket does.
      if (a->ai_family == AF_INET6)
        ::setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
      if (::bind(fd, a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd, SOMAXCONN) == 0) {
        listen_fd_ = fd;
        break;
      }
      error = Errno(errno);
      ::close(fd);
    }
    ::freeaddrinfo(found);
    if (listen_fd_ < 0) {
      return Status::IOError(name_ + " server: could not listen on " + options_.bind_address + ":" +
                             port + ": " + error);
    }
    sockaddr_storage bound{};
    socklen_t len = sizeof(bound);
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&bound), &len);
    port_ = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                              : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    return Status::OK();
  }

  bool ArmListener(int op) {
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLONESHOT;
    ev.data.ptr = &listener_tag;
    return ::epoll_ctl(epoll_fd_, op, listen_fd_, &ev) == 0;
  }

  void WarnIfDescriptorsFallShort() const {
    rlimit limit{};
    if (options_.max_connections == 0 || ::getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
    if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < options_.max_connections + 256) {
      spdlog::warn(
          "{}: the process may open {} files (RLIMIT_NOFILE), fewer than the {} connections "
          "this server takes: connections past the limit wait in the listen backlog",
          name_, static_cast<uint64_t>(limit.rlim_cur), options_.max_connections);
    }
  }

  void Serve(int index) {
    const std::string thread_name = name_ + "-" + std::to_string(index);
    pthread_setname_np(pthread_self(), thread_name.substr(0, 15).c_str());
    ServingThread thread(setup_);
    while (true) {
      // One event at a time: a thread that took several would serve them one after another
      // while other threads idle.
      epoll_event ev{};
      const int n = ::epoll_wait(epoll_fd_, &ev, 1, -1);
      if (n < 0) {
        if (errno == EINTR) continue;
        spdlog::error("{}: epoll_wait: {}", name_, Errno(errno));
        return;
      }
      if (n == 0) continue;
      if (ev.data.ptr == &stop_tag) return;
      if (ev.data.ptr == &listener_tag) {
        Accept();
        continue;
      }
      auto* conn = static_cast<ThriftConnection*>(ev.data.ptr);
      // Takes over what the thread that served the connection last left in it: that thread
      // cleared busy before handing the socket back to epoll, and epoll's own ordering is not
      // one ThreadSanitizer sees.
      conn->busy.exchange(true);
      ThriftConnection::Next next = conn->Serve(thread);
      if (next != ThriftConnection::Next::kClose) {
        // busy before closing(): see ConnectionTable::CloseAll.
        conn->busy.store(false);
        if (conn->closing()) next = ThriftConnection::Next::kClose;
      }
      if (next == ThriftConnection::Next::kClose) {
        Close(conn);
        continue;
      }
      epoll_event again{};
      again.events =
          (next == ThriftConnection::Next::kRead ? EPOLLIN : EPOLLOUT) | EPOLLRDHUP | EPOLLONESHOT;
      again.data.ptr = conn;
      if (::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, conn->fd(), &again) != 0) {
        // Not served again by anyone, so no other thread holds it: this one may close it.
        spdlog::error("{}: epoll_ctl: {}", name_, Errno(errno));
        Close(conn);
      }
    }
  }

  void Close(ThriftConnection* conn) {
    table_.Remove(conn);
    ::close(conn->fd());
    delete conn;  // releases its handler
  }

  void Accept() {
    for (int i = 0; i < kAcceptsPerTurn; ++i) {
      sockaddr_storage addr{};
      socklen_t len = sizeof(addr);
      const int fd = ::accept4(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len,
                               SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) {
        const int err = errno;
        if (err == EAGAIN || err == EWOULDBLOCK) break;
        if (err == EINTR || err == ECONNABORTED || err == EPROTO) continue;
        if (err == EMFILE || err == ENFILE || err == ENOBUFS || err == ENOMEM) {
          // The reaper takes accepting up again in a moment.
          spdlog::warn("{}: cannot accept connections for now: {}", name_, Errno(err));
          std::lock_guard<std::mutex> lock(mu_);
          accept_paused_until_ = std::chrono::steady_clock::now() + kAcceptPause;
          return;
        }
        spdlog::error("{}: accept: {}", name_, Errno(err));
        break;
      }
      const int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
      auto* conn = new ThriftConnection(fd, AddressOf(addr), setup_);
      if (!table_.Admit(conn).ok()) {  // the table logs why
        ::close(fd);
        delete conn;
        continue;
      }
      conn->busy.store(false);  // publishes the new connection to the thread that serves it
      epoll_event ev{};
      ev.events = EPOLLIN | EPOLLRDHUP | EPOLLONESHOT;
      ev.data.ptr = conn;
      if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev) != 0) {
        spdlog::error("{}: epoll_ctl: {}", name_, Errno(errno));
        Close(conn);
      }
    }
    if (!stopping_.load()) ArmListener(EPOLL_CTL_MOD);
  }

  void Reap() {
    auto clamp = [](std::chrono::milliseconds d) {
      return std::max(std::chrono::milliseconds(10), std::min(std::chrono::milliseconds(1000), d));
    };
    const auto period =
        std::min(clamp(options_.scanner_idle_timeout / 2), clamp(options_.read_timeout / 4));
    std::unique_lock<std::mutex> lock(mu_);
    while (!cv_.wait_for(lock, period, [this] { return reaper_stop_; })) {
      const bool resume = accept_paused_until_.has_value() &&
                          std::chrono::steady_clock::now() >= *accept_paused_until_;
      if (resume) accept_paused_until_.reset();
      lock.unlock();
      if (resume && !stopping_.load()) ArmListener(EPOLL_CTL_MOD);
      if (options_.read_timeout.count() > 0) table_.CloseIdle(options_.read_timeout);
      scanners_.ExpireIdle();
      lock.lock();
    }
  }

  const std::string name_;
  const ThriftServerOptions options_;
  ScannerRegistry scanners_;
  ArrivalSpin spin_;
  ConnectionTable table_;
  // Region locations report the bound port, known once the socket listens.
  std::atomic<int> port_{0};
  // Declared before the processors, whose handlers refer to it.
  const ThriftServiceContext context_;
  std::shared_ptr<apache::thrift::TProcessorFactory> processors_;
  std::shared_ptr<TConfiguration> config_;
  ConnectionSetup setup_;
  int listen_fd_ = -1;
  int epoll_fd_ = -1;
  int stop_fd_ = -1;
  std::atomic<bool> stopping_{false};
  std::vector<std::thread> threads_;
  std::thread reaper_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool reaper_stop_ = false;                                                  // guarded by mu_
  std::optional<std::chrono::steady_clock::time_point> accept_paused_until_;  // guarded by mu_
};

ThriftServer::ThriftServer(std::string name, Connection& conn, ThriftServerOptions options,
                           ProcessorFactoryMaker make_processor_factory)
    : name_(std::move(name)),
      conn_(conn),
      options_(std::move(options)),
      make_processor_factory_(std::move(make_processor_factory)) {}

ThriftServer::~ThriftServer() {
  Stop();
}

Status ThriftServer::Start() {
  if (impl_) return Status::FailedPrecondition("the " + name_ + " server is already started");
  auto impl = std::make_unique<Impl>(name_, conn_, options_);
  BASALT_RETURN_IF_ERROR(impl->Start(make_processor_factory_, calls_));
  port_ = impl->port();
  impl_ = std::move(impl);
  return Status::OK();
}

void ThriftServer::Stop() {
  if (impl_) {
    impl_->Stop();
    impl_.reset();
    port_ = 0;
  }
}

size_t ThriftServer::connections() const {
  return impl_ ? impl_->connections() : 0;
}

uint64_t ThriftServer::connections_shed() const {
  return impl_ ? impl_->shed() : 0;
}

}  // namespace basalt::server
