#include "app/api_v1/api_response.h"

#include <iterator>

#include "server/http/status_mapping.h"

namespace basalt::app::api_v1 {

std::string_view ErrorCodeFor(HttpStatus status) {
  for (const ApiErrorCode& e : kApiErrorCodes) {
    if (e.status == status) return e.code;
  }
  return kApiErrorCodes[std::size(kApiErrorCodes) - 1].code;  // "internal"
}

Response ApiError(const Request& request, HttpStatus status, std::string_view message) {
  nlohmann::json body = {
      {"error", {{"code", std::string(ErrorCodeFor(status))}, {"message", std::string(message)}}}};
  return JsonResponse(request, status, body);
}

Response ApiError(const Request& request, const Status& status) {
  switch (status.code()) {
    case Status::Code::kNotFound:
      return ApiError(request, HttpStatus::not_found, status.message());
    case Status::Code::kInvalidArgument:
      return ApiError(request, HttpStatus::bad_request, status.message());
    case Status::Code::kAlreadyExists:
      return ApiError(request, HttpStatus::conflict, status.message());
    case Status::Code::kFailedPrecondition:
      return ApiError(request, HttpStatus::forbidden, status.message());
    default:
      break;
  }
  // The retryable failures are the REST API's rule, not a copy of it: a client told 503 (the
  // disk is full) knows to retry, where a 500 says the server is broken.
  if (server::http::HttpStatusFor(status) == HttpStatus::service_unavailable) {
    return ApiError(request, HttpStatus::service_unavailable, status.message());
  }
  return ApiError(request, HttpStatus::internal_server_error, "internal error");
}

Response JsonResponse(const Request& request, HttpStatus status, const nlohmann::json& body) {
  // Stored strings (post texts, payloads) may hold invalid UTF-8; replace it rather than throw.
  return server::http::MakeResponse(
      request, status, "application/json",
      body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

Response NoContent(const Request& request) {
  return server::http::MakeResponse(request, HttpStatus::no_content, "", "");
}

}  // namespace basalt::app::api_v1
