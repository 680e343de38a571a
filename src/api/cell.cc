#include "basalt/cell.h"

namespace basalt {

ColumnName ParseColumnName(std::string_view text) {
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) return {std::string(text), std::nullopt};
  return {std::string(text.substr(0, colon)), std::string(text.substr(colon + 1))};
}

int CompareCells(const Cell& a, const Cell& b) {
  if (int c = a.row.compare(b.row); c != 0) return c;
  if (int c = a.family.compare(b.family); c != 0) return c;
  if (int c = a.qualifier.compare(b.qualifier); c != 0) return c;
  if (a.timestamp != b.timestamp) return a.timestamp > b.timestamp ? -1 : 1;
  if (a.type != b.type) return a.type > b.type ? -1 : 1;
  return 0;
}

}  // namespace basalt
