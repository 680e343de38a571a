#include "client/thrift2/errors.h"

#include <thrift/TApplicationException.h>
#include <thrift/protocol/TProtocolException.h>
#include <thrift/transport/TTransportException.h>

#include <string>
#include <string_view>

#include "thrift2/gen/hbase_types.h"

namespace basalt::client::remote {

namespace {

constexpr std::string_view kServerFailure = "thrift server: ";
constexpr std::string_view kTransportFailure = "thrift transport: ";
constexpr std::string_view kProtocolFailure = "thrift protocol: ";
constexpr std::string_view kOtherFailure = "thrift: ";

bool Contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

Status FromTIOError(const ::basalt::thrift2::TIOError& e) {
  const std::string& msg = e.message;
  // A basalt server sends Status::ToString(): "<CodeName>: <message>".
  for (int c = 1; c <= static_cast<int>(Status::Code::kInternal); ++c) {
    auto code = static_cast<Status::Code>(c);
    std::string prefix = std::string(Status::CodeName(code)) + ": ";
    if (msg.compare(0, prefix.size(), prefix) != 0) continue;
    std::string rest = msg.substr(prefix.size());
    switch (code) {
      case Status::Code::kNotFound:
        return Status::NotFound(rest);
      case Status::Code::kInvalidArgument:
        return Status::InvalidArgument(rest);
      case Status::Code::kAlreadyExists:
        return Status::AlreadyExists(rest);
      case Status::Code::kFailedPrecondition:
        return Status::FailedPrecondition(rest);
      case Status::Code::kCorruption:
        return Status::Corruption(rest);
      case Status::Code::kIOError:
        return Status::IOError(rest);
      case Status::Code::kBusy:
        return Status::Busy(rest);
      case Status::Code::kNotSupported:
        return Status::NotSupported(rest);
      case Status::Code::kAborted:
        return Status::Aborted(rest);
      case Status::Code::kInternal:
        return Status::Internal(rest);
      case Status::Code::kOk:
        break;
    }
  }
  // HBase's server puts the Java exception in the message.
  if (Contains(msg, "TableNotFoundException") || Contains(msg, "NamespaceNotFoundException")) {
    return Status::NotFound(msg);
  }
  if (Contains(msg, "TableExistsException") || Contains(msg, "NamespaceExistException")) {
    return Status::AlreadyExists(msg);
  }
  if (Contains(msg, "TableNotEnabledException") || Contains(msg, "TableNotDisabledException") ||
      Contains(msg, "ConstraintException")) {
    return Status::FailedPrecondition(msg);
  }
  if (Contains(msg, "NoSuchColumnFamilyException")) return Status::NoSuchFamily(msg);
  if (Contains(msg, "IllegalArgumentException") || Contains(msg, "Field is not a long") ||
      Contains(msg, "WrongRowIOException")) {
    return Status::InvalidArgument(msg);
  }
  return Status::IOError(msg);
}

}  // namespace

CallFailure TranslateCurrentException() {
  try {
    throw;
  } catch (const ::basalt::thrift2::TIOError& e) {
    return {FromTIOError(e), true};
  } catch (const ::basalt::thrift2::TIllegalArgument& e) {
    return {Status::InvalidArgument(e.message), true};
  } catch (const apache::thrift::TApplicationException& e) {
    if (e.getType() == apache::thrift::TApplicationException::UNKNOWN_METHOD) {
      return {Status::NotSupported(std::string("thrift server: ") + e.what()), true};
    }
    return {Status::IOError(std::string(kServerFailure) + e.what()), true};
  } catch (const apache::thrift::transport::TTransportException& e) {
    return {Status::IOError(std::string(kTransportFailure) + e.what()), false};
  } catch (const apache::thrift::protocol::TProtocolException& e) {
    return {Status::IOError(std::string(kProtocolFailure) + e.what()), false};
  } catch (const std::exception& e) {
    return {Status::IOError(std::string(kOtherFailure) + e.what()), false};
  } catch (...) {
    return {Status::IOError(std::string(kOtherFailure) + "an unknown exception"), false};
  }
}

bool IsServerFailure(const Status& s) {
  return s.IsIOError() && s.message().rfind(kServerFailure, 0) == 0;
}

bool IsTransportFailure(const Status& s) {
  if (!s.IsIOError()) return false;
  const std::string& m = s.message();
  for (std::string_view prefix : {kTransportFailure, kProtocolFailure, kOtherFailure}) {
    if (m.rfind(prefix, 0) == 0) return true;
  }
  // ClientPool's failure to connect carries the target first.
  return m.rfind("connecting to ", 0) == 0;
}

bool IsTooLargeForOneCall(const Status& s, std::string_view method) {
  const std::string& m = s.message();
  return s.IsInvalidArgument() && m.size() > method.size() &&
         m.compare(0, method.size(), method) == 0 && m[method.size()] == ':';
}

}  // namespace basalt::client::remote
