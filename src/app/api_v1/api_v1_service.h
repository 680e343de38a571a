// ApiV1Service: the recipes' JSON API /api/v1 (docs/api-v1.md is the contract), on the routes
// of a Router. One file per area holds the handlers: auth_handlers.cc (sign-up, log-in,
// log-out, me), user_handlers.cc (profiles, follow graph), post_handlers.cc (posts, timelines),
// activity_handlers.cc, click_handlers.cc, admin_handlers.cc (stats), openapi_handler.cc.
// One table (Routes(), api_v1_service.cc) lists the routes with their handlers and OpenAPI
// descriptions: RegisterRoutes adds them, and the served OpenAPI document is generated from it
// (openapi_document.h).
//
// Authentication: a session token by bearer or cookie (credentials.h), checked against the
// UserStore on every request; writes authenticated by the cookie need the CSRF header. Every
// write acts as the session's user only. Sign-ups and log-ins are limited per client address
// (attempts, success or not), failed log-ins per user name from one address and per address
// (login_rate_limiter.h), and the password hashes they cost by how many may run at once
// (hash_slots.h). A route that needs a session has a SessionHandler, which runs only for a live
// session.
//
// Errors: handlers return a failure as a Status, which the router answers with ApiError (the
// contract's error body); exceptions are caught there too and answered as a 500.
//
// Thread safety: handlers run on many threads at once.

#ifndef BASALT_APP_API_V1_API_V1_SERVICE_H_
#define BASALT_APP_API_V1_API_V1_SERVICE_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "app/api_v1/app_services.h"
#include "app/api_v1/hash_slots.h"
#include "app/api_v1/login_rate_limiter.h"
#include "app/api_v1/openapi_document.h"
#include "basalt/backup.h"
#include "server/http/metrics.h"
#include "server/http/router.h"
#include "util/mutex.h"

namespace basalt::app::api_v1 {

inline constexpr std::string_view kApiPrefix = "/api/v1";

struct ApiV1Options {
  // Max-Age of the session cookie; should be the UserStore's session TTL.
  int64_t session_ttl_seconds = 7 * 24 * 3600;
  // When not empty, /api/v1/admin/* needs it (credentials.h).
  std::string admin_token;
  // Failed log-ins, counted per user name from one address and per address.
  LoginRateLimiterOptions login_limits;
  // Sign-ups and log-ins per client address, successful or not: each costs a password hash.
  LoginRateLimiterOptions attempt_limits = {.max_failures = 30, .window_ms = 60'000};
  // Password hashes (sign-ups, log-ins) running at once; a request that finds none free within
  // hash_slot_wait gets 429 with Retry-After. Handlers run on the HTTP server's few threads
  // (2 per core, at least 4), so hashes must leave some of them free, and a wait holds one.
  int max_concurrent_password_hashes = 2;
  std::chrono::milliseconds hash_slot_wait{250};
  // Wall clock, ms since the epoch, for the default windows of the click queries. Default
  // (empty): the system clock.
  std::function<int64_t()> now_ms;
  // POST /api/v1/admin/backups takes a backup of the store, GET lists them (docs/operations.md).
  // Both empty: the routes answer 409, backups through the server being off.
  std::function<Result<BackupInfo>()> take_backup;
  std::function<Result<std::vector<BackupInfo>>()> list_backups;
};

class ApiV1Service {
 public:
  // `app` must outlive the service; `metrics` too, and may be null (then admin/stats has no
  // HTTP figures).
  ApiV1Service(AppServices& app, const server::http::Metrics* metrics, ApiV1Options options);

  // Adds every route of the contract and reserves /api/v1 (unknown paths there get the
  // contract's 404 / 405 bodies).
  void RegisterRoutes(server::http::Router* router);

  // The routes RegisterRoutes adds, in that order, each with its OpenAPI description (a route
  // that needs a session documents the session and its 401, and the 403 of a cookie write).
  static std::vector<DescribedRoute> DescribedRoutes();

 private:
  using Ctx = server::http::RequestContext;
  using Response = server::http::Response;

  // A request's authenticated user.
  struct Caller {
    std::string user;
    std::string token;  // a secret: never log it
    bool from_cookie = false;
  };
  // Handlers answer a failure with its Status (ApiError renders it) or, where no Status says it
  // (a 401, a 429, extra headers), with the error response itself.
  using Handler = Result<Response> (ApiV1Service::*)(const Ctx&);
  // A handler of a route that needs a session: it runs only for a live session (else the 401,
  // or the 403 for a cookie write without the CSRF header) and gets the session's user.
  using SessionHandler = Result<Response> (ApiV1Service::*)(const Ctx&, const Caller&);

  // A row of the route table that RegisterRoutes and DescribedRoutes read.
  struct Endpoint {
    server::http::Verb verb;
    std::string_view path;  // below kApiPrefix
    std::variant<Handler, SessionHandler> handler;
  };
  struct Route {
    Endpoint endpoint;
    OpenApiOperation operation;
  };
  static std::vector<Route> Routes();

  // Runs `handler` for the request's session, or answers why there is none.
  Result<Response> WithSession(const Ctx& ctx, SessionHandler handler);
  // The caller when the request has a live session, else nullopt (reads open to everyone).
  std::optional<Caller> OptionalSession(const Ctx& ctx);
  // NotFound naming the user when the account does not exist.
  Status CheckUserExists(const std::string& user);
  int64_t NowMs() const;

  // auth_handlers.cc
  Result<Response> SignUp(const Ctx& ctx);
  Result<Response> LogIn(const Ctx& ctx);
  Result<Response> LogOut(const Ctx& ctx);
  Result<Response> Me(const Ctx& ctx, const Caller& caller);
  // The session for a checked user and password, as the log-in response (200, or 201 for a
  // sign-up) with its cookie; 401 / 429 on failure.
  Result<Response> StartSession(const Ctx& ctx, const std::string& user,
                                const std::string& password, bool created);
  // The 429 for a client address past its sign-up and log-in attempts (counting this one), or
  // nullopt (the attempt is counted).
  std::optional<Response> RefuseExcessAttempt(const Ctx& ctx);

  // user_handlers.cc
  Result<Response> GetUser(const Ctx& ctx);
  Result<Response> PutUser(const Ctx& ctx, const Caller& caller);
  Result<Response> Follow(const Ctx& ctx, const Caller& caller);
  Result<Response> Unfollow(const Ctx& ctx, const Caller& caller);
  Result<Response> Following(const Ctx& ctx);
  Result<Response> Followers(const Ctx& ctx);
  // Following or Followers of the graph.
  using UserLister = Result<recipes::UserPage> (recipes::FollowGraph::*)(std::string_view user,
                                                                         int32_t page_size,
                                                                         std::string_view cursor);
  // The page of users `list` gives for the path's user, after checking the user and the paging
  // parameters.
  Result<Response> UserList(const Ctx& ctx, UserLister list);
  Result<Response> ProfileResponse(const Ctx& ctx, const std::string& user,
                                   const std::optional<Caller>& caller);

  // people_handlers.cc
  Result<Response> SearchUsers(const Ctx& ctx);
  Result<Response> Suggestions(const Ctx& ctx, const Caller& caller);
  // The most followed accounts (at most kPopularKept), read at most every kPopularCacheMs.
  Result<std::vector<std::string>> PopularUsers();
  static constexpr int64_t kPopularCacheMs = 60'000;
  static constexpr size_t kPopularScan = 5000;
  static constexpr size_t kPopularKept = 100;

  // post_handlers.cc
  Result<Response> CreatePost(const Ctx& ctx, const Caller& caller);
  Result<Response> GetPost(const Ctx& ctx);
  Result<Response> DeletePost(const Ctx& ctx, const Caller& caller);
  Result<Response> UserPosts(const Ctx& ctx);
  Result<Response> Timeline(const Ctx& ctx, const Caller& caller);

  // activity_handlers.cc
  Result<Response> RecordActivity(const Ctx& ctx, const Caller& caller);
  Result<Response> UserActivity(const Ctx& ctx, const Caller& caller);

  // click_handlers.cc
  Result<Response> Click(const Ctx& ctx, const Caller& caller);
  Result<Response> ClickCounts(const Ctx& ctx);
  Result<Response> ClickSeries(const Ctx& ctx);
  Result<Response> TopClicks(const Ctx& ctx);
  Result<Response> ClickVisitors(const Ctx& ctx);
  Result<Response> TopClicksApprox(const Ctx& ctx);

  // admin_handlers.cc
  Result<Response> AdminStats(const Ctx& ctx);
  Result<Response> AdminTakeBackup(const Ctx& ctx);
  Result<Response> AdminListBackups(const Ctx& ctx);
  // The 401 answer when the server has an admin token and the request does not carry it.
  std::optional<Response> RefuseWithoutAdminToken(const Ctx& ctx) const;
  // Backups through the server serialised: two at once would share one backup directory.
  std::mutex backup_mu_;

  // openapi_handler.cc
  Result<Response> OpenApi(const Ctx& ctx);
  Response Fallback(const Ctx& ctx);

  AppServices& app_;
  const server::http::Metrics* metrics_;
  ApiV1Options options_;
  LoginRateLimiter login_limiter_;
  LoginRateLimiter attempt_limiter_;
  HashSlots hash_slots_;
  util::Mutex popular_mu_;
  std::vector<std::string> popular_ BASALT_GUARDED_BY(popular_mu_);
  int64_t popular_read_ms_ BASALT_GUARDED_BY(popular_mu_) = 0;  // 0: never read
};

}  // namespace basalt::app::api_v1

#endif  // BASALT_APP_API_V1_API_V1_SERVICE_H_
