// Reading HBase's protobuf messages from untrusted bytes: strictly, and without logging.
//
// protobuf's ParseFromString logs every message that lacks a required field, which would let a
// client fill the server's log; these helpers parse partially and check by themselves instead.
// They also refuse the fields (and proto2 enum values) that HBase 2.6 does not define: protobuf
// keeps those as unknown fields, and a filter carrying a field basalt does not know could mean
// something basalt would silently not do.

#ifndef BASALT_HBASE_PROTO_MESSAGE_PARSE_H_
#define BASALT_HBASE_PROTO_MESSAGE_PARSE_H_

#include <climits>
#include <string>
#include <string_view>

#include "basalt/status.h"
#include "util/bytes_format.h"

namespace basalt::hbase_proto {

// Wire text (a class name, a charset) for an error message: HBase's printable form, cut short.
inline std::string Printable(std::string_view text) {
  constexpr size_t kMaxShown = 200;
  std::string shown = util::ToStringBinary(text.substr(0, kMaxShown));
  if (text.size() > kMaxShown) shown += "...";
  return shown;
}

// InvalidArgument naming the message's type when `message` (a generated lite message) holds a
// field or an enum value its .proto file does not define. Checks `message` only, not the
// messages inside it: the caller checks each one it reads.
template <class Message>
Status CheckKnownFields(const Message& message) {
  if (message.unknown_fields().empty()) return Status::OK();
  return Status::InvalidArgument(message.GetTypeName() +
                                 " holds a field or an enum value HBase 2.6 does not define");
}

// Parses `bytes` into `*message`. InvalidArgument naming the message's type when the bytes are
// not a valid encoding, a required field is missing (which is also what a required enum field
// with a value out of range becomes), or CheckKnownFields fails. Never logs.
template <class Message>
Status ParseStrict(std::string_view bytes, Message* message) {
  if (bytes.size() > static_cast<size_t>(INT_MAX) ||
      !message->ParsePartialFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status::InvalidArgument("bytes that are not a valid " + message->GetTypeName());
  }
  if (!message->IsInitialized()) {
    return Status::InvalidArgument(message->GetTypeName() +
                                   " lacks a required field (or holds an unknown enum value)");
  }
  return CheckKnownFields(*message);
}

}  // namespace basalt::hbase_proto

#endif  // BASALT_HBASE_PROTO_MESSAGE_PARSE_H_
