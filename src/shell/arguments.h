// Typed access to the parsed arguments of a shell command. Every accessor returns
// InvalidArgument naming the argument when a value has the wrong type, so commands never
// guess.

#ifndef BASALT_SHELL_ARGUMENTS_H_
#define BASALT_SHELL_ARGUMENTS_H_

#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/cell.h"
#include "basalt/schema.h"
#include "basalt/status.h"
#include "basalt/types.h"
#include "shell/parser.h"

namespace basalt::shell {

// Bytes: a string, or an integer as its decimal text (as Ruby's to_s does in HBase's shell).
Result<std::string> AsBytes(const Value& v, std::string_view what);
// A string or a constant (TTL => FOREVER, KEEP_DELETED_CELLS => TTL) as text.
Result<std::string> AsWord(const Value& v, std::string_view what);
// An integer, or a string holding one.
Result<int64_t> AsInteger(const Value& v, std::string_view what);
// An integer in [min, max].
Result<int32_t> AsInt32(const Value& v, std::string_view what, int32_t min);
// true / false, or the strings 'true' / 'false' (any case).
Result<bool> AsBoolean(const Value& v, std::string_view what);
// A string or an array of strings.
Result<std::vector<std::string>> AsStringList(const Value& v, std::string_view what);
// [MIN, MAX] as HBase's TIMERANGE: versions with MIN <= timestamp < MAX.
Result<TimeRange> AsTimeRange(const Value& v, std::string_view what);

// A table name: 'name' or 'namespace:name'.
Result<TableName> AsTableName(const Value& v);

// A write's column: "f:q", or "f" alone for the family's empty qualifier (as HBase's shell).
Result<ColumnName> AsWriteColumn(const Value& v);

// A string value holding `text` (what the command line's words become).
Value StringValue(std::string text);

// InvalidArgument unless min <= args.size() <= max: "`command` takes ...".
Status CheckArgCount(const std::vector<Value>& args, size_t min, size_t max,
                     std::string_view command);

// The optional first argument of `list` and `list_namespace`: a regular expression that must
// match a whole name, as in HBase's shell. nullopt without arguments; InvalidArgument naming the
// expression when it does not compile.
Result<std::optional<std::regex>> NamePatternArg(const std::vector<Value>& args);

// The options of a hash argument (`{KEY => value}`), each taken at most once; keys are
// constants or strings. Finish() rejects the keys nobody took, listing the accepted ones.
class Options {
 public:
  // `command` and `accepted` are for the error message.
  Options(const Value* hash, std::string_view command, std::vector<std::string_view> accepted);

  // The value of `key`, or nullptr when absent. REQUIRES: `key` is one of `accepted`.
  const Value* Take(std::string_view key);
  bool Has(std::string_view key) const;

  Status Finish() const;

 private:
  const Value* hash_;
  std::string command_;
  std::vector<std::string_view> accepted_;
  std::vector<bool> taken_;
};

// The text of a hash key (a constant's name or a string's bytes); empty for other kinds.
std::string KeyName(const Value& key);

}  // namespace basalt::shell

#endif  // BASALT_SHELL_ARGUMENTS_H_
