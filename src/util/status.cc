#include "basalt/status.h"

namespace basalt {

std::string_view Status::CodeName(Code code) {
  switch (code) {
    case Code::kOk:
      return "OK";
    case Code::kNotFound:
      return "NotFound";
    case Code::kInvalidArgument:
      return "InvalidArgument";
    case Code::kAlreadyExists:
      return "AlreadyExists";
    case Code::kFailedPrecondition:
      return "FailedPrecondition";
    case Code::kCorruption:
      return "Corruption";
    case Code::kIOError:
      return "IOError";
    case Code::kBusy:
      return "Busy";
    case Code::kNotSupported:
      return "NotSupported";
    case Code::kAborted:
      return "Aborted";
    case Code::kInternal:
      return "Internal";
  }
  return "Unknown";
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string out(CodeName(code_));
  if (!message_.empty()) {
    out += ": ";
    out += message_;
  }
  return out;
}

Status Status::WithContextSlow(std::string_view context) const {
  std::string msg(context);
  msg += ": ";
  msg += message_;
  return Status(code_, std::move(msg), subcode_);
}

}  // namespace basalt
