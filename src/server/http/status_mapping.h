// The one place where a basalt Status becomes an HTTP status code and error body.

#ifndef BASALT_SERVER_HTTP_STATUS_MAPPING_H_
#define BASALT_SERVER_HTTP_STATUS_MAPPING_H_

#include <boost/beast/http/status.hpp>

#include "basalt/status.h"
#include "server/http/http_types.h"

namespace basalt::server::http {

// NotFound 404; InvalidArgument 400; AlreadyExists and FailedPrecondition 409; Busy and
// Aborted 503; NotSupported 501; everything else 500. REQUIRES: !status.ok().
boost::beast::http::status HttpStatusFor(const Status& status);

// A text/plain error response for `status`, its message as the body (one line, CRLF-terminated
// as HBase's REST server writes them).
Response ErrorResponse(const Request& request, const Status& status);

}  // namespace basalt::server::http

#endif  // BASALT_SERVER_HTTP_STATUS_MAPPING_H_
