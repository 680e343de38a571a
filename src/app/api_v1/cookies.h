// The session cookie of /api/v1: reading it from a Cookie header, and the Set-Cookie values that
// set and clear it.

#ifndef BASALT_APP_API_V1_COOKIES_H_
#define BASALT_APP_API_V1_COOKIES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace basalt::app::api_v1 {

inline constexpr std::string_view kSessionCookie = "basalt_session";

// The value of the first cookie called `name` in a Cookie header ("a=1; b=2", RFC 6265 §5.4),
// or nullopt. Names compare exactly; whitespace around pairs is ignored; a value in double
// quotes is returned without them; pairs without '=' are skipped.
std::optional<std::string> FindCookie(std::string_view header, std::string_view name);

// "basalt_session=<token>; HttpOnly; SameSite=Strict; Path=/; Max-Age=<seconds>".
std::string SessionCookie(std::string_view token, int64_t max_age_seconds);
// The Set-Cookie value that deletes the session cookie (empty value, Max-Age=0).
std::string ClearedSessionCookie();

}  // namespace basalt::app::api_v1

#endif  // BASALT_APP_API_V1_COOKIES_H_
