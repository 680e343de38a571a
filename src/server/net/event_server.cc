#include "server/net/event_server.h"

#include <arpa/inet.h>
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
#include <cstring>
#include <optional>
#include <thread>
#include <vector>

#include <spdlog/spdlog.h>

#include "util/mutex.h"

namespace basalt::server {

namespace {

// Connections one thread accepts before it serves anything else: a flood of connections does not
// keep a thread from the calls of those already open.
constexpr int kAcceptsPerTurn = 64;
// How long accepting pauses when the process is out of file descriptors (or memory): accept
// would fail again at once, and the listening socket would wake a thread without end.
constexpr std::chrono::milliseconds kAcceptPause{100};
// How long Stop waits for connections being served to finish.
constexpr std::chrono::seconds kStopGrace{5};

// The numeric address of a peer; an IPv4 client of a dual-stack socket as its IPv4 address, so
// that it has one per-client share whichever way it came.
std::string PeerAddressOf(const sockaddr_storage& addr) {
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

std::string ErrnoText(int err) {
  return std::strerror(err);
}

// Tags of the epoll entries that are not connections.
char listener_tag;
char stop_tag;

}  // namespace

class EventServer::Impl {
 public:
  Impl(EventServerOptions options, ConnectionProtocol& protocol)
      : options_(std::move(options)),
        protocol_(protocol),
        table_(options_.name, options_.max_connections, options_.max_connections_per_client,
               options_.max_buffered_bytes) {}

  ~Impl() {
    Stop();
    for (int fd : {listen_fd_, epoll_fd_, stop_fd_}) {
      if (fd >= 0) ::close(fd);
    }
  }

  Status Listen() {
    if (listen_fd_ >= 0) return Status::OK();
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo* found = nullptr;
    const std::string port = std::to_string(options_.port);
    const char* host = options_.bind_address.empty() ? nullptr : options_.bind_address.c_str();
    if (int rc = ::getaddrinfo(host, port.c_str(), &hints, &found); rc != 0) {
      return Status::IOError(options_.name + " server: cannot resolve " + options_.bind_address +
                             ": " + ::gai_strerror(rc));
    }
    std::string error = "no address";
    for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
      int fd =
          ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
      if (fd < 0) {
        error = ErrnoText(errno);
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
      error = ErrnoText(errno);
      ::close(fd);
    }
    ::freeaddrinfo(found);
    if (listen_fd_ < 0) {
      return Status::IOError(options_.name + " server: could not listen on " +
                             options_.bind_address + ":" + port + ": " + error);
    }
    sockaddr_storage bound{};
    socklen_t len = sizeof(bound);
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&bound), &len);
    port_ = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                              : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    return Status::OK();
  }

  Status Start() {
    if (started_) {
      return Status::FailedPrecondition("the " + options_.name + " server is already started");
    }
    BASALT_RETURN_IF_ERROR(Listen());
    epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
    stop_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (epoll_fd_ < 0 || stop_fd_ < 0) {
      return Status::IOError(options_.name + " server: epoll: " + ErrnoText(errno));
    }
    // The stop event stays ready once written, so every thread sees it.
    epoll_event stop{};
    stop.events = EPOLLIN;
    stop.data.ptr = &stop_tag;
    if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, stop_fd_, &stop) != 0 ||
        !ArmListener(EPOLL_CTL_ADD)) {
      return Status::IOError(options_.name + " server: epoll: " + ErrnoText(errno));
    }
    WarnIfDescriptorsFallShort();
    started_ = true;
    const int threads = std::max(options_.worker_threads, 1);
    for (int i = 0; i < threads; ++i) {
      threads_.emplace_back([this, i] { Serve(i); });
    }
    reaper_ = std::thread([this] { Reap(); });
    return Status::OK();
  }

  void Stop() {
    if (!started_ || stopped_) return;
    stopped_ = true;
    stopping_.store(true);
    ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, listen_fd_, nullptr);
    // Refuses new connections, closes the idle ones; those being served close once served.
    table_.CloseAll(/*even_busy=*/false);
    if (!table_.WaitEmpty(std::chrono::steady_clock::now() + kStopGrace)) {
      table_.CloseAll(/*even_busy=*/true);
      while (!table_.WaitEmpty(std::chrono::steady_clock::now() + std::chrono::seconds(1))) {
        table_.CloseAll(/*even_busy=*/true);
      }
    }
    const uint64_t one = 1;
    if (::write(stop_fd_, &one, sizeof(one)) != sizeof(one)) {
      spdlog::error("{}: could not wake the serving threads: {}", options_.name, ErrnoText(errno));
    }
    for (std::thread& t : threads_) t.join();
    threads_.clear();
    {
      util::MutexLock lock(mu_);
      reaper_stop_ = true;
    }
    cv_.NotifyAll();
    if (reaper_.joinable()) reaper_.join();
    // The port is free once Stop returns.
    ::close(listen_fd_);
    listen_fd_ = -1;
    port_ = 0;
  }

  int port() const { return port_.load(); }
  size_t connections() const { return table_.size(); }
  uint64_t shed() const { return table_.shed(); }

 private:
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
          options_.name, static_cast<uint64_t>(limit.rlim_cur), options_.max_connections);
    }
  }

  void Serve(int index) {
    const std::string thread_name = options_.name + "-" + std::to_string(index);
    pthread_setname_np(pthread_self(), thread_name.substr(0, 15).c_str());
    const std::unique_ptr<ServingThreadState> thread = protocol_.NewThreadState();
    while (true) {
      // One event at a time: a thread that took several would serve them one after another
      // while other threads idle.
      epoll_event ev{};
      const int n = ::epoll_wait(epoll_fd_, &ev, 1, -1);
      if (n < 0) {
        if (errno == EINTR) continue;
        spdlog::error("{}: epoll_wait: {}", options_.name, ErrnoText(errno));
        return;
      }
      if (n == 0) continue;
      if (ev.data.ptr == &stop_tag) return;
      if (ev.data.ptr == &listener_tag) {
        Accept();
        continue;
      }
      auto* conn = static_cast<ServedConnection*>(ev.data.ptr);
      // Takes over what the thread that served the connection last left in it: that thread
      // cleared busy before handing the socket back to epoll, and epoll's own ordering is not
      // one ThreadSanitizer sees.
      conn->busy.exchange(true);
      ServedConnection::Next next = conn->Serve(*thread);
      // Read while the connection is still this thread's: once busy is cleared, only epoll's
      // ordering (which ThreadSanitizer does not see) keeps the next thread from deleting it.
      const int fd = conn->fd();
      if (next != ServedConnection::Next::kClose) {
        // busy before closing(): see ConnectionTable::CloseAll.
        conn->busy.store(false);
        if (conn->closing()) next = ServedConnection::Next::kClose;
      }
      if (next == ServedConnection::Next::kClose) {
        Close(conn);
        continue;
      }
      epoll_event again{};
      again.events =
          (next == ServedConnection::Next::kRead ? EPOLLIN : EPOLLOUT) | EPOLLRDHUP | EPOLLONESHOT;
      again.data.ptr = conn;
      if (::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, fd, &again) != 0) {
        // Not served again by anyone, so no other thread holds it: this one may close it.
        spdlog::error("{}: epoll_ctl: {}", options_.name, ErrnoText(errno));
        Close(conn);
      }
    }
  }

  void Close(ServedConnection* conn) {
    table_.Remove(conn);
    ::close(conn->fd());
    delete conn;  // releases what the protocol holds for it
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
          spdlog::warn("{}: cannot accept connections for now: {}", options_.name, ErrnoText(err));
          util::MutexLock lock(mu_);
          accept_paused_until_ = std::chrono::steady_clock::now() + kAcceptPause;
          return;
        }
        spdlog::error("{}: accept: {}", options_.name, ErrnoText(err));
        break;
      }
      const int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
      ServedConnection* conn = protocol_.NewConnection(fd, PeerAddressOf(addr), table_).release();
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
        spdlog::error("{}: epoll_ctl: {}", options_.name, ErrnoText(errno));
        Close(conn);
      }
    }
    if (!stopping_.load()) ArmListener(EPOLL_CTL_MOD);
  }

  void Reap() {
    const auto period = std::max(options_.reap_period, std::chrono::milliseconds(1));
    for (;;) {
      bool resume = false;
      {
        util::MutexLock lock(mu_);
        const auto deadline = std::chrono::steady_clock::now() + period;
        while (!reaper_stop_ && cv_.WaitUntil(mu_, deadline)) {
        }
        if (reaper_stop_) return;
        resume = accept_paused_until_.has_value() &&
                 std::chrono::steady_clock::now() >= *accept_paused_until_;
        if (resume) accept_paused_until_.reset();
      }
      if (resume && !stopping_.load()) ArmListener(EPOLL_CTL_MOD);
      if (options_.read_timeout.count() > 0) table_.CloseIdle(options_.read_timeout);
      protocol_.OnReap();
    }
  }

  const EventServerOptions options_;
  ConnectionProtocol& protocol_;
  ConnectionTable table_;
  std::atomic<int> port_{0};
  int listen_fd_ = -1;
  int epoll_fd_ = -1;
  int stop_fd_ = -1;
  bool started_ = false;  // Start and Stop's thread only
  bool stopped_ = false;  // Start and Stop's thread only
  std::atomic<bool> stopping_{false};
  std::vector<std::thread> threads_;
  std::thread reaper_;
  util::Mutex mu_;
  util::CondVar cv_;
  bool reaper_stop_ BASALT_GUARDED_BY(mu_) = false;
  std::optional<std::chrono::steady_clock::time_point> accept_paused_until_ BASALT_GUARDED_BY(mu_);
};

EventServer::EventServer(EventServerOptions options, ConnectionProtocol& protocol)
    : impl_(std::make_unique<Impl>(std::move(options), protocol)) {}

EventServer::~EventServer() = default;

Status EventServer::Listen() {
  return impl_->Listen();
}

Status EventServer::Start() {
  return impl_->Start();
}

void EventServer::Stop() {
  impl_->Stop();
}

int EventServer::port() const {
  return impl_->port();
}

size_t EventServer::connections() const {
  return impl_->connections();
}

uint64_t EventServer::connections_shed() const {
  return impl_->shed();
}

}  // namespace basalt::server
