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

Result<server::http::Response> ApiV1Service::RecordActivity(const Ctx& ctx, const Caller& caller) {
  BASALT_ASSIGN_OR_RETURN(json body, ParseJsonObject(ctx.request.body()));
  recipes::ActivityEvent event;
  event.user = caller.user;
  BASALT_ASSIGN_OR_RETURN(event.name, StringField(body, "name"));
  BASALT_ASSIGN_OR_RETURN(std::optional<std::string> payload, OptionalStringField(body, "payload"));
  event.payload = payload.value_or("");
  BASALT_RETURN_IF_ERROR(ValidateActivityName(event.name));
  BASALT_RETURN_IF_ERROR(ValidateActivityPayload(event.payload));
  BASALT_ASSIGN_OR_RETURN(event.id, app_.activity().Record(event.user, event.name, event.payload));
  return JsonResponse(ctx.request, HttpStatus::created, EventJson(event));
}

Result<server::http::Response> ApiV1Service::UserActivity(const Ctx& ctx, const Caller& caller) {
  BASALT_ASSIGN_OR_RETURN(std::string user, UserParam(ctx));
  if (user != caller.user) return Status::FailedPrecondition("you can only read your own activity");
  BASALT_ASSIGN_OR_RETURN(int32_t limit, PageLimit(ctx));
  BASALT_ASSIGN_OR_RETURN(std::string cursor, PageCursor(ctx));
  BASALT_ASSIGN_OR_RETURN(recipes::ActivityPage page, app_.activity().Page(user, limit, cursor));
  json items = json::array();
  for (const recipes::ActivityEvent& event : page.events) items.push_back(EventJson(event));
  return JsonResponse(
      ctx.request, HttpStatus::ok,
      json{{"items", std::move(items)}, {"next_cursor", EncodeCursor(page.cursor)}});
}

}  // namespace basalt::app::api_v1
