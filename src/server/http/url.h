// Percent-decoding and query strings (RFC 3986), as servlet containers read them.

#ifndef BASALT_SERVER_HTTP_URL_H_
#define BASALT_SERVER_HTTP_URL_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "basalt/status.h"

namespace basalt::server::http {

// Decodes %HH escapes; with `plus_is_space`, '+' becomes ' ' (query strings). InvalidArgument on
// a '%' not followed by two hex digits.
Result<std::string> PercentDecode(std::string_view text, bool plus_is_space = false);

// Splits "a=1&b=2&a=3" into decoded pairs, in order. A name without '=' has an empty value.
Result<std::vector<std::pair<std::string, std::string>>> ParseQuery(std::string_view query);

}  // namespace basalt::server::http

#endif  // BASALT_SERVER_HTTP_URL_H_
