// The byte layout of one key field. This is the only file that knows it; docs/keys.md mirrors it
// and field_codec_test.cc pins it with golden bytes. Users store these bytes as row keys: never
// change them.
//
//   uint, width w (1, 2, 4, 8)   BE(v), w bytes
//   int, width w                 BE(v XOR 1 << (8w - 1)), w bytes: two's complement with the
//                                sign bit flipped, so INT_MIN is 00.. and INT_MAX is FF..
//   bytes                        x with each 00 written as 00 FF, then the terminator 00 01
//   fixed bytes, size n          x, exactly n bytes
//   any of these, descending     every byte above complemented (XOR FF): for bytes, each 00
//                                is FF 00 and the terminator is FF FE
//
// Why each is order-preserving: fixed-width big-endian integers compare like their values. For
// bytes, an escaped 00 (00 FF) sorts after the terminator (00 01), so a string sorts before its
// extensions, and 00 FF sorts before any byte 01..FF that is not escaped, so "a\0" < "a\x01".
// Every encoding is prefix-free (the width is fixed or the terminator ends it), so the
// complement of an encoding reverses its order and concatenated fields compare field by field.
//
// Decoders read from the front of `*in` and, on success, advance it past the field. On failure
// they leave `*in` as it was and return Corruption with a message that says what was wrong and
// where, counting bytes from the start of the field; the caller adds which field it was.

#ifndef BASALT_KEYS_FIELD_CODEC_H_
#define BASALT_KEYS_FIELD_CODEC_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "basalt/keys.h"
#include "basalt/status.h"

namespace basalt::keys {

// REQUIRES: width is 1, 2, 4 or 8 and v fits in width bytes (higher bits are dropped).
void AppendUint(std::string* dst, uint64_t v, size_t width, KeyOrder order);
// REQUIRES: width is 1, 2, 4 or 8 and v fits in a signed integer of width bytes.
void AppendInt(std::string* dst, int64_t v, size_t width, KeyOrder order);
void AppendBytes(std::string* dst, std::string_view v, KeyOrder order);
void AppendFixedBytes(std::string* dst, std::string_view v, KeyOrder order);

// REQUIRES (all): width is 1, 2, 4 or 8.
Status ReadUint(std::string_view* in, size_t width, KeyOrder order, uint64_t* v);
Status ReadInt(std::string_view* in, size_t width, KeyOrder order, int64_t* v);
Status ReadBytes(std::string_view* in, KeyOrder order, std::string* v);
Status ReadFixedBytes(std::string_view* in, size_t size, KeyOrder order, std::string* v);

// The width in bytes of an integer field type; 0 for kBytes and kFixedBytes.
size_t IntegerWidth(KeyFieldType type);
bool IsSigned(KeyFieldType type);

}  // namespace basalt::keys

#endif  // BASALT_KEYS_FIELD_CODEC_H_
