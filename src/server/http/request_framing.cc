#include "server/http/request_framing.h"

#include <vector>

namespace basalt::server::http {

namespace bh = boost::beast::http;

std::optional<std::string> FramingError(const Request& header) {
  auto [begin, end] = header.equal_range(bh::field::transfer_encoding);
  if (begin == end) return std::nullopt;
  if (header.version() < 11) {
    return "Transfer-Encoding in an HTTP/1.0 request (RFC 9112 6.1)";
  }
  if (header.count(bh::field::content_length) != 0) {
    return "both Transfer-Encoding and Content-Length (RFC 9112 6.3)";
  }
  // Every coding of every Transfer-Encoding line, in order; empty list elements do not count
  // (RFC 9110 5.6.1).
  std::vector<std::string> codings;
  std::string sent;
  for (auto it = begin; it != end; ++it) {
    std::string_view value = View(it->value());
    if (!sent.empty()) sent += ", ";
    sent += value;
    while (!value.empty()) {
      size_t comma = value.find(',');
      std::string_view item = TrimWhitespace(value.substr(0, comma));
      if (!item.empty()) codings.push_back(AsciiLower(item));
      value = comma == std::string_view::npos ? std::string_view() : value.substr(comma + 1);
    }
  }
  if (codings.size() == 1 && codings[0] == "chunked") return std::nullopt;
  return "Transfer-Encoding '" + sent +
         "': a request body's only transfer coding may be chunked (RFC 9112 6.1)";
}

bool HasObsFold(std::string_view header_bytes) {
  for (size_t i = 0; i + 1 < header_bytes.size(); ++i) {
    if (header_bytes[i] == '\n' && (header_bytes[i + 1] == ' ' || header_bytes[i + 1] == '\t')) {
      return true;
    }
  }
  return false;
}

}  // namespace basalt::server::http
