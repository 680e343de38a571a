// MD5 (RFC 1321), for HBase-style hash prefixes of row keys. Not for security: MD5 is broken as a
// cryptographic hash; here it only spreads keys, and its bytes must match what other MD5
// implementations give for the same key.

#ifndef BASALT_KEYS_MD5_H_
#define BASALT_KEYS_MD5_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace basalt::keys {

// Incremental MD5: Update any number of times, then Finish once.
class Md5 {
 public:
  static constexpr size_t kDigestSize = 16;
  using Digest = std::array<uint8_t, kDigestSize>;

  Md5() = default;

  void Update(std::string_view data);
  // The digest of everything passed to Update. REQUIRES: called at most once.
  Digest Finish();

 private:
  static constexpr size_t kBlockSize = 64;

  // Runs the four rounds of RFC 1321 section 3.4 over one 64-byte block.
  void Transform(const uint8_t* block);

  // A, B, C, D after RFC 1321 section 3.3.
  uint32_t state_[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
  uint64_t length_ = 0;  // bytes passed to Update
  uint8_t buffer_[kBlockSize] = {};
  size_t buffered_ = 0;  // bytes of buffer_ in use, always < kBlockSize between calls
};

// The MD5 digest of `data`.
Md5::Digest Md5Digest(std::string_view data);

}  // namespace basalt::keys

#endif  // BASALT_KEYS_MD5_H_
