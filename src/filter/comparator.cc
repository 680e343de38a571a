#include "filter/comparator.h"

#include <re2/re2.h>

#include <algorithm>
#include <cstring>

#include "util/coding.h"

namespace basalt::filter {
namespace {

char AsciiLower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

int CompareBytes(std::string_view a, std::string_view b) {
  size_t n = std::min(a.size(), b.size());
  int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
  if (c != 0) return c;
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

}  // namespace

CompiledComparator::CompiledComparator(const ByteComparator& comparator, CompareOp op)
    : kind_(comparator.kind()), op_(op), operand_(comparator.operand()) {}

CompiledComparator::CompiledComparator(CompiledComparator&&) noexcept = default;
CompiledComparator& CompiledComparator::operator=(CompiledComparator&&) noexcept = default;
CompiledComparator::~CompiledComparator() = default;

Result<CompiledComparator> CompiledComparator::Compile(const ByteComparator& comparator,
                                                       CompareOp op) {
  const bool matcher = comparator.kind() == ByteComparator::Kind::kRegexString ||
                       comparator.kind() == ByteComparator::Kind::kSubstring;
  if (matcher && op != CompareOp::kEqual && op != CompareOp::kNotEqual) {
    return Status::InvalidArgument(std::string(ByteComparator::TypeName(comparator.kind())) +
                                   " comparators take only = and !=, not " +
                                   std::string(CompareOpName(op)));
  }
  if (comparator.kind() == ByteComparator::Kind::kLong && comparator.operand().size() != 8) {
    return Status::InvalidArgument("a long comparator needs an 8-byte operand");
  }
  CompiledComparator c(comparator, op);
  if (c.kind_ == ByteComparator::Kind::kSubstring) {
    std::transform(c.operand_.begin(), c.operand_.end(), c.operand_.begin(), AsciiLower);
  } else if (c.kind_ == ByteComparator::Kind::kRegexString) {
    // Java's RegexStringComparator decodes UTF-8 and matches with find() and DOTALL; RE2 runs
    // in linear time, so a hostile pattern cannot stall the read path. A pattern that is not
    // UTF-8 (raw bytes) is matched byte by byte, as Latin-1; the parser accepts the same set.
    RE2::Options options;
    options.set_dot_nl(true);
    options.set_log_errors(false);
    c.regex_ = std::make_unique<re2::RE2>(c.operand_, options);
    if (!c.regex_->ok()) {
      options.set_encoding(RE2::Options::EncodingLatin1);
      auto latin1 = std::make_unique<re2::RE2>(c.operand_, options);
      if (!latin1->ok()) {
        return Status::InvalidArgument("bad regular expression '" + c.operand_ +
                                       "': " + c.regex_->error());
      }
      c.regex_ = std::move(latin1);
    }
  }
  return c;
}

bool CompiledComparator::Passes(std::string_view stored) const {
  switch (kind_) {
    case ByteComparator::Kind::kBinary:
      return CompareOpHolds(op_, CompareBytes(stored, operand_));
    case ByteComparator::Kind::kBinaryPrefix:
      return CompareOpHolds(op_, CompareBytes(stored.substr(0, operand_.size()), operand_));
    case ByteComparator::Kind::kRegexString: {
      bool found = RE2::PartialMatch(re2::StringPiece(stored.data(), stored.size()), *regex_);
      return CompareOpHolds(op_, found ? 0 : 1);
    }
    case ByteComparator::Kind::kSubstring: {
      auto it = std::search(stored.begin(), stored.end(), operand_.begin(), operand_.end(),
                            [](char a, char b) { return AsciiLower(a) == b; });
      return CompareOpHolds(op_, it != stored.end() || operand_.empty() ? 0 : 1);
    }
    case ByteComparator::Kind::kLong: {
      if (stored.size() != 8) return false;
      auto a = static_cast<int64_t>(util::DecodeFixed64BE(stored.data()));
      auto b = static_cast<int64_t>(util::DecodeFixed64BE(operand_.data()));
      return CompareOpHolds(op_, a < b ? -1 : a > b ? 1 : 0);
    }
  }
  return false;
}

}  // namespace basalt::filter
