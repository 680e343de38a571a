// Filters of filters: SkipFilter, WhileMatchFilter and FilterList (AND / OR).

#include <optional>

#include "filter/states.h"

namespace basalt::filter {
namespace {

// How far past the current cell a verdict lets the reader move, least to most.
enum class Reach : uint8_t { kCell, kColumn, kSeek, kRow };

Reach ReachOf(CellVerdict v) {
  switch (v) {
    case CellVerdict::kInclude:
    case CellVerdict::kSkip:
      return Reach::kCell;
    case CellVerdict::kIncludeAndNextColumn:
    case CellVerdict::kNextColumn:
      return Reach::kColumn;
    case CellVerdict::kSeekColumn:
      return Reach::kSeek;
    case CellVerdict::kIncludeAndNextRow:
    case CellVerdict::kNextRow:
      return Reach::kRow;
  }
  return Reach::kCell;
}

CellVerdict VerdictOf(bool include, Reach reach) {
  switch (reach) {
    case Reach::kCell:
      return include ? CellVerdict::kInclude : CellVerdict::kSkip;
    case Reach::kColumn:
    case Reach::kSeek:  // an included cell's column ends at least at the next column
      return include
                 ? CellVerdict::kIncludeAndNextColumn
                 : (reach == Reach::kSeek ? CellVerdict::kSeekColumn : CellVerdict::kNextColumn);
    case Reach::kRow:
      return include ? CellVerdict::kIncludeAndNextRow : CellVerdict::kNextRow;
  }
  return CellVerdict::kSkip;
}

// HBase's SkipFilter: a row survives only if the inner filter returns plain kInclude for
// every cell. It ignores the inner filter's row-key verdict.
class SkipState final : public FilterState {
 public:
  explicit SkipState(std::unique_ptr<FilterState> inner) : inner_(std::move(inner)) {}

  void Reset() override {
    inner_->Reset();
    drop_row_ = false;
  }
  bool FilterAllRemaining() override { return inner_->FilterAllRemaining(); }
  CellVerdict FilterCell(const Cell& cell, std::string* next_qualifier) override {
    CellVerdict v = inner_->FilterCell(cell, next_qualifier);
    if (v != CellVerdict::kInclude) drop_row_ = true;
    return v;
  }
  void TransformCell(Cell* cell) override { inner_->TransformCell(cell); }
  bool HasFilterRow() const override { return true; }
  void FilterRowCells(std::vector<Cell>* cells) override { inner_->FilterRowCells(cells); }
  bool FilterRow() override { return drop_row_; }

 private:
  std::unique_ptr<FilterState> inner_;
  bool drop_row_ = false;
};

// HBase's WhileMatchFilter: the first row or cell the inner filter rejects ends the scan.
class WhileMatchState final : public FilterState {
 public:
  explicit WhileMatchState(std::unique_ptr<FilterState> inner) : inner_(std::move(inner)) {}

  void Reset() override { inner_->Reset(); }
  bool FilterAllRemaining() override { return done_ || inner_->FilterAllRemaining(); }
  RowVerdict FilterRowKey(std::string_view row, RowHint* hint) override {
    RowVerdict v = inner_->FilterRowKey(row, hint);
    if (v != RowVerdict::kInclude) {
      done_ = true;
      return RowVerdict::kSkip;
    }
    return v;
  }
  CellVerdict FilterCell(const Cell& cell, std::string* next_qualifier) override {
    CellVerdict v = inner_->FilterCell(cell, next_qualifier);
    if (v != CellVerdict::kInclude) done_ = true;
    return v;
  }
  void TransformCell(Cell* cell) override { inner_->TransformCell(cell); }
  bool HasFilterRow() const override { return true; }
  void FilterRowCells(std::vector<Cell>* cells) override { inner_->FilterRowCells(cells); }
  bool FilterRow() override {
    bool drop = inner_->FilterRow();
    if (drop) done_ = true;
    return drop;
  }

 private:
  std::unique_ptr<FilterState> inner_;
  bool done_ = false;
};

// FilterList. AND keeps what every child keeps and may skip as far as any child allows; OR
// keeps what any child keeps and may skip only as far as every child allows.
class FilterListState final : public FilterState {
 public:
  FilterListState(FilterList::Operator op, std::vector<std::unique_ptr<FilterState>> children,
                  bool reversed)
      : and_(op == FilterList::Operator::kMustPassAll),
        reversed_(reversed),
        children_(std::move(children)),
        child_(children_.size()) {
    FindCeiling();
  }

  const QualifierCeiling* Ceiling() const override { return ceiling_ ? &*ceiling_ : nullptr; }

  void Reset() override {
    for (size_t i = 0; i < children_.size(); ++i) {
      children_[i]->Reset();
      child_[i] = ChildRow{};
    }
  }

  bool FilterAllRemaining() override {
    if (children_.empty()) return false;
    for (auto& c : children_) {
      bool done = c->FilterAllRemaining();
      if (and_ && done) return true;
      if (!and_ && !done) return false;
    }
    return !and_;
  }

  RowVerdict FilterRowKey(std::string_view row, RowHint* hint) override {
    if (children_.empty()) return RowVerdict::kInclude;
    bool any_include = false;
    bool any_skip = false;
    std::optional<RowHint> best;  // AND: the furthest hint; OR: the nearest
    for (size_t i = 0; i < children_.size(); ++i) {
      RowHint h;
      RowVerdict v = children_[i]->FilterAllRemaining() ? RowVerdict::kSkip
                                                        : children_[i]->FilterRowKey(row, &h);
      if (v == RowVerdict::kInclude) {
        any_include = true;
        continue;
      }
      child_[i].row_rejected = true;
      if (v == RowVerdict::kSkip) {
        any_skip = true;
      } else if (!best || Further(h, *best) == and_) {
        best = std::move(h);
      }
    }
    if (and_) {
      if (best) {
        *hint = std::move(*best);
        return RowVerdict::kSeek;
      }
      return any_skip ? RowVerdict::kSkip : RowVerdict::kInclude;
    }
    if (any_include) return RowVerdict::kInclude;
    if (any_skip || !best) return RowVerdict::kSkip;
    *hint = std::move(*best);
    return RowVerdict::kSeek;
  }

  CellVerdict FilterCell(const Cell& cell, std::string* next_qualifier) override {
    if (children_.empty()) return CellVerdict::kInclude;
    bool include = and_;
    Reach reach = and_ ? Reach::kCell : Reach::kRow;
    std::optional<std::string> hint;
    for (size_t i = 0; i < children_.size(); ++i) {
      ChildRow& state = child_[i];
      state.included = false;
      CellVerdict v;
      std::string child_hint;
      if (state.row_rejected || children_[i]->FilterAllRemaining()) {
        v = CellVerdict::kNextRow;
      } else if (!and_ && StillSkipping(state, cell)) {
        // The child already said this cell's column or family is not for it.
        v = Excluding(state.last);
        child_hint = state.hint;
      } else {
        v = children_[i]->FilterCell(cell, &child_hint);
        state.last = v;
        state.family = cell.family;
        state.qualifier = cell.qualifier;
        state.hint = child_hint;
      }
      bool child_includes = IsInclude(v);
      state.included = child_includes;
      Reach r = ReachOf(v);
      if (and_) {
        include = include && child_includes;
        if (r > reach) reach = r;
        if (r == Reach::kSeek && (!hint || child_hint > *hint)) hint = child_hint;
        // HBase asks no further child once one has excluded the cell: a stateful child after
        // it (FirstKeyOnlyFilter, ColumnCountGetFilter) never sees that cell.
        if (!include) break;
      } else {
        include = include || child_includes;
        if (r < reach) reach = r;
        if (r == Reach::kSeek && (!hint || child_hint < *hint)) hint = child_hint;
      }
    }
    CellVerdict out = VerdictOf(include, reach);
    if (out == CellVerdict::kSeekColumn) *next_qualifier = hint.value_or(std::string());
    return out;
  }

  void TransformCell(Cell* cell) override {
    for (size_t i = 0; i < children_.size(); ++i) {
      // OR: only the children that kept the cell shape it, as in HBase.
      if (and_ || child_[i].included) children_[i]->TransformCell(cell);
    }
  }

  bool HasFilterRow() const override {
    for (const auto& c : children_) {
      if (c->HasFilterRow()) return true;
    }
    return false;
  }

  void FilterRowCells(std::vector<Cell>* cells) override {
    for (auto& c : children_) c->FilterRowCells(cells);
  }

  // HBase asks the children in order and stops at the first answer that decides the list (AND:
  // a child that drops the row; OR: one that keeps it). The later children are not asked, which
  // matters to stateful ones: a PageFilter not asked does not count the row.
  bool FilterRow() override {
    if (children_.empty()) return false;
    for (size_t i = 0; i < children_.size(); ++i) {
      bool child_drops = child_[i].row_rejected || children_[i]->FilterRow();
      if (and_ && child_drops) return true;
      if (!and_ && !child_drops) return false;
    }
    return !and_;
  }

 private:
  // AND: past the lowest child ceiling the list says kNextRow, provided no other child would
  // miss the cells it is no longer shown. OR: only past every child's ceiling.
  void FindCeiling() {
    for (const auto& c : children_) {
      const QualifierCeiling* child = c->Ceiling();
      if (child == nullptr) {
        if (and_ && c->Stateless()) continue;
        ceiling_.reset();
        return;
      }
      if (!ceiling_) {
        ceiling_ = *child;
        continue;
      }
      const bool lower = child->qualifier < ceiling_->qualifier ||
                         (child->qualifier == ceiling_->qualifier && !child->inclusive);
      if (lower == and_) ceiling_ = *child;
    }
    // The list shows the cells below it to its children, which may drop or shape them.
    if (ceiling_) ceiling_->keeps_all_below = false;
  }

  struct ChildRow {
    bool row_rejected = false;
    bool included = false;
    CellVerdict last = CellVerdict::kInclude;
    std::string family;
    std::string qualifier;
    std::string hint;
  };

  // True when `a` lies further than `b` in the scan's direction.
  bool Further(const RowHint& a, const RowHint& b) const {
    int cmp = a.row.compare(b.row);
    if (cmp == 0) return a.inclusive == false && b.inclusive;  // exclusive is one step further
    return reversed_ ? cmp < 0 : cmp > 0;
  }

  static CellVerdict Excluding(CellVerdict v) {
    if (v == CellVerdict::kIncludeAndNextColumn) return CellVerdict::kNextColumn;
    if (v == CellVerdict::kIncludeAndNextRow) return CellVerdict::kNextRow;
    return v;
  }

  // Whether an earlier verdict of the child already covers `cell` (OR consults a child again
  // only where it asked to be consulted, as HBase's FilterListWithOR does).
  static bool StillSkipping(const ChildRow& state, const Cell& cell) {
    if (state.family != cell.family) return false;
    switch (state.last) {
      case CellVerdict::kIncludeAndNextColumn:
      case CellVerdict::kNextColumn:
        return state.qualifier == cell.qualifier;
      case CellVerdict::kSeekColumn:
        return cell.qualifier < state.hint;
      case CellVerdict::kIncludeAndNextRow:
      case CellVerdict::kNextRow:
        return true;
      default:
        return false;
    }
  }

  bool and_;
  bool reversed_;
  std::vector<std::unique_ptr<FilterState>> children_;
  std::vector<ChildRow> child_;
  std::optional<QualifierCeiling> ceiling_;
};

}  // namespace

std::unique_ptr<FilterState> NewSkipState(std::unique_ptr<FilterState> inner) {
  return std::make_unique<SkipState>(std::move(inner));
}

std::unique_ptr<FilterState> NewWhileMatchState(std::unique_ptr<FilterState> inner) {
  return std::make_unique<WhileMatchState>(std::move(inner));
}

std::unique_ptr<FilterState> NewFilterListState(FilterList::Operator op,
                                                std::vector<std::unique_ptr<FilterState>> children,
                                                bool reversed) {
  return std::make_unique<FilterListState>(op, std::move(children), reversed);
}

}  // namespace basalt::filter
