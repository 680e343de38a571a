// The one place where the Thrift2 server turns a basalt Status into the exception HBase's Thrift2
// server would throw.

#ifndef BASALT_SERVER_THRIFT2_ERRORS_H_
#define BASALT_SERVER_THRIFT2_ERRORS_H_

#include <string>

#include "basalt/status.h"
#include "thrift2/gen/hbase_types.h"

namespace basalt::server {

// Every failure becomes a TIOError, as HBase's handler turns every IOException into one (§4.5).
// The message is Status::ToString() ("NotFound: table default:t does not exist"), so a basalt
// client can tell the classes apart; canRetry is true only for Busy and IOError (HBase sets it
// false for DoNotRetryIOException: bad arguments, missing families, ...).
// REQUIRES: !status.ok().
[[noreturn]] void ThrowTIOError(const Status& status);

// Throws ThrowTIOError(status) unless status is OK.
inline void ThrowIfError(const Status& status) {
  if (!status.ok()) ThrowTIOError(status);
}

// Returns the value, or throws the TIOError of its status.
template <class T>
T ValueOrThrow(Result<T> result) {
  if (!result.ok()) ThrowTIOError(result.status());
  return std::move(*result);
}

// The message of the TIllegalArgument thrown for a scanner id that is unknown or expired.
inline constexpr const char* kInvalidScannerId = "Invalid scanner Id";

// For a request the server refuses whatever its arguments (a reserved namespace): a TIOError
// "PermissionDenied: <message>" that cannot be retried. basalt::Status has no such class, so
// this is its one spelling on Thrift2.
[[noreturn]] void ThrowPermissionDenied(const std::string& message);

// For methods basalt does not serve (ACLs, slow logs, ...): a TIOError naming the method.
[[noreturn]] void ThrowUnsupported(const std::string& method);

}  // namespace basalt::server

#endif  // BASALT_SERVER_THRIFT2_ERRORS_H_
