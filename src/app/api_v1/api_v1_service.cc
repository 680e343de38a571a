#include "app/api_v1/api_v1_service.h"

#include <chrono>
#include <exception>
#include <type_traits>

#include "app/api_v1/api_response.h"
#include "app/api_v1/credentials.h"

namespace basalt::app::api_v1 {

using server::http::Verb;

ApiV1Service::ApiV1Service(AppServices& app, const server::http::Metrics* metrics,
                           ApiV1Options options)
    : app_(app),
      metrics_(metrics),
      options_(std::move(options)),
      login_limiter_(options_.login_limits) {}

void ApiV1Service::RegisterRoutes(server::http::Router* router) {
  auto add = [&](Verb verb, const std::string& path, auto handler) {
    router->Add(
        verb, std::string(kApiPrefix) + path,
        [this, handler](const Ctx& ctx) -> Result<Response> {
          try {
            if constexpr (std::is_same_v<decltype(handler), SessionHandler>) {
              return WithSession(ctx, handler);
            } else {
              return (this->*handler)(ctx);
            }
          } catch (const std::exception&) {
            // Handlers report errors as values; an exception is a bug, answered in the
            // contract's shape without its text (which may name internals).
            return Status::Internal("a handler threw");
          }
        },
        [](const Request& request, const Status& status) { return ApiError(request, status); });
  };
  add(Verb::post, "/signup", &ApiV1Service::SignUp);
  add(Verb::post, "/login", &ApiV1Service::LogIn);
  add(Verb::post, "/logout", &ApiV1Service::LogOut);
  add(Verb::get, "/me", &ApiV1Service::Me);

  add(Verb::get, "/users/{user}", &ApiV1Service::GetUser);
  add(Verb::put, "/users/{user}", &ApiV1Service::PutUser);
  add(Verb::post, "/users/{user}/follow", &ApiV1Service::Follow);
  add(Verb::delete_, "/users/{user}/follow", &ApiV1Service::Unfollow);
  add(Verb::get, "/users/{user}/following", &ApiV1Service::Following);
  add(Verb::get, "/users/{user}/followers", &ApiV1Service::Followers);

  add(Verb::post, "/posts", &ApiV1Service::CreatePost);
  add(Verb::get, "/posts/{id}", &ApiV1Service::GetPost);
  add(Verb::delete_, "/posts/{id}", &ApiV1Service::DeletePost);
  add(Verb::get, "/users/{user}/posts", &ApiV1Service::UserPosts);
  add(Verb::get, "/timeline", &ApiV1Service::Timeline);

  add(Verb::post, "/activity", &ApiV1Service::RecordActivity);
  add(Verb::get, "/users/{user}/activity", &ApiV1Service::UserActivity);

  add(Verb::post, "/clicks/{item}", &ApiV1Service::Click);
  add(Verb::get, "/clicks/{item}", &ApiV1Service::ClickCounts);
  add(Verb::get, "/clicks/{item}/series", &ApiV1Service::ClickSeries);
  add(Verb::get, "/clicks/top", &ApiV1Service::TopClicks);

  add(Verb::get, "/admin/stats", &ApiV1Service::AdminStats);
  add(Verb::get, "/openapi.json", &ApiV1Service::OpenApi);

  router->AddNamespace(std::string(kApiPrefix), [this](const Ctx& ctx) { return Fallback(ctx); });
}

Result<server::http::Response> ApiV1Service::WithSession(const Ctx& ctx, SessionHandler handler) {
  // No Status maps to 401 in ApiError: those two answers are responses.
  std::optional<PresentedToken> token = SessionTokenOf(ctx.request);
  if (!token) {
    return ApiError(ctx.request, HttpStatus::unauthorized,
                    "log in first: this needs a session (cookie or bearer token)");
  }
  // CSRF before the session check, so a forged request learns nothing about the session.
  BASALT_RETURN_IF_ERROR(CheckCsrfHeader(ctx.request, *token));
  Result<std::string> user = app_.users().ValidateSession(token->token);
  if (user.status().IsNotFound()) {
    return ApiError(ctx.request, HttpStatus::unauthorized,
                    "the session is unknown, logged out or expired; log in again");
  }
  BASALT_RETURN_IF_ERROR(user.status());
  return (this->*handler)(ctx,
                          Caller{std::move(*user), std::move(token->token), token->from_cookie});
}

std::optional<ApiV1Service::Caller> ApiV1Service::OptionalSession(const Ctx& ctx) {
  std::optional<PresentedToken> token = SessionTokenOf(ctx.request);
  if (!token) return std::nullopt;
  Result<std::string> user = app_.users().ValidateSession(token->token);
  if (!user.ok()) return std::nullopt;
  return Caller{std::move(*user), std::move(token->token), token->from_cookie};
}

Status ApiV1Service::CheckUserExists(const std::string& user) {
  BASALT_ASSIGN_OR_RETURN(bool exists, app_.users().UserExists(user));
  if (!exists) return Status::NotFound("no user '" + user + "'");
  return Status::OK();
}

int64_t ApiV1Service::NowMs() const {
  if (options_.now_ms) return options_.now_ms();
  return SystemWallMillis();
}

}  // namespace basalt::app::api_v1
