// Paging through a scan: pages of rows with an opaque cursor (the right way), and offset + limit
// (SQL's LIMIT n OFFSET m, for callers that must address "page k" directly). Paging through
// the columns of one wide row, with the same kind of cursor.
//
//   Scan scan = Scan().SetRowPrefix(user).SetReversed(true);
//   auto page = ReadPage(table, scan, 10);                  // the first 10 rows
//   ...                                                     // hand page->cursor to the client
//   auto next = ReadPage(table, scan, 10, cursor_from_client);
//
// Both work on any Table (the embedded store, a remote backend, a SaltedTable from salting.h)
// through the public Table API only: each call is one short scan and keeps no state in the
// store, so a cursor stays valid across connections, restarts and time. See docs/paging.md.
//
// Thread safety: the functions are reentrant; the Table's own rules apply.

#ifndef BASALT_PAGING_H_
#define BASALT_PAGING_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/get.h"
#include "basalt/row_result.h"
#include "basalt/scan.h"
#include "basalt/status.h"
#include "basalt/table.h"

namespace basalt {

// One page of a walk through a scan.
struct Page {
  // The page's rows in scan order. With Scan::SetBatch a wide row comes in several pieces (all
  // but the last partial()); a page always ends with the end of a row.
  std::vector<RowResult> rows;
  // Text for the next ReadPage call (base64url: letters, digits, '-' and '_', safe in a URL).
  // Empty when the walk is over: no row followed this page when it was read (ReadPage reads one
  // row ahead, so the last page says so), or the scan's limit is reached.
  std::string cursor;
};

// Reads the next page of at most `page_size` rows of `scan`: the first page when `cursor` is
// empty, else the rows strictly after the last row of the page that returned `cursor`. Pass
// the same scan with every page of a walk.
//
// Guarantees, even when rows are written or deleted between calls, forward and reversed:
//   - No repeats, no disorder: each page starts strictly after the previous page's last row
//     in scan order, so a walk returns rows in strictly increasing (reversed: decreasing) order.
//   - No skips: every row present in the scan's range for the whole walk is returned. A row
//     inserted or deleted during the walk is returned iff it is present when the page covering
//     its position is read; a row inserted behind the cursor is not returned.
//   - Bounds: pages never leave the scan's start/stop rows and prefix, whatever the cursor.
//   - Limit: Scan::SetLimit counts rows over the whole walk, not per page.
//   - Each page is one scan, so it is one consistent view of the table.
// Because the walk reads one row ahead, a page can be empty with an empty cursor when the rows
// after the previous page were deleted between the two calls.
//
// The cursor holds the last row key (readable by whoever holds the cursor: it is not a secret)
// and a fingerprint of the table name, start and stop rows with their flags, prefix, direction
// and limit. The other settings of the scan (columns, versions, time range, filter, batch) may
// change between pages.
//
// Errors: InvalidArgument when page_size < 1, or when the cursor is malformed, truncated, or
// was made by a different scan (other table, bounds, prefix, limit or direction); otherwise the
// errors of Table::GetScanner and of the scan.
//
// Cost: one scan reading page_size + 1 rows (with SetBatch, the extra row's first piece only).
Result<Page> ReadPage(Table& table, const Scan& scan, int32_t page_size,
                      std::string_view cursor = {});

// The (at most) `limit` rows of `scan` that follow its first `offset` rows. The scan's own
// limit still caps the walk: rows beyond it are never returned.
//
// Cost: O(offset + limit) rows read per call. The `offset` skipped rows are read and discarded
// every time, so reading page k of a listing costs k pages of reads, and rows inserted or
// deleted before the offset between calls shift the window (rows are then repeated or
// skipped). ReadPage has neither problem; prefer it.
//
// Errors: InvalidArgument when offset < 0 or limit < 0; otherwise those of the scan.
Result<std::vector<RowResult>> ReadOffsetPage(Table& table, const Scan& scan, int64_t offset,
                                              int64_t limit);

// One page of the columns of one row.
struct ColumnPage {
  // The page's cells: every version the Get reads of each of the page's columns, in HBase's
  // order. Empty (with an empty row key) when the row has no more columns.
  RowResult row;
  // Text for the next ReadColumnPage call, as Page::cursor. Empty when no column followed this
  // page when it was read.
  std::string cursor;
};

// Reads the next page of at most `page_size` columns (qualifiers) of one family of one row, for
// rows too wide to read at once (`tall-vs-wide`'s wide layout, an inbox row): the first columns
// when `cursor` is empty, else the columns strictly after the last qualifier of the page that
// returned `cursor`. Pass the same Get with every page.
//
// REQUIRES of `get`: exactly one family selected (Get::AddFamily, or AddColumn for some of its
// qualifiers), and no per-family limit or offset (the pager sets the limit itself).
//
// Each page is one Get with ColumnRangeFilter(last qualifier, exclusive) (and the Get's own
// filter, ANDed after it) and a per-family cell limit that reads one column ahead, so the last
// page says so. The guarantees of ReadPage hold for columns: no repeats, no skips of columns
// present for the whole walk, qualifiers strictly increasing. HBase's ColumnPaginationFilter
// with a growing offset re-reads every earlier column per page and shifts when columns change
// (HBASE-5104); the cursor does neither.
//
// The cursor holds the last qualifier and a fingerprint of the table, row, family and selected
// qualifiers; versions, time range and filter may change between pages.
//
// Errors: InvalidArgument for page_size < 1, a Get that breaks the REQUIRES above, or a
// malformed or foreign cursor (a row cursor, or one made for another row or family); otherwise
// those of Table::Get.
//
// Cost: one Get reading at most (page_size + 1) * ReadVersions cells; with ReadAllVersions there
// is no cell bound and a page reads the rest of the row from the cursor on.
Result<ColumnPage> ReadColumnPage(Table& table, const Get& get, int32_t page_size,
                                  std::string_view cursor = {});

}  // namespace basalt

#endif  // BASALT_PAGING_H_
