// The data model's rules for what reads return: cell order, versions, TTL, delete markers,
// KEEP_DELETED_CELLS, compaction, server timestamps. On every store configuration; tests call
// Reopen() between steps so the `reopen` configuration proves nothing lives only in memory.

#include <gtest/gtest.h>

#include "support/test_store.h"
#include "util/clock.h"

namespace basalt::testing {
namespace {

class SemanticsTest : public StoreTest {
 protected:
  Table& CreateWith(const std::string& name, std::vector<FamilyDescriptor> families) {
    TableDescriptor desc(TableName("default", name));
    for (auto& f : families) desc.AddFamily(std::move(f));
    return store().CreateTable(desc);
  }

  static FamilyDescriptor Family(std::string name, int32_t versions) {
    FamilyDescriptor f(std::move(name));
    f.max_versions = versions;
    return f;
  }

  std::vector<std::string> Read(const std::string& table, Get get) {
    auto r = store().table(table).Get(get);
    EXPECT_OK(r);
    return r.ok() ? Describe(*r) : std::vector<std::string>{"<error>"};
  }

  // Every cell of every row as "row/family:qualifier@ts=value" (or "/Type" for markers).
  std::vector<std::string> Dump(const std::string& table, Scan scan = Scan()) {
    std::vector<std::string> out;
    for (const auto& r : ScanAll(store().table(table), scan)) {
      for (const auto& c : r.cells()) out.push_back(r.row() + "/" + Describe(c));
    }
    return out;
  }

  void Flush(const std::string& table) { ASSERT_OK(store().Flush(TableName("default", table))); }
  void Compact(const std::string& table) {
    ASSERT_OK(store().MajorCompact(TableName("default", table)));
  }

  using Strings = std::vector<std::string>;
};

TEST_P(SemanticsTest, CellsComeInRowFamilyQualifierOrderNewestFirst) {
  CreateWith("t", {Family("b", 3), Family("a", 3)});
  Table& t = store().table("t");
  ASSERT_OK(t.Put(Put("r").Add("b", "z", 1, "1").Add("a", "\xff", 1, "2").Add("a", "x", 1, "3")));
  ASSERT_OK(t.Put(Put("r").Add("a", "x", 5, "4").Add("b", "z", 3, "5")));
  ASSERT_OK(t.Put(Put("\xff").Add("a", "x", 1, "6")));
  ASSERT_OK(t.Put(Put("q").Add("a", "x", 1, "7")));
  store().Reopen();
  EXPECT_EQ(Read("t", Get("r").ReadVersions(3)),
            (Strings{"a:x@5=4", "a:x@1=3", "a:\xff@1=2", "b:z@3=5", "b:z@1=1"}));
  // Rows compare as unsigned bytes: 0xFF sorts last.
  EXPECT_EQ(ScanRows(store().table("t")), (Strings{"q", "r", "\xff"}));
}

TEST_P(SemanticsTest, FamilyVersionsCapWhatAnyReadReturns) {
  BASALT_SKIP_IF_REMOTE(GetParam(),
                        "raw scans have no Thrift2 form (TScan has no raw flag): NotSupported");
  CreateWith("t", {Family("f", 2)});
  for (int ts = 1; ts <= 4; ++ts) {
    ASSERT_OK(store().table("t").Put(Put("r").Add("f", "q", ts, "v" + std::to_string(ts))));
  }
  const Strings newest_two{"f:q@4=v4", "f:q@3=v3"};
  EXPECT_EQ(Read("t", Get("r").ReadAllVersions()), newest_two);
  Flush("t");
  EXPECT_EQ(Read("t", Get("r").ReadAllVersions()), newest_two);
  Compact("t");
  store().Reopen();
  EXPECT_EQ(Read("t", Get("r").ReadAllVersions()), newest_two);
  // Versions beyond the family's limit are gone for good after compaction, also from raw scans.
  EXPECT_EQ(Dump("t", Scan().SetRaw(true).ReadAllVersions()),
            (Strings{"r/f:q@4=v4", "r/f:q@3=v3"}));
}

TEST_P(SemanticsTest, ReadVersionsLimitsVersionsPerColumn) {
  CreateWith("t", {Family("f", 10)});
  Table& t = store().table("t");
  for (int ts = 1; ts <= 5; ++ts) {
    ASSERT_OK(t.Put(Put("r").Add("f", "a", ts, "a" + std::to_string(ts)).Add("f", "b", ts, "b")));
  }
  EXPECT_EQ(Read("t", Get("r")), (Strings{"f:a@5=a5", "f:b@5=b"}));
  EXPECT_EQ(Read("t", Get("r").AddColumn("f", "a").ReadVersions(3)),
            (Strings{"f:a@5=a5", "f:a@4=a4", "f:a@3=a3"}));
  EXPECT_EQ(Dump("t", Scan().ReadVersions(2)),
            (Strings{"r/f:a@5=a5", "r/f:a@4=a4", "r/f:b@5=b", "r/f:b@4=b"}));
}

TEST_P(SemanticsTest, TimeRangeIsHalfOpenAndTimestampIsExact) {
  CreateWith("t", {Family("f", 10)});
  for (int ts = 10; ts <= 50; ts += 10) {
    ASSERT_OK(store().table("t").Put(Put("r").Add("f", "q", ts, std::to_string(ts))));
  }
  EXPECT_EQ(Read("t", Get("r").ReadAllVersions().SetTimeRange(20, 40)),
            (Strings{"f:q@30=30", "f:q@20=20"}));
  EXPECT_EQ(Read("t", Get("r").SetTimestamp(40)), (Strings{"f:q@40=40"}));
  EXPECT_EQ(Read("t", Get("r").SetTimestamp(41)), Strings{});
  // The newest version in the range, not the newest overall.
  EXPECT_EQ(Read("t", Get("r").SetTimeRange(0, 35)), (Strings{"f:q@30=30"}));
}

TEST_P(SemanticsTest, VersionsAreCountedBeforeTheTimeRange) {
  // Unlike HBase (docs/data-model.md): with VERSIONS 2, the versions at 30 and 20 are the
  // visible ones, so a time range that only covers 10 finds nothing, compacted or not. HBase
  // counts versions inside the range, so until a compaction drops it, the version at 10 shows.
  CreateWith("t", {Family("f", 2)});
  for (int ts = 10; ts <= 30; ts += 10) {
    ASSERT_OK(store().table("t").Put(Put("r").Add("f", "q", ts, std::to_string(ts))));
  }
  if (store().IsRealHBase()) {
    EXPECT_EQ(Read("t", Get("r").SetTimeRange(0, 15)), (Strings{"f:q@10=10"}));
  } else {
    EXPECT_EQ(Read("t", Get("r").SetTimeRange(0, 15)), Strings{});
  }
  EXPECT_EQ(Read("t", Get("r").SetTimeRange(0, 25)), (Strings{"f:q@20=20"}));
}

TEST_P(SemanticsTest, LoweringFamilyVersionsHidesExtraVersionsAtOnce) {
  CreateWith("t", {Family("f", 5)});
  for (int ts = 1; ts <= 4; ++ts)
    ASSERT_OK(store().table("t").Put(Put("r").Add("f", "q", ts, "v")));
  ASSERT_OK(store().admin().ModifyFamily(TableName("default", "t"), Family("f", 1)));
  EXPECT_EQ(Read("t", Get("r").ReadAllVersions()), (Strings{"f:q@4=v"}));
}

TEST_P(SemanticsTest, ExpiredCellsAreNeverReturned) {
  BASALT_SKIP_IF_REMOTE(GetParam(),
                        "raw scans have no Thrift2 form (TScan has no raw flag): NotSupported");
  FamilyDescriptor f = Family("f", 5);
  f.ttl_seconds = 3600;
  CreateWith("t", {f});
  const int64_t now = util::MonotonicWallMillis();
  const int64_t old = now - 2 * 3600 * 1000;
  ASSERT_OK(store().table("t").Put(Put("r").Add("f", "old", old, "x").Add("f", "new", now, "y")));
  ASSERT_OK(store().table("t").Put(Put("gone").Add("f", "q", old, "z")));
  const Strings fresh{"f:new@" + std::to_string(now) + "=y"};
  EXPECT_EQ(Read("t", Get("r").ReadAllVersions()), fresh);
  EXPECT_EQ(ScanRows(store().table("t")), Strings{"r"});
  Flush("t");
  EXPECT_EQ(Read("t", Get("r").ReadAllVersions()), fresh);
  Compact("t");
  store().Reopen();
  EXPECT_EQ(Read("t", Get("r").ReadAllVersions()), fresh);
  EXPECT_EQ(ScanRows(store().table("t")), Strings{"r"});
  // Compaction dropped the expired cells.
  EXPECT_EQ(Dump("t", Scan().SetRaw(true).ReadAllVersions()).size(), 1u);
}

TEST_P(SemanticsTest, MinVersionsKeepNewestExpiredVersions) {
  if (!store().SupportsMaintenance()) GTEST_SKIP() << "Thrift2 has no flush or major compaction";
  FamilyDescriptor f = Family("f", 5);
  f.ttl_seconds = 3600;
  f.min_versions = 2;
  CreateWith("t", {f});
  const int64_t old = util::MonotonicWallMillis() - 5 * 3600 * 1000;
  for (int i = 1; i <= 3; ++i) {
    ASSERT_OK(store().table("t").Put(Put("r").Add("f", "q", old + i, std::to_string(i))));
  }
  const Strings kept{"f:q@" + std::to_string(old + 3) + "=3",
                     "f:q@" + std::to_string(old + 2) + "=2"};
  EXPECT_EQ(Read("t", Get("r").ReadAllVersions()), kept);
  Compact("t");
  store().Reopen();
  EXPECT_EQ(Read("t", Get("r").ReadAllVersions()), kept);
}

TEST_P(SemanticsTest, DeleteRowHidesEveryFamilyUpToItsTimestamp) {
  CreateWith("t", {Family("a", 5), Family("b", 5)});
  Table& t = store().table("t");
  ASSERT_OK(t.Put(Put("r").Add("a", "x", 10, "1").Add("b", "y", 20, "2").Add("a", "x", 30, "3")));
  ASSERT_OK(t.Delete(Delete("r", 20)));
  store().Reopen();
  EXPECT_EQ(Read("t", Get("r").ReadAllVersions()), (Strings{"a:x@30=3"}));
  ASSERT_OK(store().table("t").Delete(Delete("r")));  // now: everything
  EXPECT_EQ(Read("t", Get("r").ReadAllVersions()), Strings{});
}

TEST_P(SemanticsTest, DeleteFamilyHidesOnlyThatFamily) {
  CreateWith("t", {Family("a", 5), Family("b", 5)});
  Table& t = store().table("t");
  ASSERT_OK(t.Put(Put("r").Add("a", "x", 10, "1").Add("a", "y", 30, "2").Add("b", "y", 10, "3")));
  ASSERT_OK(t.Delete(Delete("r").AddFamily("a", 20)));
  EXPECT_EQ(Read("t", Get("r").ReadAllVersions()), (Strings{"a:y@30=2", "b:y@10=3"}));
}

TEST_P(SemanticsTest, DeleteFamilyVersionHidesExactlyThatTimestamp) {
  CreateWith("t", {Family("a", 5)});
  Table& t = store().table("t");
  ASSERT_OK(t.Put(Put("r").Add("a", "x", 10, "1").Add("a", "x", 20, "2").Add("a", "y", 20, "3")));
  ASSERT_OK(t.Delete(Delete("r").AddFamilyVersion("a", 20)));
  EXPECT_EQ(Read("t", Get("r").ReadAllVersions()), (Strings{"a:x@10=1"}));
}

TEST_P(SemanticsTest, DeleteColumnsHidesVersionsAtOrBeforeItsTimestamp) {
  CreateWith("t", {Family("f", 5)});
  Table& t = store().table("t");
  for (int ts = 10; ts <= 30; ts += 10)
    ASSERT_OK(t.Put(Put("r").Add("f", "q", ts, std::to_string(ts))));
  ASSERT_OK(t.Put(Put("r").Add("f", "other", 10, "o")));
  ASSERT_OK(t.Delete(Delete("r").AddColumns("f", "q", 20)));
  EXPECT_EQ(Read("t", Get("r").ReadAllVersions()), (Strings{"f:other@10=o", "f:q@30=30"}));
}

TEST_P(SemanticsTest, DeleteColumnHidesOneVersion) {
  CreateWith("t", {Family("f", 5)});
  Table& t = store().table("t");
  for (int ts = 10; ts <= 30; ts += 10)
    ASSERT_OK(t.Put(Put("r").Add("f", "q", ts, std::to_string(ts))));
  ASSERT_OK(t.Delete(Delete("r").AddColumn("f", "q", 20)));
  EXPECT_EQ(Read("t", Get("r").ReadAllVersions()), (Strings{"f:q@30=30", "f:q@10=10"}));
  // Without a timestamp: the newest version.
  ASSERT_OK(t.Delete(Delete("r").AddColumn("f", "q")));
  EXPECT_EQ(Read("t", Get("r").ReadAllVersions()), (Strings{"f:q@10=10"}));
}

TEST_P(SemanticsTest, PutAfterDeleteIsVisibleEvenWithAnOlderTimestamp) {
  // basalt follows HBase's NEW_VERSION_BEHAVIOR: a marker hides only what was written before it.
  // HBase's default ("deletes mask puts", docs/data-model.md) hides the later Put too, until a
  // major compaction drops the marker.
  CreateWith("t", {Family("f", 5)});
  Table& t = store().table("t");
  ASSERT_OK(t.Put(Put("r").Add("f", "q", 10, "before")));
  ASSERT_OK(t.Delete(Delete("r", 100)));
  ASSERT_OK(t.Put(Put("r").Add("f", "q", 50, "after")));
  store().Reopen();
  if (store().IsRealHBase()) {
    EXPECT_EQ(Read("t", Get("r").ReadAllVersions()), Strings{});
    return;  // Thrift2 has no major compaction to drop the marker with
  }
  EXPECT_EQ(Read("t", Get("r").ReadAllVersions()), (Strings{"f:q@50=after"}));
  if (!store().SupportsMaintenance()) return;
  Compact("t");
  EXPECT_EQ(Read("t", Get("r").ReadAllVersions()), (Strings{"f:q@50=after"}));
}

// A major compaction clears the write sequence of the Puts it keeps (compaction_filter.h); the
// markers written after it must still hide exactly the cells written before them.
TEST_P(SemanticsTest, MarkersAfterAMajorCompactionHideWhatWasWrittenBefore) {
  if (!store().SupportsMaintenance()) GTEST_SKIP() << "Thrift2 has no flush or major compaction";
  CreateWith("t", {Family("f", 5)});
  Table& t = store().table("t");
  ASSERT_OK(t.Put(Put("a").Add("f", "q", 10, "a10").Add("f", "q", 30, "a30")));
  ASSERT_OK(t.Put(Put("b").Add("f", "q", 10, "b10").Add("f", "p", 40, "b40")));
  ASSERT_OK(t.Put(Put("c").Add("f", "q", 10, "c10")));
  Compact("t");
  ASSERT_OK(t.Delete(Delete("a").AddColumn("f", "q", 30)));
  ASSERT_OK(t.Delete(Delete("b", 20)));
  ASSERT_OK(t.Put(Put("c").Add("f", "q", 5, "c5")));
  ASSERT_OK(t.Delete(Delete("c").AddColumns("f", "q", 10)));
  // Written after the marker, so visible although older than it (NEW_VERSION_BEHAVIOR).
  ASSERT_OK(t.Put(Put("c").Add("f", "q", 7, "c7")));
  const Strings expected{"a/f:q@10=a10", "b/f:p@40=b40", "c/f:q@7=c7"};
  EXPECT_EQ(Dump("t", Scan().ReadAllVersions()), expected);
  Flush("t");
  EXPECT_EQ(Dump("t", Scan().ReadAllVersions()), expected);
  Compact("t");
  EXPECT_EQ(Dump("t", Scan().ReadAllVersions()), expected);
  store().Reopen();
  EXPECT_EQ(Dump("t", Scan().ReadAllVersions()), expected);
}

TEST_P(SemanticsTest, KeepDeletedCellsLetsReadsBeforeTheDeleteSeeTheCells) {
  BASALT_SKIP_IF_REMOTE(GetParam(),
                        "raw scans have no Thrift2 form (TScan has no raw flag): NotSupported");
  FamilyDescriptor f = Family("f", 5);
  f.keep_deleted_cells = KeepDeletedCells::kTrue;
  CreateWith("t", {f});
  Table& t = store().table("t");
  ASSERT_OK(t.Put(Put("r").Add("f", "q", 10, "v")));
  ASSERT_OK(t.Delete(Delete("r", 20)));
  Compact("t");
  store().Reopen();
  EXPECT_EQ(Read("t", Get("r")), Strings{});
  // A read "as of" before the delete still sees the cell.
  EXPECT_EQ(Read("t", Get("r").SetTimeRange(0, 15)), (Strings{"f:q@10=v"}));
  // The marker is kept too, and raw scans show it.
  EXPECT_EQ(Dump("t", Scan().SetRaw(true).ReadAllVersions()),
            (Strings{"r/f:@20/DeleteFamily", "r/f:q@10=v"}));
}

TEST_P(SemanticsTest, WithoutKeepDeletedCellsMajorCompactionDropsMarkersAndMaskedCells) {
  BASALT_SKIP_IF_REMOTE(GetParam(),
                        "raw scans have no Thrift2 form (TScan has no raw flag): NotSupported");
  CreateWith("t", {Family("f", 5)});
  Table& t = store().table("t");
  ASSERT_OK(t.Put(Put("r").Add("f", "q", 10, "v").Add("f", "live", 30, "w")));
  ASSERT_OK(t.Delete(Delete("r").AddColumns("f", "q", 20)));
  EXPECT_EQ(Dump("t", Scan().SetRaw(true).ReadAllVersions()),
            (Strings{"r/f:live@30=w", "r/f:q@20/DeleteColumn", "r/f:q@10=v"}));
  Compact("t");
  EXPECT_EQ(Dump("t", Scan().SetRaw(true).ReadAllVersions()), (Strings{"r/f:live@30=w"}));
  EXPECT_EQ(Read("t", Get("r")), (Strings{"f:live@30=w"}));
}

TEST_P(SemanticsTest, ServerTimestampsAreWallClockMillisAndNeverGoBack) {
  CreateWith("t", {Family("f", 1000)});
  Table& t = store().table("t");
  const int64_t before = util::MonotonicWallMillis();
  int64_t last = 0;
  for (int i = 0; i < 200; ++i) {
    ASSERT_OK(t.Put(Put("r").Add("f", "q", std::to_string(i))));
    auto r = t.Get(Get("r"));
    ASSERT_OK(r);
    ASSERT_EQ(r->cells().size(), 1u);
    const Cell& c = r->cells()[0];
    EXPECT_GE(c.timestamp, last);
    // Puts within one millisecond share a timestamp; the newer one replaces the older.
    EXPECT_EQ(c.value, std::to_string(i));
    last = c.timestamp;
  }
  EXPECT_GE(last, before);
  EXPECT_LE(last, util::MonotonicWallMillis());
  EXPECT_LT(last - before, 60'000);
}

TEST_P(SemanticsTest, AllCellsOfOnePutShareItsTimestamp) {
  CreateWith("t", {Family("a", 1), Family("b", 1)});
  ASSERT_OK(store().table("t").Put(Put("r").Add("a", "x", "1").Add("b", "y", "2")));
  auto r = store().table("t").Get(Get("r"));
  ASSERT_OK(r);
  ASSERT_EQ(r->cells().size(), 2u);
  EXPECT_EQ(r->cells()[0].timestamp, r->cells()[1].timestamp);
}

TEST_P(SemanticsTest, ReadsAreTheSameBeforeAndAfterFlushCompactionAndReopen) {
  if (!store().SupportsMaintenance()) GTEST_SKIP() << "Thrift2 has no flush or major compaction";
  FamilyDescriptor ttl = Family("c", 3);
  ttl.ttl_seconds = 3600;
  CreateWith("t", {Family("a", 3), Family("b", 1), ttl});
  Table& t = store().table("t");
  const int64_t now = util::MonotonicWallMillis();
  for (int i = 0; i < 30; ++i) {
    std::string row = "row" + std::to_string(i % 7);
    ASSERT_OK(t.Put(Put(row)
                        .Add("a", "q" + std::to_string(i % 3), now - i, std::to_string(i))
                        .Add("b", "q", now - i, std::to_string(i))
                        .Add("c", "q", now - (i % 2) * 7'200'000 - i, std::to_string(i))));
    if (i % 5 == 0) ASSERT_OK(t.Delete(Delete(row).AddColumns("a", "q1", now - i + 2)));
    if (i % 11 == 0) ASSERT_OK(t.Delete(Delete(row).AddFamily("b", now - i)));
  }
  const auto scan = Scan().ReadVersions(3);
  const auto expected = Dump("t", scan);
  ASSERT_FALSE(expected.empty());
  Flush("t");
  EXPECT_EQ(Dump("t", scan), expected);
  Compact("t");
  EXPECT_EQ(Dump("t", scan), expected);
  store().Reopen();
  EXPECT_EQ(Dump("t", scan), expected);
}

}  // namespace

BASALT_INSTANTIATE_STORE_TEST(SemanticsTest);

}  // namespace basalt::testing
