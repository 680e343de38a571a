// The FilterState of each Filter type; compile.cc picks one by Filter::type(). Arguments are
// validated by the caller (Compile) unless a factory returns a Result.

#ifndef BASALT_FILTER_STATES_H_
#define BASALT_FILTER_STATES_H_

#include <memory>
#include <vector>

#include "basalt/filter.h"
#include "filter/filter_state.h"

namespace basalt::filter {

// Row filters (row_filters.cc).
std::unique_ptr<FilterState> NewPrefixState(const PrefixFilter& f, bool reversed);
std::unique_ptr<FilterState> NewPageState(const PageFilter& f);
std::unique_ptr<FilterState> NewInclusiveStopState(const InclusiveStopFilter& f, bool reversed);
Result<std::unique_ptr<FilterState>> NewRowCompareState(const RowFilter& f);
Result<std::unique_ptr<FilterState>> NewFuzzyRowState(const FuzzyRowFilter& f, bool reversed);

// Cell filters (column_filters.cc).
std::unique_ptr<FilterState> NewColumnPrefixState(const ColumnPrefixFilter& f);
std::unique_ptr<FilterState> NewMultipleColumnPrefixState(const MultipleColumnPrefixFilter& f);
std::unique_ptr<FilterState> NewColumnCountGetState(const ColumnCountGetFilter& f);
std::unique_ptr<FilterState> NewColumnPaginationState(const ColumnPaginationFilter& f);
std::unique_ptr<FilterState> NewColumnRangeState(const ColumnRangeFilter& f);
std::unique_ptr<FilterState> NewFirstKeyOnlyState();
std::unique_ptr<FilterState> NewKeyOnlyState(const KeyOnlyFilter& f);
std::unique_ptr<FilterState> NewTimestampsState(const TimestampsFilter& f);
// FamilyFilter, QualifierFilter and ValueFilter.
Result<std::unique_ptr<FilterState>> NewCellCompareState(const CompareFilter& f);

// Filters that decide on a row by one column's value (column_value_filters.cc).
Result<std::unique_ptr<FilterState>> NewSingleColumnValueState(const SingleColumnValueFilter& f);
Result<std::unique_ptr<FilterState>> NewDependentColumnState(const DependentColumnFilter& f);

// Filters of filters (composite_filters.cc). They own their children's states.
std::unique_ptr<FilterState> NewSkipState(std::unique_ptr<FilterState> inner);
std::unique_ptr<FilterState> NewWhileMatchState(std::unique_ptr<FilterState> inner);
std::unique_ptr<FilterState> NewFilterListState(FilterList::Operator op,
                                                std::vector<std::unique_ptr<FilterState>> children,
                                                bool reversed);

}  // namespace basalt::filter

#endif  // BASALT_FILTER_STATES_H_
