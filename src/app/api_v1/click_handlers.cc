// /api/v1 click counters (docs/api-v1.md, "Clicks").

#include <algorithm>

#include "app/api_v1/api_response.h"
#include "app/api_v1/api_v1_service.h"
#include "app/api_v1/validation.h"

namespace basalt::app::api_v1 {

using nlohmann::json;

namespace {

// The last millisecond of year 9999: times beyond it are input errors, and sums of two times
// stay far from overflowing.
constexpr int64_t kMaxTimeMs = 253402300799999;
constexpr int64_t kHourMs = 3600 * 1000;

struct Window {
  int64_t from_ms;
  int64_t to_ms;
};

// ?from_ms=&to_ms=, by default the hour up to the end of the current minute (counts are by whole
// minutes, rounded down, so a default ending at `now_ms` would leave out this minute's clicks).
Result<Window> ReadWindow(const server::http::RequestContext& ctx, int64_t now_ms) {
  const int64_t minute = recipes::ClickCounters::kMinuteMs;
  const int64_t end_of_minute = (now_ms / minute + 1) * minute;
  BASALT_ASSIGN_OR_RETURN(int64_t to_ms, IntQuery(ctx, "to_ms", end_of_minute, 0, kMaxTimeMs));
  BASALT_ASSIGN_OR_RETURN(
      int64_t from_ms,
      IntQuery(ctx, "from_ms", std::max<int64_t>(0, to_ms - kHourMs), 0, kMaxTimeMs));
  if (from_ms > to_ms) return Status::InvalidArgument("from_ms must not be after to_ms");
  return Window{from_ms, to_ms};
}

// A window for the hourly sketches, which read every hour it overlaps: at most
// kMaxSketchWindowMs, so one request reads a bounded number of rows.
Result<Window> ReadSketchWindow(const server::http::RequestContext& ctx, int64_t now_ms) {
  BASALT_ASSIGN_OR_RETURN(Window window, ReadWindow(ctx, now_ms));
  if (window.to_ms - window.from_ms > kMaxSketchWindowMs) {
    return Status::InvalidArgument("the window is longer than " +
                                   std::to_string(kMaxSketchWindowMs / kHourMs) + " hours");
  }
  return window;
}

Result<std::string> ItemParam(const server::http::RequestContext& ctx) {
  BASALT_ASSIGN_OR_RETURN(std::string item, PathParam(ctx, "item"));
  BASALT_RETURN_IF_ERROR(ValidateItem(item));
  return item;
}

}  // namespace

Result<server::http::Response> ApiV1Service::Click(const Ctx& ctx, const Caller& caller) {
  BASALT_ASSIGN_OR_RETURN(std::string item, ItemParam(ctx));
  BASALT_ASSIGN_OR_RETURN(json body, ParseJsonObject(ctx.request.body(), /*empty_ok=*/true));
  int64_t n = 1;
  if (auto it = body.find("n"); it != body.end()) {
    if (!it->is_number_integer() || it->get<int64_t>() < 1 ||
        it->get<int64_t>() > kMaxClicksPerRequest) {
      return Status::InvalidArgument("field 'n' must be an integer in 1.." +
                                     std::to_string(kMaxClicksPerRequest));
    }
    n = it->get<int64_t>();
  }
  // The session's user is the visitor: distinct visitors are distinct users.
  BASALT_RETURN_IF_ERROR(app_.clicks().ClickBy(item, caller.user, n));
  return NoContent(ctx.request);
}

Result<server::http::Response> ApiV1Service::ClickCounts(const Ctx& ctx) {
  BASALT_ASSIGN_OR_RETURN(std::string item, ItemParam(ctx));
  BASALT_ASSIGN_OR_RETURN(Window window, ReadWindow(ctx, NowMs()));
  BASALT_ASSIGN_OR_RETURN(int64_t total, app_.clicks().Total(item));
  BASALT_ASSIGN_OR_RETURN(int64_t count, app_.clicks().Count(item, window.from_ms, window.to_ms));
  BASALT_ASSIGN_OR_RETURN(int64_t week, app_.clicks().RollingWeek(item));
  return JsonResponse(ctx.request, HttpStatus::ok,
                      json{{"item", item},
                           {"total", total},
                           {"count", count},
                           {"from_ms", window.from_ms},
                           {"to_ms", window.to_ms},
                           {"week", week}});
}

Result<server::http::Response> ApiV1Service::ClickSeries(const Ctx& ctx) {
  BASALT_ASSIGN_OR_RETURN(std::string item, ItemParam(ctx));
  BASALT_ASSIGN_OR_RETURN(Window window, ReadWindow(ctx, NowMs()));
  BASALT_ASSIGN_OR_RETURN(int64_t step, IntQuery(ctx, "step_ms", recipes::ClickCounters::kMinuteMs,
                                                 recipes::ClickCounters::kMinuteMs, kMaxTimeMs));
  int64_t points = (window.to_ms - window.from_ms + step - 1) / step;
  if (points > kMaxSeriesPoints) {
    return Status::InvalidArgument("the series would have " + std::to_string(points) +
                                   " points; at most " + std::to_string(kMaxSeriesPoints) +
                                   " (raise step_ms)");
  }
  json out = json::array();
  for (int64_t t = window.from_ms; t < window.to_ms; t += step) {
    BASALT_ASSIGN_OR_RETURN(int64_t count,
                            app_.clicks().Count(item, t, std::min(t + step, window.to_ms)));
    out.push_back(json{{"t_ms", t}, {"count", count}});
  }
  return JsonResponse(ctx.request, HttpStatus::ok,
                      json{{"item", item}, {"points", std::move(out)}});
}

Result<server::http::Response> ApiV1Service::TopClicks(const Ctx& ctx) {
  BASALT_ASSIGN_OR_RETURN(Window window, ReadWindow(ctx, NowMs()));
  BASALT_ASSIGN_OR_RETURN(int64_t k, IntQuery(ctx, "k", kDefaultTopItems, 1, kMaxPageLimit));
  BASALT_ASSIGN_OR_RETURN(
      std::vector<recipes::ItemCount> top,
      app_.clicks().TopK(window.from_ms, window.to_ms, static_cast<int32_t>(k)));
  json items = json::array();
  for (const recipes::ItemCount& c : top)
    items.push_back(json{{"item", c.item}, {"count", c.count}});
  return JsonResponse(ctx.request, HttpStatus::ok, json{{"items", std::move(items)}});
}

Result<server::http::Response> ApiV1Service::ClickVisitors(const Ctx& ctx) {
  BASALT_ASSIGN_OR_RETURN(std::string item, ItemParam(ctx));
  BASALT_ASSIGN_OR_RETURN(Window window, ReadSketchWindow(ctx, NowMs()));
  BASALT_ASSIGN_OR_RETURN(int64_t visitors,
                          app_.clicks().DistinctVisitors(item, window.from_ms, window.to_ms));
  // The whole hours read, as TopKApprox reports them.
  const int64_t hour = recipes::ClickCounters::kHourMs;
  const int64_t from_hour = window.from_ms / hour * hour;
  const int64_t to_hour =
      window.to_ms == window.from_ms ? from_hour : (window.to_ms + hour - 1) / hour * hour;
  return JsonResponse(
      ctx.request, HttpStatus::ok,
      json{{"item", item},
           {"visitors", visitors},
           {"from_ms", from_hour},
           {"to_ms", to_hour},
           {"relative_standard_error", recipes::ClickCounters::kDistinctRelativeError}});
}

Result<server::http::Response> ApiV1Service::TopClicksApprox(const Ctx& ctx) {
  BASALT_ASSIGN_OR_RETURN(Window window, ReadSketchWindow(ctx, NowMs()));
  BASALT_ASSIGN_OR_RETURN(int64_t k, IntQuery(ctx, "k", kDefaultTopItems, 1, kMaxPageLimit));
  BASALT_ASSIGN_OR_RETURN(
      recipes::HeavyHitters heavy,
      app_.clicks().TopKApprox(window.from_ms, window.to_ms, static_cast<int32_t>(k)));
  json items = json::array();
  for (const recipes::ItemCount& c : heavy.items)
    items.push_back(json{{"item", c.item}, {"count", c.count}});
  return JsonResponse(ctx.request, HttpStatus::ok,
                      json{{"items", std::move(items)},
                           {"clicks", heavy.clicks},
                           {"error_bound", heavy.error_bound},
                           {"from_ms", heavy.from_ms},
                           {"to_ms", heavy.to_ms}});
}

}  // namespace basalt::app::api_v1
