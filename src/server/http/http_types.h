// The request and response types every handler of the HTTP layer sees.

#ifndef BASALT_SERVER_HTTP_HTTP_TYPES_H_
#define BASALT_SERVER_HTTP_HTTP_TYPES_H_

#include <boost/beast/http.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace basalt::server::http {

class MemoryLease;

using Request = boost::beast::http::request<boost::beast::http::string_body>;
using Response = boost::beast::http::response<boost::beast::http::string_body>;
using Verb = boost::beast::http::verb;

// One request as a handler sees it: the raw Beast request, the path parameters the route
// captured and the decoded query string.
struct RequestContext {
  const Request& request;
  // Path parameters by name, exactly as they appear in the target (still percent-encoded: a
  // handler decides how to split before decoding, as HBase's RowSpec does with ',').
  std::map<std::string, std::string> params;
  // The query string, percent-decoded ('+' is a space), in order; repeated names are kept.
  std::vector<std::pair<std::string, std::string>> query;
  // The remote address, "ip:port".
  std::string remote;
  // This request's share of the server's memory budget (memory_budget.h), which holds its body
  // already; null when no HttpServer serves the request (unit tests), and then nothing is
  // counted.
  MemoryLease* memory = nullptr;

  // The remote address without the port (ClientAddress): who the per-client caps count.
  std::string client_address() const;

  // The first value of query parameter `name`.
  std::optional<std::string> Query(const std::string& name) const;
  // Every value of query parameter `name`, in order.
  std::vector<std::string> QueryAll(const std::string& name) const;
  // A path parameter (REQUIRES: the route declares it).
  const std::string& Param(const std::string& name) const { return params.at(name); }

  // Holds `bytes` more of the server's memory budget until the response is written, for what
  // the handler is about to expand the body into (`what`: "the decoded CellSet"). Call it
  // before allocating. nullopt: held; else the response to answer instead, in the error shape
  // of the request's API: 413 past what one request may hold, 503 with Retry-After while the
  // server holds too much for other requests.
  std::optional<Response> ReserveMemory(uint64_t bytes, std::string_view what) const;
};

// The client's address without the port: "127.0.0.1" from "127.0.0.1:5000", "::1" from
// "[::1]:5000" or "::1:5000" as Beast prints it.
std::string ClientAddress(std::string_view remote);

// Header text: ASCII lower case (header names, media types, host names compare without case),
// and a value without the spaces and tabs around it (RFC 9110's optional whitespace).
std::string AsciiLower(std::string_view s);
std::string_view TrimWhitespace(std::string_view s);

// Beast's string_view as the standard one.
inline std::string_view View(boost::beast::string_view s) {
  return std::string_view(s.data(), s.size());
}

// Handlers return the whole response; they never throw.
using Handler = std::function<Response(const RequestContext&)>;

// A response with `status`, `content_type` and `body`, for the version of `request`.
Response MakeResponse(const Request& request, boost::beast::http::status status,
                      std::string content_type, std::string body);

}  // namespace basalt::server::http

#endif  // BASALT_SERVER_HTTP_HTTP_TYPES_H_
