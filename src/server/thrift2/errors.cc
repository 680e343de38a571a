#include "server/thrift2/errors.h"

namespace basalt::server {

void ThrowTIOError(const Status& status) {
  thrift2::TIOError error;
  error.__set_message(status.ToString());
  error.__set_canRetry(status.IsBusy() || status.IsIOError());
  throw error;
}

void ThrowPermissionDenied(const std::string& message) {
  thrift2::TIOError error;
  error.__set_message("PermissionDenied: " + message);
  error.__set_canRetry(false);
  throw error;
}

void ThrowUnsupported(const std::string& method) {
  ThrowTIOError(Status::NotSupported(method + " is not supported by basalt's Thrift2 server"));
}

}  // namespace basalt::server
