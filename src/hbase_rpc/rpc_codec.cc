#include "hbase_rpc/rpc_codec.h"

#include <climits>

namespace basalt::hbase_rpc {
namespace {

RpcError Fatal(std::string_view exception_class, std::string message) {
  return RpcError{std::string(exception_class), std::move(message), true};
}

RpcError CallError(std::string_view exception_class, std::string message) {
  return RpcError{std::string(exception_class), std::move(message), false};
}

void AppendBigEndian32(uint32_t value, std::string* out) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>(value >> shift));
}

void AppendVarint32(uint32_t value, std::string* out) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}

// protobuf's writeDelimitedTo: a varint length, then the message.
void AppendDelimited(const google::protobuf::MessageLite& message, std::string* out) {
  std::string bytes = message.SerializeAsString();
  AppendVarint32(static_cast<uint32_t>(bytes.size()), out);
  out->append(bytes);
}

// Takes a varint-delimited unit off the front of `*rest`; false when the bytes end first or the
// varint is longer than 32 bits' worth.
bool TakeDelimited(std::string_view* rest, std::string_view* unit) {
  uint32_t length = 0;
  size_t i = 0;
  for (;; ++i) {
    if (i == rest->size() || i == 5) return false;
    const auto byte = static_cast<uint8_t>((*rest)[i]);
    if (i == 4 && byte > 0x0f) return false;
    length |= static_cast<uint32_t>(byte & 0x7f) << (7 * i);
    if ((byte & 0x80) == 0) break;
  }
  rest->remove_prefix(i + 1);
  if (length > rest->size()) return false;
  *unit = rest->substr(0, length);
  rest->remove_prefix(length);
  return true;
}

template <class Message>
bool ParseMessage(std::string_view bytes, Message* message) {
  return bytes.size() <= static_cast<size_t>(INT_MAX) &&
         message->ParsePartialFromArray(bytes.data(), static_cast<int>(bytes.size())) &&
         message->IsInitialized();
}

std::string Framed(const std::string& body) {
  std::string out;
  out.reserve(4 + body.size());
  AppendBigEndian32(static_cast<uint32_t>(body.size()), &out);
  out.append(body);
  return out;
}

}  // namespace

std::optional<RpcError> CheckPreamble(std::string_view bytes) {
  if (bytes.size() != kPreambleBytes || bytes.substr(0, 4) != "HBas" || bytes[4] != 0) {
    return Fatal(kWrongVersionException,
                 "not HBase's RPC preamble of version 0 (\"HBas\", 0, auth)");
  }
  if (static_cast<uint8_t>(bytes[5]) != kAuthSimple) {
    return Fatal(kBadAuthException, "authentication method " +
                                        std::to_string(static_cast<uint8_t>(bytes[5])) +
                                        " is not served; only SIMPLE (80)");
  }
  return std::nullopt;
}

std::optional<RpcError> NextLengthPrefixed(std::string_view buffer, uint32_t max_bytes,
                                           LengthPrefixed* out) {
  *out = LengthPrefixed{};
  if (buffer.size() < 4) return std::nullopt;
  uint32_t length = 0;
  for (int i = 0; i < 4; ++i) length = (length << 8) | static_cast<uint8_t>(buffer[i]);
  if (length > max_bytes) {
    return Fatal(kRequestTooBigException, "a frame of " + std::to_string(length) +
                                              " bytes is over the server's cap of " +
                                              std::to_string(max_bytes));
  }
  if (buffer.size() - 4 < length) return std::nullopt;
  out->complete = true;
  out->body = buffer.substr(4, length);
  out->consumed = 4 + size_t{length};
  return std::nullopt;
}

std::optional<RpcError> ParseConnectionHeader(std::string_view bytes,
                                              ::hbase::pb::ConnectionHeader* out) {
  if (!ParseMessage(bytes, out)) {
    return Fatal(kFatalConnectionException, "bytes that are not a valid ConnectionHeader");
  }
  if (out->has_cell_block_codec_class() && !out->cell_block_codec_class().empty() &&
      out->cell_block_codec_class() != kKeyValueCodec) {
    return Fatal(kUnsupportedCellCodecException,
                 "cell block codec " + out->cell_block_codec_class().substr(0, 200) +
                     " is not served; only " + std::string(kKeyValueCodec));
  }
  if (out->has_cell_block_compressor_class() && !out->cell_block_compressor_class().empty()) {
    return Fatal(kUnsupportedCompressionCodecException,
                 "cell block compressor " + out->cell_block_compressor_class().substr(0, 200) +
                     " is not served; cell blocks must be uncompressed");
  }
  return std::nullopt;
}

std::optional<RpcError> DecodeCall(std::string_view frame, const RpcCaps& caps, DecodedCall* out) {
  *out = DecodedCall{};
  std::string_view rest = frame;
  std::string_view header_bytes;
  if (!TakeDelimited(&rest, &header_bytes) || !ParseMessage(header_bytes, &out->header) ||
      !out->header.has_call_id()) {
    out->header.Clear();
    return Fatal(kFatalConnectionException, "a call frame without a valid RequestHeader");
  }
  if (out->header.method_name().empty()) {
    return CallError(kDoNotRetryIOException, "a call without a method name");
  }
  if (out->header.request_param()) {
    if (!TakeDelimited(&rest, &out->param)) {
      return CallError(kDoNotRetryIOException,
                       "the request message is cut short by the end of its frame");
    }
    out->has_param = true;
  }
  if (out->header.has_cell_block_meta()) {
    const uint32_t length = out->header.cell_block_meta().length();
    if (length > caps.max_cell_block_bytes) {
      return CallError(kRequestTooBigException, "a cell block of " + std::to_string(length) +
                                                    " bytes is over the server's cap of " +
                                                    std::to_string(caps.max_cell_block_bytes));
    }
    if (length != rest.size()) {
      return CallError(kDoNotRetryIOException, "the cell block's declared length (" +
                                                   std::to_string(length) +
                                                   ") is not what is left of its frame (" +
                                                   std::to_string(rest.size()) + ")");
    }
    out->cell_block = rest;
    rest = {};
  }
  if (!rest.empty()) {
    return CallError(kDoNotRetryIOException,
                     std::to_string(rest.size()) + " bytes after the end of the call");
  }
  return std::nullopt;
}

std::string EncodeResponse(uint32_t call_id, const google::protobuf::MessageLite& message,
                           std::string_view cell_block) {
  return EncodeResponseBytes(call_id, message.SerializeAsString(), cell_block);
}

std::string EncodeResponseBytes(uint32_t call_id, std::string_view message,
                                std::string_view cell_block) {
  ::hbase::pb::ResponseHeader header;
  header.set_call_id(call_id);
  if (!cell_block.empty()) {
    header.mutable_cell_block_meta()->set_length(static_cast<uint32_t>(cell_block.size()));
  }
  std::string body;
  AppendDelimited(header, &body);
  AppendVarint32(static_cast<uint32_t>(message.size()), &body);
  body.append(message);
  body.append(cell_block);
  return Framed(body);
}

std::string EncodeError(uint32_t call_id, const RpcError& error) {
  ::hbase::pb::ResponseHeader header;
  // -1 as HBase's int call id: the answer belongs to the connection, not to a call.
  header.set_call_id(error.fatal ? UINT32_MAX : call_id);
  ::hbase::pb::ExceptionResponse* exception = header.mutable_exception();
  exception->set_exception_class_name(error.exception_class);
  // The Java client builds the exception from this text (its stack trace field).
  exception->set_stack_trace(error.exception_class + ": " + error.message);
  exception->set_do_not_retry(error.exception_class == kDoNotRetryIOException || error.fatal);
  std::string body;
  AppendDelimited(header, &body);
  return Framed(body);
}

std::string EncodeConnectionHeader(const ::hbase::pb::ConnectionHeader& header) {
  return Framed(header.SerializeAsString());
}

std::string EncodeCall(::hbase::pb::RequestHeader header,
                       const google::protobuf::MessageLite* param, std::string_view cell_block) {
  header.set_request_param(param != nullptr);
  if (!cell_block.empty()) {
    header.mutable_cell_block_meta()->set_length(static_cast<uint32_t>(cell_block.size()));
  }
  std::string body;
  AppendDelimited(header, &body);
  if (param != nullptr) AppendDelimited(*param, &body);
  body.append(cell_block);
  return Framed(body);
}

}  // namespace basalt::hbase_rpc
