// RowResult: the cells a Get returns for one row, or one row (or a piece of one) of a scan.
// HBase calls this class Result; basalt keeps that name for Result<T>.

#ifndef BASALT_ROW_RESULT_H_
#define BASALT_ROW_RESULT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/cell.h"

namespace basalt {

class RowResult {
 public:
  RowResult() = default;
  RowResult(std::string row, std::vector<Cell> cells, bool partial = false)
      : row_(std::move(row)), cells_(std::move(cells)), partial_(partial) {}

  // Replaces the contents; the row key is copied into this result's existing buffer, so a
  // scanner refilling one RowResult row after row allocates no new key for each.
  void Assign(std::string_view row, std::vector<Cell> cells, bool partial = false) {
    row_.assign(row);
    cells_ = std::move(cells);
    partial_ = partial;
  }

  // The row key; empty for the result of a Get that found nothing.
  const std::string& row() const { return row_; }

  // Cells in HBase order (see CompareCells).
  const std::vector<Cell>& cells() const { return cells_; }
  std::vector<Cell>& mutable_cells() { return cells_; }

  bool empty() const { return cells_.empty(); }
  size_t size() const { return cells_.size(); }

  // True when a scan with a batch size cut this row and more of its cells follow in the next
  // RowResult (HBase's mayHaveMoreCellsInRow).
  bool partial() const { return partial_; }

  // The newest value of family:qualifier in this result, or nullopt.
  std::optional<std::string_view> Value(std::string_view family, std::string_view qualifier) const;

  // The newest cell of family:qualifier, or nullptr.
  const Cell* LatestCell(std::string_view family, std::string_view qualifier) const;

  // Every version of family:qualifier in this result, newest first.
  std::vector<const Cell*> ColumnCells(std::string_view family, std::string_view qualifier) const;

  friend bool operator==(const RowResult&, const RowResult&) = default;

 private:
  std::string row_;
  std::vector<Cell> cells_;
  bool partial_ = false;
};

}  // namespace basalt

#endif  // BASALT_ROW_RESULT_H_
