// One connection of HBase's native RPC as a state machine over bytes, with no socket: the
// preamble, then the ConnectionHeader (which names the connection's one service), then calls,
// each decoded, dispatched to the service and answered in order. Whatever loop owns the socket
// feeds it what arrived and sends what it returns.
//
// Caps (RpcCaps): a frame's length is checked before its body is held, so what the session
// buffers is at most one frame (plus the bytes of the one read that completed it). Every
// malformed input is answered: an error of that call, or a fatal answer (call id -1) after which
// the connection must close; never a crash.
//
// Thread safety: one thread at a time per session; the services must be safe to call from
// every connection's thread.

#ifndef BASALT_HBASE_RPC_RPC_SESSION_H_
#define BASALT_HBASE_RPC_RPC_SESSION_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <variant>

#include "hbase_rpc/rpc_codec.h"

namespace basalt::hbase_rpc {

// A call's successful answer: the response message's serialized bytes and an optional cell block.
struct CallAnswer {
  std::string message;
  std::string cell_block;
};

// Who makes a call: what a service keys per-client state by (a client's scanners). HBase's
// SIMPLE authentication proves nothing, so a client is its peer address.
struct Caller {
  std::string_view address;
};

// One of HBase's services (ClientService, MasterService, ClientMetaService, AdminService).
class RpcService {
 public:
  virtual ~RpcService() = default;
  // Answers one call. An unknown method is the service's to refuse (kDoNotRetryIOException).
  virtual std::variant<CallAnswer, RpcError> Call(const DecodedCall& call,
                                                  const Caller& caller) = 0;
};

class RpcSession {
 public:
  // The service a ConnectionHeader names, or null (UnknownServiceException, fatal). The services
  // must outlive the session.
  using ServiceLookup = std::function<RpcService*(std::string_view service_name)>;

  // `client_address`: the peer's, given to every call (Caller). `cluster_id`: what the registry
  // preamble (kRegistryPreamble) is answered; empty: that preamble is refused as a wrong one.
  RpcSession(RpcCaps caps, ServiceLookup services, std::string client_address = "unknown",
             std::string cluster_id = "");

  // Takes the bytes that arrived and appends to `*out` the answer of every call they complete,
  // until `*out` holds `answer_budget` bytes: the calls after that wait in the session (feed it
  // no bytes to answer them once `*out` is sent), so a client that sends calls without reading
  // their answers makes the server hold about one budget of answers, not one per call. Returns
  // false when the connection must be closed once `*out` is sent; after that, Feed takes
  // nothing more.
  bool Feed(std::string_view bytes, std::string* out, size_t answer_budget = SIZE_MAX);

  // Bytes held for a preamble, header or frame not yet complete.
  size_t buffered() const { return pending_.size(); }
  // The ConnectionHeader, once read.
  const ::hbase::pb::ConnectionHeader& connection_header() const { return header_; }
  // Calls answered.
  uint64_t calls() const { return calls_; }

 private:
  enum class State { kPreamble, kConnectionHeader, kCalls, kClosed };
  // Consumes what it can of `input`; false to close.
  bool Step(std::string_view* input, std::string* out, size_t answer_budget);
  bool Fail(const RpcError& error, std::string* out);

  const RpcCaps caps_;
  const ServiceLookup services_;
  const std::string client_address_;
  const std::string cluster_id_;
  State state_ = State::kPreamble;
  std::string pending_;
  ::hbase::pb::ConnectionHeader header_;
  RpcService* service_ = nullptr;
  uint64_t calls_ = 0;
};

}  // namespace basalt::hbase_rpc

#endif  // BASALT_HBASE_RPC_RPC_SESSION_H_
