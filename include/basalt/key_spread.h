// Spreading row keys over the key space, against hot spots: hash prefixes ("salting") and
// reversed strings and digits, as HBase schema designs use them.
//
//   // A 4-byte MD5 prefix of the user id spreads users; each user's rows stay together.
//   Result<std::string> salt = basalt::HashPrefix(user_id, 4, basalt::HashKind::kMd5);
//   if (!salt.ok()) return salt.status();
//   std::string key = basalt::KeyBuilder().AddFixedBytes(*salt).AddBytes(user_id).Build();
//
//   // Or the whole key, hashed and prepended, and stripped back:
//   Result<std::string> salted = basalt::Salt(key, 2, basalt::HashKind::kXxh3);
//   Result<std::string> original = basalt::Unsalt(*salted, 2, basalt::HashKind::kXxh3);
//
//   // Phone numbers and timestamps written backwards: the fast-changing digits come first.
//   Result<std::string> r = basalt::ReverseDigits("13800138000");   // "00083100831"
//
// Hash values end up in stored keys, so the bytes each HashKind gives are a persistent format:
// they never change (pinned by src/keys/key_spread_test.cc, described in docs/keys.md).
//
// Thread safety: every function here is pure and may be called from any thread.

#ifndef BASALT_KEY_SPREAD_H_
#define BASALT_KEY_SPREAD_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "basalt/status.h"

namespace basalt {

// The hash function of a prefix.
enum class HashKind : uint8_t {
  // MD5 (RFC 1321), as HBase schema notes use it: the 16-byte digest.
  kMd5 = 1,
  // XXH3_64bits with seed 0 (xxHash 0.8): fast, not cryptographic. Its 8-byte value written
  // big-endian (xxHash's canonical form).
  kXxh3 = 2,
};

// The size of a kind's whole hash in bytes: 16 for kMd5, 8 for kXxh3.
size_t HashSize(HashKind kind);

// The first n_bytes bytes of the hash of `data`. n_bytes may be 0 (an empty prefix).
// InvalidArgument when n_bytes > HashSize(kind) or kind is not a HashKind.
Result<std::string> HashPrefix(std::string_view data, size_t n_bytes, HashKind kind);

// HashPrefix(key, n_bytes, kind) followed by key. Errors as HashPrefix.
// Note: this hashes the whole key, which scatters keys that share a prefix; to keep a group of
// rows together (one user's), hash only the group's part and build the key with KeyBuilder as
// shown above.
Result<std::string> Salt(std::string_view key, size_t n_bytes, HashKind kind);

// The key that Salt(key, n_bytes, kind) was made from. InvalidArgument as HashPrefix; Corruption
// when `salted` is shorter than n_bytes or its first n_bytes are not the hash prefix of the rest
// (it was not salted this way).
Result<std::string> Unsalt(std::string_view salted, size_t n_bytes, HashKind kind);

// `bytes` in reverse byte order (UTF-8 text is reversed byte by byte, not by character). Its own
// inverse.
std::string ReverseBytes(std::string_view bytes);

// The decimal digits of `digits` in reverse order, e.g. a phone number or a timestamp written
// so that its fast-changing last digits lead. Its own inverse (leading zeros are kept both ways).
// InvalidArgument, naming the position, when `digits` is empty or holds anything but 0-9 (strip
// '+', spaces and dashes first).
Result<std::string> ReverseDigits(std::string_view digits);

// The decimal form of `value`, left-padded with zeros to at least `width` digits, reversed:
// ReverseDecimal(1700000000123) == "3210000000071", ReverseDecimal(42, 5) == "24000". A fixed
// width gives every key the same length.
std::string ReverseDecimal(uint64_t value, size_t width = 0);
// The value a ReverseDecimal string was made from. InvalidArgument when `reversed` is empty,
// holds anything but 0-9 or is larger than UINT64_MAX.
Result<uint64_t> ParseReverseDecimal(std::string_view reversed);

}  // namespace basalt

#endif  // BASALT_KEY_SPREAD_H_
