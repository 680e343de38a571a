#include "server/http/status_mapping.h"

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

}  // namespace basalt::server::http
