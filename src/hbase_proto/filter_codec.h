// HBase's protobuf form of filters (hbase.pb.Filter: the Java class name and that class's own
// message, serialized; what `ProtobufUtil.toFilter(filter).toByteArray()` writes, and what HBase's
// Java ThriftConnection puts in Thrift2's TGet/TScan.filterBytes) and basalt's filters, both ways.
//
//   auto filter = hbase_proto::DecodeFilter(tscan.filterBytes);  // InvalidArgument on failure
//   auto bytes = hbase_proto::EncodeFilter(*filter);              // what Java would have sent
//
// Every filter of filter.h has its Java class of the same simple name in
// org.apache.hadoop.hbase.filter, and the comparators are comparator_codec.h's. What Java reads
// differently from basalt, or basalt cannot do, is InvalidArgument naming it:
//   - a class basalt lacks: "filter org.apache.hadoop.hbase.filter.MultiRowRangeFilter is not
//     supported" (also RandomRowFilter, ColumnValueFilter, FirstKeyValueMatchingQualifiersFilter,
//     FilterAllFilter, any custom filter), "comparator ... is not supported";
//   - a field basalt cannot honour: ColumnPaginationFilter's column_offset, a PrefixFilter or
//     InclusiveStopFilter without its row (Java then keeps no row, or fails), a
//     SingleColumnValueFilter or DependentColumnFilter without its column, a compare filter
//     without a comparator, a FuzzyRowFilter without keys;
//   - what Java's constructors refuse: negative limits, offsets, page sizes and timestamps,
//     duplicate MultipleColumnPrefixFilter prefixes, fuzzy keys whose mask and pattern differ in
//     length, a LongComparator value that is not 8 bytes;
//   - malformed bytes: not protobuf, a required field missing, a field or enum value HBase 2.6
//     does not define, filters nested more than kMaxFilterNesting deep (FilterList, SkipFilter
//     and WhileMatchFilter each count), or more than kMaxFilterBytes of input.
// Decoding never crashes and holds about as much memory as the input, however deep the nesting.
//
// Thread safety: both functions are pure; call them from any thread.

#ifndef BASALT_HBASE_PROTO_FILTER_CODEC_H_
#define BASALT_HBASE_PROTO_FILTER_CODEC_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "basalt/filter.h"
#include "basalt/filter_language.h"
#include "basalt/status.h"

namespace basalt::hbase_proto {

// Longer input is refused: the filter language's cap on filter strings.
inline constexpr size_t kMaxFilterBytes = kMaxFilterStringLength;

// The basalt filter of the bytes of an hbase.pb.Filter. A FuzzyRowFilter's masks come back in
// basalt's form (0 fixed, 1 any) whichever form Java sent (its processed v1 or v2 masks, or the
// user's); a RegexStringComparator's flags as comparator_codec.h says.
Result<FilterPtr> DecodeFilter(std::string_view bytes);

// The bytes HBase 2.6's Java client writes for the same filter (ProtobufUtil.toFilter(f)
// .toByteArray()), so that DecodeFilter(EncodeFilter(f)) equals f, but for the bytes of a
// FuzzyRowFilter pattern under its mask's wildcards, which come back as 0 (Java writes them so).
// Unbounded ColumnRangeFilter ends are written as absent (Java's null); a FuzzyRowFilter with
// Java's v2 masks; a regexstring comparator as `new RegexStringComparator(pattern)`.
// InvalidArgument for a null child, a tree nested more than kMaxFilterNesting deep, or a value no
// Java filter can hold (an operator or list operator out of range).
Result<std::string> EncodeFilter(const Filter& filter);

}  // namespace basalt::hbase_proto

#endif  // BASALT_HBASE_PROTO_FILTER_CODEC_H_
