// Compile: from the public Filter description to the FilterState a read drives.

#include "filter/filter_state.h"
#include "filter/states.h"

namespace basalt::filter {
namespace {

constexpr int kMaxDepth = 100;

Result<std::unique_ptr<FilterState>> CompileAt(const Filter& filter, bool reversed, int depth);

Result<std::unique_ptr<FilterState>> CompileChild(const FilterPtr& child, const Filter& parent,
                                                  bool reversed, int depth) {
  if (child == nullptr) {
    return Status::InvalidArgument(std::string(Filter::TypeName(parent.type())) +
                                   " has a null filter inside");
  }
  return CompileAt(*child, reversed, depth + 1);
}

Status CheckNonNegative(const Filter& f, std::string_view what, int64_t v) {
  if (v >= 0) return Status::OK();
  return Status::InvalidArgument(std::string(Filter::TypeName(f.type())) + ": " +
                                 std::string(what) + " must not be negative, not " +
                                 std::to_string(v));
}

using StatePtr = std::unique_ptr<FilterState>;

Result<StatePtr> CompileAt(const Filter& filter, bool reversed, int depth) {
  if (depth > kMaxDepth) {
    return Status::InvalidArgument("filters are nested more than " + std::to_string(kMaxDepth) +
                                   " deep");
  }
  switch (filter.type()) {
    case Filter::Type::kPrefix:
      return NewPrefixState(static_cast<const PrefixFilter&>(filter), reversed);
    case Filter::Type::kPage: {
      const auto& f = static_cast<const PageFilter&>(filter);
      BASALT_RETURN_IF_ERROR(CheckNonNegative(f, "page size", f.page_size()));
      return NewPageState(f);
    }
    case Filter::Type::kColumnPrefix:
      return NewColumnPrefixState(static_cast<const ColumnPrefixFilter&>(filter));
    case Filter::Type::kMultipleColumnPrefix:
      return NewMultipleColumnPrefixState(static_cast<const MultipleColumnPrefixFilter&>(filter));
    case Filter::Type::kColumnCountGet: {
      const auto& f = static_cast<const ColumnCountGetFilter&>(filter);
      BASALT_RETURN_IF_ERROR(CheckNonNegative(f, "limit", f.limit()));
      return NewColumnCountGetState(f);
    }
    case Filter::Type::kColumnPagination: {
      const auto& f = static_cast<const ColumnPaginationFilter&>(filter);
      BASALT_RETURN_IF_ERROR(CheckNonNegative(f, "limit", f.limit()));
      BASALT_RETURN_IF_ERROR(CheckNonNegative(f, "offset", f.offset()));
      return NewColumnPaginationState(f);
    }
    case Filter::Type::kColumnRange:
      return NewColumnRangeState(static_cast<const ColumnRangeFilter&>(filter));
    case Filter::Type::kFirstKeyOnly:
      return NewFirstKeyOnlyState();
    case Filter::Type::kKeyOnly:
      return NewKeyOnlyState(static_cast<const KeyOnlyFilter&>(filter));
    case Filter::Type::kInclusiveStop:
      return NewInclusiveStopState(static_cast<const InclusiveStopFilter&>(filter), reversed);
    case Filter::Type::kTimestamps: {
      const auto& f = static_cast<const TimestampsFilter&>(filter);
      if (!f.timestamps().empty()) {
        BASALT_RETURN_IF_ERROR(CheckNonNegative(f, "a timestamp", f.timestamps().front()));
      }
      return NewTimestampsState(f);
    }
    case Filter::Type::kRow:
      return NewRowCompareState(static_cast<const RowFilter&>(filter));
    case Filter::Type::kFamily:
    case Filter::Type::kQualifier:
    case Filter::Type::kValue:
      return NewCellCompareState(static_cast<const CompareFilter&>(filter));
    case Filter::Type::kSingleColumnValue:
    case Filter::Type::kSingleColumnValueExclude:
      return NewSingleColumnValueState(static_cast<const SingleColumnValueFilter&>(filter));
    case Filter::Type::kDependentColumn:
      return NewDependentColumnState(static_cast<const DependentColumnFilter&>(filter));
    case Filter::Type::kFuzzyRow:
      return NewFuzzyRowState(static_cast<const FuzzyRowFilter&>(filter), reversed);
    case Filter::Type::kSkip: {
      const auto& f = static_cast<const SkipFilter&>(filter);
      BASALT_ASSIGN_OR_RETURN(StatePtr inner, CompileChild(f.filter(), f, reversed, depth));
      return NewSkipState(std::move(inner));
    }
    case Filter::Type::kWhileMatch: {
      const auto& f = static_cast<const WhileMatchFilter&>(filter);
      BASALT_ASSIGN_OR_RETURN(StatePtr inner, CompileChild(f.filter(), f, reversed, depth));
      return NewWhileMatchState(std::move(inner));
    }
    case Filter::Type::kFilterList: {
      const auto& f = static_cast<const FilterList&>(filter);
      std::vector<StatePtr> children;
      for (const FilterPtr& child : f.filters()) {
        BASALT_ASSIGN_OR_RETURN(StatePtr c, CompileChild(child, f, reversed, depth));
        children.push_back(std::move(c));
      }
      return NewFilterListState(f.op(), std::move(children), reversed);
    }
  }
  return Status::InvalidArgument("unknown filter type " +
                                 std::to_string(static_cast<int>(filter.type())));
}

}  // namespace

Result<std::unique_ptr<FilterState>> Compile(const Filter& filter, bool reversed) {
  return CompileAt(filter, reversed, 0);
}

}  // namespace basalt::filter
