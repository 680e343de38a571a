// Protobuf wire bytes written by hand, for tests that pin HBase's field numbers and types rather
// than whatever basalt's .proto files say.

#ifndef BASALT_TESTS_SUPPORT_PROTOBUF_WIRE_H_
#define BASALT_TESTS_SUPPORT_PROTOBUF_WIRE_H_

#include <cstdint>
#include <cstring>
#include <string>

namespace basalt::test::wire {

inline std::string Varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
  return out;
}

// A length-delimited field (strings, bytes, messages).
inline std::string Len(int field, const std::string& payload) {
  return Varint(static_cast<uint64_t>(field) << 3 | 2) + Varint(payload.size()) + payload;
}

// A varint field.
inline std::string Int(int field, int64_t v) {
  return Varint(static_cast<uint64_t>(field) << 3) + Varint(static_cast<uint64_t>(v));
}

// A 64-bit field holding a double.
inline std::string Double(int field, double v) {
  std::string out = Varint(static_cast<uint64_t>(field) << 3 | 1);
  char bytes[8];
  std::memcpy(bytes, &v, 8);  // little-endian on every machine basalt builds for
  return out + std::string(bytes, 8);
}

}  // namespace basalt::test::wire

#endif  // BASALT_TESTS_SUPPORT_PROTOBUF_WIRE_H_
