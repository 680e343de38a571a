// Printable forms of binary keys and values, compatible with HBase's Bytes.toStringBinary and
// Bytes.toBytesBinary: printable ASCII stays as is, every other byte becomes \xHH.

#ifndef BASALT_UTIL_BYTES_FORMAT_H_
#define BASALT_UTIL_BYTES_FORMAT_H_

#include <string>
#include <string_view>

namespace basalt::util {

// Bytes.toStringBinary: alphanumerics and the punctuation ` ~!@#$%^&*()-_=+[]{}|;:'",.<>/?`
// are kept; everything else (backslash included) is written as \xHH with upper-case hex.
std::string ToStringBinary(std::string_view bytes);

// Bytes.toBytesBinary: `\xHH` (either case) becomes that byte; everything else is copied.
// A backslash not followed by x and two hex digits is kept as is, as HBase does.
std::string FromStringBinary(std::string_view text);

// The value of hex digit `c` (0-9, a-f, A-F), or -1 when it is none.
int HexDigitValue(char c);

}  // namespace basalt::util

#endif  // BASALT_UTIL_BYTES_FORMAT_H_
