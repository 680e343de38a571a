#include "server/rest/rest_util.h"

#include <charconv>

#include "server/http/url.h"

namespace basalt::server::rest {

namespace bh = boost::beast::http;

std::string Dump(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

http::Response Empty(const http::Request& req, bh::status status) {
  return http::MakeResponse(req, status, "", "");
}

http::Response NotFound(const http::Request& req, const std::string& what) {
  return http::MakeResponse(req, bh::status::not_found, "text/plain", what + "\r\n");
}

Result<std::string> DecodeSegment(const std::string& raw) {
  return http::PercentDecode(raw);
}

Result<std::unique_ptr<Table>> OpenTable(Connection& conn, const http::RequestContext& ctx) {
  BASALT_ASSIGN_OR_RETURN(std::string name, DecodeSegment(ctx.Param("table")));
  BASALT_ASSIGN_OR_RETURN(TableName table, TableName::Parse(name));
  return conn.GetTable(table);
}

Result<std::vector<std::string>> SplitDecoded(const std::string& raw) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t comma = raw.find(',', start);
    BASALT_ASSIGN_OR_RETURN(std::string part, DecodeSegment(raw.substr(start, comma - start)));
    out.push_back(std::move(part));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

Result<int64_t> ParseInt64(const std::string& text, const std::string& what) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    return Status::InvalidArgument(what + " must be an integer, not '" + text + "'");
  }
  return v;
}

}  // namespace basalt::server::rest
