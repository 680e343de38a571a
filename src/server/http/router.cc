#include "server/http/router.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace basalt::server::http {
namespace {

// The most segments a pattern may have (a route's score is a 64-bit mask, see Find).
constexpr size_t kMaxSegments = 64;

std::vector<std::string_view> SplitPath(std::string_view path) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '/') {
      ++i;
      continue;
    }
    size_t end = path.find('/', i);
    if (end == std::string_view::npos) end = path.size();
    out.push_back(path.substr(i, end - i));
    i = end;
  }
  return out;
}

// Whether `path` is `prefix` or below it ("/api/v1", "/api/v1/me"; not "/api/v10").
bool UnderPrefix(std::string_view path, std::string_view prefix) {
  if (path.substr(0, prefix.size()) != prefix) return false;
  return path.size() == prefix.size() || path[prefix.size()] == '/';
}

}  // namespace

void Router::AddNamespace(std::string prefix, Handler fallback) {
  namespaces_.push_back({std::move(prefix), std::move(fallback)});
}

void Router::GuardRoutes(const std::function<bool(Verb, const std::string&)>& select,
                         RequestGuard guard) {
  auto shared = std::make_shared<const RequestGuard>(std::move(guard));
  for (Route& route : routes_) {
    if (select(route.method, route.pattern)) route.guards.push_back(shared);
  }
}

void Router::Add(Verb method, std::string pattern, ResultHandler handler,
                 ErrorRenderer render_error) {
  Add(method, std::move(pattern),
      [handler = std::move(handler),
       render_error = std::move(render_error)](const RequestContext& ctx) -> Response {
        Result<Response> response = handler(ctx);
        if (!response.ok()) return render_error(ctx.request, response.status());
        return std::move(*response);
      });
}

std::vector<std::pair<Verb, std::string>> Router::Routes() const {
  std::vector<std::pair<Verb, std::string>> out;
  for (const Route& route : routes_) out.emplace_back(route.method, route.pattern);
  return out;
}

void Router::Add(Verb method, std::string pattern, Handler handler) {
  Route route{method, pattern, {}, std::move(handler), {}};
  std::vector<std::string_view> parts = SplitPath(pattern);
  if (parts.size() > kMaxSegments) {
    // Patterns are the program's own constants: a longer one is a bug, not an input.
    std::fprintf(stderr, "route pattern with more than %zu segments: %s\n", kMaxSegments,
                 pattern.c_str());
    std::abort();
  }
  for (std::string_view s : parts) {
    if (s.size() >= 2 && s.front() == '{' && s.back() == '}') {
      route.segments.push_back({false, std::string(s.substr(1, s.size() - 2))});
    } else {
      route.segments.push_back({true, std::string(s)});
    }
  }
  routes_.push_back(std::move(route));
}

Router::Match Router::Find(Verb method, std::string_view path) const {
  std::vector<std::string_view> parts = SplitPath(path);
  const Namespace* space = nullptr;
  for (const Namespace& ns : namespaces_) {
    if (UnderPrefix(path, ns.prefix)) space = &ns;
  }
  // A route's score: one bit per segment, set for a literal, the first segment the highest bit,
  // so that comparing two scores of the same length as integers compares them segment by segment
  // from the left. No route has more than 64 segments (Add), so a longer path matches none.
  const Route* best = nullptr;
  uint64_t best_score = 0;
  std::vector<Verb> allowed;
  uint64_t allowed_score = 0;
  const bool too_long = parts.size() > kMaxSegments;
  for (const Route& route : routes_) {
    if (too_long || route.segments.size() != parts.size()) continue;
    if (space != nullptr && !UnderPrefix(route.pattern, space->prefix)) continue;
    uint64_t score = 0;
    bool ok = true;
    for (size_t i = 0; i < parts.size() && ok; ++i) {
      const Segment& seg = route.segments[i];
      if (seg.literal) {
        ok = seg.text == parts[i];
        score |= uint64_t{1} << (parts.size() - 1 - i);
      }
    }
    if (!ok) continue;
    // Only the most specific pattern counts, for this method and for the Allow list.
    if (allowed.empty() || score > allowed_score) {
      allowed = {route.method};
      allowed_score = score;
    } else if (score == allowed_score) {
      allowed.push_back(route.method);
    }
    if (route.method != method) continue;
    if (best == nullptr || score > best_score) {
      best = &route;
      best_score = score;
    }
  }
  Match match;
  if (best != nullptr && best_score == allowed_score) {
    match.handler = &best->handler;
    match.pattern = best->pattern;
    for (const auto& guard : best->guards) match.guards.push_back(guard.get());
    for (size_t i = 0; i < parts.size(); ++i) {
      if (!best->segments[i].literal) {
        match.params[best->segments[i].text] = std::string(parts[i]);
      }
    }
    return match;
  }
  if (space != nullptr) {
    std::string allow;
    for (Verb v : allowed) {
      if (!allow.empty()) allow += ", ";
      allow += std::string(boost::beast::http::to_string(v));
    }
    match.handler = &space->fallback;
    match.fallback = true;
    match.pattern = space->prefix + "/*";
    match.params["allow"] = std::move(allow);
    return match;
  }
  match.allowed = std::move(allowed);
  return match;
}

}  // namespace basalt::server::http
