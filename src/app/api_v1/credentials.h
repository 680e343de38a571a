// The credentials a request of basalt serve carries: a user's session token (bearer or cookie,
// docs/api-v1.md "Authentication") and the admin token (server/http/credentials.h). Only reads
// headers; whether a session token is live is the UserStore's business.

#ifndef BASALT_APP_API_V1_CREDENTIALS_H_
#define BASALT_APP_API_V1_CREDENTIALS_H_

#include <optional>
#include <string>
#include <string_view>

#include "basalt/status.h"
#include "server/http/credentials.h"
#include "server/http/http_types.h"

namespace basalt::app::api_v1 {

inline constexpr std::string_view kCsrfHeader = "X-Basalt-CSRF";

struct PresentedToken {
  std::string token;  // a secret: never log it
  bool from_cookie = false;
};

// The session token of `request`: "Authorization: Bearer T" when present (then the cookie is
// not looked at), else the basalt_session cookie; nullopt when neither (or empty).
std::optional<PresentedToken> SessionTokenOf(const server::http::Request& request);

// Whether a request must prove it is not cross-site forged: a POST, PUT, PATCH or DELETE
// authenticated by the cookie needs "X-Basalt-CSRF: 1".
bool NeedsCsrfHeader(const server::http::Request& request, const PresentedToken& token);
bool HasCsrfHeader(const server::http::Request& request);
// OK unless the request needs the CSRF header and lacks it: then FailedPrecondition (the API's
// 403 forbidden) naming the header.
Status CheckCsrfHeader(const server::http::Request& request, const PresentedToken& token);

}  // namespace basalt::app::api_v1

#endif  // BASALT_APP_API_V1_CREDENTIALS_H_
