// The filter language: HBase's string form of filters (ParseFilter, the Thrift `filterString`,
// the shell's FILTER => "..."), read into the objects of filter.h and written back out.
//
//   auto f = ParseFilter("PrefixFilter('user42#') AND KeyOnlyFilter()");
//   if (!f.ok()) return f.status();        // InvalidArgument, with the byte position
//   scan.SetFilter(*f);
//   std::string text = FilterToString(**f);  // "PrefixFilter('user42#') AND KeyOnlyFilter()"
//
// The grammar, every filter's argument lists and the basalt extensions (the `long:` comparator,
// FuzzyRowFilter) are in docs/filters.md.
//
// Thread safety: both functions are pure; call them from any thread.

#ifndef BASALT_FILTER_LANGUAGE_H_
#define BASALT_FILTER_LANGUAGE_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "basalt/filter.h"
#include "basalt/status.h"

namespace basalt {

// Longer filter strings are rejected.
inline constexpr size_t kMaxFilterStringLength = size_t{1} << 20;
// At most this many levels of parentheses plus SKIP / WHILE around any filter.
inline constexpr int kMaxFilterNesting = 100;

// Parses `text`, which may hold any bytes (inside quotes: NUL, 0xFF, ')' and ',' too). Returns a
// non-null filter. Chains of one operator become one FilterList (`A AND B AND C` has three
// children), so the lists it returns always have two or more non-null children.
//
// Every failure is InvalidArgument, with a one-line message that names the 0-based byte offset
// into `text` of the offending token and what was expected there, e.g.
//   filter syntax error at position 17: expected ',' or ')' after argument 2 of
//   ColumnRangeFilter, found 'x'
//   unknown filter 'Foo' at position 0
//   mismatched parenthesis at position 30: '(' is never closed
//   wrong number of arguments for PageFilter at position 0: expected (page_size), got 2
//   invalid argument 1 of PageFilter at position 11: must be at least 0, found -1
// Bytes of the input quoted in a message are printed in HBase's printable form (\xHH).
// Never crashes; input longer than kMaxFilterStringLength, or nested deeper than
// kMaxFilterNesting, is rejected the same way.
Result<FilterPtr> ParseFilter(std::string_view text);

// Writes `filter` in the filter language, so that for every filter ParseFilter returns,
// ParseFilter(FilterToString(*f)) succeeds and is equal to *f (as long as the string stays
// within kMaxFilterStringLength; it can be up to twice as long as a tersely written input, since
// the output puts a space after each comma and around AND / OR). Nested lists are parenthesised
// only where the precedence needs it.
//
// Filters built by hand may take shapes the language cannot express. These normalise (the text
// parses to a different but equivalent filter):
//   - a FilterList with one child prints as that child;
//   - a DependentColumnFilter without a comparator prints without its operator (the operator
//     means nothing without a comparator), so it reads back with CompareOp::kNoOp.
// These print as text that ParseFilter rejects with InvalidArgument:
//   - an empty FilterList prints as `FilterList()`, a null child as `<null>`;
//   - CompareOp::kNoOp where an operator is required prints as `NO_OP`;
//   - values the parser refuses, printed as they are: a regexstring or substring comparator
//     with an operator other than = and !=, an invalid regular expression, negative limits,
//     offsets, page sizes or timestamps, FuzzyRowFilter keys of unequal lengths, mask bytes
//     other than 0 and 1, or no keys at all;
//   - trees nested deeper than kMaxFilterNesting, and text longer than kMaxFilterStringLength.
// Never crashes, whatever the filter.
std::string FilterToString(const Filter& filter);

}  // namespace basalt

#endif  // BASALT_FILTER_LANGUAGE_H_
