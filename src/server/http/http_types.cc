#include "server/http/http_types.h"

#include "server/http/memory_budget.h"
#include "server/http/status_mapping.h"

namespace basalt::server::http {

std::optional<std::string> RequestContext::Query(const std::string& name) const {
  for (const auto& [k, v] : query) {
    if (k == name) return v;
  }
  return std::nullopt;
}

std::vector<std::string> RequestContext::QueryAll(const std::string& name) const {
  std::vector<std::string> out;
  for (const auto& [k, v] : query) {
    if (k == name) out.push_back(v);
  }
  return out;
}

Response MakeResponse(const Request& request, boost::beast::http::status status,
                      std::string content_type, std::string body) {
  Response res{status, request.version()};
  if (!content_type.empty()) res.set(boost::beast::http::field::content_type, content_type);
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::string_view TrimWhitespace(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string ClientAddress(std::string_view remote) {
  if (!remote.empty() && remote.front() == '[') {
    size_t close = remote.find(']');
    if (close != std::string_view::npos) return std::string(remote.substr(1, close - 1));
  }
  size_t colon = remote.rfind(':');
  if (colon == std::string_view::npos) return std::string(remote);
  return std::string(remote.substr(0, colon));
}

std::string RequestContext::client_address() const {
  return ClientAddress(remote);
}

}  // namespace basalt::server::http

namespace basalt::server::http {

std::optional<Response> RequestContext::ReserveMemory(uint64_t bytes, std::string_view what) const {
  if (memory == nullptr) return std::nullopt;
  MemoryLease::Outcome outcome = memory->Reserve(bytes);
  if (outcome == MemoryLease::Outcome::kReserved) return std::nullopt;
  return MemoryRefusal(
      request.version(), View(request.target()), outcome, *memory,
      std::string(what) + " would take " + std::to_string(bytes) + " more bytes of memory");
}

}  // namespace basalt::server::http
