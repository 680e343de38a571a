#include "server/thrift/thrift_server.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "server/net/arrival_spin.h"
#include "server/net/connection_table.h"
#include "server/net/event_server.h"
#include "server/thrift/growing_protocol.h"
#include "server/thrift/thrift_connection.h"

namespace basalt::server {

namespace {

using apache::thrift::TConfiguration;

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

}  // namespace

std::string ClientAddressOf(const apache::thrift::TConnectionInfo& info) {
  if (const auto* peer = dynamic_cast<const ClientAddressTransport*>(info.transport.get())) {
    return peer->address();
  }
  return "unknown";
}

// The Thrift parts of a server; the sockets, threads and caps are the EventServer's.
class ThriftServer::Impl : public ConnectionProtocol {
 public:
  Impl(const std::string& name, Connection& conn, const ThriftServerOptions& options)
      : name_(name),
        options_(options),
        scanners_(options.scanner_idle_timeout, options.max_scanners,
                  options.max_scanners_per_client),
        spin_(options.arrival_spin),
        context_{conn, scanners_,
                 options.bind_address == "0.0.0.0" ? "localhost" : options.bind_address, &port_,
                 options.reserved_namespaces},
        server_(EventOptions(name, options), *this) {}

  Status Start(const ProcessorFactoryMaker& make_processor_factory,
               std::shared_ptr<std::atomic<uint64_t>> calls,
               std::shared_ptr<std::atomic<uint64_t>> answer_writes) {
    // Region locations report the bound port: known before the first call.
    BASALT_RETURN_IF_ERROR(server_.Listen());
    port_ = server_.port();
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
    setup_.spin = options_.arrival_spin.count() > 0 ? &spin_ : nullptr;
    setup_.config = config_;
    answer_writes_ = std::move(answer_writes);
    setup_.answer_writes = answer_writes_.get();
    // A string may declare at most the message size (and is read from memory, the whole request
    // having arrived), a list max_list_elements.
    setup_.protocols = GrowingProtocolFactory(options_.compact, options_.max_message_bytes,
                                              options_.max_list_elements);
    return server_.Start();
  }

  // Only after a successful Start.
  void Stop() {
    server_.Stop();
    // Close the scanners before the Connection can go away.
    scanners_.ExpireAll();
  }

  int port() const { return server_.port(); }
  size_t connections() const { return server_.connections(); }
  uint64_t shed() const { return server_.connections_shed(); }

  std::unique_ptr<ServingThreadState> NewThreadState() override {
    return std::make_unique<ServingThread>(setup_);
  }

  std::unique_ptr<ServedConnection> NewConnection(int fd, std::string client_address,
                                                  ConnectionTable& table) override {
    return std::make_unique<ThriftConnection>(fd, std::move(client_address), setup_, table);
  }

  void OnReap() override { scanners_.ExpireIdle(); }

 private:
  static EventServerOptions EventOptions(const std::string& name,
                                         const ThriftServerOptions& options) {
    auto clamp = [](std::chrono::milliseconds d) {
      return std::max(std::chrono::milliseconds(10), std::min(std::chrono::milliseconds(1000), d));
    };
    EventServerOptions o;
    o.name = name;
    o.bind_address = options.bind_address;
    o.port = options.port;
    o.worker_threads = options.worker_threads;
    o.max_connections = options.max_connections;
    o.max_connections_per_client =
        static_cast<size_t>(std::max(options.max_connections_per_client, 0));
    o.max_buffered_bytes = options.max_buffered_bytes;
    o.read_timeout = options.read_timeout;
    // Idle connections and idle scanners are closed within a quarter of the read timeout and
    // half the scanner timeout.
    o.reap_period =
        std::min(clamp(options.scanner_idle_timeout / 2), clamp(options.read_timeout / 4));
    return o;
  }

  const std::string name_;
  const ThriftServerOptions options_;
  ScannerRegistry scanners_;
  // The connections' own: one of them polls its socket at a time.
  ArrivalSpin spin_;
  // Region locations report the bound port, known once the socket listens.
  std::atomic<int> port_{0};
  // Declared before the processors, whose handlers refer to it.
  const ThriftServiceContext context_;
  std::shared_ptr<apache::thrift::TProcessorFactory> processors_;
  std::shared_ptr<TConfiguration> config_;
  std::shared_ptr<std::atomic<uint64_t>> answer_writes_;
  ConnectionSetup setup_;
  // Last: its threads serve with everything above, and are gone when it is.
  EventServer server_;
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
  BASALT_RETURN_IF_ERROR(impl->Start(make_processor_factory_, calls_, answer_writes_));
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
