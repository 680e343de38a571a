// libFuzzer target for the HBase REST request path: the input is the raw bytes of one HTTP/1.1
// request (request line, headers, body), read by Beast's request parser exactly as a Session
// reads a socket, then routed and handled by HttpServer::Handle with the REST routes on an
// in-memory store. No socket is opened.
//
// Checked on every input: nothing crashes or trips ASan/UBSan; a request the parser accepts gets
// a response with a status between 200 and 599 that is never a 500 (a handler that fails on
// client input must say 4xx), and the response's body is what its Content-Length says.
//
// The store lives across inputs (fuzz_store.h), so a PUT of one input can be read by the GET of a
// later one.

#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/http.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "basalt/connection.h"
#include "fuzz_store.h"
#include "server/http/access_log.h"
#include "server/http/http_server.h"
#include "server/http/metrics.h"
#include "server/http/router.h"
#include "server/http/server_config.h"
#include "server/rest/rest_service.h"
#include "server/rest/scanners.h"

namespace {

namespace bh = boost::beast::http;
using namespace basalt::server;

void Check(bool property) {
  if (!property) __builtin_trap();
}

struct RestStack {
  RestStack()
      : conn(basalt::fuzz::OpenFuzzStore()),
        scanners(std::chrono::seconds(60), /*max_open=*/64),
        access_log(std::move(*http::AccessLog::Open("/dev/null"))),
        server(config, router, metrics, *access_log),
        rest(*conn, scanners, "127.0.0.1:0") {
    rest.RegisterRoutes(&router);
  }

  std::unique_ptr<basalt::Connection> conn;
  rest::ScannerRegistry scanners;
  http::ServerConfig config;
  http::Router router;
  http::Metrics metrics;
  std::unique_ptr<http::AccessLog> access_log;
  http::HttpServer server;
  rest::RestService rest;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static RestStack* stack = new RestStack();  // never destroyed: lives as long as the process

  bh::request_parser<bh::string_body> parser;
  parser.header_limit(stack->config.max_header);
  parser.body_limit(stack->config.max_body);
  parser.eager(true);
  boost::beast::error_code ec;
  parser.put(boost::asio::buffer(data, size), ec);
  // A body shorter than Content-Length: the connection would end here, as with EOF.
  if (!ec && !parser.is_done()) parser.put_eof(ec);
  if (ec || !parser.is_done()) return 0;  // the Session closes or answers 4xx before routing

  std::string route;
  http::MemoryLease lease(stack->server.memory_budget(), http::RequestMemoryLimit(stack->config));
  http::Response res = stack->server.Handle(parser.get(), "127.0.0.1:1", &route, &lease);
  const int status = static_cast<int>(res.result_int());
  Check(status >= 200 && status < 600);
  Check(status != 500);
  res.prepare_payload();
  auto length = res[bh::field::content_length];
  Check(length.empty() || std::string(length) == std::to_string(res.body().size()));
  stack->scanners.Expire();
  basalt::fuzz::TrimFuzzStore(*stack->conn);
  return 0;
}
