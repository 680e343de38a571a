// /api/v1/admin: the server's figures as JSON and backups of its store (docs/api-v1.md,
// "Admin").

#include "app/api_v1/api_response.h"
#include "app/api_v1/api_v1_service.h"
#include "app/api_v1/credentials.h"

namespace basalt::app::api_v1 {

namespace bh = boost::beast::http;
using nlohmann::json;

namespace {

json BackupJson(const BackupInfo& b) {
  return {
      {"id", b.id}, {"timestamp", b.timestamp}, {"files", b.files}, {"size_bytes", b.size_bytes}};
}

constexpr std::string_view kBackupsOff =
    "backups through this server are off: start it with --backup-dir DIR (config key "
    "'backup_dir')";

}  // namespace

std::optional<server::http::Response> ApiV1Service::RefuseWithoutAdminToken(const Ctx& ctx) const {
  if (options_.admin_token.empty() ||
      server::http::HasAdminToken(ctx.request, options_.admin_token)) {
    return std::nullopt;
  }
  Response res = ApiError(ctx.request, HttpStatus::unauthorized,
                          "admin endpoints need the admin token: 'Authorization: Bearer "
                          "<token>' or 'X-Basalt-Admin: <token>'");
  res.set(bh::field::www_authenticate, "Bearer");
  return res;
}

Result<server::http::Response> ApiV1Service::AdminTakeBackup(const Ctx& ctx) {
  if (auto refused = RefuseWithoutAdminToken(ctx)) return std::move(*refused);
  if (!options_.take_backup) return ApiError(ctx.request, HttpStatus::conflict, kBackupsOff);
  std::unique_lock<std::mutex> lock(backup_mu_, std::try_to_lock);
  if (!lock.owns_lock()) {
    return ApiError(ctx.request, HttpStatus::conflict,
                    "a backup is being taken; try again when it has finished");
  }
  BASALT_ASSIGN_OR_RETURN(BackupInfo info, options_.take_backup());
  return JsonResponse(ctx.request, HttpStatus::created, BackupJson(info));
}

Result<server::http::Response> ApiV1Service::AdminListBackups(const Ctx& ctx) {
  if (auto refused = RefuseWithoutAdminToken(ctx)) return std::move(*refused);
  if (!options_.list_backups) return ApiError(ctx.request, HttpStatus::conflict, kBackupsOff);
  json backups = json::array();
  Result<std::vector<BackupInfo>> listed = options_.list_backups();
  if (listed.ok()) {
    for (const BackupInfo& b : *listed) backups.push_back(BackupJson(b));
  } else if (!listed.status().IsNotFound()) {  // NotFound: none taken yet
    return listed.status();
  }
  return JsonResponse(ctx.request, HttpStatus::ok, {{"backups", std::move(backups)}});
}

Result<server::http::Response> ApiV1Service::AdminStats(const Ctx& ctx) {
  if (auto refused = RefuseWithoutAdminToken(ctx)) return std::move(*refused);
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
