// /api/v1 profiles and the follow graph (docs/api-v1.md, "Users and the follow graph").

#include "app/api_v1/api_response.h"
#include "app/api_v1/api_v1_service.h"
#include "app/api_v1/validation.h"

namespace basalt::app::api_v1 {

using nlohmann::json;

Result<server::http::Response> ApiV1Service::ProfileResponse(const Ctx& ctx,
                                                             const std::string& user,
                                                             const std::optional<Caller>& caller) {
  BASALT_ASSIGN_OR_RETURN(recipes::Profile profile, app_.users().GetProfile(user));
  BASALT_ASSIGN_OR_RETURN(int64_t following, app_.graph().FollowingCount(user));
  BASALT_ASSIGN_OR_RETURN(int64_t followers, app_.graph().FollowerCount(user));
  bool followed_by_me = false;
  if (caller && caller->user != user) {
    BASALT_ASSIGN_OR_RETURN(followed_by_me, app_.graph().IsFollowing(caller->user, user));
  }
  return JsonResponse(ctx.request, HttpStatus::ok,
                      json{{"user", user},
                           {"display_name", profile.display_name},
                           {"bio", profile.bio},
                           {"following", following},
                           {"followers", followers},
                           {"followed_by_me", followed_by_me}});
}

Result<server::http::Response> ApiV1Service::GetUser(const Ctx& ctx) {
  BASALT_ASSIGN_OR_RETURN(std::string user, UserParam(ctx));
  return ProfileResponse(ctx, user, OptionalSession(ctx));
}

Result<server::http::Response> ApiV1Service::PutUser(const Ctx& ctx, const Caller& caller) {
  BASALT_ASSIGN_OR_RETURN(std::string user, UserParam(ctx));
  if (user != caller.user) return Status::FailedPrecondition("you can only edit your own profile");
  BASALT_ASSIGN_OR_RETURN(json body, ParseJsonObject(ctx.request.body()));
  BASALT_ASSIGN_OR_RETURN(std::optional<std::string> display_name,
                          OptionalStringField(body, "display_name"));
  BASALT_ASSIGN_OR_RETURN(std::optional<std::string> bio, OptionalStringField(body, "bio"));
  BASALT_ASSIGN_OR_RETURN(recipes::Profile profile, app_.users().GetProfile(user));
  // A field left out keeps its value.
  if (display_name) profile.display_name = std::move(*display_name);
  if (bio) profile.bio = std::move(*bio);
  BASALT_RETURN_IF_ERROR(app_.users().UpdateProfile(user, profile));
  return ProfileResponse(ctx, user, caller);
}

Result<server::http::Response> ApiV1Service::Follow(const Ctx& ctx, const Caller& caller) {
  BASALT_ASSIGN_OR_RETURN(std::string user, UserParam(ctx));
  BASALT_RETURN_IF_ERROR(app_.feed().Follow(caller.user, user));
  return NoContent(ctx.request);
}

Result<server::http::Response> ApiV1Service::Unfollow(const Ctx& ctx, const Caller& caller) {
  BASALT_ASSIGN_OR_RETURN(std::string user, UserParam(ctx));
  BASALT_RETURN_IF_ERROR(CheckUserExists(user));
  BASALT_RETURN_IF_ERROR(app_.feed().Unfollow(caller.user, user));
  return NoContent(ctx.request);
}

Result<server::http::Response> ApiV1Service::UserList(const Ctx& ctx, UserLister list) {
  BASALT_ASSIGN_OR_RETURN(std::string user, UserParam(ctx));
  BASALT_ASSIGN_OR_RETURN(int32_t limit, PageLimit(ctx));
  BASALT_ASSIGN_OR_RETURN(std::string cursor, PageCursor(ctx));
  BASALT_RETURN_IF_ERROR(CheckUserExists(user));
  BASALT_ASSIGN_OR_RETURN(recipes::UserPage page, (app_.graph().*list)(user, limit, cursor));
  return JsonResponse(ctx.request, HttpStatus::ok,
                      json{{"items", page.users}, {"next_cursor", EncodeCursor(page.cursor)}});
}

Result<server::http::Response> ApiV1Service::Following(const Ctx& ctx) {
  return UserList(ctx, &recipes::FollowGraph::Following);
}

Result<server::http::Response> ApiV1Service::Followers(const Ctx& ctx) {
  return UserList(ctx, &recipes::FollowGraph::Followers);
}

}  // namespace basalt::app::api_v1
