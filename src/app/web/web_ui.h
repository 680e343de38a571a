// WebUi: serves the embedded web UI (web_assets.h) over the HTTP layer.
//
// Routes:
//   GET /              index.html for browsers (the request's Accept lists text/html); any other
//                      client gets `rest_root` instead, which is HBase REST's table list, so HBase
//                      clients see `GET /` exactly as before.
//   GET /ui/<path>     the asset at <path>, looked up byte for byte in the embedded table. Nothing
//                      is percent-decoded or normalised: asset names need no escaping, so a path
//                      with '%', "..", "//" or '\' simply matches no asset and gets 404. The UI can
//                      therefore never serve anything but its own files.
//
// "/ui" is a literal first segment, so it beats REST's "/{table}/..." patterns: a table named
// `ui` in the default namespace is reachable by its qualified name `default:ui`.
//
// Every response (404 and 304 included) carries Content-Security-Policy (no inline script, nothing
// from other origins), X-Content-Type-Options: nosniff, X-Frame-Options: DENY and
// Referrer-Policy: no-referrer. Assets carry a strong ETag; If-None-Match with it gives 304.
//
// Thread safety: immutable after construction; Handle may be called from many threads.

#ifndef BASALT_APP_WEB_WEB_UI_H_
#define BASALT_APP_WEB_WEB_UI_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "app/web/web_assets.h"
#include "server/http/http_types.h"

namespace basalt::app::web {

inline constexpr std::string_view kAssetPrefix = "/ui/";
inline constexpr std::string_view kContentSecurityPolicy =
    "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

class WebUi {
 public:
  // `assets` must outlive this object (EmbeddedAssets() in production, a fixed table in tests).
  explicit WebUi(std::span<const Asset> assets);

  struct Route {
    std::string pattern;
    server::http::Handler handler;
  };
  // The GET routes to add to a router: "/" and one "/ui/{p1}/.../{pN}" per depth of the asset
  // tree. `rest_root` answers `GET /` for clients that are not browsers.
  std::vector<Route> Routes(server::http::Handler rest_root) const;

  // The asset at `path` (relative to web/), or null.
  const Asset* Find(std::string_view path) const;

  // The response for `path` (relative to web/): 200 with the bytes, 304 when If-None-Match holds
  // the asset's ETag (or "*"), 404 for an unknown path.
  server::http::Response ServeAsset(const server::http::Request& request,
                                    std::string_view path) const;

  // Whether `request` is a browser asking for a page (its Accept lists text/html).
  static bool WantsHtml(const server::http::Request& request);

 private:
  std::span<const Asset> assets_;
};

}  // namespace basalt::app::web

#endif  // BASALT_APP_WEB_WEB_UI_H_
