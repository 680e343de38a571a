// Helpers shared by the REST handlers: path decoding, integers, plain responses. Content
// negotiation is representation.h's.

#ifndef BASALT_SERVER_REST_REST_UTIL_H_
#define BASALT_SERVER_REST_REST_UTIL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "basalt/connection.h"
#include "server/http/http_types.h"

namespace basalt::server::rest {

// JSON text; bytes that are not UTF-8 are replaced rather than thrown on.
std::string Dump(const nlohmann::json& j);
// `status` with an empty body.
http::Response Empty(const http::Request& req, boost::beast::http::status status);
// 404 "Not found", as HBase writes it.
http::Response NotFound(const http::Request& req, const std::string& what = "Not found");

// Percent-decodes one path segment (InvalidArgument on a bad escape).
Result<std::string> DecodeSegment(const std::string& raw);
// The table named by path parameter "table" (NotFound when it does not exist).
Result<std::unique_ptr<Table>> OpenTable(Connection& conn, const http::RequestContext& ctx);
// Splits raw text at ',' then decodes each part.
Result<std::vector<std::string>> SplitDecoded(const std::string& raw);
// A decimal integer query or path value; InvalidArgument naming `what`.
Result<int64_t> ParseInt64(const std::string& text, const std::string& what);

}  // namespace basalt::server::rest

#endif  // BASALT_SERVER_REST_REST_UTIL_H_
