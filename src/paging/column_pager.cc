// Column paging inside one row: each page is one Get that starts strictly after the cursor's
// qualifier (ColumnRangeFilter) and reads one column more than it returns.

#include <limits>
#include <memory>

#include "basalt/paging.h"
#include "paging/page_cursor.h"

namespace basalt {
namespace {

// The walk's fixed parameters: which row, family and columns. Versions, time range and filter
// choose what each column shows and may change between pages.
uint64_t ColumnWalkFingerprint(const Table& table, const Get& get) {
  paging::Fingerprint fp;
  fp.AddBytes(table.name().ToString()).AddBytes(get.row());
  const auto& [family, qualifiers] = *get.columns().begin();
  fp.AddBytes(family).AddInt(static_cast<int64_t>(qualifiers.size()));
  for (const auto& q : qualifiers) fp.AddBytes(q);
  return fp.Finish();
}

// Keeps the qualifiers strictly after `last`. An empty bound means "unbounded" to
// ColumnRangeFilter, so after the empty qualifier the bound is its successor, "\0", inclusive.
FilterPtr ColumnsAfter(const std::string& last) {
  if (last.empty())
    return std::make_shared<ColumnRangeFilter>(std::string(1, '\0'), true, "", false);
  return std::make_shared<ColumnRangeFilter>(last, /*min_inclusive=*/false, "", false);
}

}  // namespace

Result<ColumnPage> ReadColumnPage(Table& table, const Get& get, int32_t page_size,
                                  std::string_view cursor_text) {
  if (page_size < 1) {
    return Status::InvalidArgument("page size must be at least 1, got " +
                                   std::to_string(page_size));
  }
  if (get.columns().size() != 1) {
    return Status::InvalidArgument(
        "column paging reads one family: select exactly one with Get::AddFamily or AddColumn");
  }
  if (get.max_results_per_family() >= 0 || get.row_offset_per_family() != 0) {
    return Status::InvalidArgument(
        "column paging sets the per-family limit itself: leave SetMaxResultsPerColumnFamily and "
        "SetRowOffsetPerColumnFamily unset");
  }
  const uint64_t fingerprint = ColumnWalkFingerprint(table, get);
  Get paged = get;
  if (!cursor_text.empty()) {
    BASALT_ASSIGN_OR_RETURN(paging::PageCursor cursor, paging::DecodeCursor(cursor_text));
    BASALT_RETURN_IF_ERROR(
        paging::CheckCursorMatches(cursor, paging::CursorKind::kColumns, false, fingerprint));
    if (cursor.remaining != 0) return Status::InvalidArgument("page cursor: unexpected count");
    // The range filter goes first so that its seek to the cursor happens before the Get's own
    // filter looks at any cell.
    FilterPtr after = ColumnsAfter(cursor.last_key);
    paged.SetFilter(get.filter() ? FilterList::And({after, get.filter()}) : after);
  }
  // A column has at most ReadVersions cells, so (page_size + 1) * versions cells hold the
  // page's columns whole plus at least the first cell of the column after them.
  const int64_t versions = std::max(get.max_versions(), 1);
  const int64_t cells = (static_cast<int64_t>(page_size) + 1) * versions;
  paged.SetMaxResultsPerColumnFamily(
      cells > std::numeric_limits<int32_t>::max() ? -1 : static_cast<int32_t>(cells));

  BASALT_ASSIGN_OR_RETURN(RowResult row, table.Get(paged));
  ColumnPage page;
  std::vector<Cell> kept;
  int32_t columns = 0;
  bool more = false;
  const std::string* last = nullptr;
  for (Cell& cell : row.mutable_cells()) {
    if (last == nullptr || cell.qualifier != *last) {
      if (columns == page_size) {
        more = true;
        break;
      }
      ++columns;
    }
    kept.push_back(std::move(cell));
    last = &kept.back().qualifier;
  }
  if (more) {
    paging::PageCursor next;
    next.kind = paging::CursorKind::kColumns;
    next.fingerprint = fingerprint;
    next.last_key = kept.back().qualifier;
    page.cursor = paging::EncodeCursor(next);
  }
  if (!kept.empty()) page.row = RowResult(row.row(), std::move(kept));
  return page;
}

}  // namespace basalt
