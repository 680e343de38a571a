#include "client/thrift2/target.h"

#include <charconv>

namespace basalt::client::remote {

namespace {

constexpr std::string_view kScheme = "thrift://";

Result<int64_t> ParseNumber(std::string_view text, std::string_view what, int64_t min,
                            int64_t max) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < min || v > max) {
    return Status::InvalidArgument("bad " + std::string(what) + " '" + std::string(text) +
                                   "' in thrift target");
  }
  return v;
}

}  // namespace

std::string Thrift2Target::ToString() const {
  std::string s = std::string(kScheme) + host + ":" + std::to_string(port);
  s += framed ? "?transport=framed" : "?transport=buffered";
  s += compact ? "&protocol=compact" : "&protocol=binary";
  return s;
}

Result<Thrift2Target> ParseThrift2Target(std::string_view target) {
  if (target.substr(0, kScheme.size()) != kScheme) {
    return Status::InvalidArgument("a thrift target starts with thrift://");
  }
  std::string_view rest = target.substr(kScheme.size());
  std::string_view query;
  if (auto q = rest.find('?'); q != std::string_view::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }
  auto colon = rest.rfind(':');
  if (colon == std::string_view::npos || colon == 0) {
    return Status::InvalidArgument("thrift target '" + std::string(target) + "' needs HOST:PORT");
  }
  Thrift2Target t;
  t.host = std::string(rest.substr(0, colon));
  if (t.host.size() > 2 && t.host.front() == '[' && t.host.back() == ']') {
    t.host = t.host.substr(1, t.host.size() - 2);
  }
  BASALT_ASSIGN_OR_RETURN(int64_t port, ParseNumber(rest.substr(colon + 1), "port", 1, 65535));
  t.port = static_cast<int>(port);
  while (!query.empty()) {
    auto amp = query.find('&');
    std::string_view item = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (item.empty()) continue;
    auto eq = item.find('=');
    std::string_view key = item.substr(0, eq);
    std::string_view value =
        eq == std::string_view::npos ? std::string_view() : item.substr(eq + 1);
    if (key == "transport" && (value == "framed" || value == "buffered")) {
      t.framed = value == "framed";
    } else if (key == "protocol" && (value == "compact" || value == "binary")) {
      t.compact = value == "compact";
    } else if (key == "max_frame_bytes") {
      BASALT_ASSIGN_OR_RETURN(int64_t v, ParseNumber(value, key, 1, INT32_MAX));
      t.max_frame_bytes = static_cast<int32_t>(v);
    } else if (key == "max_message_bytes") {
      BASALT_ASSIGN_OR_RETURN(int64_t v, ParseNumber(value, key, 1, INT32_MAX));
      t.max_message_bytes = static_cast<int32_t>(v);
    } else if (key == "idle_ms") {
      BASALT_ASSIGN_OR_RETURN(int64_t v, ParseNumber(value, key, 1, INT32_MAX));
      t.idle_ms = static_cast<int>(v);
    } else if (key == "timeout_ms") {
      BASALT_ASSIGN_OR_RETURN(int64_t v, ParseNumber(value, key, 1, INT32_MAX));
      t.timeout_ms = static_cast<int>(v);
    } else {
      return Status::InvalidArgument("unknown thrift target option '" + std::string(item) +
                                     "' (transport=buffered|framed, protocol=binary|compact, "
                                     "max_frame_bytes, max_message_bytes, timeout_ms, idle_ms)");
    }
  }
  return t;
}

}  // namespace basalt::client::remote
