#include "server/thrift1/errors.h"

namespace basalt::server::thrift1_errors {

void ThrowIOError(const Status& status) {
  thrift1::IOError error;
  error.__set_message(status.ToString());
  error.__set_canRetry(status.IsBusy() || status.IsIOError());
  throw error;
}

void ThrowIllegalArgument(const std::string& message) {
  thrift1::IllegalArgument error;
  error.__set_message(message);
  throw error;
}

void ThrowArgumentOrIOError(const Status& status) {
  if (status.IsInvalidArgument()) ThrowIllegalArgument(status.ToString());
  ThrowIOError(status);
}

void ThrowPermissionDenied(const std::string& message) {
  thrift1::IOError error;
  error.__set_message("PermissionDenied: " + message);
  error.__set_canRetry(false);
  throw error;
}

void ThrowUnsupported(const std::string& method, const std::string& why) {
  ThrowIOError(
      Status::NotSupported(method + " is not supported by basalt's Thrift1 server: " + why));
}

}  // namespace basalt::server::thrift1_errors
