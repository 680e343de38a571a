#include "server/thrift/thrift_server.h"

#include <thrift/TConfiguration.h>
#include <thrift/concurrency/ThreadFactory.h>
#include <thrift/concurrency/ThreadManager.h>
#include <thrift/server/TThreadPoolServer.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TServerSocket.h>
#include <thrift/transport/TSocket.h>

#include <algorithm>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include <spdlog/spdlog.h>

#include "server/thrift/growing_protocol.h"
#include "server/thrift/message_transports.h"

namespace basalt::server {

namespace {

using apache::thrift::TConfiguration;
using apache::thrift::transport::TTransport;
using apache::thrift::transport::TTransportFactory;

// Wraps each accepted socket in a buffered or framed transport that enforces the size limits,
// per message (message_transports.h).
class LimitedTransportFactory : public TTransportFactory {
 public:
  LimitedTransportFactory(bool framed, std::shared_ptr<TConfiguration> config, ArrivalSpin* spin)
      : framed_(framed), config_(std::move(config)), spin_(spin) {}

  std::shared_ptr<TTransport> getTransport(std::shared_ptr<TTransport> trans) override {
    if (framed_) return std::make_shared<MessageFramedTransport>(trans, config_, spin_);
    return std::make_shared<MessageBufferedTransport>(trans, config_, spin_);
  }

 private:
  bool framed_;
  std::shared_ptr<TConfiguration> config_;
  ArrivalSpin* spin_;
};

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

// Tells Start() that the socket listens (preServe runs right after listen()).
class ListeningSignal : public apache::thrift::server::TServerEventHandler {
 public:
  void preServe() override { listening_.set_value(); }
  std::future<void> future() { return listening_.get_future(); }

 private:
  std::promise<void> listening_;
};

}  // namespace

ConnectionAdmission::ConnectionAdmission(std::string server, int max_connections_per_client)
    : server_(std::move(server)),
      connections_("connections", 0, static_cast<size_t>(std::max(max_connections_per_client, 0))) {
}

ConnectionAdmission::Admitted ConnectionAdmission::Admit(
    const apache::thrift::TConnectionInfo& info) {
  Admitted admitted{"unknown", false};
  if (auto socket = std::dynamic_pointer_cast<apache::thrift::transport::TSocket>(info.transport)) {
    admitted.client = socket->getPeerAddress();
  }
  Status s = connections_.Acquire(admitted.client);
  if (!s.ok()) {
    // The connection ends before its first request is read: its worker thread is free at once.
    spdlog::warn("{}: closed a new connection: {}", server_, s.message());
    if (info.transport) info.transport->close();
    return admitted;
  }
  admitted.counted = true;
  return admitted;
}

void ConnectionAdmission::Release(const Admitted& admitted) {
  if (admitted.counted) connections_.Release(admitted.client);
}

class ThriftServer::Impl {
 public:
  Impl(const std::string& name, Connection& conn, const ThriftServerOptions& options)
      : name_(name),
        options_(options),
        scanners_(options.scanner_idle_timeout, options.max_scanners,
                  options.max_scanners_per_client),
        spin_(options.arrival_spin),
        context_{conn, scanners_,
                 options.bind_address == "0.0.0.0" ? "localhost" : options.bind_address, &port_,
                 options.reserved_namespaces} {}

  Status Start(const ProcessorFactoryMaker& make_processor_factory,
               std::shared_ptr<std::atomic<uint64_t>> calls) {
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
    server_ = std::make_shared<apache::thrift::server::TThreadPoolServer>(
        std::make_shared<CountingProcessorFactory>(make_processor_factory(context_),
                                                   std::move(calls)),
        socket_, std::make_shared<LimitedTransportFactory>(options_.framed, config, &spin_),
        protocol, threads_);
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
        failed.set_value(Status::IOError(name_ + " server: " + e.what()));
      }
    });
    // Either the socket listens, or serve() failed (e.g. the port is taken).
    while (true) {
      if (listening.wait_for(std::chrono::milliseconds(5)) == std::future_status::ready) break;
      if (failure.wait_for(std::chrono::milliseconds(0)) == std::future_status::ready) {
        serve_thread_.join();
        Status s = failure.get();
        return s.ok() ? Status::IOError(name_ + " server stopped before listening") : s;
      }
    }
    port_ = socket_->getPort();
    reaper_ = std::thread([this] { ReapIdleScanners(); });
    return Status::OK();
  }

  // Only after a successful Start.
  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
    }
    cv_.notify_all();
    if (reaper_.joinable()) reaper_.join();
    server_->stop();
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

  const std::string name_;
  const ThriftServerOptions options_;
  ScannerRegistry scanners_;
  // Outlives the connections' transports: serve() returns after every connection ended.
  ArrivalSpin spin_;
  // Region locations report the bound port, known once the socket listens.
  std::atomic<int> port_{0};
  // Declared before server_, which holds the handlers that refer to it.
  const ThriftServiceContext context_;
  std::shared_ptr<apache::thrift::transport::TServerSocket> socket_;
  std::shared_ptr<apache::thrift::concurrency::ThreadManager> threads_;
  std::shared_ptr<apache::thrift::server::TThreadPoolServer> server_;
  std::thread serve_thread_;
  std::thread reaper_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
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

}  // namespace basalt::server
