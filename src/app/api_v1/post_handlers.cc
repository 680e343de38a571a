// /api/v1 posts and timelines (docs/api-v1.md, "Posts and timelines").

#include "app/api_v1/api_response.h"
#include "app/api_v1/api_v1_service.h"
#include "app/api_v1/validation.h"
#include "basalt/base64.h"

namespace basalt::app::api_v1 {

using nlohmann::json;

namespace {

json PostJson(const recipes::PostView& post) {
  return json{{"id", Base64UrlEncode(post.id)},
              {"author", post.author},
              {"timestamp_ms", post.timestamp_ms},
              {"text", post.text}};
}

server::http::Response PostPageResponse(const server::http::RequestContext& ctx,
                                        const recipes::PostPage& page) {
  json items = json::array();
  for (const recipes::PostView& post : page.posts) items.push_back(PostJson(post));
  return JsonResponse(
      ctx.request, HttpStatus::ok,
      json{{"items", std::move(items)}, {"next_cursor", EncodeCursor(page.cursor)}});
}

}  // namespace

Result<server::http::Response> ApiV1Service::CreatePost(const Ctx& ctx, const Caller& caller) {
  BASALT_ASSIGN_OR_RETURN(json body, ParseJsonObject(ctx.request.body()));
  BASALT_ASSIGN_OR_RETURN(std::string text, StringField(body, "text"));
  BASALT_RETURN_IF_ERROR(ValidatePostText(text));
  BASALT_ASSIGN_OR_RETURN(std::string id, app_.feed().Post(caller.user, text));
  BASALT_ASSIGN_OR_RETURN(recipes::PostView post, app_.feed().GetPost(id));
  return JsonResponse(ctx.request, HttpStatus::created, PostJson(post));
}

Result<server::http::Response> ApiV1Service::GetPost(const Ctx& ctx) {
  BASALT_ASSIGN_OR_RETURN(std::string id, DecodePostId(ctx.Param("id")));
  BASALT_ASSIGN_OR_RETURN(recipes::PostView post, app_.feed().GetPost(id));
  return JsonResponse(ctx.request, HttpStatus::ok, PostJson(post));
}

Result<server::http::Response> ApiV1Service::DeletePost(const Ctx& ctx, const Caller& caller) {
  BASALT_ASSIGN_OR_RETURN(std::string id, DecodePostId(ctx.Param("id")));
  Status s = app_.feed().DeletePost(caller.user, id);
  if (s.IsFailedPrecondition()) {
    return Status::FailedPrecondition("only the author may delete a post");
  }
  BASALT_RETURN_IF_ERROR(s);
  return NoContent(ctx.request);
}

Result<server::http::Response> ApiV1Service::UserPosts(const Ctx& ctx) {
  BASALT_ASSIGN_OR_RETURN(std::string user, UserParam(ctx));
  BASALT_ASSIGN_OR_RETURN(int32_t limit, PageLimit(ctx));
  BASALT_ASSIGN_OR_RETURN(std::string cursor, PageCursor(ctx));
  BASALT_RETURN_IF_ERROR(CheckUserExists(user));
  BASALT_ASSIGN_OR_RETURN(recipes::PostPage page, app_.feed().UserTimeline(user, limit, cursor));
  return PostPageResponse(ctx, page);
}

Result<server::http::Response> ApiV1Service::Timeline(const Ctx& ctx, const Caller& caller) {
  BASALT_ASSIGN_OR_RETURN(int32_t limit, PageLimit(ctx));
  BASALT_ASSIGN_OR_RETURN(std::string cursor, PageCursor(ctx));
  BASALT_ASSIGN_OR_RETURN(recipes::PostPage page,
                          app_.feed().HomeTimeline(caller.user, limit, cursor));
  return PostPageResponse(ctx, page);
}

}  // namespace basalt::app::api_v1
