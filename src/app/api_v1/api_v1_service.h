// ApiV1Service: the recipes' JSON API /api/v1 (docs/api-v1.md is the contract), on the routes
// of a Router. One file per area holds the handlers: auth_handlers.cc (sign-up, log-in,
// log-out, me), user_handlers.cc (profiles, follow graph), post_handlers.cc (posts, timelines),
// activity_handlers.cc, click_handlers.cc, admin_handlers.cc (stats), openapi_handler.cc.
//
// Authentication: a session token by bearer or cookie (credentials.h), checked against the
// UserStore on every request; writes authenticated by the cookie need the CSRF header. Every
// write acts as the session's user only. Log-ins are rate-limited per user name and per client
// address (login_rate_limiter.h).
//
// Thread safety: handlers run on many threads at once.

#ifndef BASALT_APP_API_V1_API_V1_SERVICE_H_
#define BASALT_APP_API_V1_API_V1_SERVICE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>

#include "app/api_v1/app_services.h"
#include "app/api_v1/login_rate_limiter.h"
#include "server/http/metrics.h"
#include "server/http/router.h"

namespace basalt::app::api_v1 {

inline constexpr std::string_view kApiPrefix = "/api/v1";

struct ApiV1Options {
  // Max-Age of the session cookie; should be the UserStore's session TTL.
  int64_t session_ttl_seconds = 7 * 24 * 3600;
  // When not empty, /api/v1/admin/* needs it (credentials.h).
  std::string admin_token;
  LoginRateLimiterOptions login_limits;
  // Wall clock, ms since the epoch, for the default windows of the click queries. Default
  // (empty): the system clock.
  std::function<int64_t()> now_ms;
};

class ApiV1Service {
 public:
  // `app` must outlive the service; `metrics` too, and may be null (then admin/stats has no
  // HTTP figures).
  ApiV1Service(AppServices& app, const server::http::Metrics* metrics, ApiV1Options options);

  // Adds every route of the contract and reserves /api/v1 (unknown paths there get the
  // contract's 404 / 405 bodies).
  void RegisterRoutes(server::http::Router* router);

 private:
  using Ctx = server::http::RequestContext;
  using Response = server::http::Response;

  // A request's authenticated user.
  struct Caller {
    std::string user;
    std::string token;  // a secret: never log it
    bool from_cookie = false;
  };
  // The caller, or the 401 (no live session) / 403 (cookie write without CSRF header) to send.
  std::variant<Caller, Response> RequireSession(const Ctx& ctx);
  // The caller when the request has a live session, else nullopt (reads open to everyone).
  std::optional<Caller> OptionalSession(const Ctx& ctx);
  int64_t NowMs() const;

  // auth_handlers.cc
  Response SignUp(const Ctx& ctx);
  Response LogIn(const Ctx& ctx);
  Response LogOut(const Ctx& ctx);
  Response Me(const Ctx& ctx);
  // The session for a checked user and password, as the log-in response (200, or 201 for a
  // sign-up) with its cookie; 401 / 429 on failure.
  Response StartSession(const Ctx& ctx, const std::string& user, const std::string& password,
                        bool created);

  // user_handlers.cc
  Response GetUser(const Ctx& ctx);
  Response PutUser(const Ctx& ctx);
  Response Follow(const Ctx& ctx);
  Response Unfollow(const Ctx& ctx);
  Response Following(const Ctx& ctx);
  Response Followers(const Ctx& ctx);
  Response ProfileResponse(const Ctx& ctx, const std::string& user,
                           const std::optional<Caller>& caller);

  // post_handlers.cc
  Response CreatePost(const Ctx& ctx);
  Response GetPost(const Ctx& ctx);
  Response DeletePost(const Ctx& ctx);
  Response UserPosts(const Ctx& ctx);
  Response Timeline(const Ctx& ctx);

  // activity_handlers.cc
  Response RecordActivity(const Ctx& ctx);
  Response UserActivity(const Ctx& ctx);

  // click_handlers.cc
  Response Click(const Ctx& ctx);
  Response ClickCounts(const Ctx& ctx);
  Response ClickSeries(const Ctx& ctx);
  Response TopClicks(const Ctx& ctx);

  // admin_handlers.cc
  Response AdminStats(const Ctx& ctx);

  // openapi_handler.cc
  Response OpenApi(const Ctx& ctx);
  Response Fallback(const Ctx& ctx);

  AppServices& app_;
  const server::http::Metrics* metrics_;
  ApiV1Options options_;
  LoginRateLimiter login_limiter_;
};

}  // namespace basalt::app::api_v1

#endif  // BASALT_APP_API_V1_API_V1_SERVICE_H_
