// Paging (paging.h): cursor pages forward and reversed, within bounds and limits, across writes
// between pages, with bad and foreign cursors; offset + limit; and column pages inside a wide
// row.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "basalt/paging.h"
#include "basalt/salting.h"
#include "support/test_store.h"

namespace basalt::testing {
namespace {

using Strings = std::vector<std::string>;

std::string Key(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "k%03d", i);
  return buf;
}

Strings RowsOf(const std::vector<RowResult>& rows) {
  Strings out;
  for (const auto& r : rows) {
    if (out.empty() || out.back() != r.row()) out.push_back(r.row());
  }
  return out;
}

class PagingTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    Table& t = store().CreateTable("t", {"f"});
    for (int i = 0; i < 25; ++i) ASSERT_OK(t.Put(Put(Key(i)).Add("f", "q", 1, "v" + Key(i))));
    store().Reopen();
  }

  Table& table() { return store().table("t"); }

  // Every page of a walk; fails the test on error.
  std::vector<Page> Walk(const Scan& scan, int32_t page_size) {
    std::vector<Page> pages;
    std::string cursor;
    do {
      auto page = ReadPage(table(), scan, page_size, cursor);
      EXPECT_OK(page);
      if (!page.ok() || pages.size() > 200) break;
      cursor = page->cursor;
      pages.push_back(std::move(*page));
      store().Reopen();  // a cursor needs nothing kept in the store
    } while (!cursor.empty());
    return pages;
  }

  Strings WalkRows(const Scan& scan, int32_t page_size) {
    Strings out;
    for (const auto& p : Walk(scan, page_size)) {
      for (const auto& r : RowsOf(p.rows)) out.push_back(r);
    }
    return out;
  }
};

TEST_P(PagingTest, PagesCoverEveryRowOnceInOrderForEveryPageSize) {
  Strings all = ScanRows(table());
  Strings reversed(all.rbegin(), all.rend());
  for (int32_t size : {1, 2, 3, 7, 24, 25, 26, 100}) {
    EXPECT_EQ(WalkRows(Scan(), size), all) << size;
    EXPECT_EQ(WalkRows(Scan().SetReversed(true), size), reversed) << size;
  }
}

TEST_P(PagingTest, LastPageSaysSoByReadingOneRowAhead) {
  auto pages = Walk(Scan(), 5);  // 25 rows: exactly 5 full pages, no empty sixth
  ASSERT_EQ(pages.size(), 5u);
  for (size_t i = 0; i < 4; ++i) EXPECT_FALSE(pages[i].cursor.empty());
  EXPECT_TRUE(pages[4].cursor.empty());
  EXPECT_EQ(pages[4].rows.size(), 5u);
}

TEST_P(PagingTest, EmptyScanGivesOneEmptyPageWithoutCursor) {
  auto page = ReadPage(table(), Scan().SetRowPrefix("zzz"), 10);
  ASSERT_OK(page);
  EXPECT_TRUE(page->rows.empty());
  EXPECT_TRUE(page->cursor.empty());
}

TEST_P(PagingTest, PagesReturnWholeRowsWithTheirCells) {
  auto page = ReadPage(table(), Scan().WithStartRow(Key(3)), 2);
  ASSERT_OK(page);
  ASSERT_EQ(page->rows.size(), 2u);
  EXPECT_EQ(page->rows[0].row(), Key(3));
  EXPECT_EQ(Describe(page->rows[1]), (Strings{"f:q@1=v" + Key(4)}));
}

TEST_P(PagingTest, CursorIsUrlSafeText) {
  ASSERT_OK(table().Put(Put(std::string("k\xff\x00/+=?", 7)).Add("f", "q", 1, "v")));
  std::string cursor;
  do {
    auto page = ReadPage(table(), Scan(), 3, cursor);
    ASSERT_OK(page);
    cursor = page->cursor;
    for (char c : cursor) {
      EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') << cursor;
    }
  } while (!cursor.empty());
}

TEST_P(PagingTest, PagesStayInsideStartStopAndPrefix) {
  EXPECT_EQ(WalkRows(Scan().WithStartRow(Key(5)).WithStopRow(Key(12)), 3),
            (Strings{Key(5), Key(6), Key(7), Key(8), Key(9), Key(10), Key(11)}));
  EXPECT_EQ(WalkRows(Scan().WithStartRow(Key(5), false).WithStopRow(Key(9), true), 2),
            (Strings{Key(6), Key(7), Key(8), Key(9)}));
  EXPECT_EQ(WalkRows(Scan().SetReversed(true).WithStartRow(Key(9)).WithStopRow(Key(5)), 3),
            (Strings{Key(9), Key(8), Key(7), Key(6)}));
  EXPECT_EQ(
      WalkRows(Scan().SetReversed(true).WithStartRow(Key(9), false).WithStopRow(Key(5), true), 1),
      (Strings{Key(8), Key(7), Key(6), Key(5)}));
  EXPECT_EQ(WalkRows(Scan().SetRowPrefix("k01"), 4),
            (Strings{Key(10), Key(11), Key(12), Key(13), Key(14), Key(15), Key(16), Key(17),
                     Key(18), Key(19)}));
  EXPECT_EQ(WalkRows(Scan().SetRowPrefix("k01").SetReversed(true), 4).front(), Key(19));
  // A row written just past the stop row while the walk is on does not leak into it.
  auto first = ReadPage(table(), Scan().WithStopRow(Key(3)), 2);
  ASSERT_OK(first);
  ASSERT_OK(table().Put(Put(Key(2) + "x").Add("f", "q", 1, "v")));
  auto second = ReadPage(table(), Scan().WithStopRow(Key(3)), 2, first->cursor);
  ASSERT_OK(second);
  EXPECT_EQ(RowsOf(second->rows), (Strings{Key(2), Key(2) + "x"}));
  EXPECT_TRUE(second->cursor.empty());
}

TEST_P(PagingTest, ScanLimitCountsRowsOverTheWholeWalk) {
  for (int32_t size : {1, 3, 4, 10}) {
    EXPECT_EQ(WalkRows(Scan().SetLimit(7), size),
              (Strings{Key(0), Key(1), Key(2), Key(3), Key(4), Key(5), Key(6)}))
        << size;
    EXPECT_EQ(WalkRows(Scan().SetLimit(3).SetReversed(true), size),
              (Strings{Key(24), Key(23), Key(22)}))
        << size;
  }
  auto pages = Walk(Scan().SetLimit(6), 3);  // the limit ends the walk: no empty last page
  ASSERT_EQ(pages.size(), 2u);
  EXPECT_TRUE(pages[1].cursor.empty());
}

TEST_P(PagingTest, BatchPiecesOfARowStayOnOnePage) {
  Put wide(Key(1));
  for (int q = 0; q < 5; ++q) wide.Add("f", "w" + std::to_string(q), 1, "x");
  ASSERT_OK(table().Put(wide));
  auto pages = Walk(Scan().WithStopRow(Key(4)).SetBatch(2), 2);
  ASSERT_EQ(pages.size(), 2u);
  // k001 has 6 cells: three pieces of 2, the first two partial.
  ASSERT_EQ(pages[0].rows.size(), 4u);
  EXPECT_EQ(RowsOf(pages[0].rows), (Strings{Key(0), Key(1)}));
  EXPECT_TRUE(pages[0].rows[1].partial());
  EXPECT_TRUE(pages[0].rows[2].partial());
  EXPECT_FALSE(pages[0].rows[3].partial());
  EXPECT_EQ(RowsOf(pages[1].rows), (Strings{Key(2), Key(3)}));
}

TEST_P(PagingTest, WritesBetweenPagesNeitherRepeatNorSkip) {
  auto first = ReadPage(table(), Scan(), 5);  // k000..k004
  ASSERT_OK(first);
  ASSERT_EQ(RowsOf(first->rows).back(), Key(4));
  Table& t = table();
  ASSERT_OK(t.Put(Put("k000a").Add("f", "q", 1, "v")));  // behind the cursor: not returned
  ASSERT_OK(t.Delete(Delete(Key(4))));                   // the cursor's own row
  ASSERT_OK(t.Put(Put("k004a").Add("f", "q", 1, "v")));  // just after the cursor: returned
  ASSERT_OK(t.Delete(Delete(Key(5))));                   // the next row: gone
  auto second = ReadPage(t, Scan(), 3, first->cursor);
  ASSERT_OK(second);
  EXPECT_EQ(RowsOf(second->rows), (Strings{"k004a", Key(6), Key(7)}));

  // Reversed: the same from the top.
  auto top = ReadPage(t, Scan().SetReversed(true), 2);  // k024, k023
  ASSERT_OK(top);
  ASSERT_OK(t.Put(Put("k0235").Add("f", "q", 1, "v")));  // behind (above) the cursor
  ASSERT_OK(t.Delete(Delete(Key(23))));
  ASSERT_OK(t.Put(Put("k022a").Add("f", "q", 1, "v")));  // just below the cursor
  auto next = ReadPage(t, Scan().SetReversed(true), 2, top->cursor);
  ASSERT_OK(next);
  EXPECT_EQ(RowsOf(next->rows), (Strings{"k022a", Key(22)}));
}

TEST_P(PagingTest, ReadingTheSameCursorTwiceGivesTheSamePage) {
  auto first = ReadPage(table(), Scan(), 4);
  ASSERT_OK(first);
  auto a = ReadPage(table(), Scan(), 4, first->cursor);
  auto b = ReadPage(table(), Scan(), 4, first->cursor);
  ASSERT_OK(a);
  ASSERT_OK(b);
  EXPECT_EQ(a->rows, b->rows);
  EXPECT_EQ(a->cursor, b->cursor);
}

TEST_P(PagingTest, OtherRowSettingsMayChangeBetweenPages) {
  ASSERT_OK(table().Put(Put(Key(3)).Add("f", "other", 1, "o")));
  auto first = ReadPage(table(), Scan(), 2);
  ASSERT_OK(first);
  auto second = ReadPage(table(), Scan().AddColumn("f", "other"), 2, first->cursor);
  ASSERT_OK(second);
  EXPECT_EQ(RowsOf(second->rows), (Strings{Key(3)}));  // only rows with the column, from k002
}

bool HasMessage(const Status& s, const std::string& part) {
  return s.IsInvalidArgument() && s.message().find(part) != std::string::npos;
}

TEST_P(PagingTest, MalformedCursorsAreInvalidArgument) {
  auto first = ReadPage(table(), Scan(), 3);
  ASSERT_OK(first);
  const std::string good = first->cursor;
  for (const std::string& bad :
       {std::string("!!!"), std::string("abc"), std::string("AAAA"), std::string("AQ"),
        good.substr(0, good.size() - 1), good.substr(0, good.size() - 2), good.substr(1),
        good + "A", good + "AA", std::string(good.size(), 'A'), std::string(1000, '_')}) {
    auto page = ReadPage(table(), Scan(), 3, bad);
    EXPECT_TRUE(page.status().IsInvalidArgument()) << bad << " " << page.status().ToString();
    EXPECT_NE(page.status().message().find("page cursor"), std::string::npos);
  }
  for (size_t i = 0; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] = bad[i] == 'B' ? 'C' : 'B';
    auto page = ReadPage(table(), Scan(), 3, bad);
    EXPECT_TRUE(page.status().IsInvalidArgument()) << i;
  }
}

TEST_P(PagingTest, CursorOfAnotherScanIsRejected) {
  auto fwd = ReadPage(table(), Scan(), 3);
  auto rev = ReadPage(table(), Scan().SetReversed(true), 3);
  ASSERT_OK(fwd);
  ASSERT_OK(rev);
  EXPECT_TRUE(HasMessage(ReadPage(table(), Scan().SetReversed(true), 3, fwd->cursor).status(),
                         "forward scan, replayed on a reversed"));
  EXPECT_TRUE(HasMessage(ReadPage(table(), Scan(), 3, rev->cursor).status(),
                         "reversed scan, replayed on a forward"));
  for (const Scan& other :
       {Scan().WithStartRow(Key(1)), Scan().WithStopRow(Key(20)), Scan().SetRowPrefix("k"),
        Scan().SetLimit(10), Scan().WithStartRow("", false).WithStopRow("", true)}) {
    EXPECT_TRUE(HasMessage(ReadPage(table(), other, 3, fwd->cursor).status(), "different scan"));
  }
  Table& other_table = store().CreateTable("other", {"f"});
  ASSERT_OK(other_table.Put(Put(Key(1)).Add("f", "q", "v")));
  EXPECT_TRUE(HasMessage(ReadPage(other_table, Scan(), 3, fwd->cursor).status(), "different"));
}

TEST_P(PagingTest, PageSizeMustBePositive) {
  EXPECT_TRUE(ReadPage(table(), Scan(), 0).status().IsInvalidArgument());
  EXPECT_TRUE(ReadPage(table(), Scan(), -1).status().IsInvalidArgument());
}

TEST_P(PagingTest, ScanErrorsComeThrough) {
  EXPECT_TRUE(ReadPage(table(), Scan().AddFamily("nope"), 3).status().IsNotFound());
}

TEST_P(PagingTest, OffsetPageSkipsThenTakes) {
  auto rows = [&](const Scan& scan, int64_t offset, int64_t limit) {
    auto r = ReadOffsetPage(table(), scan, offset, limit);
    EXPECT_OK(r);
    return r.ok() ? RowsOf(*r) : Strings{};
  };
  EXPECT_EQ(rows(Scan(), 0, 3), (Strings{Key(0), Key(1), Key(2)}));
  EXPECT_EQ(rows(Scan(), 20, 10), (Strings{Key(20), Key(21), Key(22), Key(23), Key(24)}));
  EXPECT_EQ(rows(Scan(), 25, 10), Strings{});
  EXPECT_EQ(rows(Scan(), 3, 0), Strings{});
  EXPECT_EQ(rows(Scan().SetReversed(true), 2, 2), (Strings{Key(22), Key(21)}));
  EXPECT_EQ(rows(Scan().SetRowPrefix("k01"), 8, 5), (Strings{Key(18), Key(19)}));
  // The scan's own limit caps the listing.
  EXPECT_EQ(rows(Scan().SetLimit(5), 3, 10), (Strings{Key(3), Key(4)}));
  EXPECT_EQ(rows(Scan().SetLimit(5), 5, 10), Strings{});
  EXPECT_EQ(rows(Scan(), INT64_MAX - 1, INT64_MAX), Strings{});
  EXPECT_TRUE(ReadOffsetPage(table(), Scan(), -1, 3).status().IsInvalidArgument());
  EXPECT_TRUE(ReadOffsetPage(table(), Scan(), 0, -3).status().IsInvalidArgument());
}

TEST_P(PagingTest, OffsetPageKeepsBatchPiecesOfItsRows) {
  Put wide(Key(1));
  for (int q = 0; q < 3; ++q) wide.Add("f", "w" + std::to_string(q), 1, "x");
  ASSERT_OK(table().Put(wide));
  auto r = ReadOffsetPage(table(), Scan().SetBatch(1), 1, 2);
  ASSERT_OK(r);
  EXPECT_EQ(r->size(), 5u);  // k001 in 4 pieces, k002 in 1
  EXPECT_EQ(RowsOf(*r), (Strings{Key(1), Key(2)}));
}

// Note 000's "ORDER BY stamp DESC LIMIT 10 OFFSET 20" by offset and by cursor give the same rows
// while nothing changes; after a newer action arrives, only the cursor still continues where
// the reader stopped.
TEST_P(PagingTest, OffsetShiftsWhenRowsArriveButTheCursorDoesNot) {
  Scan newest_first = Scan().SetReversed(true);
  auto by_offset = ReadOffsetPage(table(), newest_first, 10, 10);
  auto page1 = ReadPage(table(), newest_first, 10);
  ASSERT_OK(by_offset);
  ASSERT_OK(page1);
  auto page2 = ReadPage(table(), newest_first, 10, page1->cursor);
  ASSERT_OK(page2);
  EXPECT_EQ(page2->rows, *by_offset);
  ASSERT_OK(table().Put(Put(Key(99)).Add("f", "q", 1, "new")));
  by_offset = ReadOffsetPage(table(), newest_first, 10, 10);
  page2 = ReadPage(table(), newest_first, 10, page1->cursor);
  ASSERT_OK(by_offset);
  ASSERT_OK(page2);
  EXPECT_EQ(RowsOf(*by_offset).front(), Key(15));  // already on page 1: a repeat
  EXPECT_EQ(RowsOf(page2->rows).front(), Key(14));
}

BASALT_INSTANTIATE_STORE_TEST(PagingTest);

// SkipRows and the offset listing built on it, against reading every row with Next. The rows
// mix what a read hides: r00, r05, ... have only a deleted cell (r00, r10, r20 behind a column
// marker, r05, r15, r25 behind a family marker); r01, r06, ... only a cell
// expired by the TTL; r02, r07, ... only a cell in family "g";
// r03, r08, ... two columns of "f" (a = "keep" or "drop" alternately, b) with an older version
// under each; r04, r09, ... a cell in "f" and a fresh one in "t".
class SkipRowsTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    TableDescriptor desc(TableName("default", "t"));
    desc.AddFamily(FamilyDescriptor("f"));
    FamilyDescriptor ttl("t");
    ttl.ttl_seconds = 3600;
    desc.AddFamily(ttl);
    desc.AddFamily(FamilyDescriptor("g"));
    Table& t = store().CreateTable(desc);
    const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
    for (int i = 0; i < 30; ++i) {
      const std::string row = "r" + std::string(i < 10 ? "0" : "") + std::to_string(i);
      switch (i % 5) {
        case 0:
          ASSERT_OK(t.Put(Put(row).Add("f", "q", 5, "gone")));
          ASSERT_OK(t.Delete(i % 10 == 0 ? Delete(row).AddColumns("f", "q")
                                         : Delete(row).AddFamily("f")));
          break;
        case 1:
          ASSERT_OK(t.Put(Put(row).Add("t", "old", now - 7200 * 1000, "expired")));
          break;
        case 2:
          ASSERT_OK(t.Put(Put(row).Add("g", "q", 1, "other family")));
          break;
        case 3:
          ASSERT_OK(t.Put(Put(row)
                              .Add("f", "a", 1, "older")
                              .Add("f", "a", 2, i % 10 == 3 ? "keep" : "drop")
                              .Add("f", "b", 1, "older")
                              .Add("f", "b", 2, "b")));
          break;
        case 4:
          ASSERT_OK(t.Put(Put(row).Add("f", "q", 1, "x").Add("t", "fresh", now, "y")));
          break;
      }
    }
    store().Reopen();
  }

  Table& table() { return store().table("t"); }

  // Every piece of the scan, grouped into rows by their keys.
  std::vector<std::vector<RowResult>> RowsByNext(const Scan& scan) {
    std::vector<std::vector<RowResult>> rows;
    auto scanner = table().GetScanner(scan);
    EXPECT_OK(scanner);
    if (!scanner.ok()) return rows;
    RowResult piece;
    while ((*scanner)->Next(&piece)) {
      if (rows.empty() || rows.back().back().row() != piece.row()) rows.emplace_back();
      rows.back().push_back(piece);
    }
    EXPECT_OK((*scanner)->status());
    return rows;
  }

  // Thrift2's TScan has no raw flag and no per-family limit or offset.
  bool Expressible(const Scan& scan) const {
    return !IsRemote(GetParam()) ||
           (!scan.raw() && scan.max_results_per_family() < 0 && scan.row_offset_per_family() == 0);
  }

  static std::vector<Scan> Scans() {
    auto value_is = [](const std::string& v) {
      return std::make_shared<ValueFilter>(CompareOp::kNotEqual, ByteComparator::Binary(v));
    };
    return {
        Scan(),
        Scan().SetReversed(true),
        // One family, whole rows, newest versions, no filter: the scanner reads each row from
        // its first key when it can (a row of one cell in one step), and these rows have first
        // keys of every kind: a marker, an older column's Put, a Put outside the time range, an
        // expired Put.
        Scan().AddFamily("f"),
        Scan().AddFamily("f").SetLimit(3),
        Scan().AddFamily("f").SetTimeRange(1, 2),
        Scan().AddFamily("f").SetMaxResultsPerColumnFamily(1),
        Scan().AddFamily("t"),
        Scan().AddFamily("t").AddFamily("g"),
        Scan().AddColumn("f", "b"),
        Scan().ReadVersions(2),
        // Raw reads only the newest versions of r03, r08, ...: a compaction may drop the
        // older ones, the expired cells and the deleted cell with its marker between two scans.
        Scan().SetRaw(true).ReadVersions(5).SetTimeRange(2, 3),
        Scan().SetTimeRange(2, 10),
        // r03's newest versions (2) are past the range and its older ones (1) in it.
        Scan().SetTimeRange(1, 2),
        Scan().SetRowOffsetPerColumnFamily(1),
        Scan().SetMaxResultsPerColumnFamily(1).SetBatch(1),
        Scan().SetLimit(7),
        Scan().SetBatch(1),
        Scan().SetBatch(1).SetReversed(true).ReadVersions(2),
        Scan().SetBatch(3).SetLimit(4),
        Scan().SetFilter(value_is("drop")),
        Scan().SetFilter(value_is("drop")).SetBatch(1),
        Scan().SetFilter(std::make_shared<SingleColumnValueFilter>(
            "f", "a", CompareOp::kEqual, ByteComparator::Binary("keep"), true)),
        Scan().SetFilter(std::make_shared<PrefixFilter>("r1")).SetReversed(true),
    };
  }
};

TEST_P(SkipRowsTest, SkipsWhatNextWouldReturn) {
  for (const Scan& scan : Scans()) {
    if (!Expressible(scan)) continue;
    const auto all = RowsByNext(scan);
    ASSERT_GT(all.size(), 0u);
    for (int64_t n : {0, 1, 2, 3, 5, 8, 100}) {
      auto scanner = table().GetScanner(scan);
      ASSERT_OK(scanner);
      const int64_t want = std::min<int64_t>(n, static_cast<int64_t>(all.size()));
      EXPECT_EQ((*scanner)->SkipRows(n), want) << n;
      std::vector<RowResult> rest, want_rest;
      RowResult piece;
      while ((*scanner)->Next(&piece)) rest.push_back(piece);
      EXPECT_OK((*scanner)->status());
      for (size_t i = static_cast<size_t>(want); i < all.size(); ++i) {
        for (const auto& p : all[i]) want_rest.push_back(p);
      }
      EXPECT_EQ(rest, want_rest) << n;
    }
  }
}

TEST_P(SkipRowsTest, OffsetPageEqualsReadingEveryRow) {
  for (const Scan& scan : Scans()) {
    if (!Expressible(scan)) continue;
    const auto all = RowsByNext(scan);
    for (int64_t offset : {0, 1, 2, 4, 7, 11, 40}) {
      for (int64_t limit : {1, 3, 100}) {
        auto got = ReadOffsetPage(table(), scan, offset, limit);
        ASSERT_OK(got);
        std::vector<RowResult> want;
        for (int64_t i = offset; i < offset + limit && i < static_cast<int64_t>(all.size()); ++i) {
          for (const auto& p : all[static_cast<size_t>(i)]) want.push_back(p);
        }
        EXPECT_EQ(*got, want) << offset << " " << limit;
      }
    }
  }
}

// With a batch, the rest of a row already begun counts as the first row skipped.
TEST_P(SkipRowsTest, MidRowTheRestOfTheRowCountsAsOne) {
  const Scan scan = Scan().SetBatch(1).WithStartRow("r03");
  const auto all = RowsByNext(scan);
  ASSERT_GE(all.size(), 3u);
  ASSERT_EQ(all[0].size(), 2u);  // r03: a, b
  auto scanner = table().GetScanner(scan);
  ASSERT_OK(scanner);
  RowResult piece;
  ASSERT_TRUE((*scanner)->Next(&piece));
  EXPECT_TRUE(piece.partial());
  EXPECT_EQ((*scanner)->SkipRows(2), 2);  // the rest of r03, then r04
  ASSERT_TRUE((*scanner)->Next(&piece));
  EXPECT_EQ(piece, all[2][0]);
  EXPECT_EQ((*scanner)->SkipRows(0), 0);
  EXPECT_EQ((*scanner)->SkipRows(-1), 0);
  EXPECT_EQ((*scanner)->SkipRows(1000), static_cast<int64_t>(all.size()) - 3);
  EXPECT_FALSE((*scanner)->Next(&piece));
  EXPECT_OK((*scanner)->status());
}

// The scan's limit counts skipped rows as returned.
TEST_P(SkipRowsTest, LimitCountsSkippedRows) {
  auto scanner = table().GetScanner(Scan().SetLimit(5));
  ASSERT_OK(scanner);
  EXPECT_EQ((*scanner)->SkipRows(3), 3);
  RowResult piece;
  int rows = 0;
  while ((*scanner)->Next(&piece)) ++rows;
  EXPECT_EQ(rows, 2);
  auto again = table().GetScanner(Scan().SetLimit(5));
  ASSERT_OK(again);
  EXPECT_EQ((*again)->SkipRows(9), 5);
  EXPECT_FALSE((*again)->Next(&piece));
}

BASALT_INSTANTIATE_STORE_TEST(SkipRowsTest);

std::string Qualifier(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "q%02d", i);
  return buf;
}

// A wide row "w": family "f" (3 versions kept) with columns q00..q29, each at timestamps 1 and 2;
// family "g" with one column, which column paging of "f" never shows.
class ColumnPagingTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    TableDescriptor desc(TableName("default", "t"));
    FamilyDescriptor f;
    f.name = "f";
    f.max_versions = 3;
    desc.AddFamily(f);
    desc.AddFamily(FamilyDescriptor("g"));
    Table& t = store().CreateTable(desc);
    Put wide("w");
    for (int i = 0; i < 30; ++i) {
      wide.Add("f", Qualifier(i), 1, "old").Add("f", Qualifier(i), 2, "new" + Qualifier(i));
    }
    wide.Add("g", "other", 1, "x");
    ASSERT_OK(t.Put(wide));
    store().Reopen();
  }

  Table& table() { return store().table("t"); }

  // The qualifiers of a whole walk, and the number of pages.
  Strings Walk(Table& t, const Get& get, int32_t page_size, int* pages_out = nullptr) {
    Strings out;
    std::string cursor;
    int pages = 0;
    do {
      auto page = ReadColumnPage(t, get, page_size, cursor);
      EXPECT_OK(page);
      if (!page.ok() || ++pages > 200) break;
      for (const Cell& c : page->row.cells()) {
        EXPECT_EQ(c.row, "w");
        EXPECT_EQ(c.family, get.columns().begin()->first);
        if (out.empty() || out.back() != c.qualifier) out.push_back(c.qualifier);
      }
      cursor = page->cursor;
    } while (!cursor.empty());
    if (pages_out != nullptr) *pages_out = pages;
    return out;
  }

  Strings Qualifiers(int from, int to) {
    Strings out;
    for (int i = from; i < to; ++i) out.push_back(Qualifier(i));
    return out;
  }
};

TEST_P(ColumnPagingTest, PagesCoverEveryColumnOnceInOrder) {
  for (int32_t size : {1, 3, 7, 29, 30, 31, 100}) {
    int pages = 0;
    EXPECT_EQ(Walk(table(), Get("w").AddFamily("f"), size, &pages), Qualifiers(0, 30)) << size;
    EXPECT_EQ(pages, (30 + size - 1) / size) << size;  // the last page says so: no empty page
  }
}

TEST_P(ColumnPagingTest, PageHoldsEveryVersionTheGetReads) {
  auto page = ReadColumnPage(table(), Get("w").AddFamily("f").ReadVersions(2), 2);
  ASSERT_OK(page);
  EXPECT_EQ(page->row.row(), "w");
  EXPECT_EQ(Describe(page->row),
            (Strings{"f:q00@2=newq00", "f:q00@1=old", "f:q01@2=newq01", "f:q01@1=old"}));
  EXPECT_FALSE(page->cursor.empty());
  EXPECT_EQ(Walk(table(), Get("w").AddFamily("f").ReadAllVersions(), 4), Qualifiers(0, 30));
  EXPECT_EQ(Walk(table(), Get("w").AddFamily("f").ReadVersions(3), 4), Qualifiers(0, 30));
}

TEST_P(ColumnPagingTest, SelectedColumnsAndTheGetsFilterNarrowTheWalk) {
  Get some = Get("w").AddColumn("f", Qualifier(3)).AddColumn("f", Qualifier(17));
  some.AddColumn("f", Qualifier(25));
  EXPECT_EQ(Walk(table(), some, 1), (Strings{Qualifier(3), Qualifier(17), Qualifier(25)}));
  EXPECT_EQ(Walk(table(),
                 Get("w").AddFamily("f").SetFilter(std::make_shared<ColumnPrefixFilter>("q1")), 3),
            Qualifiers(10, 20));
}

TEST_P(ColumnPagingTest, ColumnsWrittenBetweenPagesNeitherRepeatNorSkip) {
  Get get = Get("w").AddFamily("f");
  auto first = ReadColumnPage(table(), get, 5);  // q00..q04
  ASSERT_OK(first);
  ASSERT_OK(table().Put(Put("w").Add("f", "q00a", 1, "v")));             // behind the cursor
  ASSERT_OK(table().Delete(Delete("w").AddColumns("f", Qualifier(4))));  // the cursor's column
  ASSERT_OK(table().Put(Put("w").Add("f", "q04a", 1, "v")));             // just after the cursor
  ASSERT_OK(table().Delete(Delete("w").AddColumns("f", Qualifier(5))));  // the next column
  auto second = ReadColumnPage(table(), get, 3, first->cursor);
  ASSERT_OK(second);
  Strings got;
  for (const Cell& c : second->row.cells()) got.push_back(c.qualifier);
  EXPECT_EQ(got, (Strings{"q04a", Qualifier(6), Qualifier(7)}));
}

TEST_P(ColumnPagingTest, EmptyQualifierIsPagedPastLikeAnyOther) {
  ASSERT_OK(table().Put(Put("w").Add("f", "", 1, "empty")));
  Strings expected = {""};
  for (const auto& q : Qualifiers(0, 30)) expected.push_back(q);
  EXPECT_EQ(Walk(table(), Get("w").AddFamily("f"), 1), expected);
}

TEST_P(ColumnPagingTest, MissingRowGivesAnEmptyPage) {
  auto page = ReadColumnPage(table(), Get("nope").AddFamily("f"), 3);
  ASSERT_OK(page);
  EXPECT_TRUE(page->row.empty());
  EXPECT_TRUE(page->cursor.empty());
}

TEST_P(ColumnPagingTest, WorksOnASaltedTable) {
  auto salted = SaltedTable::Wrap(table(), 4);
  ASSERT_OK(salted);
  Put wide("w");
  for (int i = 0; i < 12; ++i) wide.Add("f", Qualifier(i), 1, "v");
  ASSERT_OK(salted->Put(wide));
  EXPECT_EQ(Walk(*salted, Get("w").AddFamily("f"), 5), Qualifiers(0, 12));
}

TEST_P(ColumnPagingTest, BadRequestsAndForeignCursorsAreInvalidArgument) {
  Get get = Get("w").AddFamily("f");
  EXPECT_TRUE(ReadColumnPage(table(), get, 0).status().IsInvalidArgument());
  EXPECT_TRUE(ReadColumnPage(table(), Get("w"), 3).status().IsInvalidArgument());
  EXPECT_TRUE(ReadColumnPage(table(), Get("w").AddFamily("f").AddFamily("g"), 3)
                  .status()
                  .IsInvalidArgument());
  EXPECT_TRUE(ReadColumnPage(table(), Get("w").AddFamily("f").SetMaxResultsPerColumnFamily(2), 3)
                  .status()
                  .IsInvalidArgument());
  EXPECT_TRUE(ReadColumnPage(table(), Get("w").AddFamily("f").SetRowOffsetPerColumnFamily(2), 3)
                  .status()
                  .IsInvalidArgument());

  auto first = ReadColumnPage(table(), get, 3);
  ASSERT_OK(first);
  auto other_row = ReadColumnPage(table(), Get("v").AddFamily("f"), 3, first->cursor);
  EXPECT_TRUE(HasMessage(other_row.status(), "different row")) << other_row.status().ToString();
  auto other_family = ReadColumnPage(table(), Get("w").AddFamily("g"), 3, first->cursor);
  EXPECT_TRUE(HasMessage(other_family.status(), "different row"));
  auto truncated = ReadColumnPage(table(), get, 3, first->cursor.substr(3));
  EXPECT_TRUE(HasMessage(truncated.status(), "page cursor"));

  // Row and column cursors are not interchangeable.
  auto rows = ReadPage(table(), Scan(), 1);
  ASSERT_OK(table().Put(Put("x").Add("f", "q", "v")));
  rows = ReadPage(table(), Scan(), 1);
  ASSERT_OK(rows);
  ASSERT_FALSE(rows->cursor.empty());
  EXPECT_TRUE(HasMessage(ReadColumnPage(table(), get, 3, rows->cursor).status(), "row cursor"));
  EXPECT_TRUE(HasMessage(ReadPage(table(), Scan(), 1, first->cursor).status(), "column cursor"));
}

BASALT_INSTANTIATE_STORE_TEST(ColumnPagingTest);

}  // namespace
}  // namespace basalt::testing
