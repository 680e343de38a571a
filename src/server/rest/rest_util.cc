#include "server/rest/rest_util.h"

#include <charconv>

#include "server/http/url.h"

namespace basalt::server::rest {

namespace bh = boost::beast::http;

std::string Dump(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

http::Response JsonOk(const http::Request& req, std::string json) {
  return http::MakeResponse(req, bh::status::ok, "application/json", std::move(json));
}

http::Response Empty(const http::Request& req, bh::status status) {
  return http::MakeResponse(req, status, "", "");
}

http::Response NotFound(const http::Request& req, const std::string& what) {
  return http::MakeResponse(req, bh::status::not_found, "text/plain", what + "\r\n");
}

namespace {
std::string Lower(boost::beast::string_view s) {
  std::string out(s.data(), s.size());
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}
}  // namespace

bool AcceptsJson(const http::Request& req) {
  auto it = req.find(bh::field::accept);
  if (it == req.end()) return true;
  std::string accept = Lower(it->value());
  return accept.empty() || accept.find("json") != std::string::npos ||
         accept.find("*/*") != std::string::npos ||
         accept.find("application/*") != std::string::npos;
}

bool WantsOctetStream(const http::Request& req) {
  auto it = req.find(bh::field::accept);
  return it != req.end() && Lower(it->value()).find("application/octet-stream") == 0;
}

http::Response NotAcceptable(const http::Request& req) {
  return http::MakeResponse(req, bh::status::not_acceptable, "text/plain",
                            "Not acceptable: basalt serves application/json (and "
                            "application/octet-stream for single cells)\r\n");
}

BodyType RequestBodyType(const http::Request& req) {
  auto it = req.find(bh::field::content_type);
  if (it == req.end()) return BodyType::kOther;
  // The media type without its parameters ("; charset=utf-8"): a type that merely contains
  // "json" (text/plain;charset=json) is one a cross-site form or fetch may send without CORS.
  std::string type = Lower(it->value());
  type = type.substr(0, type.find(';'));
  while (!type.empty() && type.back() == ' ') type.pop_back();
  constexpr std::string_view kJsonSuffix = "+json";
  if (type == "application/json" ||
      (type.size() > kJsonSuffix.size() && type.ends_with(kJsonSuffix))) {
    return BodyType::kJson;
  }
  if (type == "application/octet-stream") return BodyType::kOctetStream;
  return BodyType::kOther;
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
