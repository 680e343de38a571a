// How a request's body is framed, checked as RFC 9112 says before the body is read: a message
// whose framing two parsers could read differently is refused, so that no proxy in front of the
// server and the server itself can disagree on where one request ends and the next begins
// (request smuggling).
//
//   Transfer-Encoding  only "chunked", alone (RFC 9112 6.1: a request's final coding must be
//                      chunked, and basalt decodes no other coding); anything else, "chunked,
//                      identity", an unknown coding, an empty value, is refused, as is a
//                      Transfer-Encoding in an HTTP/1.0 request.
//   Content-Length     not together with Transfer-Encoding (RFC 9112 6.3).
//   obs-fold           a header line continued on the next (one starting with a space or tab)
//                      is refused (RFC 9112 5.2).
//
// Boost.Beast's parser takes these leniently (it reads "chunked, identity" as no body, and folds
// continued lines), so the server checks them itself; the answer is 400 and the connection
// closes, since its remaining bytes cannot be framed.

#ifndef BASALT_SERVER_HTTP_REQUEST_FRAMING_H_
#define BASALT_SERVER_HTTP_REQUEST_FRAMING_H_

#include <optional>
#include <string>
#include <string_view>

#include "server/http/http_types.h"

namespace basalt::server::http {

// What is wrong with the framing of `header` (a parsed request header), or nullopt.
std::optional<std::string> FramingError(const Request& header);

// Whether the raw bytes of a request header (request line to the empty line) continue a header
// line on the next one (obs-fold).
bool HasObsFold(std::string_view header_bytes);

}  // namespace basalt::server::http

#endif  // BASALT_SERVER_HTTP_REQUEST_FRAMING_H_
