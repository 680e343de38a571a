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

// 429 rate_limited with Retry-After, rounded up to whole seconds.
server::http::Response RateLimited(const server::http::Request& request, int64_t wait_ms,
                                   const std::string& why) {
  int64_t seconds = std::max<int64_t>((wait_ms + 999) / 1000, 1);
  server::http::Response res = ApiError(request, HttpStatus::too_many_requests,
                                        why + "; try again in " + std::to_string(seconds) + " s");
  res.set(bh::field::retry_after, std::to_string(seconds));
  return res;
}

}  // namespace

std::optional<server::http::Response> ApiV1Service::RefuseExcessAttempt(const Ctx& ctx) {
  const std::string key = ctx.client_address();
  if (int64_t wait_ms = attempt_limiter_.RetryAfterMs(key); wait_ms > 0) {
    return RateLimited(ctx.request, wait_ms, "too many sign-ups and log-ins from this address");
  }
  attempt_limiter_.RecordFailure(key);  // an attempt, whatever its outcome
  return std::nullopt;
}

Result<server::http::Response> ApiV1Service::SignUp(const Ctx& ctx) {
  BASALT_ASSIGN_OR_RETURN(UserAndPassword input, ReadUserAndPassword(ctx));
  if (auto refused = RefuseExcessAttempt(ctx)) return std::move(*refused);
  // One slot for both hashes: the new password's and the log-in's check of it.
  HashSlots::Slot slot = hash_slots_.Take(options_.hash_slot_wait);
  if (!slot) return RateLimited(ctx.request, 1000, "too many sign-ups and log-ins in progress");
  BASALT_RETURN_IF_ERROR(app_.users().Register(input.user, input.password));
  return StartSession(ctx, input.user, input.password, /*created=*/true);
}

Result<server::http::Response> ApiV1Service::LogIn(const Ctx& ctx) {
  BASALT_ASSIGN_OR_RETURN(UserAndPassword input, ReadUserAndPassword(ctx));
  if (auto refused = RefuseExcessAttempt(ctx)) return std::move(*refused);
  HashSlots::Slot slot = hash_slots_.Take(options_.hash_slot_wait);
  if (!slot) return RateLimited(ctx.request, 1000, "too many sign-ups and log-ins in progress");
  return StartSession(ctx, input.user, input.password, /*created=*/false);
}

Result<server::http::Response> ApiV1Service::StartSession(const Ctx& ctx, const std::string& user,
                                                          const std::string& password,
                                                          bool created) {
  // A user name's failures count per address: failures from one address lock the name out
  // from that address only, so nobody can lock a user out everywhere by failing on purpose. A
  // guesser spreading over addresses is still held to the per-address limit at each.
  const std::string address = ctx.client_address();
  const std::string user_key = "user:" + user + "@" + address;
  const std::string address_key = "address:" + address;
  if (!created) {
    int64_t wait_ms =
        std::max(login_limiter_.RetryAfterMs(user_key), login_limiter_.RetryAfterMs(address_key));
    if (wait_ms > 0) return RateLimited(ctx.request, wait_ms, "too many failed log-ins");
  }
  Result<recipes::Session> session = app_.users().LogIn(user, password);
  if (session.status().IsInvalidArgument()) {
    login_limiter_.RecordFailure(user_key);
    login_limiter_.RecordFailure(address_key);
    return ApiError(ctx.request, HttpStatus::unauthorized, recipes::kWrongCredentials);
  }
  BASALT_RETURN_IF_ERROR(session.status());
  json body = {{"user", session->user},
               {"token", session->token},
               {"expires_at_ms", session->expires_at_ms}};
  Response res = JsonResponse(ctx.request, created ? HttpStatus::created : HttpStatus::ok, body);
  res.set(bh::field::set_cookie, SessionCookie(session->token, options_.session_ttl_seconds));
  res.set(bh::field::cache_control, "no-store");
  return res;
}

Result<server::http::Response> ApiV1Service::LogOut(const Ctx& ctx) {
  std::optional<PresentedToken> token = SessionTokenOf(ctx.request);
  if (token) {
    BASALT_RETURN_IF_ERROR(CheckCsrfHeader(ctx.request, *token));
    BASALT_RETURN_IF_ERROR(app_.users().LogOut(token->token));
  }
  Response res = NoContent(ctx.request);
  res.set(bh::field::set_cookie, ClearedSessionCookie());
  return res;
}

Result<server::http::Response> ApiV1Service::Me(const Ctx& ctx, const Caller& caller) {
  return JsonResponse(ctx.request, HttpStatus::ok, json{{"user", caller.user}});
}

}  // namespace basalt::app::api_v1
