#include "app/serve.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <iostream>
#include <mutex>
#include <thread>

#include "app/api_v1/api_v1_service.h"
#include "app/api_v1/app_services.h"
#include "app/api_v1/credentials.h"
#include "app/demo_data.h"
#include "app/web/web_ui.h"
#include "basalt/backup.h"
#include "basalt/connection.h"
#include "server/engine_metrics.h"
#include "server/hbase_rpc/rpc_server.h"
#include "server/http/access_log.h"
#include "server/http/credentials.h"
#include "server/http/http_server.h"
#include "server/http/metrics.h"
#include "server/http/router.h"
#include "server/rest/rest_service.h"
#include "server/rest/scanners.h"
#include "server/thrift1/thrift1_server.h"
#include "server/thrift2/thrift2_server.h"

namespace basalt::app {

namespace {

std::optional<Status> ReadAppConfigKey(const std::string& key, const nlohmann::json& v,
                                       AppConfig* config) {
  using server::http::ReadConfigValue;
  if (key == "session_ttl_seconds") {
    Status s = ReadConfigValue(v, key, &config->session_ttl_seconds);
    if (s.ok() && config->session_ttl_seconds == 0) {
      s = Status::InvalidArgument("config key 'session_ttl_seconds' must be at least 1");
    }
    return s;
  }
  if (key == "password_hash_cost") {
    Status s = ReadConfigValue(v, key, &config->password_hash_cost);
    if (s.ok() && config->password_hash_cost != "interactive" &&
        config->password_hash_cost != "minimum") {
      s = Status::InvalidArgument(
          "config key 'password_hash_cost' must be \"interactive\" or \"minimum\"");
    }
    return s;
  }
  if (key == "app_namespace") {
    Status s = ReadConfigValue(v, key, &config->app_namespace);
    if (s.ok() && config->app_namespace.empty()) {
      s = Status::InvalidArgument("config key 'app_namespace' must not be empty");
    }
    return s;
  }
  if (key == "auth_attempts_per_minute" || key == "max_concurrent_password_hashes") {
    uint32_t* field = key == "auth_attempts_per_minute" ? &config->auth_attempts_per_minute
                                                        : &config->max_concurrent_password_hashes;
    Status s = ReadConfigValue(v, key, field);
    if (s.ok() && *field == 0) {
      s = Status::InvalidArgument("config key '" + key + "' must be at least 1");
    }
    return s;
  }
  if (key == "feed_inbox_cap" || key == "feed_inbox_trim_every") {
    uint32_t* field =
        key == "feed_inbox_cap" ? &config->feed_inbox_cap : &config->feed_inbox_trim_every;
    Status s = ReadConfigValue(v, key, field);
    if (s.ok() && (*field == 0 || *field > 1'000'000)) {
      s = Status::InvalidArgument("config key '" + key + "' must be in 1..1000000");
    }
    return s;
  }
  if (key == "backup_dir") return ReadConfigValue(v, key, &config->backup_dir);
  if (key == "demo") return ReadConfigValue(v, key, &config->demo);
  if (key == "demo_scale") return ReadConfigValue(v, key, &config->demo_scale);
  return std::nullopt;
}

// A Thrift connection holds no thread, only a file descriptor and a few KiB, so the servers take
// thousands (ThriftServerOptions::max_connections): the soft limit of open files (often 1,024)
// is raised to the hard one, as Redis raises it for maxclients.
void RaiseOpenFileLimit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &limit);
  }
}

// The socket servers of `basalt serve` beside HTTP: Thrift2, Thrift1 and HBase's native RPC,
// each on its own port, on the same store and bind address. The app's tables hold password
// hashes and sessions: none of these protocols has credentials, so none may ever name them.
struct ProtocolServers {
  std::unique_ptr<server::ThriftServer> thrift2;
  std::unique_ptr<server::ThriftServer> thrift1;
  std::unique_ptr<server::hbase_rpc::RpcServer> hbase_rpc;

  Status Start(Connection& conn, const server::http::ServerConfig& config,
               const std::string& app_namespace) {
    if (config.thrift || config.thrift1 || config.hbase_rpc) RaiseOpenFileLimit();
    auto fill = [&](server::ThriftServerOptions& o, uint16_t port, bool framed, bool compact) {
      o.bind_address = config.bind;
      o.port = port;
      o.framed = framed;
      o.compact = compact;
      o.reserved_namespaces = {app_namespace};
      o.arrival_spin = std::chrono::microseconds(config.thrift_spin_us);
      o.max_connections = config.thrift_max_connections;
      o.max_connections_per_client =
          static_cast<int>(std::min<uint32_t>(config.thrift_max_connections_per_client, INT32_MAX));
    };
    if (config.thrift) {
      server::Thrift2ServerOptions o;
      fill(o, config.thrift_port, config.thrift_framed, config.thrift_compact);
      thrift2 = std::make_unique<server::Thrift2Server>(conn, o);
      Status s = thrift2->Start();
      if (!s.ok()) return s.WithContext("thrift2 server");
    }
    if (config.thrift1) {
      server::Thrift1ServerOptions o;
      fill(o, config.thrift1_port, config.thrift1_framed, config.thrift1_compact);
      thrift1 = std::make_unique<server::Thrift1Server>(conn, o);
      Status s = thrift1->Start();
      if (!s.ok()) {
        Stop();
        return s.WithContext("thrift1 server");
      }
    }
    if (config.hbase_rpc) {
      server::hbase_rpc::RpcServerOptions o;
      o.bind_address = config.bind;
      o.port = config.hbase_rpc_port;
      o.allow_unauthenticated_remote = config.insecure_no_auth;
      o.reserved_namespaces = {app_namespace};
      hbase_rpc = std::make_unique<server::hbase_rpc::RpcServer>(conn, o);
      Status s = hbase_rpc->Start();
      if (!s.ok()) {
        Stop();
        return s.WithContext("HBase RPC server");
      }
    }
    return Status::OK();
  }

  // The ready lines: "basalt serve: thrift2 on HOST:PORT (buffered, binary)".
  void Announce() const {
    for (const auto* server : {thrift2.get(), thrift1.get()}) {
      if (server == nullptr) continue;
      const server::ThriftServerOptions& o = server->options();
      std::cout << "basalt serve: " << server->name() << " on " << o.bind_address << ":"
                << server->port() << (o.framed ? " (framed" : " (buffered")
                << (o.compact ? ", compact)" : ", binary)") << std::endl;
    }
    if (hbase_rpc != nullptr) {
      std::cout << "basalt serve: hbase-rpc on " << hbase_rpc->options().bind_address << ":"
                << hbase_rpc->port() << std::endl;
    }
  }

  // Lets calls in flight finish; the store may close after.
  void Stop() {
    if (thrift2 != nullptr) thrift2->Stop();
    if (thrift1 != nullptr) thrift1->Stop();
    if (hbase_rpc != nullptr) hbase_rpc->Stop();
  }
};

}  // namespace

Status LoadServeConfigFile(const std::string& path, ServeConfig* config) {
  return server::http::ReadConfigFile(
      path, [config](const std::string& key, const nlohmann::json& v) -> std::optional<Status> {
        if (auto s = server::http::ReadServerConfigKey(key, v, &config->server)) return s;
        return ReadAppConfigKey(key, v, &config->app);
      });
}

Status Serve(const ServeConfig& serve_config) {
  const server::http::ServerConfig& config = serve_config.server;
  const AppConfig& app_config = serve_config.app;
  if (config.data.empty()) return Status::InvalidArgument("serve needs --data DIR");
  BASALT_RETURN_IF_ERROR(server::http::CheckExposure(config));
  BASALT_RETURN_IF_ERROR(server::http::CheckLimits(config));
  BASALT_ASSIGN_OR_RETURN(auto access_log, server::http::AccessLog::Open(config.access_log));
  BASALT_ASSIGN_OR_RETURN(std::unique_ptr<Connection> conn, Connection::Open(config.data));
  if (app_config.demo) {  // before listening, so that the first request sees the data
    // A line per stage and quarter: the default load takes tens of seconds (password hashing).
    auto progress = [last_stage = std::string(), last_quarter = -1](
                        std::string_view stage, int64_t done, int64_t total) mutable {
      int quarter = total > 0 ? static_cast<int>(done * 4 / total) : 4;
      if (stage == last_stage && quarter == last_quarter) return;
      last_stage = std::string(stage);
      last_quarter = quarter;
      std::cerr << "basalt serve: loading demo data: " << stage << " " << done << "/" << total
                << std::endl;
    };
    Result<std::string> demo =
        LoadDemoOnFirstStart(*conn, app_config.app_namespace, app_config.demo_scale, progress);
    if (!demo.ok()) conn->Close().PermitUncheckedError();
    BASALT_RETURN_IF_ERROR(demo.status().WithContext("--demo"));
    std::cerr << "basalt serve: demo data " << *demo << std::endl;
  }

  server::http::Router router;
  server::http::Metrics metrics;
  server::rest::ScannerRegistry scanners(std::chrono::seconds(config.scanner_ttl_seconds),
                                         config.max_scanners, config.max_scanners_per_client);
  server::http::HttpServer http_server(config, router, metrics, *access_log);
  Status s = http_server.Listen();
  if (!s.ok()) {
    conn->Close().PermitUncheckedError();
    return s;
  }
  std::string address = config.bind + ":" + std::to_string(http_server.port());

  ProtocolServers protocols;
  s = protocols.Start(*conn, config, app_config.app_namespace);
  if (!s.ok()) {
    conn->Close().PermitUncheckedError();
    return s;
  }

  // The recipes behind /api/v1.
  api_v1::AppServicesOptions app_options;
  app_options.name_space = app_config.app_namespace;
  app_options.session_ttl_ms = int64_t{app_config.session_ttl_seconds} * 1000;
  app_options.feed_inbox_cap = static_cast<int32_t>(app_config.feed_inbox_cap);
  app_options.feed_inbox_trim_every = static_cast<int32_t>(app_config.feed_inbox_trim_every);
  if (app_config.password_hash_cost == "minimum") {
    app_options.hash_cost = recipes::UserStoreOptions::HashCost::kMinimum;
  }
  auto app = api_v1::AppServices::Open(*conn, app_options);
  if (!app.ok()) {
    protocols.Stop();
    conn->Close().PermitUncheckedError();
    return app.status().WithContext("/api/v1 recipes");
  }
  if (config.insecure_no_auth && !server::http::IsLoopbackBind(config.bind)) {
    std::cerr << "basalt serve: warning: --insecure-no-auth: listening on " << config.bind
              << (config.admin_token.empty() ? " without an admin token" : "")
              << (config.thrift || config.thrift1 || config.hbase_rpc
                      ? ", Thrift or HBase's RPC on (they have no credentials)"
                      : "")
              << ": anyone who can reach it may read, write and drop tables outside the app's "
                 "namespace"
              << std::endl;
  }

  metrics.AddGauge("basalt_rest_open_scanners", "REST scanners open now.",
                   [&scanners] { return scanners.size(); });
  for (const server::ThriftServer* server : {protocols.thrift2.get(), protocols.thrift1.get()}) {
    if (server == nullptr) continue;
    metrics.AddCounter("basalt_" + server->name() + "_calls_total",
                       "Calls the " + server->name() + " server has answered.",
                       [server] { return static_cast<int64_t>(server->calls()); });
    metrics.AddCounter("basalt_" + server->name() + "_answer_writes_total",
                       "Sends carrying the " + server->name() +
                           " server's answers (fewer than the calls when clients pipeline).",
                       [server] { return static_cast<int64_t>(server->answer_writes()); });
  }
  recipes::Feed& feed = (*app)->feed();
  recipes::FanoutWorkerPool& fanout = (*app)->fanout();
  metrics.AddGauge("basalt_fanout_pending_jobs", "Fan-out and retract jobs not finished yet.",
                   [&feed] {
                     Result<int64_t> pending = feed.PendingJobs();
                     return pending.ok() ? *pending : int64_t{-1};
                   });
  metrics.AddGauge("basalt_fanout_lag_milliseconds",
                   "How long the oldest unfinished fan-out job has waited (0: none).", [&feed] {
                     Result<recipes::Feed::Backlog> backlog = feed.FanoutBacklog();
                     if (!backlog.ok()) return int64_t{-1};
                     if (backlog->jobs == 0) return int64_t{0};
                     return std::max<int64_t>(0, SystemWallMillis() - backlog->oldest_job_ms);
                   });
  metrics.AddCounter("basalt_fanout_jobs_finished_total", "Fan-out jobs this server finished.",
                     [&fanout] { return fanout.stats().jobs_finished; });
  metrics.AddCounter("basalt_fanout_inbox_writes_total",
                     "Inbox entries this server's fan-out delivered or retracted.",
                     [&fanout] { return fanout.stats().inbox_writes; });
  server::RegisterEngineMetrics(*conn, &metrics);
  router.Add(server::http::Verb::get, "/metrics",
             [&metrics](const server::http::RequestContext& ctx) {
               return server::http::MakeResponse(ctx.request, boost::beast::http::status::ok,
                                                 "text/plain; version=0.0.4", metrics.Render());
             });
  server::rest::RestOptions rest_options;
  // The app's tables hold password hashes and sessions: REST may name them only with the admin
  // token (and so never when there is none).
  rest_options.reserved_namespaces = {app_config.app_namespace};
  rest_options.admin_token = config.admin_token;
  server::rest::RestService rest(*conn, scanners, address, std::move(rest_options));
  // The web UI before REST: of two routes with one pattern the first wins, and the UI's `GET /`
  // answers browsers and passes every other client on to REST's table list.
  web::WebUi web_ui(web::EmbeddedAssets());
  for (auto& route : web_ui.Routes(
           [&rest](const server::http::RequestContext& ctx) { return rest.ListTables(ctx); })) {
    router.Add(server::http::Verb::get, route.pattern, std::move(route.handler));
  }
  rest.RegisterRoutes(&router);
  if (!config.admin_token.empty()) {
    // REST writes and schema changes need the token; reads (GET, and scanners, which are reads
    // created with PUT/POST) stay open. A guard, not a wrapped handler: the server checks it
    // from the header, so a write without the token is refused before its body is read.
    router.GuardRoutes(
        [](server::http::Verb verb, const std::string& pattern) {
          return verb != server::http::Verb::get && pattern.find("/scanner") == std::string::npos;
        },
        server::http::AdminTokenGuard(config.admin_token));
  }
  api_v1::ApiV1Options api_options;
  api_options.session_ttl_seconds = app_config.session_ttl_seconds;
  api_options.admin_token = config.admin_token;
  api_options.attempt_limits.max_failures =
      static_cast<int>(std::min<uint32_t>(app_config.auth_attempts_per_minute, 1'000'000));
  api_options.max_concurrent_password_hashes =
      static_cast<int>(std::min<uint32_t>(app_config.max_concurrent_password_hashes, 1024));
  if (!app_config.backup_dir.empty()) {
    api_options.take_backup = [&conn, dir = app_config.backup_dir] {
      return conn->admin().CreateBackup(dir);
    };
    api_options.list_backups = [dir = app_config.backup_dir] { return ListBackups(dir); };
  }
  api_v1::ApiV1Service api(**app, &metrics, std::move(api_options));
  api.RegisterRoutes(&router);

  // Idle scanners expire in the background.
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  std::thread expirer([&] {
    std::unique_lock<std::mutex> lock(mu);
    while (!cv.wait_for(lock, std::chrono::seconds(1), [&] { return done; })) {
      scanners.Expire();
    }
  });

  protocols.Announce();
  std::cout << "basalt serve: listening on http://" << address << std::endl;
  http_server.Run();
  // HTTP has drained; Thrift calls in flight finish before the store closes.
  protocols.Stop();
  // Fan-out jobs left when the drain times out stay queued in their table and resume on the
  // next start.
  Status drained = (*app)->Shutdown(std::chrono::seconds(config.shutdown_timeout_seconds));
  if (!drained.ok()) {
    std::cerr << "basalt serve: fan-out queue not drained (" << drained.ToString()
              << "); the jobs resume on the next start" << std::endl;
  }
  app->reset();

  {
    std::lock_guard<std::mutex> lock(mu);
    done = true;
  }
  cv.notify_all();
  expirer.join();
  scanners.Clear();  // scanners hold Tables, which must go before the Connection
  access_log->Flush();
  BASALT_RETURN_IF_ERROR(conn->Close());
  std::cout << "basalt serve: stopped" << std::endl;
  return Status::OK();
}

}  // namespace basalt::app
