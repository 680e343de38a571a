// Refusals that keep a web browser from being used against the server, checked once for every
// route (REST, /api/v1, the UI, /metrics) before routing. A page on another site can make a
// browser send "simple" cross-site requests, and a DNS-rebinding page can make it talk to this
// server under the attacker's name; neither needs the victim to do more than visit the page.
//
//   Host    must be an IP literal, a loopback name ("localhost"), the bind address or one of
//           ServerConfig::allowed_hosts ("*" there accepts any). A rebinding page always sends
//           its own DNS name, so IP literals are safe to accept. A request without Host (HTTP/1.0
//           tools; browsers always send it) passes.
//   Origin  on a state-changing request (POST, PUT, DELETE, PATCH), when present, must be this
//           server's own origin: http:// or https:// followed by the request's Host. Browsers
//           send Origin on every cross-origin write; other clients do not send it.
// docs/security.md has the model.

#ifndef BASALT_SERVER_HTTP_BROWSER_GUARD_H_
#define BASALT_SERVER_HTTP_BROWSER_GUARD_H_

#include <optional>
#include <string>

#include "server/http/http_types.h"
#include "server/http/server_config.h"

namespace basalt::server::http {

// The reason to refuse `request` (answered 403 by the server), or nullopt to serve it.
std::optional<std::string> BrowserGuardRefusal(const Request& request, const ServerConfig& config);

}  // namespace basalt::server::http

#endif  // BASALT_SERVER_HTTP_BROWSER_GUARD_H_
