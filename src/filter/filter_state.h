// FilterState: a Filter (include/basalt/filter.h) compiled for one read, with the mutable state
// the read needs (rows counted, columns seen, the row's verdict so far). The read path drives it
// in HBase's order:
//
//   for each row:       FilterAllRemaining()? end.  Reset().  FilterRowKey(row)
//   for each cell:      FilterCell(cell) -> verdict;  TransformCell(cell) when included;
//                       FilterAllRemaining()? stop reading and end after this row
//   at the row's end:   FilterRowCells(cells); FilterRow()? drop the row   (HasFilterRow only)
//
// Cells reach FilterCell in cell order (family, qualifier, timestamp descending) after delete
// markers, TTL and the family's VERSIONS are applied; the read's own version limit counts only
// included cells.
//
// Seek hints let the read path skip what a filter would reject: FilterRowKey can name the next
// row worth reading (a position in the scan's direction), FilterCell the next qualifier worth
// reading in the current family of the current row.
//
// A qualifier ceiling lets the read path end a family early: past it no cell is ever kept, so a
// family's stored columns beyond it (with their delete markers and masked versions) need not be
// walked at all.
//
// Not thread-safe: one FilterState per read.

#ifndef BASALT_FILTER_FILTER_STATE_H_
#define BASALT_FILTER_FILTER_STATE_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/cell.h"
#include "basalt/filter.h"
#include "basalt/status.h"

namespace basalt::filter {

enum class RowVerdict : uint8_t {
  kInclude,  // read the row's cells
  kSkip,     // drop this row, go on with the next
  kSeek,     // drop this row and continue at the hint (see RowHint)
};

// A position in the scan's direction. Forward: the first row >= row (> row when !inclusive).
// Reversed: the first row <= row (< row when !inclusive).
struct RowHint {
  std::string row;
  bool inclusive = true;
};

// HBase's Filter.ReturnCode, with column hints only.
enum class CellVerdict : uint8_t {
  kInclude,
  kIncludeAndNextColumn,  // include, then skip the column's older versions
  kIncludeAndNextRow,     // include, then skip the rest of the row (every family)
  kSkip,                  // exclude; the next version may still be included
  kNextColumn,            // exclude, and skip the column's older versions
  kNextRow,               // exclude, and skip the rest of the row (every family)
  kSeekColumn,            // exclude, and continue at the hinted qualifier in this family (or
                          // the next family when the hint is empty)
};

inline bool IsInclude(CellVerdict v) {
  return v == CellVerdict::kInclude || v == CellVerdict::kIncludeAndNextColumn ||
         v == CellVerdict::kIncludeAndNextRow;
}

// Every qualifier above `qualifier` (or equal to it, unless `inclusive`) is past the ceiling.
struct QualifierCeiling {
  std::string qualifier;
  bool inclusive = false;
  // The filter keeps every cell below the ceiling as it is (a ColumnRangeFilter with no
  // minimum): the read path need not show it those cells at all.
  bool keeps_all_below = false;

  bool Below(std::string_view q) const {
    const int cmp = q.compare(qualifier);
    return cmp < 0 || (cmp == 0 && inclusive);
  }
};

class FilterState {
 public:
  virtual ~FilterState() = default;

  // Called before each row.
  virtual void Reset() {}
  // True once nothing more can pass: the scan ends.
  virtual bool FilterAllRemaining() { return false; }
  // `*hint` is set for kSeek. A hint that is not past `row` in the scan's direction is treated
  // as kSkip by the caller.
  virtual RowVerdict FilterRowKey(std::string_view row, RowHint* hint) {
    (void)row;
    (void)hint;
    return RowVerdict::kInclude;
  }
  // `*next_qualifier` is set for kSeekColumn: the smallest qualifier of this family worth
  // reading; the caller seeks only forward.
  virtual CellVerdict FilterCell(const Cell& cell, std::string* next_qualifier) {
    (void)cell;
    (void)next_qualifier;
    return CellVerdict::kInclude;
  }
  virtual void TransformCell(Cell* cell) { (void)cell; }
  // A ceiling such that FilterCell says kNextRow for the first cell past it in any family of any
  // row, and showing the filter that cell changes nothing the rest of the read sees: the read
  // path may then end the family at the first stored qualifier past it instead. nullptr: none.
  // Stays valid and the same for the FilterState's life.
  virtual const QualifierCeiling* Ceiling() const { return nullptr; }
  // True when FilterCell and TransformCell keep no state at all: a list may then take its
  // other children's ceiling.
  virtual bool Stateless() const { return false; }
  // Filters that decide on whole rows (FilterRowCells / FilterRow). They cannot be used with a
  // scan batch size, which hands out pieces of rows.
  virtual bool HasFilterRow() const { return false; }
  virtual void FilterRowCells(std::vector<Cell>* cells) { (void)cells; }
  // Called only for rows with cells left; true drops the row.
  virtual bool FilterRow() { return false; }
};

// Compiles `filter` for one read. InvalidArgument for a filter that cannot be evaluated (a null
// child, a negative page size, a bad regular expression, a fuzzy key whose mask has another
// length than its pattern, ...).
Result<std::unique_ptr<FilterState>> Compile(const Filter& filter, bool reversed);

}  // namespace basalt::filter

#endif  // BASALT_FILTER_FILTER_STATE_H_
