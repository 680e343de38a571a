// Fixed-width fields of the recipes' keys, read in place for the common keys whose fields sit at
// known offsets (a key that does not match the common shape takes KeyParser's path, which
// words the errors). The recipes see only the public API, which has no byte-level decoder.

#ifndef BASALT_RECIPES_BIG_ENDIAN_H_
#define BASALT_RECIPES_BIG_ENDIAN_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace basalt::recipes {

// The big-endian unsigned number in bytes [at, at + width). REQUIRES: width <= 8 and the bytes
// are inside `bytes`.
inline uint64_t BigEndianAt(std::string_view bytes, size_t at, size_t width) {
  if (width == 8) {
    // One load and a byte swap: the byte loop below was a tenth of decoding an event.
    uint64_t v;
    std::memcpy(&v, bytes.data() + at, 8);
    return std::endian::native == std::endian::little ? __builtin_bswap64(v) : v;
  }
  uint64_t v = 0;
  for (size_t i = 0; i < width; ++i) v = (v << 8) | static_cast<uint8_t>(bytes[at + i]);
  return v;
}

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_BIG_ENDIAN_H_
