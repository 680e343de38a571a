// The shapes every /api/v1 answer takes: JSON bodies, and errors as
// {"error": {"code": "<code>", "message": "<what was wrong>"}} (docs/api-v1.md, "Conventions").

#ifndef BASALT_APP_API_V1_API_RESPONSE_H_
#define BASALT_APP_API_V1_API_RESPONSE_H_

#include <boost/beast/http/status.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "basalt/status.h"
#include "server/http/http_types.h"

namespace basalt::app::api_v1 {

using server::http::Request;
using server::http::Response;
using HttpStatus = boost::beast::http::status;

struct ApiErrorCode {
  HttpStatus status;
  std::string_view code;
};
// Every error code of the contract with its HTTP status; the last, "internal", also stands for
// every status not listed.
inline constexpr ApiErrorCode kApiErrorCodes[] = {
    {HttpStatus::bad_request, "bad_request"},
    {HttpStatus::unauthorized, "unauthorized"},
    {HttpStatus::forbidden, "forbidden"},
    {HttpStatus::not_found, "not_found"},
    {HttpStatus::method_not_allowed, "method_not_allowed"},
    {HttpStatus::conflict, "conflict"},
    {HttpStatus::payload_too_large, "too_large"},
    {HttpStatus::too_many_requests, "rate_limited"},
    {HttpStatus::service_unavailable, "unavailable"},
    {HttpStatus::internal_server_error, "internal"},
};

// The error code of the contract for an HTTP status ("bad_request" for 400, ...).
std::string_view ErrorCodeFor(HttpStatus status);

// An error response: `status` with the contract's body, code from ErrorCodeFor.
Response ApiError(const Request& request, HttpStatus status, std::string_view message);

// A recipe's Status as the contract's error: NotFound 404, InvalidArgument 400, AlreadyExists
// 409, FailedPrecondition 403 (the recipes use it for "not yours"); what the REST API answers
// 503 (server/http/status_mapping.h: a full disk, a busy store, to be retried) 503
// "unavailable" with its message, which says to retry; everything else 500 with the message
// hidden (it may name internals) and a generic one sent. REQUIRES: !status.ok().
Response ApiError(const Request& request, const Status& status);

// `body` as application/json with `status`.
Response JsonResponse(const Request& request, HttpStatus status, const nlohmann::json& body);
// 204 with no body.
Response NoContent(const Request& request);

}  // namespace basalt::app::api_v1

#endif  // BASALT_APP_API_V1_API_RESPONSE_H_
