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
                                        const Result<recipes::PostPage>& page) {
  if (!page.ok()) return ApiError(ctx.request, page.status());
  json items = json::array();
  for (const recipes::PostView& post : page->posts) items.push_back(PostJson(post));
  return JsonResponse(
      ctx.request, HttpStatus::ok,
      json{{"items", std::move(items)}, {"next_cursor", EncodeCursor(page->cursor)}});
}

}  // namespace

server::http::Response ApiV1Service::CreatePost(const Ctx& ctx) {
  auto session = RequireSession(ctx);
  if (auto* error = std::get_if<Response>(&session)) return std::move(*error);
  const Caller& caller = std::get<Caller>(session);
  Result<json> body = ParseJsonObject(ctx.request.body());
  if (!body.ok()) return ApiError(ctx.request, body.status());
  Result<std::string> text = StringField(*body, "text");
  if (!text.ok()) return ApiError(ctx.request, text.status());
  size_t max_bytes = app_.feed().options().max_text_bytes;
  if (text->empty() || text->size() > max_bytes || !IsValidUtf8(*text)) {
    return ApiError(ctx.request, HttpStatus::bad_request,
                    "field 'text' must be 1.." + std::to_string(max_bytes) + " bytes of UTF-8");
  }
  Result<std::string> id = app_.feed().Post(caller.user, *text);
  if (!id.ok()) return ApiError(ctx.request, id.status());
  Result<recipes::PostView> post = app_.feed().GetPost(*id);
  if (!post.ok()) return ApiError(ctx.request, post.status());
  return JsonResponse(ctx.request, HttpStatus::created, PostJson(*post));
}

server::http::Response ApiV1Service::GetPost(const Ctx& ctx) {
  Result<std::string> id = DecodePostId(ctx.Param("id"));
  if (!id.ok()) return ApiError(ctx.request, id.status());
  Result<recipes::PostView> post = app_.feed().GetPost(*id);
  if (!post.ok()) return ApiError(ctx.request, post.status());
  return JsonResponse(ctx.request, HttpStatus::ok, PostJson(*post));
}

server::http::Response ApiV1Service::DeletePost(const Ctx& ctx) {
  auto session = RequireSession(ctx);
  if (auto* error = std::get_if<Response>(&session)) return std::move(*error);
  const Caller& caller = std::get<Caller>(session);
  Result<std::string> id = DecodePostId(ctx.Param("id"));
  if (!id.ok()) return ApiError(ctx.request, id.status());
  Status s = app_.feed().DeletePost(caller.user, *id);
  if (s.code() == Status::Code::kFailedPrecondition) {
    return ApiError(ctx.request, HttpStatus::forbidden, "only the author may delete a post");
  }
  if (!s.ok()) return ApiError(ctx.request, s);
  return NoContent(ctx.request);
}

server::http::Response ApiV1Service::UserPosts(const Ctx& ctx) {
  Result<std::string> user = UserParam(ctx);
  if (!user.ok()) return ApiError(ctx.request, user.status());
  Result<int32_t> limit = PageLimit(ctx);
  if (!limit.ok()) return ApiError(ctx.request, limit.status());
  Result<std::string> cursor = PageCursor(ctx);
  if (!cursor.ok()) return ApiError(ctx.request, cursor.status());
  Result<bool> exists = app_.users().UserExists(*user);
  if (!exists.ok()) return ApiError(ctx.request, exists.status());
  if (!*exists) return ApiError(ctx.request, HttpStatus::not_found, "no user '" + *user + "'");
  return PostPageResponse(ctx, app_.feed().UserTimeline(*user, *limit, *cursor));
}

server::http::Response ApiV1Service::Timeline(const Ctx& ctx) {
  auto session = RequireSession(ctx);
  if (auto* error = std::get_if<Response>(&session)) return std::move(*error);
  const Caller& caller = std::get<Caller>(session);
  Result<int32_t> limit = PageLimit(ctx);
  if (!limit.ok()) return ApiError(ctx.request, limit.status());
  Result<std::string> cursor = PageCursor(ctx);
  if (!cursor.ok()) return ApiError(ctx.request, cursor.status());
  return PostPageResponse(ctx, app_.feed().HomeTimeline(caller.user, *limit, *cursor));
}

}  // namespace basalt::app::api_v1
