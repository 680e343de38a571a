// /api/v1 activity log (docs/api-v1.md, "Activity log").

#include "app/api_v1/api_response.h"
#include "app/api_v1/api_v1_service.h"
#include "app/api_v1/validation.h"

namespace basalt::app::api_v1 {

using nlohmann::json;

namespace {

json EventJson(const recipes::ActivityEvent& event) {
  return json{{"user", event.user},
              {"time_ms", event.id.time_ms},
              {"seq", event.id.seq},
              {"name", event.name},
              {"payload", event.payload}};
}

}  // namespace

server::http::Response ApiV1Service::RecordActivity(const Ctx& ctx) {
  auto session = RequireSession(ctx);
  if (auto* error = std::get_if<Response>(&session)) return std::move(*error);
  const Caller& caller = std::get<Caller>(session);
  Result<json> body = ParseJsonObject(ctx.request.body());
  if (!body.ok()) return ApiError(ctx.request, body.status());
  Result<std::string> name = StringField(*body, "name");
  if (!name.ok()) return ApiError(ctx.request, name.status());
  Result<std::optional<std::string>> payload = OptionalStringField(*body, "payload");
  if (!payload.ok()) return ApiError(ctx.request, payload.status());
  recipes::ActivityEvent event;
  event.user = caller.user;
  event.name = std::move(*name);
  event.payload = payload->value_or("");
  Status valid = ValidateActivityName(event.name);
  if (valid.ok()) valid = ValidateActivityPayload(event.payload);
  if (!valid.ok()) return ApiError(ctx.request, valid);
  Result<recipes::EventId> id = app_.activity().Record(event.user, event.name, event.payload);
  if (!id.ok()) return ApiError(ctx.request, id.status());
  event.id = *id;
  return JsonResponse(ctx.request, HttpStatus::created, EventJson(event));
}

server::http::Response ApiV1Service::UserActivity(const Ctx& ctx) {
  auto session = RequireSession(ctx);
  if (auto* error = std::get_if<Response>(&session)) return std::move(*error);
  const Caller& caller = std::get<Caller>(session);
  Result<std::string> user = UserParam(ctx);
  if (!user.ok()) return ApiError(ctx.request, user.status());
  if (*user != caller.user) {
    return ApiError(ctx.request, HttpStatus::forbidden, "you can only read your own activity");
  }
  Result<int32_t> limit = PageLimit(ctx);
  if (!limit.ok()) return ApiError(ctx.request, limit.status());
  Result<std::string> cursor = PageCursor(ctx);
  if (!cursor.ok()) return ApiError(ctx.request, cursor.status());
  Result<recipes::ActivityPage> page = app_.activity().Page(*user, *limit, *cursor);
  if (!page.ok()) return ApiError(ctx.request, page.status());
  json items = json::array();
  for (const recipes::ActivityEvent& event : page->events) items.push_back(EventJson(event));
  return JsonResponse(
      ctx.request, HttpStatus::ok,
      json{{"items", std::move(items)}, {"next_cursor", EncodeCursor(page->cursor)}});
}

}  // namespace basalt::app::api_v1
