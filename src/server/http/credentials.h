// Credentials every HTTP surface of basalt serve reads the same way: a bearer token in
// "Authorization", and the admin token (docs/security.md). Only reads headers; what a token
// grants is the caller's business.

#ifndef BASALT_SERVER_HTTP_CREDENTIALS_H_
#define BASALT_SERVER_HTTP_CREDENTIALS_H_

#include <optional>
#include <string>
#include <string_view>

#include "server/http/http_types.h"
#include "server/http/router.h"

namespace basalt::server::http {

inline constexpr std::string_view kAdminHeader = "X-Basalt-Admin";

// The value of header `name` in `request`, empty when absent.
std::string_view HeaderValue(const Request& request, std::string_view name);

// The token of "Bearer T" (scheme case-insensitive, RFC 7235, surrounding spaces trimmed), or
// nullopt for another scheme or an empty token.
std::optional<std::string_view> BearerToken(std::string_view authorization);

// Equality in time independent of where the strings differ (for secrets).
bool ConstantTimeEquals(std::string_view a, std::string_view b);

// Whether `request` carries `admin_token` as "Authorization: Bearer T" or "X-Basalt-Admin: T".
// REQUIRES: !admin_token.empty().
bool HasAdminToken(const Request& request, std::string_view admin_token);

// A route guard (router.h) for the admin token: a request without it gets 401 with a
// text/plain message (the REST API's error format) and "WWW-Authenticate: Bearer".
// REQUIRES: !admin_token.empty().
RequestGuard AdminTokenGuard(std::string admin_token);

}  // namespace basalt::server::http

#endif  // BASALT_SERVER_HTTP_CREDENTIALS_H_
