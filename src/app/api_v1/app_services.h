// AppServices: the recipes that /api/v1 serves (users, follow graph, feed with its fan-out
// workers, activity log, click counters), opened once on the server's Connection.
//
//   BASALT_ASSIGN_OR_RETURN(auto app, AppServices::Open(*conn, options));   // workers running
//   ... serve ...
//   app->Shutdown(std::chrono::seconds(10));   // before the Connection closes
//
// Shutdown drains the fan-out queue for at most the given time, then stops the workers: a job
// still queued stays durable in its table and resumes when the server next starts. It also stops
// the click counters' weekly refresher.
//
// Thread safety: the accessors may be used from many threads (the recipes are thread-safe);
// Open and Shutdown are not concurrent with anything.

#ifndef BASALT_APP_API_V1_APP_SERVICES_H_
#define BASALT_APP_API_V1_APP_SERVICES_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "basalt/connection.h"
#include "basalt/recipes/activity_log.h"
#include "basalt/recipes/click_counters.h"
#include "basalt/recipes/fanout_worker.h"
#include "basalt/recipes/feed.h"
#include "basalt/recipes/follow_graph.h"
#include "basalt/recipes/users.h"
#include "basalt/status.h"

namespace basalt::app::api_v1 {

struct AppServicesOptions {
  // The namespace of the recipes' tables (created when missing), apart from the tables users
  // create in `default`. Default: AppConfig's app_namespace (app/serve.h).
  std::string name_space = "app";
  // How long a log-in session lives. Default: the UserStore's (7 days).
  int64_t session_ttl_ms = recipes::UserStoreOptions{}.session_ttl_ms;
  // kMinimum only for tests (see UserStoreOptions::HashCost).
  recipes::UserStoreOptions::HashCost hash_cost = recipes::UserStoreOptions::HashCost::kInteractive;
  // FeedOptions::inbox_cap. Default: the Feed's (1000).
  int32_t feed_inbox_cap = recipes::FeedOptions{}.inbox_cap;
  // FeedOptions::inbox_trim_every. Default: the Feed's (16).
  int32_t feed_inbox_trim_every = recipes::FeedOptions{}.inbox_trim_every;
  // Fan-out worker threads. Default: the pool's.
  int fanout_threads = recipes::FanoutWorkerOptions{}.threads;
  // When > 1, the tables keyed by hashes (the sessions, both follow-graph tables) are created
  // pre-split into this many regions, as on an HBase cluster (UserStoreOptions and
  // FollowGraphOptions::presplit_regions; 0..256). Only at creation. Default: 0, one region.
  int presplit_regions = 0;
  // Whether to start the fan-out workers and the click refresher (false for single-threaded
  // tools such as the fuzzer, which then runs no background work).
  bool start_background_work = true;
};

class AppServices {
 public:
  // Opens the recipes on `conn` (creating their tables when missing), which must outlive the
  // services, and starts the background work.
  static Result<std::unique_ptr<AppServices>> Open(Connection& conn,
                                                   AppServicesOptions options = {});
  // Calls Shutdown with no drain time if it was not called.
  ~AppServices();

  // Waits up to `drain` for the fan-out queue to empty (Busy when it did not, which loses
  // nothing), then stops the workers and the refresher. Idempotent.
  Status Shutdown(std::chrono::milliseconds drain);

  recipes::UserStore& users() { return *users_; }
  recipes::FollowGraph& graph() { return *graph_; }
  recipes::Feed& feed() { return *feed_; }
  recipes::FanoutWorkerPool& fanout() { return *fanout_; }
  recipes::ActivityLog& activity() { return *activity_; }
  recipes::ClickCounters& clicks() { return *clicks_; }
  const AppServicesOptions& options() const { return options_; }

 private:
  AppServices() = default;

  AppServicesOptions options_;
  std::unique_ptr<recipes::UserStore> users_;
  std::unique_ptr<recipes::FollowGraph> graph_;
  std::unique_ptr<recipes::Feed> feed_;
  std::unique_ptr<recipes::FanoutWorkerPool> fanout_;
  std::unique_ptr<recipes::ActivityLog> activity_;
  std::unique_ptr<recipes::ClickCounters> clicks_;
  bool running_ = false;
};

}  // namespace basalt::app::api_v1

#endif  // BASALT_APP_API_V1_APP_SERVICES_H_
