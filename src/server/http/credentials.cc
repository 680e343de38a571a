#include "server/http/credentials.h"

namespace basalt::server::http {

namespace bh = boost::beast::http;

std::string_view HeaderValue(const Request& request, std::string_view name) {
  auto it = request.find(boost::beast::string_view(name.data(), name.size()));
  if (it == request.end()) return {};
  return {it->value().data(), it->value().size()};
}

std::optional<std::string_view> BearerToken(std::string_view authorization) {
  constexpr std::string_view kScheme = "bearer ";
  if (authorization.size() <= kScheme.size()) return std::nullopt;
  for (size_t i = 0; i < kScheme.size(); ++i) {
    char c = authorization[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != kScheme[i]) return std::nullopt;
  }
  std::string_view token = authorization.substr(kScheme.size());
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  while (!token.empty() && token.back() == ' ') token.remove_suffix(1);
  if (token.empty()) return std::nullopt;
  return token;
}

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  // The length is not secret enough to hide; the bytes are compared without an early exit.
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  size_t n = a.size() < b.size() ? a.size() : b.size();
  for (size_t i = 0; i < n; ++i) {
    diff |= static_cast<unsigned char>(a[i]) ^ static_cast<unsigned char>(b[i]);
  }
  // Keep the compiler from turning the loop into an early-exit comparison.
  volatile unsigned char result = diff;
  return result == 0;
}

bool HasAdminToken(const Request& request, std::string_view admin_token) {
  std::optional<std::string_view> bearer = BearerToken(HeaderValue(request, "Authorization"));
  bool by_bearer = bearer.has_value() && ConstantTimeEquals(*bearer, admin_token);
  bool by_header = ConstantTimeEquals(HeaderValue(request, kAdminHeader), admin_token);
  return by_bearer || by_header;
}

RequestGuard AdminTokenGuard(std::string admin_token) {
  return [admin_token = std::move(admin_token)](const Request& request) -> std::optional<Response> {
    if (HasAdminToken(request, admin_token)) return std::nullopt;
    Response res = MakeResponse(request, bh::status::unauthorized, "text/plain",
                                "this server has an admin token: writes and schema changes need "
                                "'Authorization: Bearer <token>' or 'X-Basalt-Admin: <token>'\r\n");
    res.set(bh::field::www_authenticate, "Bearer");
    return res;
  };
}

}  // namespace basalt::server::http
