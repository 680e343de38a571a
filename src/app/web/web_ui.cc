#include "app/web/web_ui.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace basalt::app::web {
namespace {

namespace bh = boost::beast::http;

// Beast (Boost 1.74) takes its own string_view.
boost::beast::string_view Bv(std::string_view s) {
  return {s.data(), s.size()};
}

// RFC 9110 13.1.2: If-None-Match uses the weak comparison, so W/"x" matches "x".
bool IfNoneMatchHolds(const server::http::Request& request, std::string_view etag) {
  auto it = request.find(bh::field::if_none_match);
  if (it == request.end()) return false;
  std::string_view list(it->value().data(), it->value().size());
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view tag = server::http::TrimWhitespace(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    if (tag == "*") return true;
    if (tag.substr(0, 2) == "W/") tag.remove_prefix(2);
    if (tag == etag) return true;
  }
  return false;
}

server::http::Response Respond(const server::http::Request& request, bh::status status,
                               std::string_view content_type, std::string body) {
  server::http::Response res{status, request.version()};
  res.set("Content-Security-Policy", Bv(kContentSecurityPolicy));
  res.set("X-Content-Type-Options", "nosniff");
  res.set("X-Frame-Options", "DENY");
  res.set("Referrer-Policy", "no-referrer");
  if (!content_type.empty()) res.set(bh::field::content_type, Bv(content_type));
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

}  // namespace

WebUi::WebUi(std::span<const Asset> assets) : assets_(assets) {}

const Asset* WebUi::Find(std::string_view path) const {
  for (const Asset& asset : assets_) {
    if (asset.path == path) return &asset;
  }
  return nullptr;
}

bool WebUi::WantsHtml(const server::http::Request& request) {
  auto it = request.find(bh::field::accept);
  if (it == request.end()) return false;
  return server::http::AsciiLower(std::string_view(it->value().data(), it->value().size()))
             .find("text/html") != std::string::npos;
}

server::http::Response WebUi::ServeAsset(const server::http::Request& request,
                                         std::string_view path) const {
  const Asset* asset = Find(path);
  if (asset == nullptr) {
    return Respond(request, bh::status::not_found, "text/plain; charset=utf-8", "Not found\r\n");
  }
  server::http::Response res;
  if (IfNoneMatchHolds(request, asset->etag)) {
    res = Respond(request, bh::status::not_modified, "", "");
  } else {
    res = Respond(request, bh::status::ok, asset->content_type, std::string(asset->bytes));
  }
  res.set(bh::field::etag, Bv(asset->etag));
  // Always revalidate: a new binary may carry new assets under the same names.
  res.set(bh::field::cache_control, "no-cache");
  return res;
}

std::vector<WebUi::Route> WebUi::Routes(server::http::Handler rest_root) const {
  std::vector<Route> routes;
  routes.push_back(
      {"/", [this, rest_root = std::move(rest_root)](const server::http::RequestContext& ctx) {
         if (!WantsHtml(ctx.request)) return rest_root(ctx);
         server::http::Response res = ServeAsset(ctx.request, "index.html");
         // The same URL answers JSON to other clients; caches must keep them apart.
         res.set(bh::field::vary, "Accept");
         return res;
       }});
  std::set<size_t> depths;
  for (const Asset& asset : assets_) {
    depths.insert(std::count(asset.path.begin(), asset.path.end(), '/') + 1);
  }
  std::string prefix(kAssetPrefix.substr(0, kAssetPrefix.size() - 1));  // "/ui"
  for (size_t depth : depths) {
    std::string pattern = prefix;
    std::vector<std::string> names;
    for (size_t i = 0; i < depth; ++i) {
      names.push_back("p" + std::to_string(i));
      pattern += "/{" + names.back() + "}";
    }
    routes.push_back({pattern, [this, names](const server::http::RequestContext& ctx) {
                        std::string path;
                        for (const std::string& name : names) {
                          if (!path.empty()) path += '/';
                          path += ctx.Param(name);
                        }
                        return ServeAsset(ctx.request, path);
                      }});
  }
  return routes;
}

}  // namespace basalt::app::web
