#include "hbase_proto/comparator_codec.h"

#include <cctype>
#include <string>
#include <utility>

#include "hbase_proto/message_parse.h"
#include "util/coding.h"

namespace basalt::hbase_proto {
namespace {

namespace pb = ::hbase::pb;

std::string JavaName(std::string_view simple_name) {
  return std::string(kJavaFilterPackage) + std::string(simple_name);
}

bool EqualsIgnoringAsciiCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// RE2's QuoteMeta: every byte but [A-Za-z0-9_] and UTF-8's non-ASCII bytes is escaped.
std::string QuoteRegex(std::string_view text) {
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\0') {
      out += "\\x00";
      continue;
    }
    if (!std::isalnum(u) && c != '_' && u < 0x80) out += '\\';
    out += c;
  }
  return out;
}

template <class Message>
Result<std::string> ComparableValue(const pb::Comparator& comparator) {
  Message m;
  BASALT_RETURN_IF_ERROR(ParseStrict(comparator.serialized_comparator(), &m));
  BASALT_RETURN_IF_ERROR(CheckKnownFields(m.comparable()));
  return std::string(m.comparable().value());
}

Result<ByteComparator> DecodeRegex(const pb::Comparator& comparator) {
  pb::RegexStringComparator m;
  BASALT_RETURN_IF_ERROR(ParseStrict(comparator.serialized_comparator(), &m));
  const std::string kWhat = "RegexStringComparator";
  if (m.has_engine() && m.engine() != "JAVA") {
    return Status::InvalidArgument(kWhat + " engine " + Printable(m.engine()) +
                                   " is not supported (basalt matches with RE2, as JAVA does)");
  }
  // Java keeps its default (UTF-8) for an empty charset name.
  if (!m.charset().empty() && !EqualsIgnoringAsciiCase(m.charset(), "UTF-8") &&
      !EqualsIgnoringAsciiCase(m.charset(), "UTF8")) {
    return Status::InvalidArgument(kWhat + " charset " + Printable(m.charset()) +
                                   " is not supported (UTF-8 only)");
  }
  const int flags = m.pattern_flags();
  constexpr int kAccepted = kPatternUnixLines | kPatternCaseInsensitive | kPatternMultiline |
                            kPatternLiteral | kPatternDotAll | kPatternUnicodeCase;
  if ((flags & ~kAccepted) != 0) {
    std::string refused;
    auto refuse = [&](bool set, const char* name) {
      if (!set) return;
      refused += refused.empty() ? "" : ", ";
      refused += name;
    };
    refuse((flags & kPatternComments) != 0, "COMMENTS");
    refuse((flags & kPatternCanonEq) != 0, "CANON_EQ");
    refuse((flags & kPatternUnicodeCharacterClass) != 0, "UNICODE_CHARACTER_CLASS");
    constexpr int kJavaFlags =
        kAccepted | kPatternComments | kPatternCanonEq | kPatternUnicodeCharacterClass;
    refuse((flags & ~kJavaFlags) != 0, "bits Java's Pattern does not define");
    return Status::InvalidArgument(kWhat + " pattern flags " + std::to_string(flags) + " (" +
                                   refused + ") are not supported");
  }
  std::string pattern = (flags & kPatternLiteral) != 0 ? QuoteRegex(m.pattern()) : m.pattern();
  std::string on;
  if ((flags & kPatternCaseInsensitive) != 0) on += 'i';
  if ((flags & kPatternMultiline) != 0) on += 'm';
  const bool dot_all = (flags & kPatternDotAll) != 0;
  if (!on.empty() || !dot_all) {
    pattern = "(?" + on + (dot_all ? "" : "-s") + ")" + pattern;
  }
  return ByteComparator::RegexString(std::move(pattern));
}

}  // namespace

Result<ByteComparator> DecodeComparator(const pb::Comparator& comparator) {
  BASALT_RETURN_IF_ERROR(CheckKnownFields(comparator));
  const std::string& name = comparator.name();
  if (name == JavaName("BinaryComparator")) {
    BASALT_ASSIGN_OR_RETURN(std::string v, ComparableValue<pb::BinaryComparator>(comparator));
    return ByteComparator::Binary(std::move(v));
  }
  if (name == JavaName("BinaryPrefixComparator")) {
    BASALT_ASSIGN_OR_RETURN(std::string v, ComparableValue<pb::BinaryPrefixComparator>(comparator));
    return ByteComparator::BinaryPrefix(std::move(v));
  }
  if (name == JavaName("LongComparator")) {
    BASALT_ASSIGN_OR_RETURN(std::string v, ComparableValue<pb::LongComparator>(comparator));
    if (v.size() != 8) {
      return Status::InvalidArgument("LongComparator needs an 8-byte value, not " +
                                     std::to_string(v.size()) + " bytes");
    }
    return ByteComparator::Long(static_cast<int64_t>(util::DecodeFixed64BE(v.data())));
  }
  if (name == JavaName("SubstringComparator")) {
    pb::SubstringComparator m;
    BASALT_RETURN_IF_ERROR(ParseStrict(comparator.serialized_comparator(), &m));
    return ByteComparator::Substring(m.substr());
  }
  if (name == JavaName("RegexStringComparator")) return DecodeRegex(comparator);
  return Status::InvalidArgument("comparator " + Printable(name) + " is not supported");
}

Status CheckComparatorOp(const ByteComparator& comparator, CompareOp op, std::string_view filter) {
  const auto kind = comparator.kind();
  if (kind != ByteComparator::Kind::kRegexString && kind != ByteComparator::Kind::kSubstring) {
    return Status::OK();
  }
  if (op == CompareOp::kEqual || op == CompareOp::kNotEqual) return Status::OK();
  return Status::InvalidArgument(
      std::string(filter) + ": a " +
      (kind == ByteComparator::Kind::kRegexString ? "RegexStringComparator"
                                                  : "SubstringComparator") +
      " works only with EQUAL and NOT_EQUAL in basalt, not " + std::string(CompareOpName(op)));
}

pb::Comparator EncodeComparator(const ByteComparator& comparator) {
  pb::Comparator out;
  auto comparable = [&](auto message, std::string_view simple_name) {
    message.mutable_comparable()->set_value(comparator.operand());
    out.set_name(JavaName(simple_name));
    out.set_serialized_comparator(message.SerializeAsString());
  };
  switch (comparator.kind()) {
    case ByteComparator::Kind::kBinary:
      comparable(pb::BinaryComparator(), "BinaryComparator");
      break;
    case ByteComparator::Kind::kBinaryPrefix:
      comparable(pb::BinaryPrefixComparator(), "BinaryPrefixComparator");
      break;
    case ByteComparator::Kind::kLong:
      comparable(pb::LongComparator(), "LongComparator");
      break;
    case ByteComparator::Kind::kSubstring: {
      pb::SubstringComparator m;
      m.set_substr(comparator.operand());
      out.set_name(JavaName("SubstringComparator"));
      out.set_serialized_comparator(m.SerializeAsString());
      break;
    }
    case ByteComparator::Kind::kRegexString: {
      pb::RegexStringComparator m;
      m.set_pattern(comparator.operand());
      m.set_pattern_flags(kPatternDotAll);
      m.set_charset("UTF-8");
      m.set_engine("JAVA");
      out.set_name(JavaName("RegexStringComparator"));
      out.set_serialized_comparator(m.SerializeAsString());
      break;
    }
  }
  return out;
}

}  // namespace basalt::hbase_proto
