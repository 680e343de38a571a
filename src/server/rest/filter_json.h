// HBase REST's JSON filter model (ScannerModel.FilterModel) read into basalt filters.
//
//   {"type":"SingleColumnValueFilter","family":"ZA==","qualifier":"c3RhdHVz","op":"EQUAL",
//    "comparator":{"type":"BinaryComparator","value":"YWN0aXZl"},"ifMissing":true}
//
// Every filter type of filter.h is accepted with HBase's field names; bytes are base64 except
// the RegexStringComparator / SubstringComparator values (plain text) and PageFilter's value (a
// decimal string). Types basalt does not have (MultiRowRangeFilter, RandomRowFilter,
// BitComparator, NullComparator, ...) and malformed models are InvalidArgument.

#ifndef BASALT_SERVER_REST_FILTER_JSON_H_
#define BASALT_SERVER_REST_FILTER_JSON_H_

#include <string>

#include "basalt/filter.h"
#include "basalt/status.h"

namespace basalt::server::rest {

Result<FilterPtr> ParseJsonFilter(const std::string& text);

// A scanner's filter string: the JSON model when it is a JSON object, otherwise HBase's filter
// language (filter_language.h).
Result<FilterPtr> ParseScannerFilter(const std::string& text);

}  // namespace basalt::server::rest

#endif  // BASALT_SERVER_REST_FILTER_JSON_H_
