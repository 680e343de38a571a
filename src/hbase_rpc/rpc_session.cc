#include "hbase_rpc/rpc_session.h"

#include <cstdint>
#include <utility>

#include "hbase_proto/proto/Registry.pb.h"

namespace basalt::hbase_rpc {

RpcSession::RpcSession(RpcCaps caps, ServiceLookup services, std::string client_address,
                       std::string cluster_id)
    : caps_(caps),
      services_(std::move(services)),
      client_address_(std::move(client_address)),
      cluster_id_(std::move(cluster_id)) {}

bool RpcSession::Fail(const RpcError& error, std::string* out) {
  out->append(EncodeError(0, RpcError{error.exception_class, error.message, true}));
  state_ = State::kClosed;
  pending_.clear();
  pending_.shrink_to_fit();
  return false;
}

bool RpcSession::Feed(std::string_view bytes, std::string* out, size_t answer_budget) {
  if (state_ == State::kClosed) return false;
  // Bytes are copied only when a unit is cut by the end of a read: a whole unit is decoded from
  // the read itself.
  std::string joined;
  std::string_view input = bytes;
  if (!pending_.empty()) {
    joined = std::move(pending_);
    pending_.clear();
    joined.append(bytes);
    input = joined;
  }
  if (!Step(&input, out, answer_budget)) return false;
  pending_.assign(input);
  return true;
}

bool RpcSession::Step(std::string_view* input, std::string* out, size_t answer_budget) {
  for (;;) {
    switch (state_) {
      case State::kClosed:
        return false;
      case State::kPreamble: {
        if (input->size() < kPreambleBytes) return true;
        if (!cluster_id_.empty() && input->substr(0, kPreambleBytes) == kRegistryPreamble) {
          ::hbase::pb::GetConnectionRegistryResponse response;
          response.set_cluster_id(cluster_id_);
          out->append(EncodeResponse(UINT32_MAX, response));
          state_ = State::kClosed;
          pending_.clear();
          return false;
        }
        if (auto error = CheckPreamble(input->substr(0, kPreambleBytes))) return Fail(*error, out);
        input->remove_prefix(kPreambleBytes);
        state_ = State::kConnectionHeader;
        break;
      }
      case State::kConnectionHeader: {
        LengthPrefixed unit;
        if (auto error = NextLengthPrefixed(*input, caps_.max_connection_header_bytes, &unit)) {
          return Fail(*error, out);
        }
        if (!unit.complete) return true;
        if (auto error = ParseConnectionHeader(unit.body, &header_)) return Fail(*error, out);
        service_ = services_ ? services_(header_.service_name()) : nullptr;
        if (service_ == nullptr) {
          return Fail(
              RpcError{std::string(kUnknownServiceException),
                       "service " + header_.service_name().substr(0, 200) + " is not served", true},
              out);
        }
        input->remove_prefix(unit.consumed);
        state_ = State::kCalls;
        break;
      }
      case State::kCalls: {
        if (out->size() >= answer_budget) return true;
        LengthPrefixed unit;
        if (auto error = NextLengthPrefixed(*input, caps_.max_frame_bytes, &unit)) {
          return Fail(*error, out);
        }
        if (!unit.complete) return true;
        DecodedCall call;
        std::optional<RpcError> error = DecodeCall(unit.body, caps_, &call);
        if (error && error->fatal) return Fail(*error, out);
        ++calls_;
        if (error) {
          out->append(EncodeError(call.header.call_id(), *error));
        } else {
          std::variant<CallAnswer, RpcError> answer = service_->Call(call, Caller{client_address_});
          if (auto* failed = std::get_if<RpcError>(&answer)) {
            if (failed->fatal) return Fail(*failed, out);
            out->append(EncodeError(call.header.call_id(), *failed));
          } else {
            const auto& done = std::get<CallAnswer>(answer);
            out->append(EncodeResponseBytes(call.header.call_id(), done.message, done.cell_block));
          }
        }
        input->remove_prefix(unit.consumed);
        break;
      }
    }
  }
}

}  // namespace basalt::hbase_rpc
