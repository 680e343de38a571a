// Status and Result<T>: how every basalt call reports an expected failure.
//
// No exception crosses the public API. A call that can fail returns a Status (or a Result<T>,
// which holds either a T or a non-OK Status). Both are [[nodiscard]]: ignoring one on purpose
// takes a visible call, `PermitUncheckedError()`.
//
// An OK Status holds no message and costs no allocation.
//
// Thread safety: a Status or Result is a value; distinct objects may be used from distinct
// threads, one object needs external synchronisation like any std type.

#ifndef BASALT_STATUS_H_
#define BASALT_STATUS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace basalt {

class [[nodiscard]] Status {
 public:
  // The failure classes. Values are stable (they appear in CLI exit paths and logs).
  enum class Code : uint8_t {
    kOk = 0,
    kNotFound = 1,            // a table, namespace, family or row that does not exist
    kInvalidArgument = 2,     // the caller's input is malformed or out of limits
    kAlreadyExists = 3,       // create of something that exists
    kFailedPrecondition = 4,  // the object is in the wrong state (e.g. a disabled table)
    kCorruption = 5,          // stored bytes do not decode
    kIOError = 6,             // the storage layer failed
    kBusy = 7,                // try again later
    kNotSupported = 8,        // the backend cannot do this
    kAborted = 9,             // the operation was cancelled or its store closed
    kInternal = 10,           // a basalt bug; please report it
  };

  // A finer reason within a class, for callers that answer it differently (HBase's RPC names a
  // missing family NoSuchColumnFamilyException, a missing table TableNotFoundException). Values
  // are stable.
  enum class SubCode : uint8_t {
    kNone = 0,
    kNoSuchFamily = 1,  // NotFound: the operation names a family the table lacks
  };

  Status() noexcept = default;

  static Status OK() { return Status(); }
  static Status NotFound(std::string msg) { return Status(Code::kNotFound, std::move(msg)); }
  static Status InvalidArgument(std::string msg) {
    return Status(Code::kInvalidArgument, std::move(msg));
  }
  static Status AlreadyExists(std::string msg) {
    return Status(Code::kAlreadyExists, std::move(msg));
  }
  static Status FailedPrecondition(std::string msg) {
    return Status(Code::kFailedPrecondition, std::move(msg));
  }
  static Status Corruption(std::string msg) { return Status(Code::kCorruption, std::move(msg)); }
  static Status IOError(std::string msg) { return Status(Code::kIOError, std::move(msg)); }
  static Status Busy(std::string msg) { return Status(Code::kBusy, std::move(msg)); }
  static Status NotSupported(std::string msg) {
    return Status(Code::kNotSupported, std::move(msg));
  }
  static Status Aborted(std::string msg) { return Status(Code::kAborted, std::move(msg)); }
  static Status Internal(std::string msg) { return Status(Code::kInternal, std::move(msg)); }
  // A NotFound that says which family and table: the family, not the table, is missing.
  static Status NoSuchFamily(std::string msg) {
    return Status(Code::kNotFound, std::move(msg), SubCode::kNoSuchFamily);
  }

  bool ok() const { return code_ == Code::kOk; }
  bool IsNotFound() const { return code_ == Code::kNotFound; }
  bool IsInvalidArgument() const { return code_ == Code::kInvalidArgument; }
  bool IsAlreadyExists() const { return code_ == Code::kAlreadyExists; }
  bool IsFailedPrecondition() const { return code_ == Code::kFailedPrecondition; }
  bool IsCorruption() const { return code_ == Code::kCorruption; }
  bool IsIOError() const { return code_ == Code::kIOError; }
  bool IsBusy() const { return code_ == Code::kBusy; }
  bool IsNotSupported() const { return code_ == Code::kNotSupported; }
  bool IsAborted() const { return code_ == Code::kAborted; }
  bool IsNoSuchFamily() const { return subcode_ == SubCode::kNoSuchFamily; }

  Code code() const { return code_; }
  SubCode subcode() const { return subcode_; }
  const std::string& message() const { return message_; }

  // "OK", or "<CodeName>: <message>".
  std::string ToString() const;

  // The name of a code, e.g. "InvalidArgument".
  static std::string_view CodeName(Code code);

  // Marks a deliberate decision to ignore this status. Greppable on purpose.
  void PermitUncheckedError() const {}

  // A copy with `context + ": "` put in front of the message; OK stays OK. (Inline for OK:
  // parsers call it on every field they read.)
  Status WithContext(std::string_view context) const {
    if (ok()) return Status();
    return WithContextSlow(context);
  }

  friend bool operator==(const Status& a, const Status& b) {
    return a.code_ == b.code_ && a.subcode_ == b.subcode_ && a.message_ == b.message_;
  }

 private:
  Status(Code code, std::string msg, SubCode subcode = SubCode::kNone)
      : code_(code), subcode_(subcode), message_(std::move(msg)) {}
  Status WithContextSlow(std::string_view context) const;

  Code code_ = Code::kOk;
  SubCode subcode_ = SubCode::kNone;
  std::string message_;
};

// Either a value of type T or a non-OK Status.
// REQUIRES: a Result is never built from an OK Status (that is a programming error and is
// turned into Status::Internal).
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : rep_(std::move(value)) {}        // NOLINT: implicit on purpose
  Result(Status status) : rep_(std::move(status)) {  // NOLINT: implicit on purpose
    if (std::get<Status>(rep_).ok()) {
      rep_ = Status::Internal("Result built from an OK Status without a value");
    }
  }

  bool ok() const { return std::holds_alternative<T>(rep_); }

  // OK when a value is held.
  Status status() const { return ok() ? Status::OK() : std::get<Status>(rep_); }

  // REQUIRES: ok().
  T& value() & { return std::get<T>(rep_); }
  const T& value() const& { return std::get<T>(rep_); }
  T&& value() && { return std::get<T>(std::move(rep_)); }

  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  // The value, or `fallback` when this holds an error.
  T value_or(T fallback) const& { return ok() ? value() : std::move(fallback); }

  void PermitUncheckedError() const {}

 private:
  std::variant<T, Status> rep_;
};

}  // namespace basalt

#define BASALT_STATUS_CONCAT_INNER_(a, b) a##b
#define BASALT_STATUS_CONCAT_(a, b) BASALT_STATUS_CONCAT_INNER_(a, b)

// Returns the Status of `expr` from the enclosing function when it is not OK.
#define BASALT_RETURN_IF_ERROR(expr)                         \
  do {                                                       \
    ::basalt::Status basalt_status_tmp_ = (expr);            \
    if (!basalt_status_tmp_.ok()) return basalt_status_tmp_; \
  } while (0)

// Evaluates `rexpr` (a Result<T>); on error returns its Status, else moves the value into `lhs`
// (which may be a declaration such as `auto x`).
#define BASALT_ASSIGN_OR_RETURN(lhs, rexpr) \
  BASALT_ASSIGN_OR_RETURN_IMPL_(BASALT_STATUS_CONCAT_(basalt_result_, __LINE__), lhs, rexpr)

#define BASALT_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                                  \
  if (!tmp.ok()) return tmp.status();                  \
  lhs = std::move(tmp).value()

#endif  // BASALT_STATUS_H_
