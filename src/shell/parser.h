// The syntax of `basalt shell`: the subset of Ruby that HBase's shell commands are written in.
//
//   put 't1', "row\x00", 'f:q', 'value', 1700000000000
//   scan 'ns:t', {STARTROW => 'a', LIMIT => 10, COLUMNS => ['f:q', 'g']}
//   alter 't1', NAME => 'f', VERSIONS => 5          # trailing key => value pairs form one hash
//   create_namespace 'ns'; list_namespace
//
// Values:
//   'text'   single quotes: bytes taken literally; only \\ and \' are escapes (as in Ruby);
//   "text"   double quotes: Ruby's escapes: \xHH (one or two hex digits), \NNN (octal),
//            \n \t \r \0 \e \s \a \b \f \v \\ \" and \uHHHH (UTF-8); another escaped
//            character stands for itself. `#{...}` is not interpolated;
//   123, -5, 1_000    integers (64-bit);
//   true false nil    booleans and nil;
//   VERSIONS, NAME    constants: a word starting with an upper-case letter;
//   [a, b]            arrays;   {K => v, ...}  hashes (keys in the order written).
//
// Commands are separated by ';' or a newline. A command continues on the next line while a
// bracket, brace or parenthesis is open, or after a trailing ',' or '=>' (NeedsMoreInput).
// A string must end on the line it starts on. '#' starts a comment outside strings.
// Arguments may be wrapped in parentheses: get('t', 'r').

#ifndef BASALT_SHELL_PARSER_H_
#define BASALT_SHELL_PARSER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/status.h"

namespace basalt::shell {

struct HashEntry;

struct Value {
  enum class Kind : uint8_t { kString, kInteger, kBoolean, kNil, kConstant, kArray, kHash };

  Kind kind = Kind::kNil;
  std::string text;                // kString: the bytes; kConstant: the name
  int64_t integer = 0;             // kInteger
  bool boolean = false;            // kBoolean
  std::vector<Value> items;        // kArray
  std::vector<HashEntry> entries;  // kHash, in the order written
  size_t position = 0;             // byte offset of the value in the parsed text

  bool is_string() const { return kind == Kind::kString; }
  bool is_hash() const { return kind == Kind::kHash; }
  bool is_array() const { return kind == Kind::kArray; }

  // "a string", "an integer", "a hash", ...: for error messages.
  std::string_view KindName() const;
};

struct HashEntry {
  Value key;
  Value value;
};

struct Command {
  std::string verb;
  std::vector<Value> args;
  size_t position = 0;  // byte offset of the verb
};

// Parses every command in `text` (which may span lines). An empty or comment-only text gives
// no commands. On error returns InvalidArgument ("syntax error at column C: ...", C 1-based on
// the line holding the error) and, when `error_offset` is not null, sets it to the byte offset
// of the offending token.
Result<std::vector<Command>> ParseCommands(std::string_view text, size_t* error_offset = nullptr);

// True when `text` stops inside an open bracket, brace or parenthesis, or after a trailing ','
// or '=>': an interactive shell then reads another line and parses both together. False for
// complete input and for input with a syntax error (ParseCommands reports it).
bool NeedsMoreInput(std::string_view text);

}  // namespace basalt::shell

#endif  // BASALT_SHELL_PARSER_H_
