// Filters that keep or drop a row by the value of one column: SingleColumnValueFilter, its
// Exclude variant, and DependentColumnFilter.

#include <algorithm>
#include <optional>
#include <set>

#include "filter/comparator.h"
#include "filter/states.h"

namespace basalt::filter {
namespace {

bool IsColumn(const Cell& cell, const std::string& family, const std::string& qualifier) {
  return cell.family == family && cell.qualifier == qualifier;
}

class SingleColumnValueState final : public FilterState {
 public:
  SingleColumnValueState(const SingleColumnValueFilter& f, CompiledComparator c)
      : family_(f.family()),
        qualifier_(f.qualifier()),
        comparator_(std::move(c)),
        filter_if_missing_(f.filter_if_missing()),
        latest_version_only_(f.latest_version_only()),
        exclude_column_(f.type() == Filter::Type::kSingleColumnValueExclude) {}

  void Reset() override { found_ = matched_ = false; }

  CellVerdict FilterCell(const Cell& cell, std::string*) override {
    if (matched_ || (latest_version_only_ && found_)) return CellVerdict::kInclude;
    if (!IsColumn(cell, family_, qualifier_)) return CellVerdict::kInclude;
    found_ = true;
    if (!comparator_.Passes(cell.value)) {
      // The row is lost (latest only); stop reading this family of it.
      return latest_version_only_ ? CellVerdict::kNextRow : CellVerdict::kInclude;
    }
    matched_ = true;
    return CellVerdict::kInclude;
  }

  bool HasFilterRow() const override { return true; }

  void FilterRowCells(std::vector<Cell>* cells) override {
    if (!exclude_column_) return;
    std::erase_if(*cells, [&](const Cell& c) { return IsColumn(c, family_, qualifier_); });
  }

  bool FilterRow() override { return found_ ? !matched_ : filter_if_missing_; }

 private:
  std::string family_;
  std::string qualifier_;
  CompiledComparator comparator_;
  bool filter_if_missing_;
  bool latest_version_only_;
  bool exclude_column_;
  bool found_ = false;
  bool matched_ = false;
};

class DependentColumnState final : public FilterState {
 public:
  DependentColumnState(const DependentColumnFilter& f, std::optional<CompiledComparator> c)
      : family_(f.family()),
        qualifier_(f.qualifier()),
        drop_dependent_(f.drop_dependent_column()),
        comparator_(std::move(c)) {}

  void Reset() override { stamps_.clear(); }

  CellVerdict FilterCell(const Cell& cell, std::string*) override {
    // Other columns are kept for now and thinned in FilterRowCells, once every stamp is known.
    if (!IsColumn(cell, family_, qualifier_)) return CellVerdict::kInclude;
    if (comparator_ && !comparator_->Passes(cell.value)) return CellVerdict::kSkip;
    stamps_.insert(cell.timestamp);
    return drop_dependent_ ? CellVerdict::kSkip : CellVerdict::kInclude;
  }

  bool HasFilterRow() const override { return true; }

  void FilterRowCells(std::vector<Cell>* cells) override {
    std::erase_if(*cells, [&](const Cell& c) { return !stamps_.contains(c.timestamp); });
  }

 private:
  std::string family_;
  std::string qualifier_;
  bool drop_dependent_;
  std::optional<CompiledComparator> comparator_;
  std::set<int64_t> stamps_;
};

}  // namespace

Result<std::unique_ptr<FilterState>> NewSingleColumnValueState(const SingleColumnValueFilter& f) {
  BASALT_ASSIGN_OR_RETURN(CompiledComparator c,
                          CompiledComparator::Compile(f.comparator(), f.op()));
  return std::unique_ptr<FilterState>(std::make_unique<SingleColumnValueState>(f, std::move(c)));
}

Result<std::unique_ptr<FilterState>> NewDependentColumnState(const DependentColumnFilter& f) {
  std::optional<CompiledComparator> c;
  if (f.comparator().has_value()) {
    BASALT_ASSIGN_OR_RETURN(CompiledComparator compiled,
                            CompiledComparator::Compile(*f.comparator(), f.op()));
    c = std::move(compiled);
  }
  return std::unique_ptr<FilterState>(std::make_unique<DependentColumnState>(f, std::move(c)));
}

}  // namespace basalt::filter
