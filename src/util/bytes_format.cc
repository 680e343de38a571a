#include "util/bytes_format.h"

#include <cctype>
#include <cstring>

namespace basalt::util {
namespace {

bool IsKeptPunctuation(char c) {
  return std::strchr(" `~!@#$%^&*()-_=+[]{}|;:'\",.<>/?", c) != nullptr && c != '\0';
}

}  // namespace

int HexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string ToStringBinary(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(bytes.size());
  for (char c : bytes) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x80 && (std::isalnum(u) || IsKeptPunctuation(c))) {
      out.push_back(c);
    } else {
      out.append("\\x");
      out.push_back(kHex[u >> 4]);
      out.push_back(kHex[u & 0xf]);
    }
  }
  return out;
}

std::string FromStringBinary(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 3 < text.size() && text[i + 1] == 'x') {
      int hi = HexDigitValue(text[i + 2]);
      int lo = HexDigitValue(text[i + 3]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 3;
        continue;
      }
    }
    out.push_back(text[i]);
  }
  return out;
}

}  // namespace basalt::util
