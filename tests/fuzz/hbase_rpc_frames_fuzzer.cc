// libFuzzer target for HBase's native RPC decoders (hbase_rpc/rpc_codec.h), fed as a connection
// is: the input is split into a preamble, a length-prefixed ConnectionHeader and call frames, the
// way the server walks a connection's bytes. For any input:
//   - no decoder crashes, and each error names an HBase exception class;
//   - a frame over the cap is refused from its length alone;
//   - a decoded call re-encodes to a frame that decodes to the same header, param and cells;
//   - every error encodes to an answer that is itself one whole frame;
//   - a session (ClientMetaService, or an echo of any other service) fed the same bytes in two
//   reads (split where the first byte says) never holds
//     more than one frame's cap plus the read, and its output is whole frames.
// Any violation traps, so the fuzzer reports it as a crash.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "hbase_rpc/client_meta_service.h"
#include "hbase_rpc/rpc_codec.h"
#include "hbase_rpc/rpc_session.h"

namespace {

namespace rpc = basalt::hbase_rpc;

void Check(bool condition) {
  if (!condition) __builtin_trap();
}

void CheckError(const rpc::RpcError& error, uint32_t call_id) {
  Check(error.exception_class.rfind("org.apache.hadoop.hbase.", 0) == 0);
  const std::string answer = rpc::EncodeError(call_id, error);
  rpc::LengthPrefixed unit;
  Check(!rpc::NextLengthPrefixed(answer, UINT32_MAX, &unit).has_value());
  Check(unit.complete && unit.consumed == answer.size());
}

// Answers every call with its own param's bytes.
class EchoService : public rpc::RpcService {
 public:
  std::variant<rpc::CallAnswer, rpc::RpcError> Call(const rpc::DecodedCall& call,
                                                    const rpc::Caller& /*caller*/) override {
    return rpc::CallAnswer{std::string(call.param), std::string(call.cell_block)};
  }
};

void CheckSession(std::string_view input, const rpc::RpcCaps& caps) {
  EchoService echo;
  rpc::ClientMetaService meta(rpc::ServerIdentity{"fuzz", "127.0.0.1", 16020, 1});
  rpc::RpcSession session(caps, [&](std::string_view name) -> rpc::RpcService* {
    if (name == "ClientMetaService") return &meta;
    return &echo;
  });
  const size_t split = input.empty() ? 0 : static_cast<uint8_t>(input[0]) % (input.size() + 1);
  std::string out;
  if (session.Feed(input.substr(0, split), &out)) {
    Check(session.buffered() <= size_t{caps.max_frame_bytes} + 4 + split);
    session.Feed(input.substr(split), &out);
  }
  std::string_view rest = out;
  rpc::LengthPrefixed unit;
  while (!rest.empty()) {
    Check(!rpc::NextLengthPrefixed(rest, UINT32_MAX, &unit).has_value() && unit.complete);
    rest.remove_prefix(unit.consumed);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  rpc::RpcCaps caps;
  caps.max_frame_bytes = 1 << 16;
  caps.max_cell_block_bytes = 1 << 12;
  caps.max_connection_header_bytes = 1 << 12;

  CheckSession(rest, caps);
  if (rest.size() < rpc::kPreambleBytes) return 0;
  if (auto error = rpc::CheckPreamble(rest.substr(0, rpc::kPreambleBytes))) {
    Check(error->fatal);
    CheckError(*error, 0);
  }
  rest.remove_prefix(rpc::kPreambleBytes);

  rpc::LengthPrefixed unit;
  if (auto error = rpc::NextLengthPrefixed(rest, caps.max_connection_header_bytes, &unit)) {
    CheckError(*error, 0);
    return 0;
  }
  if (!unit.complete) return 0;
  ::hbase::pb::ConnectionHeader connection_header;
  if (auto error = rpc::ParseConnectionHeader(unit.body, &connection_header)) {
    Check(error->fatal);
    CheckError(*error, 0);
  }
  rest.remove_prefix(unit.consumed);

  for (;;) {
    if (auto error = rpc::NextLengthPrefixed(rest, caps.max_frame_bytes, &unit)) {
      Check(error->fatal);
      CheckError(*error, 0);
      return 0;
    }
    if (!unit.complete) return 0;
    Check(unit.body.size() <= caps.max_frame_bytes);
    rest.remove_prefix(unit.consumed);
    rpc::DecodedCall call;
    if (auto error = rpc::DecodeCall(unit.body, caps, &call)) {
      CheckError(*error, call.header.call_id());
      if (error->fatal) return 0;
      continue;
    }
    Check(call.cell_block.size() <= caps.max_cell_block_bytes);
    // A call without a param re-encodes from its decoded parts alone.
    const std::string again =
        call.has_param ? std::string() : rpc::EncodeCall(call.header, nullptr, call.cell_block);
    if (!call.has_param) {
      rpc::LengthPrefixed frame;
      Check(!rpc::NextLengthPrefixed(again, UINT32_MAX, &frame).has_value() && frame.complete);
      rpc::DecodedCall decoded;
      Check(!rpc::DecodeCall(frame.body, caps, &decoded).has_value());
      Check(decoded.header.call_id() == call.header.call_id());
      Check(decoded.header.method_name() == call.header.method_name());
      Check(decoded.cell_block == call.cell_block);
    }
  }
}
