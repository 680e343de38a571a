// Base64 (RFC 4648), the text form of bytes in two dialects:
//   - standard, padded (§4): how HBase's REST JSON and XML carry row keys, columns and values;
//   - url-safe, unpadded (§5): opaque tokens (page cursors, post ids) that travel in a URL path
//     or query without escaping.

#ifndef BASALT_BASE64_H_
#define BASALT_BASE64_H_

#include <optional>
#include <string>
#include <string_view>

#include "basalt/status.h"

namespace basalt {

// Standard alphabet (A-Z a-z 0-9 '+' '/'), padded with '=' to a multiple of 4.
std::string Base64Encode(std::string_view bytes);

// Strict: standard alphabet, length a multiple of 4, '=' only as padding. InvalidArgument
// otherwise, naming `what` ("row key", "value", ...).
Result<std::string> Base64Decode(std::string_view text, std::string_view what);

// Url-safe alphabet (A-Z a-z 0-9 '-' '_'), no '=' padding.
std::string Base64UrlEncode(std::string_view bytes);

// The bytes of `text`, or nullopt when it is not canonical unpadded base64url: a character
// outside the alphabet, padding, a length of 1 mod 4, or unused low bits that are not zero.
// Rejecting non-canonical forms means each byte string has exactly one text form.
std::optional<std::string> Base64UrlDecode(std::string_view text);

}  // namespace basalt

#endif  // BASALT_BASE64_H_
