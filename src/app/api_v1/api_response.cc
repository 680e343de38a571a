#include "app/api_v1/api_response.h"

namespace basalt::app::api_v1 {

std::string_view ErrorCodeFor(HttpStatus status) {
  switch (status) {
    case HttpStatus::bad_request:
      return "bad_request";
    case HttpStatus::unauthorized:
      return "unauthorized";
    case HttpStatus::forbidden:
      return "forbidden";
    case HttpStatus::not_found:
      return "not_found";
    case HttpStatus::method_not_allowed:
      return "method_not_allowed";
    case HttpStatus::conflict:
      return "conflict";
    case HttpStatus::payload_too_large:
      return "too_large";
    case HttpStatus::too_many_requests:
      return "rate_limited";
    default:
      return "internal";
  }
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
      return ApiError(request, HttpStatus::internal_server_error, "internal error");
  }
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
