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
// Thread safety: Add before serving; Find may then be called from many threads.

#ifndef BASALT_SERVER_HTTP_ROUTER_H_
#define BASALT_SERVER_HTTP_ROUTER_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "server/http/http_types.h"

namespace basalt::server::http {

class Router {
 public:
  struct Match {
    const Handler* handler = nullptr;  // null: no route for this method (see allowed)
    std::string pattern;               // the matched route's pattern, "" when none matched
    std::map<std::string, std::string> params;
    std::vector<Verb> allowed;  // when handler is null but the path matched other methods
  };

  void Add(Verb method, std::string pattern, Handler handler);

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
  };
  std::vector<Route> routes_;
};

}  // namespace basalt::server::http

#endif  // BASALT_SERVER_HTTP_ROUTER_H_
