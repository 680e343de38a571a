#include "app/api_v1/api_v1_service.h"

#include <algorithm>
#include <chrono>
#include <exception>

#include "app/api_v1/api_response.h"
#include "app/api_v1/credentials.h"
#include "app/api_v1/validation.h"

namespace basalt::app::api_v1 {

using server::http::Verb;

ApiV1Service::ApiV1Service(AppServices& app, const server::http::Metrics* metrics,
                           ApiV1Options options)
    : app_(app),
      metrics_(metrics),
      options_(std::move(options)),
      login_limiter_(options_.login_limits),
      attempt_limiter_(options_.attempt_limits),
      hash_slots_(std::max(options_.max_concurrent_password_hashes, 1)) {}

// The contract's routes, in the order of docs/api-v1.md's sections, each with what its OpenAPI
// description says beyond its path and handler (openapi_document.h).
std::vector<ApiV1Service::Route> ApiV1Service::Routes() {
  const OpenApiReply done = {204, "done"};
  const OpenApiReply profile = {200, "profile", SchemaRef("Profile")};
  const OpenApiReply post = {200, "the post", SchemaRef("Post")};
  const OpenApiReply names = {200, "a page of names", PageOf(StringSchema())};
  const OpenApiReply posts = {200, "a page of posts", PageOf(SchemaRef("Post"))};
  return {
      {{Verb::post, "/signup", &ApiV1Service::SignUp},
       {.summary = "Create an account and log in",
        .body = SchemaRef("Credentials"),
        .reply = {201, "created and logged in", SchemaRef("Session")},
        .errors = {400, 409}}},
      {{Verb::post, "/login", &ApiV1Service::LogIn},
       {.summary = "Log in: sets the basalt_session cookie",
        .body = SchemaRef("Credentials"),
        .reply = {200, "logged in", SchemaRef("Session")},
        .errors = {400, 401, 429}}},
      // Not a SessionHandler: without a live session it still clears the cookie (204).
      {{Verb::post, "/logout", &ApiV1Service::LogOut},
       {.summary = "Revoke the session and clear the cookie",
        .security = OpenApiSecurity::kSession,
        .reply = done,
        .errors = {403}}},
      {{Verb::get, "/me", &ApiV1Service::Me},
       {.summary = "The session's user",
        .reply = {200, "the user", ObjectOf({{"user", StringSchema()}})}}},

      {{Verb::get, "/users", &ApiV1Service::SearchUsers},
       {.summary = "Accounts whose name starts with ?prefix, in name order (all when empty)",
        .paged = true,
        .query = {StringQueryParameter("prefix", "the start of the names sought (any case)")},
        .reply = names,
        .errors = {400}}},
      {{Verb::get, "/suggestions", &ApiV1Service::Suggestions},
       {.summary = "Whom the session's user might follow: people followed by people they follow "
                   "(most shared first), then the most followed accounts",
        .security = OpenApiSecurity::kSession,
        .query = {IntQueryParameter("limit", 1, kMaxPageLimit, kDefaultPageLimit)},
        .reply = {200, "suggestions",
                  ObjectOf({{"items",
                             ArrayOf(ObjectOf({{"user", StringSchema()},
                                               {"followed_by_followees", IntegerSchema()}}))}})},
        .errors = {400}}},
      {{Verb::get, "/users/{user}", &ApiV1Service::GetUser},
       {.summary = "A profile with follow counts", .reply = profile, .errors = {400, 404}}},
      {{Verb::put, "/users/{user}", &ApiV1Service::PutUser},
       {.summary = "Edit one's own profile",
        .body = ObjectOf({{"display_name", StringSchema()}, {"bio", StringSchema()}}),
        .reply = profile,
        .errors = {400, 404}}},
      {{Verb::post, "/users/{user}/follow", &ApiV1Service::Follow},
       {.summary = "The session's user follows {user}", .reply = done, .errors = {400, 404}}},
      {{Verb::delete_, "/users/{user}/follow", &ApiV1Service::Unfollow},
       {.summary = "The session's user unfollows {user}", .reply = done, .errors = {400, 404}}},
      {{Verb::get, "/users/{user}/following", &ApiV1Service::Following},
       {.summary = "Users {user} follows", .paged = true, .reply = names, .errors = {400, 404}}},
      {{Verb::get, "/users/{user}/followers", &ApiV1Service::Followers},
       {.summary = "Users following {user}", .paged = true, .reply = names, .errors = {400, 404}}},

      {{Verb::post, "/posts", &ApiV1Service::CreatePost},
       {.summary = "Post as the session's user",
        .body = ObjectOf(
            {{"text",
              {{"type", "string"},
               {"minLength", 1},
               {"maxLength", kMaxPostChars},
               {"pattern", "[^\\s\\u0085]"},
               {"description", "1.." + std::to_string(kMaxPostChars) +
                                   " characters (Unicode code points; maxLength counts them), not "
                                   "only white space; at most " +
                                   std::to_string(kMaxPostBytes) +
                                   " bytes of UTF-8, which that many characters never exceed"}}}},
            {"text"}),
        .reply = {201, "the post", SchemaRef("Post")},
        .errors = {400}}},
      {{Verb::get, "/posts/{id}", &ApiV1Service::GetPost},
       {.summary = "A post", .reply = post, .errors = {400, 404}}},
      {{Verb::delete_, "/posts/{id}", &ApiV1Service::DeletePost},
       {.summary = "Delete one's own post", .reply = done, .errors = {400, 404}}},
      {{Verb::get, "/users/{user}/posts", &ApiV1Service::UserPosts},
       {.summary = "{user}'s posts, newest first",
        .paged = true,
        .reply = posts,
        .errors = {400, 404}}},
      {{Verb::get, "/timeline", &ApiV1Service::Timeline},
       {.summary = "The session user's home timeline, newest first",
        .paged = true,
        .reply = posts,
        .errors = {400}}},

      {{Verb::post, "/activity", &ApiV1Service::RecordActivity},
       {.summary = "Record an event for the session's user",
        .body = ObjectOf({{"name", StringSchema()}, {"payload", StringSchema()}}, {"name"}),
        .reply = {201, "the event", SchemaRef("Event")},
        .errors = {400}}},
      {{Verb::get, "/users/{user}/activity", &ApiV1Service::UserActivity},
       {.summary = "One's own events, newest first",
        .paged = true,
        .reply = {200, "a page of events", PageOf(SchemaRef("Event"))},
        .errors = {400, 403}}},

      {{Verb::post, "/clicks/{item}", &ApiV1Service::Click},
       {.summary = "Count clicks of {item}",
        .body = ObjectOf({{"n", {{"type", "integer"}, {"minimum", 1}, {"default", 1}}}}),
        .body_required = false,
        .reply = done,
        .errors = {400}}},
      {{Verb::get, "/clicks/{item}", &ApiV1Service::ClickCounts},
       {.summary = "Counts of {item}",
        .windowed = true,
        .reply = {200, "counts", SchemaRef("ClickCounts")},
        .errors = {400}}},
      {{Verb::get, "/clicks/{item}/series", &ApiV1Service::ClickSeries},
       {.summary =
            "Clicks of {item} per step (at most " + std::to_string(kMaxSeriesPoints) + " points)",
        .windowed = true,
        .query = {IntQueryParameter("step_ms", recipes::ClickCounters::kMinuteMs, std::nullopt,
                                    recipes::ClickCounters::kMinuteMs)},
        .reply = {200, "series",
                  ObjectOf({{"item", StringSchema()},
                            {"points", ArrayOf(ObjectOf({{"t_ms", Int64Schema()},
                                                         {"count", Int64Schema()}}))}})},
        .errors = {400}}},
      {{Verb::get, "/clicks/top", &ApiV1Service::TopClicks},
       {.summary = "The most clicked items in a window",
        .windowed = true,
        .query = {IntQueryParameter("k", 1, kMaxPageLimit, kDefaultTopItems)},
        .reply = {200, "top items",
                  ObjectOf({{"items", ArrayOf(ObjectOf({{"item", StringSchema()},
                                                        {"count", Int64Schema()}}))}})},
        .errors = {400}}},
      {{Verb::get, "/clicks/{item}/visitors", &ApiV1Service::ClickVisitors},
       {.summary = "Distinct visitors of {item} in the hours a window overlaps (HyperLogLog; "
                   "window at most " +
                   std::to_string(kMaxSketchWindowMs / 3600000) + " hours)",
        .windowed = true,
        .reply = {200, "an estimate", SchemaRef("ClickVisitors")},
        .errors = {400}}},
      {{Verb::get, "/clicks/top/approx", &ApiV1Service::TopClicksApprox},
       {.summary = "The most clicked items in the hours a window overlaps, from hourly Count-Min "
                   "sketches (window at most " +
                   std::to_string(kMaxSketchWindowMs / 3600000) + " hours)",
        .windowed = true,
        .query = {IntQueryParameter("k", 1, kMaxPageLimit, kDefaultTopItems)},
        .reply = {200, "estimated top items", SchemaRef("HeavyHitters")},
        .errors = {400}}},

      {{Verb::get, "/admin/stats", &ApiV1Service::AdminStats},
       {.summary = "The server's figures (fan-out queue, HTTP) as JSON",
        .security = OpenApiSecurity::kAdmin,
        .reply = {200, "figures", {{"type", "object"}}},
        .errors = {401}}},
      {{Verb::post, "/admin/backups", &ApiV1Service::AdminTakeBackup},
       {.summary = "Takes a backup of the whole store, online, into the server's backup "
                   "directory (serve --backup-dir); incremental after the first",
        .security = OpenApiSecurity::kAdmin,
        .reply = {201, "the backup", SchemaRef("Backup")},
        .errors = {401, 409}}},
      {{Verb::get, "/admin/backups", &ApiV1Service::AdminListBackups},
       {.summary = "The backups in the server's backup directory, oldest first",
        .security = OpenApiSecurity::kAdmin,
        .reply = {200, "the backups", ObjectOf({{"backups", ArrayOf(SchemaRef("Backup"))}})},
        .errors = {401, 409}}},
      {{Verb::get, "/openapi.json", &ApiV1Service::OpenApi},
       {.summary = "This document", .reply = {200, "OpenAPI 3.0", {{"type", "object"}}}}},
  };
}

void ApiV1Service::RegisterRoutes(server::http::Router* router) {
  for (const Route& route : Routes()) {
    const Endpoint& at = route.endpoint;
    router->Add(
        at.verb, std::string(kApiPrefix) + std::string(at.path),
        [this, handler = at.handler](const Ctx& ctx) -> Result<Response> {
          try {
            if (const SessionHandler* needs_session = std::get_if<SessionHandler>(&handler)) {
              return WithSession(ctx, *needs_session);
            }
            return (this->*std::get<Handler>(handler))(ctx);
          } catch (const std::exception&) {
            // Handlers report errors as values; an exception is a bug, answered in the
            // contract's shape without its text (which may name internals).
            return Status::Internal("a handler threw");
          }
        },
        [](const Request& request, const Status& status) { return ApiError(request, status); });
  }
  router->AddNamespace(std::string(kApiPrefix), [this](const Ctx& ctx) { return Fallback(ctx); });
}

std::vector<DescribedRoute> ApiV1Service::DescribedRoutes() {
  std::vector<DescribedRoute> out;
  for (Route& route : Routes()) {
    const Endpoint& at = route.endpoint;
    OpenApiOperation& op = route.operation;
    if (std::holds_alternative<SessionHandler>(at.handler)) {
      // WithSession's answers (NeedsCsrfHeader: only a write needs the CSRF header).
      op.security = OpenApiSecurity::kSession;
      op.errors.push_back(401);
      if (at.verb != Verb::get) op.errors.push_back(403);
    }
    out.push_back({at.verb, std::string(kApiPrefix) + std::string(at.path), std::move(op)});
  }
  return out;
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
