// The credentials a request of basalt serve carries: a user's session token (bearer or cookie,
// docs/api-v1.md "Authentication") and the admin token. Only reads headers; whether a session
// token is live is the UserStore's business.

#ifndef BASALT_SERVER_API_V1_CREDENTIALS_H_
#define BASALT_SERVER_API_V1_CREDENTIALS_H_

#include <optional>
#include <string>
#include <string_view>

#include "server/http/http_types.h"

namespace basalt::server::api_v1 {

inline constexpr std::string_view kCsrfHeader = "X-Basalt-CSRF";
inline constexpr std::string_view kAdminHeader = "X-Basalt-Admin";

struct PresentedToken {
  std::string token;  // a secret: never log it
  bool from_cookie = false;
};

// The session token of `request`: "Authorization: Bearer T" when present (then the cookie is
// not looked at), else the basalt_session cookie; nullopt when neither (or empty).
std::optional<PresentedToken> SessionTokenOf(const http::Request& request);

// Whether a request must prove it is not cross-site forged: a POST, PUT, PATCH or DELETE
// authenticated by the cookie needs "X-Basalt-CSRF: 1".
bool NeedsCsrfHeader(const http::Request& request, const PresentedToken& token);
bool HasCsrfHeader(const http::Request& request);

// Equality in time independent of where the strings differ (for secrets).
bool ConstantTimeEquals(std::string_view a, std::string_view b);

// Whether `request` carries `admin_token` as "Authorization: Bearer T" or "X-Basalt-Admin: T".
// REQUIRES: !admin_token.empty().
bool HasAdminToken(const http::Request& request, std::string_view admin_token);

// `inner` behind the admin token: without it, 401 with a text/plain message (the REST API's
// error format) and "WWW-Authenticate: Bearer". An empty token makes no guard (returns inner).
http::Handler RequireAdminTokenForRest(std::string admin_token, http::Handler inner);

}  // namespace basalt::server::api_v1

#endif  // BASALT_SERVER_API_V1_CREDENTIALS_H_
