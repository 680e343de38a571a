#include "basalt/row_result.h"

namespace basalt {

const Cell* RowResult::LatestCell(std::string_view family, std::string_view qualifier) const {
  // Cells are sorted and the newest version of a column comes first.
  for (const Cell& c : cells_) {
    if (c.family == family && c.qualifier == qualifier) return &c;
  }
  return nullptr;
}

std::optional<std::string_view> RowResult::Value(std::string_view family,
                                                 std::string_view qualifier) const {
  const Cell* c = LatestCell(family, qualifier);
  if (c == nullptr) return std::nullopt;
  return std::string_view(c->value);
}

std::vector<const Cell*> RowResult::ColumnCells(std::string_view family,
                                                std::string_view qualifier) const {
  std::vector<const Cell*> out;
  for (const Cell& c : cells_) {
    if (c.family == family && c.qualifier == qualifier) out.push_back(&c);
  }
  return out;
}

}  // namespace basalt
