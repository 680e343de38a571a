#include "server/hbase_rpc/rpc_server.h"

#include <sys/socket.h>

#include <cerrno>
#include <chrono>
#include <utility>

#include "basalt/types.h"
#include "hbase_rpc/client_meta_service.h"
#include "hbase_rpc/rpc_codec.h"
#include "hbase_rpc/rpc_session.h"
#include "server/hbase_rpc/client_service.h"
#include "server/hbase_rpc/exceptions.h"
#include "server/hbase_rpc/master_service.h"
#include "server/hbase_rpc/meta_table.h"
#include "server/hbase_rpc/region_directory.h"
#include "server/http/server_config.h"
#include "server/net/event_server.h"
#include "server/thrift/scanner_registry.h"

namespace basalt::server::hbase_rpc {
namespace {

using ::basalt::hbase_rpc::CallAnswer;
using ::basalt::hbase_rpc::Caller;
using ::basalt::hbase_rpc::DecodedCall;
using ::basalt::hbase_rpc::RpcService;
using ::basalt::hbase_rpc::RpcSession;

// Reads one connection takes before the others get a turn.
constexpr int kReadsPerTurn = 16;
constexpr size_t kReadBytes = 64 * 1024;

// basalt serves no region server operation (open, close, flush, compact, region loads): each
// is refused by name, which HBase's client reports as it would a failed call.
class AdminService : public RpcService {
 public:
  std::variant<CallAnswer, RpcError> Call(const DecodedCall& call, const Caller&) override {
    return DoNotRetry("method " + call.header.method_name().substr(0, 200) +
                      " of AdminService is not served by basalt: it has no region server "
                      "operations (set hbase.regionsizecalculator.enable=false for MapReduce "
                      "and Spark jobs)");
  }
};

class ReadBuffer : public ServingThreadState {
 public:
  char bytes[kReadBytes];
};

class RpcConnection : public ServedConnection {
 public:
  RpcConnection(int fd, std::string client, ConnectionTable& table,
                ::basalt::hbase_rpc::RpcCaps caps, RpcSession::ServiceLookup services,
                std::string cluster_id, size_t answer_budget)
      : ServedConnection(fd, client),
        table_(table),
        session_(caps, std::move(services), std::move(client), std::move(cluster_id)),
        answer_budget_(answer_budget) {}

  Next Serve(ServingThreadState& state) override {
    auto& buffer = static_cast<ReadBuffer&>(state);
    for (int reads = 0;;) {
      if (closing()) {
        Send();  // answers already made still go out if the socket takes them now
        return Next::kClose;
      }
      if (!unsent_.empty()) {
        if (!Send()) return Next::kClose;
        if (!unsent_.empty()) {
          ReportHeld();
          return Next::kWrite;
        }
      }
      if (closed_) return Next::kClose;  // its fatal answer is sent
      if (!fed_all_) {
        // Calls read before the answers filled their budget.
        Feed({});
        continue;
      }
      // Every answer is sent: read more calls.
      if (reads++ == kReadsPerTurn) {
        ReportHeld();
        return Next::kRead;  // the socket may still be ready: epoll hands it out again
      }
      const ssize_t n = ::recv(fd(), buffer.bytes, kReadBytes, 0);
      if (n == 0) return Next::kClose;
      if (n < 0) {
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
          ReportHeld();
          return Next::kRead;
        }
        return Next::kClose;
      }
      last_io_ns.store(SteadyNowNs(), std::memory_order_relaxed);
      Feed(std::string_view(buffer.bytes, static_cast<size_t>(n)));
    }
  }

 private:
  // Sends what the socket takes; false when the connection broke.
  bool Send() {
    while (sent_ < unsent_.size()) {
      const ssize_t n = ::send(fd(), unsent_.data() + sent_, unsent_.size() - sent_, MSG_NOSIGNAL);
      if (n < 0) {
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return true;
        return false;
      }
      sent_ += static_cast<size_t>(n);
      last_io_ns.store(SteadyNowNs(), std::memory_order_relaxed);
    }
    unsent_.clear();
    if (unsent_.capacity() > kReadBytes) unsent_.shrink_to_fit();
    sent_ = 0;
    return true;
  }

  void Feed(std::string_view bytes) {
    const uint64_t before = session_.calls();
    closed_ = !session_.Feed(bytes, &unsent_, answer_budget_);
    fed_all_ = unsent_.size() < answer_budget_;
    if (session_.calls() != before) {
      last_request_ns.store(SteadyNowNs(), std::memory_order_relaxed);
    }
  }

  void ReportHeld() {
    const size_t held = unsent_.capacity() + session_.buffered();
    if (held == reported_held_) return;
    reported_held_ = held;
    table_.NoteBuffered(this, held);
  }

  ConnectionTable& table_;
  RpcSession session_;
  const size_t answer_budget_;
  std::string unsent_;
  size_t sent_ = 0;
  size_t reported_held_ = 0;
  // The session has answered every call it holds (none waits for the budget).
  bool fed_all_ = true;
  // The session said to close once its last answer is sent.
  bool closed_ = false;
};

}  // namespace

class RpcServer::Impl : public ConnectionProtocol {
 public:
  Impl(Connection& conn, const RpcServerOptions& options, uint64_t start_ms)
      : options_(options),
        conn_(conn),
        regions_(start_ms),
        scanners_(options.scanner_idle_timeout, options.max_scanners,
                  options.max_scanners_per_client),
        server_(EventServerOptions{"hbase-rpc", options.bind_address, options.port,
                                   options.worker_threads, options.max_connections,
                                   options.max_connections_per_client, options.max_buffered_bytes,
                                   options.idle_timeout, std::chrono::milliseconds(1000)},
                *this) {}

  Status Start(uint64_t start_ms) {
    BASALT_ASSIGN_OR_RETURN(std::string cluster_id, conn_.admin().ClusterId());
    BASALT_RETURN_IF_ERROR(server_.Listen());
    ::basalt::hbase_rpc::ServerIdentity identity;
    cluster_id_ = cluster_id;
    identity.cluster_id = std::move(cluster_id);
    identity.host = !options_.advertised_host.empty() ? options_.advertised_host
                    : options_.bind_address == "0.0.0.0" || options_.bind_address == "::" ||
                            options_.bind_address.empty()
                        ? "localhost"
                        : options_.bind_address;
    identity.port = static_cast<uint32_t>(server_.port());
    identity.start_code = start_ms;
    meta_service_ = std::make_unique<::basalt::hbase_rpc::ClientMetaService>(identity);
    meta_ = std::make_unique<MetaTable>(conn_.admin(), regions_, identity,
                                        options_.reserved_namespaces);
    client_service_ = std::make_unique<ClientService>(
        conn_, regions_, *meta_, scanners_, options_.client, options_.reserved_namespaces);
    master_service_ =
        std::make_unique<MasterService>(conn_, regions_, options_.reserved_namespaces);
    return server_.Start();
  }

  void Stop() {
    server_.Stop();
    scanners_.ExpireAll();
  }

  int port() const { return server_.port(); }

  std::unique_ptr<ServingThreadState> NewThreadState() override {
    return std::make_unique<ReadBuffer>();
  }

  std::unique_ptr<ServedConnection> NewConnection(int fd, std::string client_address,
                                                  ConnectionTable& table) override {
    return std::make_unique<RpcConnection>(
        fd, std::move(client_address), table, caps_,
        [this](std::string_view service) { return Lookup(service); }, cluster_id_,
        options_.max_pending_answer_bytes);
  }

  void OnReap() override { scanners_.ExpireIdle(); }

 private:
  RpcService* Lookup(std::string_view service) {
    if (service == "ClientService") return client_service_.get();
    if (service == "MasterService") return master_service_.get();
    if (service == "ClientMetaService") return meta_service_.get();
    if (service == "AdminService") return admin_service_.get();
    return nullptr;
  }

  const RpcServerOptions options_;
  const ::basalt::hbase_rpc::RpcCaps caps_{options_.max_frame_bytes, options_.max_cell_block_bytes};
  Connection& conn_;
  std::string cluster_id_;  // set at Start, before any connection
  RegionDirectory regions_;
  ScannerRegistry scanners_;
  const std::unique_ptr<RpcService> admin_service_ = std::make_unique<AdminService>();
  // Made at Start, once the port (which they advertise) is bound; before any connection.
  std::unique_ptr<::basalt::hbase_rpc::ClientMetaService> meta_service_;
  std::unique_ptr<MetaTable> meta_;
  std::unique_ptr<ClientService> client_service_;
  std::unique_ptr<MasterService> master_service_;
  EventServer server_;
};

RpcServer::RpcServer(Connection& conn, RpcServerOptions options)
    : conn_(conn), options_(std::move(options)) {}

RpcServer::~RpcServer() {
  Stop();
}

Status RpcServer::Start() {
  if (impl_) return Status::FailedPrecondition("the HBase RPC server is already started");
  if (!options_.allow_unauthenticated_remote && !http::IsLoopbackBind(options_.bind_address)) {
    return Status::InvalidArgument(
        "the HBase RPC server would listen on " + options_.bind_address +
        ", beyond loopback, where HBase's SIMPLE authentication lets any client in as any "
        "user: bind it to loopback, or allow it explicitly (--insecure-no-auth)");
  }
  const uint64_t start_ms = static_cast<uint64_t>(SystemWallMillis());
  auto impl = std::make_unique<Impl>(conn_, options_, start_ms);
  BASALT_RETURN_IF_ERROR(impl->Start(start_ms));
  port_ = impl->port();
  impl_ = std::move(impl);
  return Status::OK();
}

void RpcServer::Stop() {
  if (impl_) {
    impl_->Stop();
    impl_.reset();
    port_ = 0;
  }
}

}  // namespace basalt::server::hbase_rpc
