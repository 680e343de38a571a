// /api/v1 sign-up, log-in, log-out and me (docs/api-v1.md, "Authentication").

#include <algorithm>

#include "app/api_v1/api_response.h"
#include "app/api_v1/api_v1_service.h"
#include "app/api_v1/cookies.h"
#include "app/api_v1/credentials.h"
#include "app/api_v1/validation.h"
#include "basalt/recipes/users.h"

namespace basalt::app::api_v1 {

namespace bh = boost::beast::http;
using nlohmann::json;

namespace {

struct UserAndPassword {
  std::string user;
  std::string password;
};

Result<UserAndPassword> ReadUserAndPassword(const server::http::RequestContext& ctx) {
  BASALT_ASSIGN_OR_RETURN(json body, ParseJsonObject(ctx.request.body()));
  UserAndPassword out;
  BASALT_ASSIGN_OR_RETURN(out.user, StringField(body, "user"));
  BASALT_ASSIGN_OR_RETURN(out.password, StringField(body, "password"));
  return out;
}

}  // namespace

server::http::Response ApiV1Service::SignUp(const Ctx& ctx) {
  Result<UserAndPassword> input = ReadUserAndPassword(ctx);
  if (!input.ok()) return ApiError(ctx.request, input.status());
  Status registered = app_.users().Register(input->user, input->password);
  if (!registered.ok()) return ApiError(ctx.request, registered);
  return StartSession(ctx, input->user, input->password, /*created=*/true);
}

server::http::Response ApiV1Service::LogIn(const Ctx& ctx) {
  Result<UserAndPassword> input = ReadUserAndPassword(ctx);
  if (!input.ok()) return ApiError(ctx.request, input.status());
  return StartSession(ctx, input->user, input->password, /*created=*/false);
}

server::http::Response ApiV1Service::StartSession(const Ctx& ctx, const std::string& user,
                                                  const std::string& password, bool created) {
  const std::string user_key = "user:" + user;
  const std::string address_key = "address:" + ClientAddress(ctx.remote);
  if (!created) {
    int64_t wait_ms =
        std::max(login_limiter_.RetryAfterMs(user_key), login_limiter_.RetryAfterMs(address_key));
    if (wait_ms > 0) {
      int64_t seconds = (wait_ms + 999) / 1000;
      Response res =
          ApiError(ctx.request, HttpStatus::too_many_requests,
                   "too many failed log-ins; try again in " + std::to_string(seconds) + " s");
      res.set(bh::field::retry_after, std::to_string(seconds));
      return res;
    }
  }
  Result<recipes::Session> session = app_.users().LogIn(user, password);
  if (!session.ok()) {
    if (session.status().code() != Status::Code::kInvalidArgument) {
      return ApiError(ctx.request, session.status());
    }
    login_limiter_.RecordFailure(user_key);
    login_limiter_.RecordFailure(address_key);
    return ApiError(ctx.request, HttpStatus::unauthorized, recipes::kWrongCredentials);
  }
  json body = {{"user", session->user},
               {"token", session->token},
               {"expires_at_ms", session->expires_at_ms}};
  Response res = JsonResponse(ctx.request, created ? HttpStatus::created : HttpStatus::ok, body);
  res.set(bh::field::set_cookie, SessionCookie(session->token, options_.session_ttl_seconds));
  res.set(bh::field::cache_control, "no-store");
  return res;
}

server::http::Response ApiV1Service::LogOut(const Ctx& ctx) {
  std::optional<PresentedToken> token = SessionTokenOf(ctx.request);
  if (token) {
    if (NeedsCsrfHeader(ctx.request, *token) && !HasCsrfHeader(ctx.request)) {
      return ApiError(ctx.request, HttpStatus::forbidden,
                      "a write authenticated by the session cookie needs the header "
                      "'X-Basalt-CSRF: 1'");
    }
    Status s = app_.users().LogOut(token->token);
    if (!s.ok()) return ApiError(ctx.request, s);
  }
  Response res = NoContent(ctx.request);
  res.set(bh::field::set_cookie, ClearedSessionCookie());
  return res;
}

server::http::Response ApiV1Service::Me(const Ctx& ctx) {
  auto caller = RequireSession(ctx);
  if (auto* error = std::get_if<Response>(&caller)) return std::move(*error);
  return JsonResponse(ctx.request, HttpStatus::ok, json{{"user", std::get<Caller>(caller).user}});
}

}  // namespace basalt::app::api_v1
