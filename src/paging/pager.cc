// Row paging on the public Table API: each page is one scan that resumes strictly after the
// cursor's row and reads one row more than it returns.

#include <algorithm>
#include <limits>
#include <memory>
#include <string>

#include "basalt/paging.h"
#include "paging/page_cursor.h"

namespace basalt {
namespace {

// What a cursor must be replayed with. Columns, versions, time range, filter and batch are left
// out on purpose: they choose what each row shows, not which rows the walk visits, and a client
// may change them between pages.
uint64_t RowWalkFingerprint(const Table& table, const Scan& scan) {
  return paging::Fingerprint()
      .AddBytes(table.name().ToString())
      .AddBytes(scan.start_row())
      .AddBool(scan.start_inclusive())
      .AddBytes(scan.stop_row())
      .AddBool(scan.stop_inclusive())
      .AddBytes(scan.row_prefix())
      .AddBool(scan.reversed())
      .AddInt(std::max<int64_t>(scan.limit(), 0))
      .Finish();
}

// `scan` narrowed to the rows strictly after `last` in scan order. The narrowing only ever
// tightens the scan's start (for a reversed scan the start is the larger key), so a cursor,
// even a hand-made one, cannot widen the walk; stop row and prefix stay as they are.
Scan ResumeAfter(const Scan& scan, const std::string& last) {
  Scan resumed = scan;
  const std::string& start = scan.start_row();
  bool tighter = start.empty() || last == start || (scan.reversed() ? last < start : last > start);
  if (tighter) resumed.WithStartRow(last, /*inclusive=*/false);
  return resumed;
}

}  // namespace

Result<Page> ReadPage(Table& table, const Scan& scan, int32_t page_size,
                      std::string_view cursor_text) {
  if (page_size < 1) {
    return Status::InvalidArgument("page size must be at least 1, got " +
                                   std::to_string(page_size));
  }
  const uint64_t fingerprint = RowWalkFingerprint(table, scan);
  const uint64_t limit = scan.limit() > 0 ? static_cast<uint64_t>(scan.limit()) : 0;
  uint64_t remaining = limit;  // 0: unlimited
  Scan page_scan = scan;
  if (!cursor_text.empty()) {
    BASALT_ASSIGN_OR_RETURN(paging::PageCursor cursor, paging::DecodeCursor(cursor_text));
    BASALT_RETURN_IF_ERROR(paging::CheckCursorMatches(cursor, paging::CursorKind::kRows,
                                                      scan.reversed(), fingerprint));
    if (cursor.last_key.empty()) return Status::InvalidArgument("page cursor: empty row key");
    if (limit == 0 ? cursor.remaining != 0 : (cursor.remaining < 1 || cursor.remaining > limit)) {
      return Status::InvalidArgument("page cursor: row count out of range for the scan's limit");
    }
    remaining = cursor.remaining;
    page_scan = ResumeAfter(scan, cursor.last_key);
  }

  // Rows to return, and whether a row beyond them may be read to learn if the walk goes on.
  const int64_t want =
      remaining == 0 ? page_size : static_cast<int64_t>(std::min<uint64_t>(page_size, remaining));
  const bool look_ahead = remaining == 0 || remaining > static_cast<uint64_t>(want);
  page_scan.SetLimit(look_ahead ? want + 1 : want);

  BASALT_ASSIGN_OR_RETURN(std::unique_ptr<ResultScanner> scanner, table.GetScanner(page_scan));
  Page page;
  int64_t rows = 0;
  bool inside_row = false;  // the last piece read was partial: more of its row follows
  bool more = false;
  RowResult piece;
  while (scanner->Next(&piece)) {
    if (!inside_row) {
      if (rows == want) {
        more = true;  // the first piece of the look-ahead row
        break;
      }
      ++rows;
    }
    inside_row = piece.partial();
    page.rows.push_back(std::move(piece));
  }
  BASALT_RETURN_IF_ERROR(scanner->status());
  scanner->Close();

  if (more) {
    paging::PageCursor next;
    next.kind = paging::CursorKind::kRows;
    next.reversed = scan.reversed();
    next.fingerprint = fingerprint;
    next.remaining = remaining == 0 ? 0 : remaining - static_cast<uint64_t>(rows);
    next.last_key = page.rows.back().row();
    page.cursor = paging::EncodeCursor(next);
  }
  return page;
}

Result<std::vector<RowResult>> ReadOffsetPage(Table& table, const Scan& scan, int64_t offset,
                                              int64_t limit) {
  if (offset < 0) return Status::InvalidArgument("offset must not be negative");
  if (limit < 0) return Status::InvalidArgument("limit must not be negative");
  std::vector<RowResult> out;
  if (limit == 0) return out;
  // Rows the scan has to produce: offset + limit, capped by the scan's own limit.
  int64_t end = offset > std::numeric_limits<int64_t>::max() - limit ? 0 : offset + limit;
  if (scan.limit() > 0) {
    if (scan.limit() <= offset) return out;
    end = end == 0 ? scan.limit() : std::min(end, scan.limit());
  }
  Scan s = scan;
  s.SetLimit(end);
  BASALT_ASSIGN_OR_RETURN(std::unique_ptr<ResultScanner> scanner, table.GetScanner(s));
  // Rows are told apart by their keys: a piece of a batch scan says partial() when more of its
  // row *may* follow (HBase's mayHaveMoreCellsInRow), and with several versions or families
  // none sometimes does.
  int64_t row_index = -1;  // of the row the current piece belongs to
  std::string current_row;
  bool inside_row = false;
  auto begins_row = [&](const RowResult& piece) {
    if (inside_row && piece.row() == current_row) return false;
    current_row = piece.row();
    return true;
  };
  if (offset > 0 && s.batch() <= 0) {
    // Whole rows: the skipped ones are not built (the embedded scanner only checks that each
    // has a cell to show; `action-log`'s OFFSET 20 is two thirds of its rows).
    if (scanner->SkipRows(offset) < offset) {
      BASALT_RETURN_IF_ERROR(scanner->status());
      return out;
    }
    row_index = offset - 1;
  }
  RowResult piece;
  while (scanner->Next(&piece)) {
    if (begins_row(piece)) {
      ++row_index;
      if (row_index - offset >= limit) break;
    }
    inside_row = piece.partial();
    if (row_index >= offset) {
      // Grown once rather than doubling from one: a page is mostly `limit` rows, or none.
      if (out.empty()) out.reserve(static_cast<size_t>(std::min<int64_t>(limit, 64)));
      out.push_back(std::move(piece));
    }
  }
  BASALT_RETURN_IF_ERROR(scanner->status());
  scanner->Close();
  return out;
}

}  // namespace basalt
