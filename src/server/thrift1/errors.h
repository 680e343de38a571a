// The one place where the Thrift1 server turns a basalt Status into the exception HBase's Thrift1
// gateway would throw.

#ifndef BASALT_SERVER_THRIFT1_ERRORS_H_
#define BASALT_SERVER_THRIFT1_ERRORS_H_

#include <string>

#include "basalt/status.h"
#include "thrift1/gen/Hbase_types.h"

namespace basalt::server::thrift1_errors {

// Every failure is an IOError, as HBase's handler turns every IOException into one. The message
// is Status::ToString() ("NotFound: table default:t does not exist"); canRetry is true only for
// Busy and IOError (HBase sets it false for DoNotRetryIOException). REQUIRES: !status.ok().
[[noreturn]] void ThrowIOError(const Status& status);

inline void ThrowIfError(const Status& status) {
  if (!status.ok()) ThrowIOError(status);
}

template <class T>
T ValueOrThrow(Result<T> result) {
  if (!result.ok()) ThrowIOError(result.status());
  return std::move(*result);
}

// An IllegalArgument with `message`: what HBase throws for bad arguments it checks itself (an
// invalid scanner id, a malformed mutation, a bad table descriptor).
[[noreturn]] void ThrowIllegalArgument(const std::string& message);

// IllegalArgument for an InvalidArgument status, IOError for any other. REQUIRES: !status.ok().
[[noreturn]] void ThrowArgumentOrIOError(const Status& status);

// Returns the value; an InvalidArgument failure throws IllegalArgument, any other IOError.
template <class T>
T ArgumentOrThrow(Result<T> result) {
  if (!result.ok()) ThrowArgumentOrIOError(result.status());
  return std::move(*result);
}

// HBase's message for a scanner id that is unknown, closed or expired.
inline constexpr const char* kInvalidScannerId = "scanner ID is invalid";

// A reserved namespace: an IOError "PermissionDenied: <message>" that cannot be retried (the
// same spelling as Thrift2's).
[[noreturn]] void ThrowPermissionDenied(const std::string& message);

// For methods basalt does not serve: an IOError naming the method.
[[noreturn]] void ThrowUnsupported(const std::string& method, const std::string& why);

}  // namespace basalt::server::thrift1_errors

#endif  // BASALT_SERVER_THRIFT1_ERRORS_H_
