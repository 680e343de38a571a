// Helpers shared by the REST handlers: content negotiation, path decoding, JSON responses.

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
// 200 application/json.
http::Response JsonOk(const http::Request& req, std::string json);
// `status` with an empty body.
http::Response Empty(const http::Request& req, boost::beast::http::status status);
// 404 "Not found", as HBase writes it.
http::Response NotFound(const http::Request& req, const std::string& what = "Not found");

// Whether the client accepts JSON (no Accept header, */*, application/*, or a JSON type).
bool AcceptsJson(const http::Request& req);
// Whether the client asks for application/octet-stream (a single raw cell).
bool WantsOctetStream(const http::Request& req);
// 406 for a request that accepts nothing basalt serves.
http::Response NotAcceptable(const http::Request& req);

enum class BodyType { kJson, kOctetStream, kOther };
// From Content-Type: kJson only for application/json or a "+json" type (parameters ignored), so
// no "simple" cross-site request is read as JSON; a missing type is kOther (415, as HBase).
BodyType RequestBodyType(const http::Request& req);

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
