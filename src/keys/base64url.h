// Base64url (RFC 4648 §5) without padding: the text form of page cursors, safe in a URL path or
// query without escaping.

#ifndef BASALT_KEYS_BASE64URL_H_
#define BASALT_KEYS_BASE64URL_H_

#include <optional>
#include <string>
#include <string_view>

namespace basalt::keys {

// Alphabet A-Z a-z 0-9 '-' '_', no '=' padding.
std::string Base64UrlEncode(std::string_view bytes);

// The bytes of `text`, or nullopt when it is not canonical unpadded base64url: a character
// outside the alphabet, padding, a length of 1 mod 4, or unused low bits that are not zero.
// Rejecting non-canonical forms means each byte string has exactly one text form.
std::optional<std::string> Base64UrlDecode(std::string_view text);

}  // namespace basalt::keys

#endif  // BASALT_KEYS_BASE64URL_H_
