// The checks a cell passes before it is written, shared by the write path and bulk loads so that
// both refuse the same input in the same words.

#ifndef BASALT_ENGINE_CELL_CHECKS_H_
#define BASALT_ENGINE_CELL_CHECKS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "basalt/status.h"
#include "basalt/types.h"

namespace basalt::engine {

inline constexpr size_t kMaxQualifierLength = 65535;

inline Status CheckRow(std::string_view row) {
  if (row.empty()) return Status::InvalidArgument("row key must not be empty");
  if (row.size() > kMaxRowKeyLength) {
    return Status::InvalidArgument("row key is " + std::to_string(row.size()) +
                                   " bytes; the limit is " + std::to_string(kMaxRowKeyLength));
  }
  return Status::OK();
}

// For a timestamp given by the caller (not kLatestTimestamp).
inline Status CheckTimestamp(int64_t ts) {
  if (ts < 0) {
    return Status::InvalidArgument("timestamp " + std::to_string(ts) + " is negative");
  }
  return Status::OK();
}

inline Status CheckQualifier(std::string_view q) {
  if (q.size() > kMaxQualifierLength) {
    return Status::InvalidArgument("qualifier is " + std::to_string(q.size()) +
                                   " bytes; the limit is " + std::to_string(kMaxQualifierLength));
  }
  return Status::OK();
}

inline Status CheckValueSize(std::string_view family, std::string_view qualifier, size_t size,
                             size_t max_value_bytes) {
  if (size > max_value_bytes) {
    return Status::InvalidArgument("value of " + std::string(family) + ":" +
                                   std::string(qualifier) + " is " + std::to_string(size) +
                                   " bytes; the limit is " + std::to_string(max_value_bytes));
  }
  return Status::OK();
}

}  // namespace basalt::engine

#endif  // BASALT_ENGINE_CELL_CHECKS_H_
