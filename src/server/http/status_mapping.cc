#include "server/http/status_mapping.h"

#include <nlohmann/json.hpp>

namespace basalt::server::http {

namespace bh = boost::beast::http;

bh::status HttpStatusFor(const Status& status) {
  switch (status.code()) {
    case Status::Code::kNotFound:
      return bh::status::not_found;
    case Status::Code::kInvalidArgument:
      return bh::status::bad_request;
    case Status::Code::kAlreadyExists:
    case Status::Code::kFailedPrecondition:
      return bh::status::conflict;
    case Status::Code::kBusy:
    case Status::Code::kAborted:
      return bh::status::service_unavailable;
    case Status::Code::kNotSupported:
      return bh::status::not_implemented;
    case Status::Code::kOk:
    case Status::Code::kCorruption:
    case Status::Code::kIOError:
    case Status::Code::kInternal:
      break;
  }
  return bh::status::internal_server_error;
}

Response ErrorResponse(const Request& request, const Status& status) {
  std::string body = status.ToString();
  for (char& c : body) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return MakeResponse(request, HttpStatusFor(status), "text/plain", body + "\r\n");
}

bool IsJsonApiTarget(std::string_view target) {
  return target.rfind("/api/v1/", 0) == 0 || target == "/api/v1" ||
         target.rfind("/api/v1?", 0) == 0;
}

Response ServerErrorResponse(unsigned version, std::string_view target, bh::status status,
                             std::string_view code, const std::string& message) {
  Response res{status, version};
  if (IsJsonApiTarget(target)) {
    res.set(bh::field::content_type, "application/json");
    res.body() = nlohmann::json{{"error", {{"code", code}, {"message", message}}}}.dump(
        -1, ' ', false, nlohmann::json::error_handler_t::replace);
  } else {
    res.set(bh::field::content_type, "text/plain");
    res.body() = message + "\r\n";
  }
  res.prepare_payload();
  return res;
}

Response MemoryRefusal(unsigned version, std::string_view target, MemoryLease::Outcome outcome,
                       const MemoryLease& lease, const std::string& what) {
  if (outcome == MemoryLease::Outcome::kOverRequestLimit) {
    return ServerErrorResponse(version, target, bh::status::payload_too_large, "too_large",
                               what + ", more than the " +
                                   std::to_string(lease.per_request_limit()) +
                                   " bytes one request may hold");
  }
  Response res =
      ServerErrorResponse(version, target, bh::status::service_unavailable, "unavailable",
                          what + ", and the server already holds what its request_memory_budget (" +
                              std::to_string(lease.budget().limit()) +
                              " bytes of request data at once) allows; retry later");
  res.set(bh::field::retry_after, "1");
  return res;
}

}  // namespace basalt::server::http
