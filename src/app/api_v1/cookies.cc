#include "app/api_v1/cookies.h"

namespace basalt::app::api_v1 {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::optional<std::string> FindCookie(std::string_view header, std::string_view name) {
  while (!header.empty()) {
    size_t end = header.find(';');
    std::string_view pair = header.substr(0, end);
    header = end == std::string_view::npos ? std::string_view() : header.substr(end + 1);
    size_t eq = pair.find('=');
    if (eq == std::string_view::npos) continue;
    if (Trim(pair.substr(0, eq)) != name) continue;
    std::string_view value = Trim(pair.substr(eq + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = value.substr(1, value.size() - 2);
    }
    return std::string(value);
  }
  return std::nullopt;
}

std::string SessionCookie(std::string_view token, int64_t max_age_seconds) {
  return std::string(kSessionCookie) + "=" + std::string(token) +
         "; HttpOnly; SameSite=Strict; Path=/; Max-Age=" + std::to_string(max_age_seconds);
}

std::string ClearedSessionCookie() {
  return SessionCookie("", 0);
}

}  // namespace basalt::app::api_v1
