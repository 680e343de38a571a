// The filters of the language and their argument lists: HBase's ParseFilter registry (every
// filter of filter.h that HBase's string form can write) plus basalt's FuzzyRowFilter. This is
// where each argument list is checked and turned into a Filter; the grammar around the filter
// terms is in filter_parser.cc.

#ifndef BASALT_FILTER_FILTER_REGISTRY_H_
#define BASALT_FILTER_FILTER_REGISTRY_H_

#include <vector>

#include "basalt/filter.h"
#include "basalt/status.h"
#include "filter/filter_lexer.h"

namespace basalt::filter {

// OK when the kWord token `name` names a filter of the language; otherwise InvalidArgument
// ("unknown filter 'Foo' at position P", with a hint where one helps).
Status CheckFilterName(const Token& name);

// Builds the filter `name` names from its arguments (each a kString or kWord token, in order).
// Fails with InvalidArgument on a wrong number of arguments or an invalid one, naming the
// position of the filter name or of the argument.
// REQUIRES: CheckFilterName(name).ok().
Result<FilterPtr> BuildFilter(const Token& name, const std::vector<Token>& args);

}  // namespace basalt::filter

#endif  // BASALT_FILTER_FILTER_REGISTRY_H_
