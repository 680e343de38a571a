#include "server/http/browser_guard.h"

#include <algorithm>
#include <boost/asio/ip/address.hpp>
#include <string_view>

#include "server/http/credentials.h"

namespace basalt::server::http {

namespace bh = boost::beast::http;

namespace {

// "name:port" -> "name"; "[::1]:port" -> "::1".
std::string HostName(std::string_view host) {
  if (!host.empty() && host.front() == '[') {
    size_t close = host.find(']');
    return AsciiLower(host.substr(1, close == std::string_view::npos ? host.npos : close - 1));
  }
  return AsciiLower(host.substr(0, host.find(':')));
}

bool IsIpLiteral(const std::string& name) {
  boost::system::error_code ec;
  boost::asio::ip::make_address(name, ec);
  return !ec;
}

bool IsAllowedHost(const std::string& name, const ServerConfig& config) {
  if (name == "localhost" || IsIpLiteral(name) || name == AsciiLower(config.bind)) return true;
  return std::any_of(
      config.allowed_hosts.begin(), config.allowed_hosts.end(),
      [&](const std::string& allowed) { return allowed == "*" || AsciiLower(allowed) == name; });
}

bool ChangesState(Verb verb) {
  return verb == Verb::post || verb == Verb::put || verb == Verb::delete_ || verb == Verb::patch;
}

}  // namespace

std::optional<std::string> BrowserGuardRefusal(const Request& request, const ServerConfig& config) {
  std::string_view host = HeaderValue(request, "Host");
  if (!host.empty() && !IsAllowedHost(HostName(host), config)) {
    return "Host '" + std::string(host) +
           "' is not a name of this server (a DNS-rebinding page sends its own name); add it "
           "with --allowed-host or the config key allowed_hosts";
  }
  if (!ChangesState(request.method())) return std::nullopt;
  auto origin = request.find(bh::field::origin);
  if (origin == request.end()) return std::nullopt;
  std::string sent = AsciiLower(std::string_view(origin->value().data(), origin->value().size()));
  std::string own = AsciiLower(host);
  if (!own.empty() && (sent == "http://" + own || sent == "https://" + own)) return std::nullopt;
  return "cross-origin request refused: Origin '" + sent +
         "' is not this server's own origin, and writes are refused from other sites";
}

}  // namespace basalt::server::http
