// /api/v1/admin: the server's figures as JSON (docs/api-v1.md, "Admin").

#include "app/api_v1/api_response.h"
#include "app/api_v1/api_v1_service.h"
#include "app/api_v1/credentials.h"

namespace basalt::app::api_v1 {

namespace bh = boost::beast::http;
using nlohmann::json;

Result<server::http::Response> ApiV1Service::AdminStats(const Ctx& ctx) {
  if (!options_.admin_token.empty() &&
      !server::http::HasAdminToken(ctx.request, options_.admin_token)) {
    Response res = ApiError(ctx.request, HttpStatus::unauthorized,
                            "admin endpoints need the admin token: 'Authorization: Bearer "
                            "<token>' or 'X-Basalt-Admin: <token>'");
    res.set(bh::field::www_authenticate, "Bearer");
    return res;
  }
  BASALT_ASSIGN_OR_RETURN(int64_t pending, app_.feed().PendingJobs());
  recipes::FanoutStats fanout = app_.fanout().stats();
  Status last_error = app_.fanout().last_error();
  json out = {{"fanout",
               {{"pending_jobs", pending},
                {"jobs_finished", fanout.jobs_finished},
                {"inbox_writes", fanout.inbox_writes},
                {"last_error", last_error.ok() ? json(nullptr) : json(last_error.ToString())}}}};
  if (metrics_ != nullptr) {
    server::http::Metrics::Snapshot snapshot = metrics_->TakeSnapshot();
    json requests = json::array();
    for (const auto& r : snapshot.requests) {
      requests.push_back({{"route", r.route},
                          {"method", r.method},
                          {"status", r.status_class},
                          {"count", r.count},
                          {"seconds_sum", r.seconds_sum}});
    }
    out["http"] = {{"open_connections", snapshot.open_connections},
                   {"requests", std::move(requests)}};
    out["gauges"] = snapshot.gauges;
    out["counters"] = snapshot.counters;
  }
  return JsonResponse(ctx.request, HttpStatus::ok, out);
}

}  // namespace basalt::app::api_v1
