#include "server/thrift2/thrift2_server.h"

#include <thrift/TConfiguration.h>
#include <thrift/concurrency/ThreadFactory.h>
#include <thrift/concurrency/ThreadManager.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/server/TThreadPoolServer.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TServerSocket.h>
#include <thrift/transport/TSocket.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include <spdlog/spdlog.h>

#include "server/client_quota.h"
#include "server/thrift2/growing_protocol.h"
#include "server/thrift2/handler.h"
#include "server/thrift2/message_transports.h"
#include "server/thrift2/scanner_registry.h"

namespace basalt::server {

namespace {

using apache::thrift::TConfiguration;
using apache::thrift::transport::TTransport;
using apache::thrift::transport::TTransportFactory;

// Wraps each accepted socket in a buffered or framed transport that enforces the size limits,
// per message (message_transports.h).
class LimitedTransportFactory : public TTransportFactory {
 public:
  LimitedTransportFactory(bool framed, std::shared_ptr<TConfiguration> config)
      : framed_(framed), config_(std::move(config)) {}

  std::shared_ptr<TTransport> getTransport(std::shared_ptr<TTransport> trans) override {
    if (framed_) return std::make_shared<MessageFramedTransport>(trans, config_);
    return std::make_shared<MessageBufferedTransport>(trans, config_);
  }

 private:
  bool framed_;
  std::shared_ptr<TConfiguration> config_;
};

// Tells Start() that the socket listens (preServe runs right after listen()).
class ListeningSignal : public apache::thrift::server::TServerEventHandler {
 public:
  void preServe() override { listening_.set_value(); }
  std::future<void> future() { return listening_.get_future(); }

 private:
  std::promise<void> listening_;
};

// One handler per connection, knowing its client's address (for the per-client caps), and the
// per-client connection cap.
class PerConnectionHandlers : public thrift2::THBaseServiceIfFactory {
 public:
  PerConnectionHandlers(Connection& conn, ScannerRegistry& scanners, std::string host,
                        const std::atomic<int>* port, std::vector<std::string> reserved_namespaces,
                        int max_connections_per_client)
      : conn_(conn),
        scanners_(scanners),
        host_(std::move(host)),
        port_(port),
        reserved_namespaces_(std::move(reserved_namespaces)),
        connections_("connections", 0,
                     static_cast<size_t>(std::max(max_connections_per_client, 0))) {}

  thrift2::THBaseServiceIf* getHandler(const apache::thrift::TConnectionInfo& info) override {
    std::string client = "unknown";
    if (auto socket =
            std::dynamic_pointer_cast<apache::thrift::transport::TSocket>(info.transport)) {
      client = socket->getPeerAddress();
    }
    Status admitted = connections_.Acquire(client);
    if (!admitted.ok()) {
      // The connection ends before its first request is read: its worker thread is free at once.
      spdlog::warn("thrift2: closed a new connection: {}", admitted.message());
      if (info.transport) info.transport->close();
      return new Handler(*this, client, /*counted=*/false);
    }
    return new Handler(*this, client, /*counted=*/true);
  }

  void releaseHandler(thrift2::THBaseServiceIf* handler) override {
    auto* h = static_cast<Handler*>(handler);
    if (h->counted) connections_.Release(h->client);
    delete h;
  }

 private:
  struct Handler : Thrift2Handler {
    Handler(PerConnectionHandlers& f, const std::string& client, bool counted)
        : Thrift2Handler(f.conn_, f.scanners_, f.host_, f.port_, f.reserved_namespaces_, client),
          client(client),
          counted(counted) {}
    const std::string client;
    const bool counted;
  };

  Connection& conn_;
  ScannerRegistry& scanners_;
  const std::string host_;
  const std::atomic<int>* port_;
  const std::vector<std::string> reserved_namespaces_;
  ClientQuota connections_;
};

}  // namespace

class Thrift2Server::Impl {
 public:
  Impl(Connection& conn, const Thrift2ServerOptions& options)
      : options_(options),
        scanners_(options.scanner_idle_timeout, options.max_scanners,
                  options.max_scanners_per_client),
        conn_(conn) {}

  Status Start() {
    auto config =
        std::make_shared<TConfiguration>(options_.max_message_bytes, options_.max_frame_bytes);
    socket_ = std::make_shared<apache::thrift::transport::TServerSocket>(options_.bind_address,
                                                                         options_.port);
    socket_->setRecvTimeout(static_cast<int>(options_.read_timeout.count()));
    // A string may declare at most the message size (and is allocated as it arrives), a list
    // max_list_elements (allocated when declared).
    std::shared_ptr<apache::thrift::protocol::TProtocolFactory> protocol = GrowingProtocolFactory(
        options_.compact, options_.max_message_bytes, options_.max_list_elements);
    threads_ = apache::thrift::concurrency::ThreadManager::newSimpleThreadManager(
        std::max(options_.worker_threads, 1));
    threads_->threadFactory(std::make_shared<apache::thrift::concurrency::ThreadFactory>());
    threads_->start();
    // Region locations report the bound port, known once the socket listens.
    auto handlers = std::make_shared<PerConnectionHandlers>(
        conn_, scanners_, options_.bind_address == "0.0.0.0" ? "localhost" : options_.bind_address,
        &port_, options_.reserved_namespaces, options_.max_connections_per_client);
    server_ = std::make_shared<apache::thrift::server::TThreadPoolServer>(
        std::make_shared<thrift2::THBaseServiceProcessorFactory>(handlers), socket_,
        std::make_shared<LimitedTransportFactory>(options_.framed, config), protocol, threads_);
    // Accept no more connections than there are threads to serve them; the rest wait in the
    // listen backlog instead of in the thread pool's unbounded queue.
    server_->setConcurrentClientLimit(std::max(options_.worker_threads, 1));
    auto signal = std::make_shared<ListeningSignal>();
    std::future<void> listening = signal->future();
    server_->setServerEventHandler(signal);
    std::promise<Status> failed;
    std::future<Status> failure = failed.get_future();
    serve_thread_ = std::thread([this, failed = std::move(failed)]() mutable {
      try {
        server_->serve();
        failed.set_value(Status::OK());
      } catch (const std::exception& e) {
        failed.set_value(Status::IOError(std::string("thrift2 server: ") + e.what()));
      }
    });
    // Either the socket listens, or serve() failed (e.g. the port is taken).
    while (true) {
      if (listening.wait_for(std::chrono::milliseconds(5)) == std::future_status::ready) break;
      if (failure.wait_for(std::chrono::milliseconds(0)) == std::future_status::ready) {
        serve_thread_.join();
        Status s = failure.get();
        return s.ok() ? Status::IOError("thrift2 server stopped before listening") : s;
      }
    }
    port_ = socket_->getPort();
    reaper_ = std::thread([this] { ReapIdleScanners(); });
    return Status::OK();
  }

  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
    }
    cv_.notify_all();
    if (reaper_.joinable()) reaper_.join();
    if (server_) server_->stop();
    if (serve_thread_.joinable()) serve_thread_.join();
    server_.reset();
    // Close the scanners before the Connection can go away.
    scanners_.ExpireAll();
  }

  int port() const { return port_.load(); }

 private:
  void ReapIdleScanners() {
    auto period =
        std::max(std::chrono::milliseconds(10),
                 std::min(std::chrono::milliseconds(1000), options_.scanner_idle_timeout / 2));
    std::unique_lock<std::mutex> lock(mu_);
    while (!cv_.wait_for(lock, period, [this] { return stopping_; })) {
      lock.unlock();
      scanners_.ExpireIdle();
      lock.lock();
    }
  }

  const Thrift2ServerOptions options_;
  ScannerRegistry scanners_;
  Connection& conn_;
  std::shared_ptr<apache::thrift::transport::TServerSocket> socket_;
  std::shared_ptr<apache::thrift::concurrency::ThreadManager> threads_;
  std::shared_ptr<apache::thrift::server::TThreadPoolServer> server_;
  std::thread serve_thread_;
  std::thread reaper_;
  std::atomic<int> port_{0};
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
};

Thrift2Server::Thrift2Server(Connection& conn, Thrift2ServerOptions options)
    : conn_(conn), options_(std::move(options)) {}

Thrift2Server::~Thrift2Server() {
  Stop();
}

Status Thrift2Server::Start() {
  if (impl_) return Status::FailedPrecondition("the thrift2 server is already started");
  auto impl = std::make_unique<Impl>(conn_, options_);
  BASALT_RETURN_IF_ERROR(impl->Start());
  impl_ = std::move(impl);
  return Status::OK();
}

int Thrift2Server::port() const {
  return impl_ ? impl_->port() : 0;
}

void Thrift2Server::Stop() {
  if (impl_) {
    impl_->Stop();
    impl_.reset();
  }
}

}  // namespace basalt::server
