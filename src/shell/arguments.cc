#include "shell/arguments.h"

#include <cctype>
#include <charconv>
#include <limits>

#include "util/bytes_format.h"

namespace basalt::shell {
namespace {

Status WrongKind(const Value& v, std::string_view what, std::string_view expected) {
  return Status::InvalidArgument(std::string(what) + " must be " + std::string(expected) +
                                 ", not " + std::string(v.KindName()));
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

Result<std::string> AsBytes(const Value& v, std::string_view what) {
  if (v.kind == Value::Kind::kString) return v.text;
  if (v.kind == Value::Kind::kInteger) return std::to_string(v.integer);
  return WrongKind(v, what, "a string");
}

Result<std::string> AsWord(const Value& v, std::string_view what) {
  if (v.kind == Value::Kind::kConstant) return v.text;
  return AsBytes(v, what);
}

Result<int64_t> AsInteger(const Value& v, std::string_view what) {
  if (v.kind == Value::Kind::kInteger) return v.integer;
  if (v.kind == Value::Kind::kString) {
    int64_t n = 0;
    const char* end = v.text.data() + v.text.size();
    auto [ptr, ec] = std::from_chars(v.text.data(), end, n);
    if (ec == std::errc() && ptr == end && !v.text.empty()) return n;
    return Status::InvalidArgument(std::string(what) + " must be an integer, not '" +
                                   util::ToStringBinary(v.text) + "'");
  }
  return WrongKind(v, what, "an integer");
}

Result<int32_t> AsInt32(const Value& v, std::string_view what, int32_t min) {
  BASALT_ASSIGN_OR_RETURN(int64_t n, AsInteger(v, what));
  if (n < min || n > std::numeric_limits<int32_t>::max()) {
    return Status::InvalidArgument(std::string(what) + " must be between " + std::to_string(min) +
                                   " and " + std::to_string(std::numeric_limits<int32_t>::max()) +
                                   ", not " + std::to_string(n));
  }
  return static_cast<int32_t>(n);
}

Result<bool> AsBoolean(const Value& v, std::string_view what) {
  if (v.kind == Value::Kind::kBoolean) return v.boolean;
  if (v.kind == Value::Kind::kString) {
    if (Lower(v.text) == "true") return true;
    if (Lower(v.text) == "false") return false;
  }
  return WrongKind(v, what, "true or false");
}

Result<std::vector<std::string>> AsStringList(const Value& v, std::string_view what) {
  std::vector<std::string> out;
  if (v.kind != Value::Kind::kArray) {
    BASALT_ASSIGN_OR_RETURN(std::string s, AsBytes(v, what));
    out.push_back(std::move(s));
    return out;
  }
  for (const Value& item : v.items) {
    BASALT_ASSIGN_OR_RETURN(std::string s, AsBytes(item, what));
    out.push_back(std::move(s));
  }
  return out;
}

Result<TimeRange> AsTimeRange(const Value& v, std::string_view what) {
  if (v.kind != Value::Kind::kArray || v.items.size() != 2) {
    return Status::InvalidArgument(std::string(what) + " must be [MIN, MAX] (milliseconds)");
  }
  TimeRange range;
  BASALT_ASSIGN_OR_RETURN(range.min, AsInteger(v.items[0], std::string(what) + " start"));
  BASALT_ASSIGN_OR_RETURN(range.max, AsInteger(v.items[1], std::string(what) + " end"));
  if (range.min < 0 || range.max < range.min) {
    return Status::InvalidArgument(std::string(what) + " must have 0 <= MIN <= MAX, not [" +
                                   std::to_string(range.min) + ", " + std::to_string(range.max) +
                                   "]");
  }
  return range;
}

Result<TableName> AsTableName(const Value& v) {
  BASALT_ASSIGN_OR_RETURN(std::string text, AsBytes(v, "the table name"));
  return TableName::Parse(text);
}

Result<ColumnName> AsWriteColumn(const Value& v) {
  BASALT_ASSIGN_OR_RETURN(std::string text, AsBytes(v, "the column"));
  return ParseColumnName(text);
}

Value StringValue(std::string text) {
  Value v;
  v.kind = Value::Kind::kString;
  v.text = std::move(text);
  return v;
}

Status CheckArgCount(const std::vector<Value>& args, size_t min, size_t max,
                     std::string_view command) {
  if (args.size() >= min && args.size() <= max) return Status::OK();
  std::string expected =
      min == max ? std::to_string(min) : std::to_string(min) + " to " + std::to_string(max);
  return Status::InvalidArgument(std::string(command) + " takes " + expected +
                                 " argument(s), got " + std::to_string(args.size()));
}

Result<std::optional<std::regex>> NamePatternArg(const std::vector<Value>& args) {
  if (args.empty()) return std::optional<std::regex>();
  BASALT_ASSIGN_OR_RETURN(std::string text, AsBytes(args[0], "the pattern"));
  try {
    return std::optional<std::regex>(std::regex(text));
  } catch (const std::regex_error& e) {
    return Status::InvalidArgument("invalid regular expression '" + util::ToStringBinary(text) +
                                   "': " + e.what());
  }
}

std::string KeyName(const Value& key) {
  if (key.kind == Value::Kind::kConstant || key.kind == Value::Kind::kString) return key.text;
  return "";
}

Options::Options(const Value* hash, std::string_view command,
                 std::vector<std::string_view> accepted)
    : hash_(hash), command_(command), accepted_(std::move(accepted)) {
  if (hash_ != nullptr) taken_.assign(hash_->entries.size(), false);
}

const Value* Options::Take(std::string_view key) {
  if (hash_ == nullptr) return nullptr;
  const Value* found = nullptr;
  for (size_t i = 0; i < hash_->entries.size(); ++i) {
    if (KeyName(hash_->entries[i].key) == key) {
      taken_[i] = true;
      found = &hash_->entries[i].value;  // the last one wins, as in a Ruby hash literal
    }
  }
  return found;
}

bool Options::Has(std::string_view key) const {
  if (hash_ == nullptr) return false;
  for (const auto& e : hash_->entries) {
    if (KeyName(e.key) == key) return true;
  }
  return false;
}

Status Options::Finish() const {
  if (hash_ == nullptr) return Status::OK();
  for (size_t i = 0; i < taken_.size(); ++i) {
    if (taken_[i]) continue;
    const Value& key = hash_->entries[i].key;
    std::string list;
    for (auto a : accepted_) list += (list.empty() ? "" : ", ") + std::string(a);
    std::string name = KeyName(key);
    if (name.empty()) {
      return Status::InvalidArgument("option names are constants or strings, not " +
                                     std::string(key.KindName()));
    }
    return Status::InvalidArgument("unknown option " + util::ToStringBinary(name) + " for " +
                                   command_ + " (basalt supports" +
                                   (list.empty() ? " none" : ": " + list) + ")");
  }
  return Status::OK();
}

}  // namespace basalt::shell
