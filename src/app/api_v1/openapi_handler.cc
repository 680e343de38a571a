// /api/v1/openapi.json, and the answer to paths under /api/v1 that no route matches.

#include "app/api_v1/api_response.h"
#include "app/api_v1/api_v1_service.h"
#include "app/api_v1/openapi_document.h"

namespace basalt::app::api_v1 {

namespace bh = boost::beast::http;

Result<server::http::Response> ApiV1Service::OpenApi(const Ctx& ctx) {
  return server::http::MakeResponse(ctx.request, HttpStatus::ok, "application/json",
                                    std::string(OpenApiDocument()));
}

server::http::Response ApiV1Service::Fallback(const Ctx& ctx) {
  const std::string& allow = ctx.Param("allow");
  if (allow.empty()) {
    return ApiError(ctx.request, HttpStatus::not_found, "no such endpoint under /api/v1");
  }
  Response res =
      ApiError(ctx.request, HttpStatus::method_not_allowed, "this endpoint allows " + allow);
  res.set(bh::field::allow, allow);
  return res;
}

}  // namespace basalt::app::api_v1
