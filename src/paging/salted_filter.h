// Rewriting a filter for one bucket of a salted table, whose stored row keys carry a salt byte
// in front of the original key (salting.h). Filters that look at row keys get the salt byte
// added to their operands, so they decide on a salted key exactly as the original filter
// decides on the original key.

#ifndef BASALT_PAGING_SALTED_FILTER_H_
#define BASALT_PAGING_SALTED_FILTER_H_

#include "basalt/filter.h"
#include "basalt/status.h"

namespace basalt::paging {

// Where the filter runs: in a Get (one row) or in one bucket's scan of a merged salted scan.
enum class SaltedRead { kGet, kScan };

// `filter` as it must run on the keys of bucket `salt`; nullptr stays nullptr. InvalidArgument
// for a row filter whose comparator cannot be rewritten (regexstring, substring, long), and, in
// a scan, for filters that end the whole scan (PageFilter, WhileMatchFilter,
// ColumnCountGetFilter): each bucket would end on its own, which is not what they mean.
Result<FilterPtr> SaltFilter(const FilterPtr& filter, char salt, SaltedRead read);

}  // namespace basalt::paging

#endif  // BASALT_PAGING_SALTED_FILTER_H_
