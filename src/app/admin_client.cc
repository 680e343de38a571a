#include "app/admin_client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <nlohmann/json.hpp>

#include "app/api_v1/api_v1_service.h"

namespace basalt::app {

namespace {

namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;

// The largest answer read: an admin route's JSON is a few hundred bytes.
constexpr uint64_t kMostAnswerBytes = 1 << 20;

struct HostPort {
  std::string host;
  std::string port;
};

Result<HostPort> ParseServerUrl(const std::string& url) {
  std::string rest = url;
  if (rest.rfind("http://", 0) == 0) {
    rest = rest.substr(7);
  } else if (rest.find("://") != std::string::npos) {
    return Status::InvalidArgument("'" + url + "': only http:// servers are supported");
  }
  while (!rest.empty() && rest.back() == '/') rest.pop_back();
  const size_t colon = rest.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == rest.size() ||
      rest.find('/') != std::string::npos) {
    return Status::InvalidArgument("'" + url + "' is not http://HOST:PORT");
  }
  return HostPort{rest.substr(0, colon), rest.substr(colon + 1)};
}

// The message of the contract's error body, else the body itself.
std::string ErrorMessage(const std::string& body) {
  nlohmann::json parsed = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_object() && parsed.contains("error") && parsed["error"].is_object() &&
      parsed["error"].contains("message") && parsed["error"]["message"].is_string()) {
    return parsed["error"]["message"].get<std::string>();
  }
  return body;
}

}  // namespace

Result<BackupInfo> TakeBackupThroughServer(const std::string& url, const std::string& admin_token) {
  BASALT_ASSIGN_OR_RETURN(HostPort at, ParseServerUrl(url));
  const std::string where = at.host + ":" + at.port;
  boost::asio::io_context io;
  tcp::resolver resolver(io);
  beast::tcp_stream stream(io);
  boost::system::error_code ec;
  auto endpoints = resolver.resolve(at.host, at.port, ec);
  if (!ec) {
    stream.expires_after(std::chrono::seconds(10));
    stream.connect(endpoints, ec);
  }
  if (ec) return Status::IOError("cannot reach " + where + ": " + ec.message());

  http::request<http::string_body> request{http::verb::post,
                                           std::string(api_v1::kApiPrefix) + "/admin/backups", 11};
  request.set(http::field::host, where);
  request.set(http::field::accept, "application/json");
  if (!admin_token.empty()) request.set(http::field::authorization, "Bearer " + admin_token);
  request.prepare_payload();
  // A backup takes as long as copying the store's new table files takes.
  stream.expires_never();
  http::write(stream, request, ec);
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(kMostAnswerBytes);
  if (!ec) http::read(stream, buffer, parser, ec);
  if (ec) return Status::IOError("no answer from " + where + ": " + ec.message());
  const auto& response = parser.get();
  if (response.result() != http::status::created) {
    return Status::FailedPrecondition(where + " answered " + std::to_string(response.result_int()) +
                                      ": " + ErrorMessage(response.body()));
  }
  nlohmann::json body = nlohmann::json::parse(response.body(), nullptr, false);
  if (!body.is_object() || !body.contains("id") || !body["id"].is_number_unsigned() ||
      !body.contains("files") || !body["files"].is_number_unsigned() ||
      !body.contains("size_bytes") || !body["size_bytes"].is_number_unsigned() ||
      !body.contains("timestamp") || !body["timestamp"].is_number_integer()) {
    return Status::Corruption(where + " answered 201 without a backup's fields");
  }
  BackupInfo info;
  info.id = body["id"].get<uint32_t>();
  info.files = body["files"].get<uint32_t>();
  info.size_bytes = body["size_bytes"].get<uint64_t>();
  info.timestamp = body["timestamp"].get<int64_t>();
  return info;
}

}  // namespace basalt::app
