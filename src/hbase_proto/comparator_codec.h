// HBase's comparators on the wire (hbase.pb.Comparator: the Java class name and that class's
// own message, serialized) and basalt's ByteComparator, both ways.
//
// Decoded: BinaryComparator, BinaryPrefixComparator, SubstringComparator, LongComparator and
// RegexStringComparator (engine JAVA, charset UTF-8, the Pattern flags RE2 can follow: see
// DecodeComparator). Any other class (NullComparator, BitComparator, BigDecimalComparator,
// BinaryComponentComparator, a custom one) is InvalidArgument "comparator <class> is not
// supported".

#ifndef BASALT_HBASE_PROTO_COMPARATOR_CODEC_H_
#define BASALT_HBASE_PROTO_COMPARATOR_CODEC_H_

#include <string_view>

#include "basalt/filter.h"
#include "basalt/status.h"
#include "basalt/types.h"
#include "hbase_proto/proto/Comparator.pb.h"

namespace basalt::hbase_proto {

// The Java package of HBase's filters and comparators.
inline constexpr std::string_view kJavaFilterPackage = "org.apache.hadoop.hbase.filter.";

// Java's java.util.regex.Pattern flags, as RegexStringComparator carries them.
inline constexpr int kPatternUnixLines = 0x01;
inline constexpr int kPatternCaseInsensitive = 0x02;
inline constexpr int kPatternComments = 0x04;
inline constexpr int kPatternMultiline = 0x08;
inline constexpr int kPatternLiteral = 0x10;
inline constexpr int kPatternDotAll = 0x20;
inline constexpr int kPatternUnicodeCase = 0x40;
inline constexpr int kPatternCanonEq = 0x80;
inline constexpr int kPatternUnicodeCharacterClass = 0x100;

// The comparator `comparator` describes. A RegexStringComparator's pattern is RE2's reading of
// Java's: DOTALL (the default of `new RegexStringComparator(expr)`) is what basalt always does;
// CASE_INSENSITIVE, MULTILINE and DOTALL's absence become RE2's inline flags (?i), (?m), (?-s)
// in front of the pattern, LITERAL escapes it, UNIX_LINES and UNICODE_CASE are accepted (RE2
// knows only \n as a line end, and folds case by Unicode). COMMENTS, CANON_EQ,
// UNICODE_CHARACTER_CLASS, an unknown flag, a charset other than UTF-8 and the JONI engine are
// InvalidArgument naming them, as is a malformed message. The pattern itself is compiled by the
// read (an invalid one fails there).
Result<ByteComparator> DecodeComparator(const ::hbase::pb::Comparator& comparator);

// OK when basalt evaluates `comparator` under `op`: RegexStringComparator and
// SubstringComparator only with EQUAL and NOT_EQUAL (HBase's filter language has the same rule;
// its protobuf form would also take the others). `filter` names the filter for the message.
Status CheckComparatorOp(const ByteComparator& comparator, CompareOp op, std::string_view filter);

// What HBase's Java client writes for the comparator: the class name and ProtobufUtil's bytes
// (a regexstring comparator as `new RegexStringComparator(pattern)`: DOTALL, UTF-8, JAVA).
::hbase::pb::Comparator EncodeComparator(const ByteComparator& comparator);

}  // namespace basalt::hbase_proto

#endif  // BASALT_HBASE_PROTO_COMPARATOR_CODEC_H_
