#include "server/thrift2/thrift2_server.h"

#include <thrift/TConfiguration.h>
#include <thrift/concurrency/ThreadFactory.h>
#include <thrift/concurrency/ThreadManager.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/server/TThreadPoolServer.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TServerSocket.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include "server/thrift2/handler.h"
#include "server/thrift2/scanner_registry.h"

namespace basalt::server {

namespace {

using apache::thrift::TConfiguration;
using apache::thrift::transport::TBufferedTransport;
using apache::thrift::transport::TFramedTransport;
using apache::thrift::transport::TTransport;
using apache::thrift::transport::TTransportFactory;

// Wraps each accepted socket in a buffered or framed transport that enforces the size limits.
class LimitedTransportFactory : public TTransportFactory {
 public:
  LimitedTransportFactory(bool framed, std::shared_ptr<TConfiguration> config)
      : framed_(framed), config_(std::move(config)) {}

  std::shared_ptr<TTransport> getTransport(std::shared_ptr<TTransport> trans) override {
    if (framed_) return std::make_shared<TFramedTransport>(trans, config_);
    return std::make_shared<TBufferedTransport>(trans, config_);
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

}  // namespace

class Thrift2Server::Impl {
 public:
  Impl(Connection& conn, const Thrift2ServerOptions& options)
      : options_(options), scanners_(options.scanner_idle_timeout), conn_(conn) {}

  Status Start() {
    auto config =
        std::make_shared<TConfiguration>(options_.max_message_bytes, options_.max_frame_bytes);
    socket_ = std::make_shared<apache::thrift::transport::TServerSocket>(options_.bind_address,
                                                                         options_.port);
    socket_->setRecvTimeout(static_cast<int>(options_.read_timeout.count()));
    std::shared_ptr<apache::thrift::protocol::TProtocolFactory> protocol;
    // The protocols allocate a string's or a list's declared size before reading it: a string
    // may declare at most the message size, a list max_list_elements.
    if (options_.compact) {
      protocol = std::make_shared<apache::thrift::protocol::TCompactProtocolFactory>(
          options_.max_message_bytes, options_.max_list_elements);
    } else {
      protocol = std::make_shared<apache::thrift::protocol::TBinaryProtocolFactory>(
          options_.max_message_bytes, options_.max_list_elements, /*strict_read=*/false,
          /*strict_write=*/true);
    }
    threads_ = apache::thrift::concurrency::ThreadManager::newSimpleThreadManager(
        std::max(options_.worker_threads, 1));
    threads_->threadFactory(std::make_shared<apache::thrift::concurrency::ThreadFactory>());
    threads_->start();
    // Region locations report the bound port, known once the socket listens.
    handler_ = std::make_shared<Thrift2Handler>(
        conn_, scanners_, options_.bind_address == "0.0.0.0" ? "localhost" : options_.bind_address,
        &port_, options_.reserved_namespaces);
    auto processor = std::make_shared<thrift2::THBaseServiceProcessor>(handler_);
    server_ = std::make_shared<apache::thrift::server::TThreadPoolServer>(
        processor, socket_, std::make_shared<LimitedTransportFactory>(options_.framed, config),
        protocol, threads_);
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
    handler_.reset();
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
  std::shared_ptr<Thrift2Handler> handler_;
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
