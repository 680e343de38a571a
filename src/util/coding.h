// Integer encodings: fixed-width big-endian where byte order must equal numeric order, and
// LEB128 varints where only size matters; and the byte comparisons of keys.

#ifndef BASALT_UTIL_CODING_H_
#define BASALT_UTIL_CODING_H_

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace basalt::util {

// Host order to big-endian and back. GCC does not turn the byte-at-a-time loop into a byte swap
// at -O2, and key timestamps are encoded and decoded on every cell a read or write touches.
inline uint64_t BigEndian64(uint64_t v) {
  if constexpr (std::endian::native == std::endian::little) return __builtin_bswap64(v);
  return v;
}
inline uint32_t BigEndian32(uint32_t v) {
  if constexpr (std::endian::native == std::endian::little) return __builtin_bswap32(v);
  return v;
}

// REQUIRES: p points at 8 writable bytes.
inline void EncodeFixed64BE(char* p, uint64_t v) {
  v = BigEndian64(v);
  std::memcpy(p, &v, 8);
}

inline void PutFixed64BE(std::string* dst, uint64_t v) {
  char buf[8];
  EncodeFixed64BE(buf, v);
  dst->append(buf, 8);
}

// REQUIRES: p points at 8 readable bytes.
inline uint64_t DecodeFixed64BE(const char* p) {
  uint64_t v = 0;
  std::memcpy(&v, p, 8);
  return BigEndian64(v);
}

inline void PutFixed32BE(std::string* dst, uint32_t v) {
  char buf[4];
  v = BigEndian32(v);
  std::memcpy(buf, &v, 4);
  dst->append(buf, 4);
}

inline uint32_t DecodeFixed32BE(const char* p) {
  uint32_t v = 0;
  std::memcpy(&v, p, 4);
  return BigEndian32(v);
}

// LEB128: seven bits per byte, least significant first, the high bit set on every byte but the
// last. At most 10 bytes.
// REQUIRES: p points at 10 writable bytes. Returns the bytes written.
inline size_t EncodeVarint64(char* p, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80) {
    p[n++] = static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  p[n++] = static_cast<char>(v);
  return n;
}

inline void PutVarint64(std::string* dst, uint64_t v) {
  char buf[10];
  dst->append(buf, EncodeVarint64(buf, v));
}

// Decodes a varint at the start of `in`; returns the bytes it took, or 0 when `in` ends inside
// it or it is longer than 10 bytes.
inline size_t GetVarint64(std::string_view in, uint64_t* v) {
  uint64_t result = 0;
  for (size_t i = 0; i < in.size() && i < 10; ++i) {
    const auto byte = static_cast<uint8_t>(in[i]);
    result |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);
    if ((byte & 0x80) == 0) {
      *v = result;
      return i + 1;
    }
  }
  return 0;
}

// The smallest string greater than every string that starts with `prefix`: increments the last
// byte that is not 0xFF and drops what follows. Empty when no such string exists.
inline std::string PrefixSuccessor(std::string_view prefix) {
  std::string s(prefix);
  while (!s.empty()) {
    auto& c = reinterpret_cast<unsigned char&>(s.back());
    if (c != 0xff) {
      ++c;
      return s;
    }
    s.pop_back();
  }
  return s;
}

// Whether the `n` bytes at `a` and `b` are equal, compared inline a word at a time. A scan asks
// this of every key it steps to (is it still in the row, still in the prefix), for keys of a few
// dozen bytes, where a call to memcmp cost more than the comparison.
inline bool BytesEqual(const char* a, const char* b, size_t n) {
  auto load64 = [](const char* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  };
  if (n >= 8) {
    for (size_t i = 0; i + 8 < n; i += 8) {
      if (load64(a + i) != load64(b + i)) return false;
    }
    return load64(a + n - 8) == load64(b + n - 8);  // the last word, overlapping the one before
  }
  if (n >= 4) {
    uint32_t x, y, z, w;
    std::memcpy(&x, a, 4);
    std::memcpy(&y, b, 4);
    std::memcpy(&z, a + n - 4, 4);
    std::memcpy(&w, b + n - 4, 4);
    return x == y && z == w;
  }
  for (size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

}  // namespace basalt::util

#endif  // BASALT_UTIL_CODING_H_
