#include "server/rest/result_budget.h"

namespace basalt::server::rest {

size_t CellBytes(const Cell& cell) {
  return cell.row.size() + cell.family.size() + cell.qualifier.size() + cell.value.size();
}

size_t RowBytes(const RowResult& row) {
  size_t bytes = 0;
  for (const Cell& cell : row.cells()) bytes += CellBytes(cell);
  return bytes;
}

Status ResultBudget::Take(size_t bytes) {
  used_ += bytes;
  if (used_ <= max_bytes_) return Status::OK();
  std::string limit = max_bytes_ >= (size_t{1} << 20) && max_bytes_ % (size_t{1} << 20) == 0
                          ? std::to_string(max_bytes_ >> 20) + " MiB"
                          : std::to_string(max_bytes_) + " bytes";
  return Status::InvalidArgument("the rows asked for take more than " + limit + "; " + advice_);
}

}  // namespace basalt::server::rest
