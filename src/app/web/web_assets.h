// The web UI's files (web/ in the source tree), compiled into the binary.
//
// cmake/embed_web_assets.cmake generates the definition of EmbeddedAssets() at build time from
// every file under web/, so the binary serves the UI without reading anything from disk.

#ifndef BASALT_APP_WEB_WEB_ASSETS_H_
#define BASALT_APP_WEB_WEB_ASSETS_H_

#include <span>
#include <string_view>

namespace basalt::app::web {

// One file of the UI. All views point into static storage.
struct Asset {
  std::string_view path;          // relative to web/, e.g. "index.html", "js/app.js"
  std::string_view content_type;  // from the file's extension
  std::string_view bytes;
  std::string_view etag;  // strong: a quoted SHA-256 prefix of `bytes`
};

// Every embedded asset, sorted by path.
std::span<const Asset> EmbeddedAssets();

}  // namespace basalt::app::web

#endif  // BASALT_APP_WEB_WEB_ASSETS_H_
