// A cell: one value at (row, family, qualifier, timestamp), as in HBase.

#ifndef BASALT_CELL_H_
#define BASALT_CELL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "basalt/types.h"

namespace basalt {

// Row keys, families, qualifiers and values are uninterpreted bytes held in std::string.
struct Cell {
  std::string row;
  std::string family;
  std::string qualifier;
  int64_t timestamp = 0;
  CellType type = CellType::kPut;  // only raw scans return delete markers
  std::string value;

  friend bool operator==(const Cell&, const Cell&) = default;
};

// HBase's cell order: row, family, qualifier ascending (unsigned bytes), timestamp descending,
// type code descending (so a delete marker comes before a Put at the same timestamp).
// Returns <0, 0 or >0.
int CompareCells(const Cell& a, const Cell& b);

// A column as HBase's clients write it: "family:qualifier", or "family" alone for the whole
// family.
struct ColumnName {
  std::string family;
  std::optional<std::string> qualifier;  // nullopt: "family" had no ':'

  friend bool operator==(const ColumnName&, const ColumnName&) = default;
};

// Splits `text` at its first ':' (a qualifier may hold more of them), as HBase's
// CellUtil.parseColumn does: "f:q" is {"f", "q"}, "f:" is {"f", ""} (the empty qualifier), "f"
// is {"f", nullopt}. Nothing is decoded: escapes are the caller's dialect.
ColumnName ParseColumnName(std::string_view text);

}  // namespace basalt

#endif  // BASALT_CELL_H_
