// Router: a table of routes, each a method and a path pattern mapped to a handler.
//
// A pattern is a sequence of '/'-separated segments; a segment is a literal ("schema") or a
// parameter ("{table}"), which matches any one non-empty segment of the target. When several
// patterns match a path, the most specific wins: comparing segment by segment from the left, a
// literal beats a parameter. A path that matches some pattern but with another method gets 405
// with an Allow header; a path that matches nothing gets 404.
//
// The pattern string is the route's name in metrics and logs ("/{table}/schema"), so a raw URL
// never becomes a metric label.
//
// A namespace (AddNamespace) reserves a path prefix for one API: paths under it match only the
// routes whose pattern starts with the prefix, so a catch-all pattern of another API
// ("/{table}/{row}") never answers them, and the namespace's fallback handler answers what no
// route of the namespace matches (so that API keeps its own error format for 404 and 405).
//
// A route may carry guards (GuardRoutes): checks of the request's header alone, such as the
// admin token, which the server runs before it reads the body, so that a request they refuse
// costs no more than its header (http_server.h), and again before the handler.
//
// Errors are translated once, here: a route added with a ResultHandler returns its failures as a
// Status, and the router answers them in the API's error format (its ErrorRenderer: HBase REST's
// is ErrorResponse in status_mapping.h), so no handler turns a Status into a response by hand.
//
// Thread safety: Add, AddNamespace and GuardRoutes before serving; Find may then be called from
// many threads.

#ifndef BASALT_SERVER_HTTP_ROUTER_H_
#define BASALT_SERVER_HTTP_ROUTER_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/status.h"
#include "server/http/http_types.h"

namespace basalt::server::http {

// A handler that reports failure as a Status (BASALT_ASSIGN_OR_RETURN works in it). It may still
// return an error response itself where no Status says it (a 401 with its own message, ...).
using ResultHandler = std::function<Result<Response>(const RequestContext&)>;

// An API's error format: the response for a failed `status`. REQUIRES: !status.ok().
using ErrorRenderer = std::function<Response(const Request&, const Status&)>;

// A check of a request from its method, target and header fields (never its body, which may
// not have been read): the response that refuses it, or nullopt to let it through.
using RequestGuard = std::function<std::optional<Response>(const Request&)>;

class Router {
 public:
  struct Match {
    const Handler* handler = nullptr;  // null: no route for this method (see allowed)
    std::string pattern;               // the matched route's pattern, "" when none matched
    std::map<std::string, std::string> params;
    std::vector<Verb> allowed;  // when handler is null but the path matched other methods
    // The matched route's guards, in the order added (they live as long as the router).
    std::vector<const RequestGuard*> guards;
    bool fallback = false;  // handler is a namespace's fallback (no route of it matched)
  };

  void Add(Verb method, std::string pattern, Handler handler);
  // A route whose failures `render_error` answers.
  void Add(Verb method, std::string pattern, ResultHandler handler, ErrorRenderer render_error);

  // Reserves the paths equal to `prefix` ("/api/v1") or below it (see the file comment).
  // `fallback` answers a path of the namespace that no route of the namespace matches for this
  // method; its parameter "allow" holds the methods the path has routes for, ", "-joined (empty:
  // no route at all). The fallback's route name is prefix + "/*".
  void AddNamespace(std::string prefix, Handler fallback);

  // Adds `guard` to every route added so far for which `select(method, pattern)` holds: e.g. to
  // require a credential on some routes of an API. A request passes a route's guards before its
  // body is read and its handler runs.
  void GuardRoutes(const std::function<bool(Verb, const std::string&)>& select, RequestGuard guard);

  // Every route added, as (method, pattern), in the order added.
  std::vector<std::pair<Verb, std::string>> Routes() const;

  // `path` is the target's path, without the query string, still percent-encoded.
  Match Find(Verb method, std::string_view path) const;

 private:
  struct Segment {
    bool literal;
    std::string text;  // the literal, or the parameter's name
  };
  struct Route {
    Verb method;
    std::string pattern;
    std::vector<Segment> segments;
    Handler handler;
    std::vector<std::shared_ptr<const RequestGuard>> guards;
  };
  struct Namespace {
    std::string prefix;
    Handler fallback;
  };
  std::vector<Route> routes_;
  std::vector<Namespace> namespaces_;
};

}  // namespace basalt::server::http

#endif  // BASALT_SERVER_HTTP_ROUTER_H_
