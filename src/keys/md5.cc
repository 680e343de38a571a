// MD5 written from RFC 1321 (sections 3.1 to 3.5). Words are little-endian, as the RFC
// specifies; the code reads them byte by byte so that it does not depend on the host's order.

#include "keys/md5.h"

#include <algorithm>
#include <cstring>

namespace basalt::keys {
namespace {

// T[i] = floor(2^32 * |sin(i + 1)|), RFC 1321 section 3.4.
constexpr uint32_t kT[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

// The left-rotation amounts s of each round's four steps.
constexpr int kShift[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

inline uint32_t RotateLeft(uint32_t x, int s) {
  return (x << s) | (x >> (32 - s));
}

inline uint32_t LoadLE32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

inline void StoreLE32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

}  // namespace

void Md5::Transform(const uint8_t* block) {
  uint32_t x[16];
  for (int i = 0; i < 16; ++i) x[i] = LoadLE32(block + 4 * i);

  uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3];
  for (int i = 0; i < 64; ++i) {
    const int round = i / 16;
    uint32_t f;
    int k;
    switch (round) {
      case 0:  // F(X,Y,Z) = XY v not(X) Z; words in order
        f = (b & c) | (~b & d);
        k = i;
        break;
      case 1:  // G(X,Y,Z) = XZ v Y not(Z); words 1, 6, 11, ...
        f = (b & d) | (c & ~d);
        k = (5 * i + 1) % 16;
        break;
      case 2:  // H(X,Y,Z) = X xor Y xor Z; words 5, 8, 11, ...
        f = b ^ c ^ d;
        k = (3 * i + 5) % 16;
        break;
      default:  // I(X,Y,Z) = Y xor (X v not(Z)); words 0, 7, 14, ...
        f = c ^ (b | ~d);
        k = (7 * i) % 16;
        break;
    }
    // [abcd k s i]: a = b + ((a + f(b,c,d) + X[k] + T[i]) <<< s), then the registers rotate.
    const uint32_t next = b + RotateLeft(a + f + x[k] + kT[i], kShift[round][i % 4]);
    a = d;
    d = c;
    c = b;
    b = next;
  }
  state_[0] += a;
  state_[1] += b;
  state_[2] += c;
  state_[3] += d;
}

void Md5::Update(std::string_view data) {
  if (data.empty()) return;  // data() may be null, which memcpy must not see
  const auto* p = reinterpret_cast<const uint8_t*>(data.data());
  size_t n = data.size();
  length_ += n;
  if (buffered_ > 0) {
    const size_t take = std::min(n, kBlockSize - buffered_);
    std::memcpy(buffer_ + buffered_, p, take);
    buffered_ += take;
    p += take;
    n -= take;
    if (buffered_ < kBlockSize) return;
    Transform(buffer_);
    buffered_ = 0;
  }
  for (; n >= kBlockSize; p += kBlockSize, n -= kBlockSize) Transform(p);
  if (n > 0) {
    std::memcpy(buffer_, p, n);
    buffered_ = n;
  }
}

Md5::Digest Md5::Finish() {
  // Section 3.1: a 1 bit, then 0 bits until the length is 56 mod 64 bytes; section 3.2: the
  // message length in bits, 64-bit little-endian (mod 2^64).
  const uint64_t bit_length = length_ * 8;
  uint8_t padding[kBlockSize + 8] = {0x80};
  const size_t pad = buffered_ < 56 ? 56 - buffered_ : 120 - buffered_;
  Update(std::string_view(reinterpret_cast<const char*>(padding), pad));
  uint8_t length_bytes[8];
  for (int i = 0; i < 8; ++i) length_bytes[i] = static_cast<uint8_t>(bit_length >> (8 * i));
  Update(std::string_view(reinterpret_cast<const char*>(length_bytes), 8));

  Digest digest;
  for (int i = 0; i < 4; ++i) StoreLE32(digest.data() + 4 * i, state_[i]);
  return digest;
}

Md5::Digest Md5Digest(std::string_view data) {
  Md5 md5;
  md5.Update(data);
  return md5.Finish();
}

}  // namespace basalt::keys
