// /api/v1 profiles and the follow graph (docs/api-v1.md, "Users and the follow graph").

#include "app/api_v1/api_response.h"
#include "app/api_v1/api_v1_service.h"
#include "app/api_v1/validation.h"

namespace basalt::app::api_v1 {

using nlohmann::json;

namespace {

// NotFound naming the user when the account does not exist.
Status CheckUserExists(recipes::UserStore& users, const std::string& user) {
  BASALT_ASSIGN_OR_RETURN(bool exists, users.UserExists(user));
  if (!exists) return Status::NotFound("no user '" + user + "'");
  return Status::OK();
}

}  // namespace

server::http::Response ApiV1Service::ProfileResponse(const Ctx& ctx, const std::string& user,
                                                     const std::optional<Caller>& caller) {
  Result<recipes::Profile> profile = app_.users().GetProfile(user);
  if (!profile.ok()) return ApiError(ctx.request, profile.status());
  Result<int64_t> following = app_.graph().FollowingCount(user);
  if (!following.ok()) return ApiError(ctx.request, following.status());
  Result<int64_t> followers = app_.graph().FollowerCount(user);
  if (!followers.ok()) return ApiError(ctx.request, followers.status());
  bool followed_by_me = false;
  if (caller && caller->user != user) {
    Result<bool> follows = app_.graph().IsFollowing(caller->user, user);
    if (!follows.ok()) return ApiError(ctx.request, follows.status());
    followed_by_me = *follows;
  }
  return JsonResponse(ctx.request, HttpStatus::ok,
                      json{{"user", user},
                           {"display_name", profile->display_name},
                           {"bio", profile->bio},
                           {"following", *following},
                           {"followers", *followers},
                           {"followed_by_me", followed_by_me}});
}

server::http::Response ApiV1Service::GetUser(const Ctx& ctx) {
  Result<std::string> user = UserParam(ctx);
  if (!user.ok()) return ApiError(ctx.request, user.status());
  return ProfileResponse(ctx, *user, OptionalSession(ctx));
}

server::http::Response ApiV1Service::PutUser(const Ctx& ctx) {
  auto session = RequireSession(ctx);
  if (auto* error = std::get_if<Response>(&session)) return std::move(*error);
  const Caller& caller = std::get<Caller>(session);
  Result<std::string> user = UserParam(ctx);
  if (!user.ok()) return ApiError(ctx.request, user.status());
  if (*user != caller.user) {
    return ApiError(ctx.request, HttpStatus::forbidden, "you can only edit your own profile");
  }
  Result<json> body = ParseJsonObject(ctx.request.body());
  if (!body.ok()) return ApiError(ctx.request, body.status());
  Result<std::optional<std::string>> display_name = OptionalStringField(*body, "display_name");
  if (!display_name.ok()) return ApiError(ctx.request, display_name.status());
  Result<std::optional<std::string>> bio = OptionalStringField(*body, "bio");
  if (!bio.ok()) return ApiError(ctx.request, bio.status());
  Result<recipes::Profile> profile = app_.users().GetProfile(*user);
  if (!profile.ok()) return ApiError(ctx.request, profile.status());
  // A field left out keeps its value.
  if (*display_name) profile->display_name = std::move(**display_name);
  if (*bio) profile->bio = std::move(**bio);
  Status s = app_.users().UpdateProfile(*user, *profile);
  if (!s.ok()) return ApiError(ctx.request, s);
  return ProfileResponse(ctx, *user, caller);
}

server::http::Response ApiV1Service::Follow(const Ctx& ctx) {
  auto session = RequireSession(ctx);
  if (auto* error = std::get_if<Response>(&session)) return std::move(*error);
  const Caller& caller = std::get<Caller>(session);
  Result<std::string> user = UserParam(ctx);
  if (!user.ok()) return ApiError(ctx.request, user.status());
  Status s = app_.feed().Follow(caller.user, *user);
  if (!s.ok()) return ApiError(ctx.request, s);
  return NoContent(ctx.request);
}

server::http::Response ApiV1Service::Unfollow(const Ctx& ctx) {
  auto session = RequireSession(ctx);
  if (auto* error = std::get_if<Response>(&session)) return std::move(*error);
  const Caller& caller = std::get<Caller>(session);
  Result<std::string> user = UserParam(ctx);
  if (!user.ok()) return ApiError(ctx.request, user.status());
  Status s = CheckUserExists(app_.users(), *user);
  if (s.ok()) s = app_.feed().Unfollow(caller.user, *user);
  if (!s.ok()) return ApiError(ctx.request, s);
  return NoContent(ctx.request);
}

namespace {

// A page of user names, after checking the user and the paging parameters.
template <typename ListFn>
server::http::Response UserList(const server::http::RequestContext& ctx, recipes::UserStore& users,
                                ListFn list) {
  Result<std::string> user = UserParam(ctx);
  if (!user.ok()) return ApiError(ctx.request, user.status());
  Result<int32_t> limit = PageLimit(ctx);
  if (!limit.ok()) return ApiError(ctx.request, limit.status());
  Result<std::string> cursor = PageCursor(ctx);
  if (!cursor.ok()) return ApiError(ctx.request, cursor.status());
  Status exists = CheckUserExists(users, *user);
  if (!exists.ok()) return ApiError(ctx.request, exists);
  Result<recipes::UserPage> page = list(*user, *limit, *cursor);
  if (!page.ok()) return ApiError(ctx.request, page.status());
  return JsonResponse(ctx.request, HttpStatus::ok,
                      json{{"items", page->users}, {"next_cursor", EncodeCursor(page->cursor)}});
}

}  // namespace

server::http::Response ApiV1Service::Following(const Ctx& ctx) {
  return UserList(ctx, app_.users(),
                  [this](const std::string& user, int32_t limit, const std::string& cursor) {
                    return app_.graph().Following(user, limit, cursor);
                  });
}

server::http::Response ApiV1Service::Followers(const Ctx& ctx) {
  return UserList(ctx, app_.users(),
                  [this](const std::string& user, int32_t limit, const std::string& cursor) {
                    return app_.graph().Followers(user, limit, cursor);
                  });
}

}  // namespace basalt::app::api_v1
