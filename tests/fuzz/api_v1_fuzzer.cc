// libFuzzer target for the /api/v1 request path: each input is one HTTP request, routed and
// handled exactly as basalt serve does (Router::Find, the query string, the handler), on an
// in-memory store, with no sockets.
//
// Input: "METHOD TARGET\n", then header lines "Name: value\n" up to an empty line, then the body.
// "$TOKEN" in a header value becomes the session token of the user "fuzzer" (and "$OTHER" that of
// "other"), so that the fuzzer reaches the authenticated handlers.
//
// Properties, for any input:
//   - no crash, no sanitizer finding, no exception out of a handler;
//   - every answer under /api/v1 is a status of the contract, and an error answer has the body
//     {"error": {"code": <the status's code>, "message": <non-empty>}};
//   - no answer is a 500 (on an in-memory store nothing fails but input handling).
// A violation traps, so the fuzzer reports it as a crash.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>

#include "app/api_v1/api_response.h"
#include "app/api_v1/api_v1_service.h"
#include "app/api_v1/app_services.h"
#include "basalt/connection.h"
#include "server/http/router.h"
#include "server/http/url.h"

namespace {

namespace bh = boost::beast::http;
using basalt::app::api_v1::ApiV1Service;
using basalt::app::api_v1::AppServices;

void Check(bool condition) {
  if (!condition) __builtin_trap();
}

struct World {
  std::unique_ptr<basalt::Connection> conn;
  std::unique_ptr<AppServices> app;
  std::unique_ptr<ApiV1Service> api;
  basalt::server::http::Router router;
  std::string token, other_token;
};

std::unique_ptr<World> MakeWorld() {
  auto w = std::make_unique<World>();
  w->conn = std::move(*basalt::Connection::Open("mem:"));
  basalt::app::api_v1::AppServicesOptions options;
  options.hash_cost = basalt::recipes::UserStoreOptions::HashCost::kMinimum;
  options.start_background_work = false;  // one thread: inputs must replay alike
  w->app = std::move(*AppServices::Open(*w->conn, options));
  basalt::app::api_v1::ApiV1Options api_options;
  // Log-ins never block, so that an input's answer does not depend on the ones before it.
  api_options.login_limits.max_failures = 1 << 30;
  w->api = std::make_unique<ApiV1Service>(*w->app, nullptr, api_options);
  w->api->RegisterRoutes(&w->router);
  auto& users = w->app->users();
  Check(users.Register("fuzzer", "correct horse battery").ok());
  Check(users.Register("other", "staple battery horse").ok());
  w->token = users.LogIn("fuzzer", "correct horse battery")->token;
  w->other_token = users.LogIn("other", "staple battery horse")->token;
  return w;
}

// The in-memory store grows with every write; a fresh one every kInputsPerWorld inputs keeps a
// long run within libFuzzer's memory limit.
constexpr int kInputsPerWorld = 10000;

World& TheWorld() {
  // Never destroyed at exit: the store's statics may be gone by then.
  static World* world = nullptr;
  static int inputs = 0;
  if (world == nullptr || ++inputs % kInputsPerWorld == 0) {
    delete world;  // the old store closes before the new one opens
    world = MakeWorld().release();
  }
  return *world;
}

std::string Substitute(std::string value, const World& w) {
  for (auto [from, to] :
       {std::pair<std::string_view, const std::string&>{"$TOKEN", w.token},
        std::pair<std::string_view, const std::string&>{"$OTHER", w.other_token}}) {
    for (size_t at = value.find(from); at != std::string::npos; at = value.find(from, at)) {
      value.replace(at, from.size(), to);
      at += to.size();
    }
  }
  return value;
}

bool ParseRequest(std::string_view input, const World& w, basalt::server::http::Request* req) {
  size_t eol = input.find('\n');
  if (eol == std::string_view::npos) return false;
  std::string_view line = input.substr(0, eol);
  input.remove_prefix(eol + 1);
  size_t space = line.find(' ');
  if (space == std::string_view::npos) return false;
  std::string_view method = line.substr(0, space);
  bh::verb verb = bh::string_to_verb({method.data(), method.size()});
  std::string_view target = line.substr(space + 1);
  if (verb == bh::verb::unknown || target.empty() || target.front() != '/') return false;
  // Beast rejects these bytes in a request line; the server never sees them.
  for (char c : target) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) return false;
  }
  req->method(verb);
  req->target({target.data(), target.size()});
  req->version(11);
  while (true) {
    eol = input.find('\n');
    std::string_view header = input.substr(0, eol);
    input = eol == std::string_view::npos ? std::string_view() : input.substr(eol + 1);
    if (header.empty()) break;
    size_t colon = header.find(':');
    if (colon == std::string_view::npos || colon == 0) return false;
    std::string name(header.substr(0, colon));
    std::string value(header.substr(colon + 1));
    while (!value.empty() && value.front() == ' ') value.erase(0, 1);
    for (char c : name + value) {
      if (c == '\r' || c == '\0') return false;  // not a header Beast would hand over
    }
    req->insert(name, Substitute(value, w));
    if (eol == std::string_view::npos) break;
  }
  req->body() = std::string(input);
  req->prepare_payload();
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  World& w = TheWorld();
  basalt::server::http::Request req;
  if (!ParseRequest({reinterpret_cast<const char*>(data), size}, w, &req)) return 0;
  std::string_view target(req.target().data(), req.target().size());
  size_t q = target.find('?');
  std::string_view path = target.substr(0, q);
  auto query = basalt::server::http::ParseQuery(q == std::string_view::npos ? std::string_view()
                                                                            : target.substr(q + 1));
  if (!query.ok()) return 0;  // the server answers these itself, before any handler
  auto match = w.router.Find(req.method(), path);
  if (match.handler == nullptr) return 0;  // outside /api/v1: not this fuzzer's business
  basalt::server::http::RequestContext ctx{req, std::move(match.params), std::move(*query),
                                           "127.0.0.1:4242"};
  basalt::server::http::Response res = (*match.handler)(ctx);

  static const std::set<int> kContractStatuses = {200, 201, 204, 400, 401, 403,
                                                  404, 405, 409, 413, 429};
  const int status = static_cast<int>(res.result_int());
  Check(kContractStatuses.count(status) == 1);
  if (status >= 400) {
    nlohmann::json body = nlohmann::json::parse(res.body(), nullptr, false);
    Check(!body.is_discarded() && body.is_object() && body.size() == 1);
    const nlohmann::json& error = body["error"];
    Check(error.is_object() && error["code"].is_string() && error["message"].is_string());
    Check(error["code"].get<std::string>() == basalt::app::api_v1::ErrorCodeFor(res.result()));
    Check(!error["message"].get<std::string>().empty());
  } else if (status != 204) {
    Check(!nlohmann::json::parse(res.body(), nullptr, false).is_discarded());
  }
  return 0;
}
