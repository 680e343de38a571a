#include "app/api_v1/app_services.h"

#include "app/api_v1/validation.h"

namespace basalt::app::api_v1 {

Result<std::unique_ptr<AppServices>> AppServices::Open(Connection& conn,
                                                       AppServicesOptions options) {
  std::unique_ptr<AppServices> app(new AppServices());
  app->options_ = options;

  recipes::UserStoreOptions user_options;
  user_options.name_space = options.name_space;
  user_options.session_ttl_ms = options.session_ttl_ms;
  user_options.hash_cost = options.hash_cost;
  user_options.presplit_regions = options.presplit_regions;
  BASALT_ASSIGN_OR_RETURN(app->users_, recipes::UserStore::Open(conn, user_options));

  recipes::FollowGraphOptions graph_options;
  graph_options.name_space = options.name_space;
  graph_options.user_exists = app->users_->UserExistsFunction();
  graph_options.presplit_regions = options.presplit_regions;
  BASALT_ASSIGN_OR_RETURN(app->graph_, recipes::FollowGraph::Open(conn, graph_options));
  recipes::FeedOptions feed_options;
  feed_options.name_space = options.name_space;
  feed_options.max_text_bytes = kMaxPostBytes;  // what kMaxPostChars characters may take
  feed_options.inbox_cap = options.feed_inbox_cap;
  feed_options.inbox_trim_every = options.feed_inbox_trim_every;
  BASALT_ASSIGN_OR_RETURN(app->feed_, recipes::Feed::Open(conn, *app->graph_, feed_options));
  recipes::FanoutWorkerOptions fanout_options;
  fanout_options.threads = options.fanout_threads;
  app->fanout_ = std::make_unique<recipes::FanoutWorkerPool>(*app->feed_, fanout_options);
  recipes::ActivityLogOptions log_options;
  log_options.name_space = options.name_space;
  BASALT_ASSIGN_OR_RETURN(app->activity_, recipes::ActivityLog::Open(conn, log_options));
  recipes::ClickCountersOptions click_options;
  click_options.name_space = options.name_space;
  BASALT_ASSIGN_OR_RETURN(app->clicks_, recipes::ClickCounters::Open(conn, click_options));

  if (options.start_background_work) {
    app->fanout_->Start();
    BASALT_RETURN_IF_ERROR(app->clicks_->StartRefresher());
    app->running_ = true;
  }
  return app;
}

AppServices::~AppServices() {
  Shutdown(std::chrono::milliseconds(0)).PermitUncheckedError();
}

Status AppServices::Shutdown(std::chrono::milliseconds drain) {
  if (!running_) return Status::OK();
  running_ = false;
  Status drained = drain.count() > 0 ? fanout_->Drain(drain) : Status::OK();
  fanout_->Stop();
  clicks_->Stop();
  return drained;
}

}  // namespace basalt::app::api_v1
