// Scan: bounds with inclusive flags, row prefix, reversed scans, limit, batch, column
// selection, and the streaming scanner's contract.

#include <gtest/gtest.h>

#include "support/test_store.h"

namespace basalt::testing {
namespace {

using Strings = std::vector<std::string>;

class ScanTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    Table& t = store().CreateTable("t", {"a", "b"});
    for (const char* row : {"r1", "r2", "r3", "r4", "s1"}) {
      ASSERT_OK(t.Put(Put(row).Add("a", "x", 1, std::string(row) + "ax").Add("b", "y", 1, "by")));
    }
    store().Reopen();
  }

  Strings Rows(const Scan& scan) { return ScanRows(store().table("t"), scan); }
};

TEST_P(ScanTest, StartIsInclusiveAndStopExclusiveByDefault) {
  EXPECT_EQ(Rows(Scan().WithStartRow("r2").WithStopRow("r4")), (Strings{"r2", "r3"}));
}

TEST_P(ScanTest, InclusiveFlagsMoveTheBounds) {
  EXPECT_EQ(Rows(Scan().WithStartRow("r2", false).WithStopRow("r4", true)), (Strings{"r3", "r4"}));
  // Bounds between rows behave the same whatever the flags.
  EXPECT_EQ(Rows(Scan().WithStartRow("r25", false).WithStopRow("r35", true)), (Strings{"r3"}));
}

TEST_P(ScanTest, PrefixSelectsRowsStartingWithIt) {
  EXPECT_EQ(Rows(Scan().SetRowPrefix("r")), (Strings{"r1", "r2", "r3", "r4"}));
  EXPECT_EQ(Rows(Scan().SetRowPrefix("s")), (Strings{"s1"}));
  EXPECT_EQ(Rows(Scan().SetRowPrefix("t")), Strings{});
  // Combined with a start row: the later bound wins.
  EXPECT_EQ(Rows(Scan().SetRowPrefix("r").WithStartRow("r3")), (Strings{"r3", "r4"}));
}

// Rows and prefixes with zero bytes (stored escaped) and a row that is the prefix itself: the
// scanner searches each row key for its end, and un-escapes it, from the end of the escaped
// prefix on.
TEST_P(ScanTest, PrefixWithZeroBytesSelectsTheRowsStartingWithIt) {
  TableDescriptor desc(TableName("default", "z"));
  desc.AddFamily(FamilyDescriptor("f"));
  Table& t = store().CreateTable(desc);
  const std::string p("u\0", 2);
  const Strings rows = {std::string("u", 1),         p,          p + std::string("\0", 1), p + "a",
                        p + std::string("\0b\0", 3), p + "\xff", std::string("u\x01", 2)};
  for (const std::string& row : rows) ASSERT_OK(t.Put(Put(row).Add("f", "", 1, row)));
  ASSERT_OK(t.Put(Put(p + "a").Add("f", "older", 1, "second cell")));
  const Strings want = {p, p + std::string("\0", 1), p + std::string("\0b\0", 3), p + "a",
                        p + "\xff"};
  EXPECT_EQ(ScanRows(t, Scan().SetRowPrefix(p).AddFamily("f")), want);
  EXPECT_EQ(ScanRows(t, Scan().SetRowPrefix(p + std::string("\0", 1))),
            (Strings{p + std::string("\0", 1), p + std::string("\0b\0", 3)}));
  auto scanner = t.GetScanner(Scan().SetRowPrefix(p).AddFamily("f"));
  ASSERT_OK(scanner);
  EXPECT_EQ((*scanner)->SkipRows(2), 2);
  RowResult row;
  ASSERT_TRUE((*scanner)->Next(&row));
  EXPECT_EQ(row.row(), p + std::string("\0b\0", 3));
  EXPECT_EQ(row.Value("f", ""), p + std::string("\0b\0", 3));
  ASSERT_TRUE((*scanner)->Next(&row));
  EXPECT_EQ(row.row(), p + "a");
  EXPECT_EQ(row.size(), 2u);
}

TEST_P(ScanTest, ReversedScanStartsAtStartRowAndGoesDown) {
  EXPECT_EQ(Rows(Scan().SetReversed(true)), (Strings{"s1", "r4", "r3", "r2", "r1"}));
  EXPECT_EQ(Rows(Scan().SetReversed(true).WithStartRow("r3").WithStopRow("r1")),
            (Strings{"r3", "r2"}));
  EXPECT_EQ(Rows(Scan().SetReversed(true).WithStartRow("r3", false).WithStopRow("r1", true)),
            (Strings{"r2", "r1"}));
  EXPECT_EQ(Rows(Scan().SetReversed(true).SetRowPrefix("r")), (Strings{"r4", "r3", "r2", "r1"}));
}

TEST_P(ScanTest, ReversedScanReturnsEachRowsCellsInNormalOrder) {
  auto rows = ScanAll(store().table("t"), Scan().SetReversed(true).SetRowPrefix("r4"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(Describe(rows[0]), (Strings{"a:x@1=r4ax", "b:y@1=by"}));
}

// The engine's scanner reuses the buffers of the row the caller hands back; nothing of the
// previous row may show through, whatever the sizes and shapes of the rows, and whether or not a
// filter takes back cells it was offered.
TEST_P(ScanTest, OneRowResultReusedAcrossNextCallsHoldsExactlyEachRow) {
  Table& t = store().CreateTable("shapes", {"f"});
  const std::string long_value(3000, 'L');
  ASSERT_OK(t.Put(Put("r1").Add("f", "huge", 4, std::string(100 << 10, 'U'))));
  ASSERT_OK(
      t.Put(Put("row-with-a-long-key-0001").Add("f", "a", 5, long_value).Add("f", "b", 5, "")));
  ASSERT_OK(t.Put(Put("r2").Add("f", "c", 6, "short")));
  ASSERT_OK(t.Put(Put("r3").Add("f", std::string("q\0z", 3), 7, std::string(5000, 'H'))));
  ASSERT_OK(t.Put(Put("r4").Add("f", "a", 8, "x").Add("f", "b", 8, "yy").Add("f", "c", 8, "zzz")));
  ASSERT_OK(t.Put(Put("s1").Add("f", "z", 9, "fewer cells than two rows back")));
  auto shape = [](const RowResult& r) {
    Strings cells = Describe(r);
    for (const Cell& c : r.cells()) cells.push_back("row=" + c.row);
    cells.push_back("result=" + r.row());
    return cells;
  };
  for (const FilterPtr& filter :
       {FilterPtr(), FilterPtr(std::make_shared<ValueFilter>(CompareOp::kNotEqual,
                                                             ByteComparator::Binary("yy")))}) {
    SCOPED_TRACE(filter == nullptr ? "no filter" : "a filter dropping r4's b");
    std::vector<Strings> expected;
    for (const char* row : {"r1", "r2", "r3", "r4", "row-with-a-long-key-0001", "s1"}) {
      auto got = t.Get(Get(row).SetFilter(filter));
      ASSERT_OK(got.status());
      expected.push_back(shape(*got));
    }
    ASSERT_EQ(expected[1], (Strings{"f:c@6=short", "row=r2", "result=r2"}));
    ASSERT_EQ(expected[3].size(), filter == nullptr ? 7u : 5u);
    auto scanner = t.GetScanner(Scan().SetFilter(filter));
    ASSERT_OK(scanner.status());
    RowResult r;
    std::vector<Strings> seen;
    while ((*scanner)->Next(&r)) seen.push_back(shape(r));
    ASSERT_OK((*scanner)->status());
    EXPECT_EQ(seen, expected);
  }
}

TEST_P(ScanTest, LimitCapsRows) {
  EXPECT_EQ(Rows(Scan().SetLimit(2)), (Strings{"r1", "r2"}));
  EXPECT_EQ(Rows(Scan().SetLimit(2).SetReversed(true)), (Strings{"s1", "r4"}));
  EXPECT_EQ(Rows(Scan().SetLimit(100)).size(), 5u);
}

TEST_P(ScanTest, BatchSplitsWideRowsIntoFlaggedPieces) {
  Table& t = store().table("t");
  Put wide("w");
  for (int i = 0; i < 5; ++i) wide.Add("a", "q" + std::to_string(i), 1, "v");
  ASSERT_OK(t.Put(wide));
  auto pieces = ScanAll(t, Scan().SetRowPrefix("w").SetBatch(2));
  ASSERT_EQ(pieces.size(), 3u);
  EXPECT_EQ(pieces[0].cells().size(), 2u);
  EXPECT_TRUE(pieces[0].partial());
  EXPECT_EQ(pieces[1].cells().size(), 2u);
  EXPECT_TRUE(pieces[1].partial());
  EXPECT_EQ(pieces[2].cells().size(), 1u);
  EXPECT_FALSE(pieces[2].partial());
  for (const auto& p : pieces) EXPECT_EQ(p.row(), "w");
  // Limit counts rows, not pieces.
  auto limited = ScanAll(t, Scan().WithStartRow("s1").SetBatch(1).SetLimit(2));
  ASSERT_EQ(limited.size(), 2u + 5u);
}

TEST_P(ScanTest, ColumnSelectionMixesFamiliesAndColumns) {
  ASSERT_OK(store().table("t").Put(Put("r1").Add("a", "z", 1, "az")));
  auto rows = ScanAll(store().table("t"), Scan().AddColumn("a", "z").AddFamily("b").SetLimit(1));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(Describe(rows[0]), (Strings{"a:z@1=az", "b:y@1=by"}));
  // Rows without any selected column are skipped.
  EXPECT_EQ(Rows(Scan().AddColumn("a", "z")), Strings{"r1"});
}

TEST_P(ScanTest, UnknownFamilyInAScanIsAnError) {
  auto scanner = store().table("t").GetScanner(Scan().AddFamily("nope"));
  EXPECT_TRUE(scanner.status().IsNotFound()) << scanner.status().ToString();
}

TEST_P(ScanTest, EmptyRangeAndEmptyTableReturnNothing) {
  EXPECT_EQ(Rows(Scan().WithStartRow("r3").WithStopRow("r2")), Strings{});
  Table& empty = store().CreateTable("empty", {"f"});
  EXPECT_EQ(ScanRows(empty), Strings{});
  EXPECT_EQ(ScanRows(empty, Scan().SetReversed(true)), Strings{});
}

TEST_P(ScanTest, ScannerStreamsAndEndsWithOkStatusAndCanBeClosedEarly) {
  auto scanner = store().table("t").GetScanner(Scan());
  ASSERT_OK(scanner);
  RowResult r;
  ASSERT_TRUE((*scanner)->Next(&r));
  EXPECT_EQ(r.row(), "r1");
  (*scanner)->Close();
  EXPECT_FALSE((*scanner)->Next(&r));
  EXPECT_OK((*scanner)->status());
  (*scanner)->Close();  // idempotent

  auto all = store().table("t").GetScanner(Scan());
  ASSERT_OK(all);
  int n = 0;
  while ((*all)->Next(&r)) ++n;
  EXPECT_EQ(n, 5);
  EXPECT_OK((*all)->status());
  EXPECT_FALSE((*all)->Next(&r));
}

// Closing the store ends the scanners still open, wherever they stand: Next() then returns
// false with an Aborted status. Scanners closed or destroyed before, and those left after, can
// be closed and destroyed in any order.
TEST_P(ScanTest, ClosingTheStoreEndsOpenScannersWithAnAbortedStatus) {
  if (IsRemote(GetParam())) GTEST_SKIP() << "closing a client does not close the server's store";
  Table& t = store().table("t");
  std::vector<std::unique_ptr<ResultScanner>> scanners;
  for (int i = 0; i < 5; ++i) {
    auto s = t.GetScanner(Scan());
    ASSERT_OK(s.status());
    scanners.push_back(std::move(*s));
  }
  RowResult r;
  ASSERT_TRUE(scanners[1]->Next(&r));
  scanners[2]->Close();
  scanners[3].reset();  // neither the first nor the last one opened
  ASSERT_OK(store().conn().Close());
  for (int i : {0, 1, 4}) {
    EXPECT_FALSE(scanners[i]->Next(&r)) << i;
    EXPECT_TRUE(scanners[i]->status().IsAborted()) << i << ": " << scanners[i]->status().ToString();
  }
  EXPECT_FALSE(scanners[2]->Next(&r));
  EXPECT_OK(scanners[2]->status());
  scanners[0]->Close();
  scanners.clear();
}

TEST_P(ScanTest, ManyRowsAcrossFlushesComeBackInOrder) {
  if (!store().SupportsMaintenance()) GTEST_SKIP() << "Thrift2 has no flush or major compaction";
  Table& t = store().CreateTable("big", {"f", "g"});
  for (int i = 0; i < 2000; ++i) {
    char row[16];
    std::snprintf(row, sizeof(row), "k%05d", (i * 7919) % 2000);
    Put p(row);
    p.Add(i % 2 ? "f" : "g", "q", 1, std::to_string(i));
    ASSERT_OK(t.Put(p));
    if (i == 1000) ASSERT_OK(store().Flush(TableName("default", "big")));
  }
  Strings rows = ScanRows(store().table("big"));
  ASSERT_EQ(rows.size(), 2000u);
  EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end()));
  Strings reversed = ScanRows(store().table("big"), Scan().SetReversed(true));
  std::reverse(reversed.begin(), reversed.end());
  EXPECT_EQ(reversed, rows);
}

}  // namespace

BASALT_INSTANTIATE_STORE_TEST(ScanTest);

}  // namespace basalt::testing
