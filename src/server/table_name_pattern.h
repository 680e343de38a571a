// A caller's table name pattern (HBase's Pattern.compile, matched against the whole name as
// TableName::ToString() spells it), for the listings of Thrift2 and the native RPC's
// MasterService.
//
// RE2 rather than std::regex: std::regex recurses per nesting level and backtracks, so one call
// with a deeply nested pattern overflowed the stack and a pattern like (a*)*b took exponential
// time; RE2 parses without recursion and matches in linear time. Java syntax RE2 lacks (back
// references, look-around) is refused. The length and program-size caps bound the memory one
// call may spend compiling; table names are short, so real patterns are far below both.

#ifndef BASALT_SERVER_TABLE_NAME_PATTERN_H_
#define BASALT_SERVER_TABLE_NAME_PATTERN_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <re2/re2.h>

#include "basalt/status.h"

namespace basalt::server {

inline constexpr size_t kMaxTableNamePatternBytes = 4096;
inline constexpr int64_t kMaxTableNamePatternMemory = 1 << 20;

// The compiled pattern; InvalidArgument when it is longer than kMaxTableNamePatternBytes, needs
// more than kMaxTableNamePatternMemory, or is not valid RE2 syntax.
Result<std::unique_ptr<re2::RE2>> CompileTableNamePattern(const std::string& regex);

}  // namespace basalt::server

#endif  // BASALT_SERVER_TABLE_NAME_PATTERN_H_
