#include "basalt/key_spread.h"

#include <xxhash.h>

#include "keys/md5.h"

namespace basalt {
namespace {

// The whole hash of `data`, HashSize(kind) bytes. REQUIRES: kind is a HashKind.
std::string FullHash(std::string_view data, HashKind kind) {
  if (kind == HashKind::kMd5) {
    keys::Md5::Digest d = keys::Md5Digest(data);
    return std::string(reinterpret_cast<const char*>(d.data()), d.size());
  }
  // XXH3 takes a null pointer only with a zero length, which is what an empty view may give.
  XXH64_canonical_t canonical;
  XXH64_canonicalFromHash(&canonical, XXH3_64bits(data.data(), data.size()));
  return std::string(reinterpret_cast<const char*>(canonical.digest), sizeof(canonical.digest));
}

Status CheckPrefixSize(size_t n_bytes, HashKind kind) {
  if (kind != HashKind::kMd5 && kind != HashKind::kXxh3) {
    return Status::InvalidArgument("unknown hash kind " + std::to_string(static_cast<int>(kind)));
  }
  if (n_bytes > HashSize(kind)) {
    return Status::InvalidArgument("a hash prefix of " + std::to_string(n_bytes) +
                                   " bytes is longer than the " + std::to_string(HashSize(kind)) +
                                   "-byte hash");
  }
  return Status::OK();
}

Status CheckDigits(std::string_view s, std::string_view what) {
  if (s.empty()) return Status::InvalidArgument(std::string(what) + " is empty");
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') {
      return Status::InvalidArgument(std::string(what) + " has a non-digit at position " +
                                     std::to_string(i));
    }
  }
  return Status::OK();
}

}  // namespace

size_t HashSize(HashKind kind) {
  switch (kind) {
    case HashKind::kMd5:
      return keys::Md5::kDigestSize;
    case HashKind::kXxh3:
      return sizeof(XXH64_canonical_t);
  }
  return 0;
}

Result<std::string> HashPrefix(std::string_view data, size_t n_bytes, HashKind kind) {
  BASALT_RETURN_IF_ERROR(CheckPrefixSize(n_bytes, kind));
  std::string hash = FullHash(data, kind);
  hash.resize(n_bytes);
  return hash;
}

Result<std::string> Salt(std::string_view key, size_t n_bytes, HashKind kind) {
  BASALT_ASSIGN_OR_RETURN(std::string out, HashPrefix(key, n_bytes, kind));
  out.append(key);
  return out;
}

Result<std::string> Unsalt(std::string_view salted, size_t n_bytes, HashKind kind) {
  BASALT_RETURN_IF_ERROR(CheckPrefixSize(n_bytes, kind));
  if (salted.size() < n_bytes) {
    return Status::Corruption("a salted key of " + std::to_string(salted.size()) +
                              " bytes is shorter than its " + std::to_string(n_bytes) +
                              "-byte hash prefix");
  }
  std::string_view key = salted.substr(n_bytes);
  if (FullHash(key, kind).compare(0, n_bytes, salted.substr(0, n_bytes)) != 0) {
    return Status::Corruption("the first " + std::to_string(n_bytes) +
                              " bytes are not the hash prefix of the rest of the key");
  }
  return std::string(key);
}

std::string ReverseBytes(std::string_view bytes) {
  return std::string(bytes.rbegin(), bytes.rend());
}

Result<std::string> ReverseDigits(std::string_view digits) {
  BASALT_RETURN_IF_ERROR(CheckDigits(digits, "the number"));
  return ReverseBytes(digits);
}

std::string ReverseDecimal(uint64_t value, size_t width) {
  // Least significant digit first is the reversed decimal form; zeros pad it on the right.
  std::string out;
  do {
    out.push_back(static_cast<char>('0' + value % 10));
    value /= 10;
  } while (value != 0);
  if (out.size() < width) out.append(width - out.size(), '0');
  return out;
}

Result<uint64_t> ParseReverseDecimal(std::string_view reversed) {
  BASALT_RETURN_IF_ERROR(CheckDigits(reversed, "the reversed number"));
  uint64_t value = 0;
  for (size_t i = reversed.size(); i-- > 0;) {
    const uint64_t digit = static_cast<uint64_t>(reversed[i] - '0');
    if (value > (UINT64_MAX - digit) / 10) {
      return Status::InvalidArgument("the reversed number " + std::string(reversed) +
                                     " is larger than 2^64 - 1");
    }
    value = value * 10 + digit;
  }
  return value;
}

}  // namespace basalt
