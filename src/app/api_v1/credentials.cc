#include "app/api_v1/credentials.h"

#include "app/api_v1/cookies.h"

namespace basalt::app::api_v1 {

namespace bh = boost::beast::http;

std::optional<PresentedToken> SessionTokenOf(const server::http::Request& request) {
  std::string_view authorization = server::http::HeaderValue(request, "Authorization");
  if (!authorization.empty()) {
    std::optional<std::string_view> bearer = server::http::BearerToken(authorization);
    if (!bearer) return std::nullopt;
    return PresentedToken{std::string(*bearer), false};
  }
  // Several Cookie headers are allowed in HTTP/2 style; look at each.
  auto [begin, end] = request.equal_range(bh::field::cookie);
  for (auto it = begin; it != end; ++it) {
    std::optional<std::string> value =
        FindCookie({it->value().data(), it->value().size()}, kSessionCookie);
    if (value && !value->empty()) return PresentedToken{std::move(*value), true};
  }
  return std::nullopt;
}

bool NeedsCsrfHeader(const server::http::Request& request, const PresentedToken& token) {
  if (!token.from_cookie) return false;
  switch (request.method()) {
    case bh::verb::post:
    case bh::verb::put:
    case bh::verb::patch:
    case bh::verb::delete_:
      return true;
    default:
      return false;
  }
}

bool HasCsrfHeader(const server::http::Request& request) {
  return server::http::HeaderValue(request, kCsrfHeader) == "1";
}

Status CheckCsrfHeader(const server::http::Request& request, const PresentedToken& token) {
  if (!NeedsCsrfHeader(request, token) || HasCsrfHeader(request)) return Status::OK();
  return Status::FailedPrecondition(
      "a write authenticated by the session cookie needs the header 'X-Basalt-CSRF: 1'");
}

}  // namespace basalt::app::api_v1
