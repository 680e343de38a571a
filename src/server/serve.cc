#include "server/serve.h"

#include <chrono>
#include <condition_variable>
#include <iostream>
#include <mutex>
#include <thread>

#include "basalt/connection.h"
#include "server/demo_data.h"
#include "server/engine_metrics.h"
#include "server/http/access_log.h"
#include "server/http/http_server.h"
#include "server/http/metrics.h"
#include "server/http/router.h"
#include "server/rest/rest_service.h"
#include "server/rest/scanners.h"
#include "server/thrift2/thrift2_server.h"

namespace basalt::server {

Status Serve(const http::ServerConfig& config) {
  if (config.data.empty()) return Status::InvalidArgument("serve needs --data DIR");
  BASALT_ASSIGN_OR_RETURN(auto access_log, http::AccessLog::Open(config.access_log));
  BASALT_ASSIGN_OR_RETURN(std::unique_ptr<Connection> conn, Connection::Open(config.data));
  if (config.demo) {  // before listening, so that the first request sees the data
    Result<std::string> demo = LoadDemoOnFirstStart(*conn, config.demo_scale);
    if (!demo.ok()) conn->Close().PermitUncheckedError();
    BASALT_RETURN_IF_ERROR(demo.status().WithContext("--demo"));
    std::cerr << "basalt serve: demo data " << *demo << std::endl;
  }

  http::Router router;
  http::Metrics metrics;
  rest::ScannerRegistry scanners(std::chrono::seconds(config.scanner_ttl_seconds),
                                 config.max_scanners);
  http::HttpServer server(config, router, metrics, *access_log);
  Status s = server.Listen();
  if (!s.ok()) {
    conn->Close().PermitUncheckedError();
    return s;
  }
  std::string address = config.bind + ":" + std::to_string(server.port());

  std::unique_ptr<Thrift2Server> thrift;
  if (config.thrift) {
    Thrift2ServerOptions options;
    options.bind_address = config.bind;
    options.port = config.thrift_port;
    options.framed = config.thrift_framed;
    options.compact = config.thrift_compact;
    thrift = std::make_unique<Thrift2Server>(*conn, options);
    s = thrift->Start();
    if (!s.ok()) {
      conn->Close().PermitUncheckedError();
      return s.WithContext("thrift2 server");
    }
  }

  metrics.AddGauge("basalt_rest_open_scanners", "REST scanners open now.",
                   [&scanners] { return scanners.size(); });
  RegisterEngineMetrics(*conn, &metrics);
  router.Add(http::Verb::get, "/metrics", [&metrics](const http::RequestContext& ctx) {
    return http::MakeResponse(ctx.request, boost::beast::http::status::ok,
                              "text/plain; version=0.0.4", metrics.Render());
  });
  rest::RestService rest(*conn, scanners, address);
  rest.RegisterRoutes(&router);

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

  if (thrift != nullptr) {
    std::cout << "basalt serve: thrift2 on " << config.bind << ":" << thrift->port()
              << (config.thrift_framed ? " (framed" : " (buffered")
              << (config.thrift_compact ? ", compact)" : ", binary)") << std::endl;
  }
  std::cout << "basalt serve: listening on http://" << address << std::endl;
  server.Run();
  // HTTP has drained; Thrift2 calls in flight finish before the store closes.
  if (thrift != nullptr) thrift->Stop();

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

}  // namespace basalt::server
