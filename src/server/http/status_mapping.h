// The one place where a basalt Status becomes an HTTP status code and error body.

#ifndef BASALT_SERVER_HTTP_STATUS_MAPPING_H_
#define BASALT_SERVER_HTTP_STATUS_MAPPING_H_

#include <boost/beast/http/status.hpp>
#include <string>
#include <string_view>

#include "basalt/status.h"
#include "server/http/http_types.h"
#include "server/http/memory_budget.h"

namespace basalt::server::http {

// NotFound 404; InvalidArgument 400; AlreadyExists and FailedPrecondition 409; Busy and
// Aborted 503; NotSupported 501; everything else 500. REQUIRES: !status.ok().
boost::beast::http::status HttpStatusFor(const Status& status);

// A text/plain error response for `status`, its message as the body (one line, CRLF-terminated
// as HBase's REST server writes them).
Response ErrorResponse(const Request& request, const Status& status);

// Whether `target` belongs to /api/v1, whose errors are JSON (docs/api-v1.md).
bool IsJsonApiTarget(std::string_view target);

// An error the server answers itself, before or around a handler (a limit, a refusal from the
// header), in the error shape of the API `target` belongs to: /api/v1's JSON
// {"error": {"code", "message"}}, else the REST API's text/plain `message`.
Response ServerErrorResponse(unsigned version, std::string_view target,
                             boost::beast::http::status status, std::string_view code,
                             const std::string& message);

// The answer to a MemoryLease::Reserve that did not succeed (REQUIRES: outcome is not
// kReserved): 413 past what one request may hold, 503 with "Retry-After: 1" while the budget is
// spent. `what` says what wanted the memory ("a request body of 8388608 bytes"); the message
// adds the limits of `lease`.
Response MemoryRefusal(unsigned version, std::string_view target, MemoryLease::Outcome outcome,
                       const MemoryLease& lease, const std::string& what);

}  // namespace basalt::server::http

#endif  // BASALT_SERVER_HTTP_STATUS_MAPPING_H_
