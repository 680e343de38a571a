// HBase's native RPC framing (the byte layout around RPC.proto's messages), both directions.
//
// Client to server, on a new connection:
//   "HBas" (4 bytes), version 0x00, auth byte (0x50 SIMPLE; basalt accepts only SIMPLE);
//   int32 BE length, then a ConnectionHeader written raw (not varint-delimited). No reply on
//   success.
// Then calls, each:
//   int32 BE total length (not counting itself);
//   varint length + RequestHeader;
//   if header.request_param: varint length + the method's request message;
//   if header.cell_block_meta: exactly cell_block_meta.length bytes of cell block.
// Answers mirror it with a ResponseHeader; a failed call carries ExceptionResponse in the header
// and no message. A fatal error (the connection is closed after it) is answered with call id -1.
//
// Every decoder here reads untrusted bytes: it never allocates what the client merely declared
// (a frame is taken only once all of it has arrived, under the caller's cap), never logs, and
// answers each malformed input with an RpcError naming the HBase exception class the Java client
// acts on. Thread safety: free functions, no state.

#ifndef BASALT_HBASE_RPC_RPC_CODEC_H_
#define BASALT_HBASE_RPC_RPC_CODEC_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "hbase_proto/proto/RPC.pb.h"

namespace basalt::hbase_rpc {

// HBase's exception class names, as the Java client loads them by name.
inline constexpr std::string_view kDoNotRetryIOException =
    "org.apache.hadoop.hbase.DoNotRetryIOException";
inline constexpr std::string_view kWrongVersionException =
    "org.apache.hadoop.hbase.ipc.WrongVersionException";
inline constexpr std::string_view kBadAuthException =
    "org.apache.hadoop.hbase.ipc.BadAuthException";
inline constexpr std::string_view kFatalConnectionException =
    "org.apache.hadoop.hbase.ipc.FatalConnectionException";
inline constexpr std::string_view kUnsupportedCellCodecException =
    "org.apache.hadoop.hbase.ipc.UnsupportedCellCodecException";
inline constexpr std::string_view kUnsupportedCompressionCodecException =
    "org.apache.hadoop.hbase.ipc.UnsupportedCompressionCodecException";
inline constexpr std::string_view kUnknownServiceException =
    "org.apache.hadoop.hbase.ipc.UnknownServiceException";
inline constexpr std::string_view kRequestTooBigException =
    "org.apache.hadoop.hbase.exceptions.RequestTooBigException";

// The one cell-block codec basalt speaks: HBase's client default.
inline constexpr std::string_view kKeyValueCodec = "org.apache.hadoop.hbase.codec.KeyValueCodec";

inline constexpr size_t kPreambleBytes = 6;
inline constexpr uint8_t kAuthSimple = 0x50;
// The preamble of HBase 2.6's cluster-id call (RpcClient.REGISTRY_PREAMBLE_HEADER): sent in place
// of "HBas", it asks for one answer, call id -1 and a GetConnectionRegistryResponse, after which
// the server closes the connection.
inline constexpr std::string_view kRegistryPreamble = "Regist";

// What the client is told. `fatal`: the connection is closed after the answer (call id -1).
struct RpcError {
  std::string exception_class;
  std::string message;
  bool fatal = false;
};

// Caps on what one connection may make the server hold. A cap exceeded is an RpcError, fatal
// when the server cannot know where the next call starts.
struct RpcCaps {
  // Largest call frame (its total length), bytes. Default: 64 MiB.
  uint32_t max_frame_bytes = 64u << 20;
  // Largest cell block of one call, bytes. Default: 64 MiB.
  uint32_t max_cell_block_bytes = 64u << 20;
  // Largest ConnectionHeader, bytes. Default: 64 KiB.
  uint32_t max_connection_header_bytes = 64u << 10;
};

// Checks the 6-byte preamble. REQUIRES: bytes.size() == kPreambleBytes. An error is fatal:
// WrongVersionException for another magic or version, BadAuthException for any auth but SIMPLE.
std::optional<RpcError> CheckPreamble(std::string_view bytes);

// One int32-BE-length-prefixed unit at the front of `buffer`.
struct LengthPrefixed {
  bool complete = false;  // false: more bytes are needed; nothing is consumed
  std::string_view body;  // the unit's bytes, without the length (a view into `buffer`)
  size_t consumed = 0;    // 4 + body.size() when complete
};

// Finds the unit at the front of `buffer`, refusing (fatal) a length above `max_bytes` as soon as
// the length has arrived, before any of the body is held.
std::optional<RpcError> NextLengthPrefixed(std::string_view buffer, uint32_t max_bytes,
                                           LengthPrefixed* out);

// Parses a ConnectionHeader's bytes and checks what basalt can serve: the cell-block codec (none
// or KeyValueCodec) and no compressor. Fatal errors: FatalConnectionException for bytes that are
// not a ConnectionHeader, UnsupportedCellCodecException, UnsupportedCompressionCodecException.
// The service name is the caller's to check (kUnknownServiceException).
std::optional<RpcError> ParseConnectionHeader(std::string_view bytes,
                                              ::hbase::pb::ConnectionHeader* out);

// One call of a frame (the body of NextLengthPrefixed).
struct DecodedCall {
  ::hbase::pb::RequestHeader header;
  bool has_param = false;
  std::string_view param;       // the request message's bytes, into the frame
  std::string_view cell_block;  // the cell block's bytes, into the frame (empty when none)
};

// Decodes a call frame. A frame whose header cannot be read is a fatal error; once the header
// (and so the call id) is known, a malformed rest is an error of that call only
// (DoNotRetryIOException, or RequestTooBigException for a cell block over the cap), with
// `out->header` set so the caller can answer it. A header without a method name is an error of
// that call.
std::optional<RpcError> DecodeCall(std::string_view frame, const RpcCaps& caps, DecodedCall* out);

// The bytes of an answer: the length, the ResponseHeader, the message, the cell block (if any).
std::string EncodeResponse(uint32_t call_id, const google::protobuf::MessageLite& message,
                           std::string_view cell_block = {});

// The same, from the message's serialized bytes.
std::string EncodeResponseBytes(uint32_t call_id, std::string_view message,
                                std::string_view cell_block = {});

// The bytes of a failed call's answer; a fatal error is sent with call id -1 whatever `call_id`.
std::string EncodeError(uint32_t call_id, const RpcError& error);

// A connection header's bytes as a client sends them (length, then the raw message): for tests
// and fuzzers.
std::string EncodeConnectionHeader(const ::hbase::pb::ConnectionHeader& header);

// A call frame as a client sends it (length, delimited header, delimited param if `param`, cell
// block): for tests and fuzzers. Sets header.request_param and cell_block_meta from the others.
std::string EncodeCall(::hbase::pb::RequestHeader header,
                       const google::protobuf::MessageLite* param,
                       std::string_view cell_block = {});

}  // namespace basalt::hbase_rpc

#endif  // BASALT_HBASE_RPC_RPC_CODEC_H_
