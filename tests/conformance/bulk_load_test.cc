// Admin::NewBulkLoader (basalt/bulk_load.h) through the public API, on every store
// configuration: a bulk-loaded table reads exactly like one written with Puts (versions, TTL,
// deletes, compaction, reopen), the load's place in the write order, atomicity, bad input. Over
// Thrift2 the loader is NotSupported, which the first test checks on the remote kinds.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "support/test_store.h"

namespace basalt::testing {
namespace {

class BulkLoadTest : public StoreTest {
 protected:
  Result<std::unique_ptr<BulkLoader>> NewLoader(const std::string& table,
                                                const BulkLoadOptions& options = {}) {
    return store().admin().NewBulkLoader(TableName("default", table), options);
  }
};

#define BASALT_SKIP_BULK_LOAD_IF_REMOTE() \
  BASALT_SKIP_IF_REMOTE(store().kind(), "no bulk load (checked by RemoteBackendsSayNotSupported)")

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

struct TestCell {
  std::string row, family, qualifier;
  int64_t ts;
  std::string value;
};

// Cells in the loader's order: row, then qualifier ascending, then timestamp descending, with
// the two families interleaved within a row. Binary bytes in rows, qualifiers and values.
std::vector<TestCell> SortedCells(uint32_t seed, int rows) {
  std::mt19937 rng(seed);
  std::vector<TestCell> cells;
  for (int r = 0; r < rows; ++r) {
    std::string row = "row" + std::to_string(10000 + r);
    if (r % 7 == 0) row += std::string("\0\xff", 2);
    for (const char* family : {"f", "g"}) {
      const int qualifiers = 1 + static_cast<int>(rng() % 3);
      for (int q = 0; q < qualifiers; ++q) {
        const std::string qualifier =
            "q" + std::to_string(q) + (q == 2 ? std::string(1, '\0') : "");
        const int versions = 1 + static_cast<int>(rng() % 4);
        int64_t ts = 1000 + static_cast<int64_t>(rng() % 100) + 10 * versions;
        for (int v = 0; v < versions; ++v) {
          std::string value = "v" + std::to_string(rng() % 1000);
          if (v == 1) value.push_back('\0');
          cells.push_back({row, family, qualifier, ts, value});
          ts -= 1 + static_cast<int64_t>(rng() % 9);
        }
      }
    }
  }
  return cells;
}

TableDescriptor TwoFamilies(const std::string& name, int32_t versions) {
  TableDescriptor desc(TableName("default", name));
  FamilyDescriptor f("f"), g("g");
  f.max_versions = versions;
  g.max_versions = versions;
  desc.AddFamily(f);
  desc.AddFamily(g);
  return desc;
}

std::vector<std::string> AllCells(Table& t, Scan scan = Scan()) {
  std::vector<std::string> out;
  for (const RowResult& r : ScanAll(t, scan)) {
    for (const Cell& c : r.cells()) out.push_back(r.row() + "/" + Describe(c));
  }
  return out;
}

TEST_P(BulkLoadTest, RemoteBackendsSayNotSupported) {
  store().CreateTable("t", {"f"});
  auto loader = NewLoader("t");
  if (IsRemote(store().kind())) {
    ASSERT_FALSE(loader.ok());
    EXPECT_TRUE(loader.status().IsNotSupported()) << loader.status().ToString();
    EXPECT_NE(loader.status().message().find("embedded"), std::string::npos);
  } else {
    EXPECT_OK(loader);
  }
}

// The model: the same cells written with Puts into one table and bulk loaded into another read
// the same way, through every read the API has, before and after a reopen and a major
// compaction (which drops the versions beyond the family's limit in both).
TEST_P(BulkLoadTest, BulkLoadedTableReadsExactlyLikeOneWrittenWithPuts) {
  BASALT_SKIP_BULK_LOAD_IF_REMOTE();
  const std::vector<TestCell> cells = SortedCells(7, 300);
  store().CreateTable(TwoFamilies("puts", 2));
  store().CreateTable(TwoFamilies("bulk", 2));
  std::vector<Put> puts;
  for (const TestCell& c : cells) {
    puts.emplace_back(c.row).Add(c.family, c.qualifier, c.ts, c.value);
  }
  ASSERT_OK(store().table("puts").Put(puts));
  auto loader = NewLoader("bulk");
  ASSERT_OK(loader);
  for (const TestCell& c : cells) {
    ASSERT_OK((*loader)->Add(c.row, c.family, c.qualifier, c.value, c.ts));
  }
  EXPECT_EQ((*loader)->cells(), static_cast<int64_t>(cells.size()));
  auto stats = (*loader)->Finish();
  ASSERT_OK(stats);
  EXPECT_EQ(stats->cells, static_cast<int64_t>(cells.size()));
  EXPECT_EQ(stats->files, 2);  // one per family
  EXPECT_GT(stats->bytes, 0);

  // `raw`: compare raw scans too. They show the versions beyond the family's limit that no
  // compaction has dropped yet, which depends on when RocksDB compacts each table's files (the
  // Puts' flushed files may be compacted at any time, the ingested ones sit at the bottom), so
  // only after a major compaction of both are they bound to agree.
  auto compare = [&](const std::string& when, bool raw) {
    Table& p = store().table("puts");
    Table& b = store().table("bulk");
    std::vector<Scan> scans = {
        Scan(),
        Scan().ReadVersions(10),
        Scan().SetReversed(true).ReadVersions(10),
        Scan().AddFamily("g").WithStartRow("row10100").WithStopRow("row10200"),
        Scan().SetTimeRange(1000, 1050).ReadVersions(10),
    };
    if (raw) scans.push_back(Scan().SetRaw(true).ReadVersions(10));
    for (size_t i = 0; i < scans.size(); ++i) {
      const auto expected = AllCells(p, scans[i]);
      ASSERT_FALSE(expected.empty()) << when << ", scan " << i;
      EXPECT_EQ(AllCells(b, scans[i]), expected) << when << ", scan " << i;
    }
    for (const std::string row : {"row10000", "row10007", "row10150", "row10299", "absent"}) {
      for (const Get& get : {Get(row), Get(row).ReadVersions(5), Get(row).AddColumn("f", "q1")}) {
        auto want = p.Get(get);
        auto got = b.Get(get);
        ASSERT_OK(want);
        ASSERT_OK(got);
        EXPECT_EQ(Describe(*got), Describe(*want)) << when << ", row " << row;
      }
    }
  };
  compare("after the load", false);
  store().Reopen();
  compare("after a reopen", false);
  if (store().SupportsMaintenance()) {
    ASSERT_OK(store().MajorCompact(TableName("default", "puts")));
    ASSERT_OK(store().MajorCompact(TableName("default", "bulk")));
    compare("after a major compaction", true);
  }
}

// Writes after the load treat loaded cells as they treat Put cells.
TEST_P(BulkLoadTest, LaterPutsAndDeletesActOnLoadedCellsAsOnPutCells) {
  BASALT_SKIP_BULK_LOAD_IF_REMOTE();
  store().CreateTable(TwoFamilies("t", 3));
  auto loader = NewLoader("t");
  ASSERT_OK(loader);
  ASSERT_OK((*loader)->Add("a", "f", "q", "a-20", 20));
  ASSERT_OK((*loader)->Add("a", "f", "q", "a-10", 10));
  ASSERT_OK((*loader)->Add("b", "f", "q", "b-10", 10));
  ASSERT_OK((*loader)->Add("c", "f", "q", "c-10", 10));
  ASSERT_OK((*loader)->Add("c", "g", "q", "cg-10", 10));
  ASSERT_OK((*loader)->Finish());
  Table& t = store().table("t");
  ASSERT_OK(t.Put(Put("a").Add("f", "q", 30, "a-30")));      // a newer version
  ASSERT_OK(t.Put(Put("b").Add("f", "q", 10, "b-10-put")));  // the same cell again
  ASSERT_OK(t.Delete(Delete("c").AddFamily("f")));           // a family delete
  ASSERT_OK(t.Delete(Delete("a").AddColumn("f", "q", 10)));  // one version
  store().Reopen();
  const std::vector<std::string> want = {"a/f:q@30=a-30", "a/f:q@20=a-20", "b/f:q@10=b-10-put",
                                         "c/g:q@10=cg-10"};
  EXPECT_EQ(AllCells(store().table("t"), Scan().ReadVersions(10)), want);
  if (store().SupportsMaintenance()) {
    // The compaction filter drops the deleted loaded cells and the markers, keeps the rest.
    ASSERT_OK(store().MajorCompact(TableName("default", "t")));
    EXPECT_EQ(AllCells(store().table("t"), Scan().ReadVersions(10).SetRaw(true)), want);
  }
}

// The load takes its place in the write order when the loader is created: a delete made before
// does not hide loaded cells (even older ones), a delete made while it runs does.
TEST_P(BulkLoadTest, DeletesBeforeTheLoaderDoNotHideItAndDeletesWhileItRunsDo) {
  BASALT_SKIP_BULK_LOAD_IF_REMOTE();
  Table& t = store().CreateTable("t", {"f"});
  ASSERT_OK(t.Put(Put("before").Add("f", "q", 50, "put")));
  ASSERT_OK(t.Delete(Delete("before")));  // at now: hides everything at or before now
  auto loader = NewLoader("t");
  ASSERT_OK(loader);
  ASSERT_OK((*loader)->Add("before", "f", "q", "loaded", 5));
  ASSERT_OK((*loader)->Add("during", "f", "q", "loaded", 5));
  ASSERT_OK((*loader)->Add("during", "f", "r", "loaded", 5));
  ASSERT_OK(t.Delete(Delete("during").AddColumns("f", "q")));  // while the load runs
  ASSERT_OK((*loader)->Finish());
  EXPECT_EQ(AllCells(t), (std::vector<std::string>{"before/f:q@5=loaded", "during/f:r@5=loaded"}));
}

// Cells without a timestamp get the loader's time; Puts made while the load runs are ordered
// with them by timestamp, and a cell at exactly the same key is replaced by the loaded one.
TEST_P(BulkLoadTest, CellsWithoutTimestampGetTheLoadersTime) {
  BASALT_SKIP_BULK_LOAD_IF_REMOTE();
  Table& t = store().CreateTable("t", {"f"});
  const int64_t before = NowMillis();
  auto loader = NewLoader("t");
  ASSERT_OK(loader);
  const int64_t after = NowMillis();
  ASSERT_OK((*loader)->Add("r", "f", "a", "loaded"));
  ASSERT_OK((*loader)->Add("r", "f", "b", "loaded"));
  ASSERT_OK((*loader)->Add("r", "f", "c", "loaded", 77));
  ASSERT_OK(t.Put(Put("r").Add("f", "b", after + 60000, "newer put")));
  ASSERT_OK(t.Put(Put("r").Add("f", "c", 77, "same key put")));
  ASSERT_OK((*loader)->Finish());
  auto row = t.Get(Get("r"));
  ASSERT_OK(row);
  ASSERT_EQ(row->size(), 3u);
  const Cell& a = row->cells()[0];
  EXPECT_EQ(a.value, "loaded");
  EXPECT_GE(a.timestamp, before);
  EXPECT_LE(a.timestamp, after);
  EXPECT_EQ(row->cells()[1].value, "newer put");
  EXPECT_EQ(row->cells()[2].value, "loaded");
}

TEST_P(BulkLoadTest, FamilySettingsApplyToLoadedCells) {
  BASALT_SKIP_BULK_LOAD_IF_REMOTE();
  TableDescriptor desc(TableName("default", "t"));
  FamilyDescriptor versions("v"), ttl("t");
  versions.max_versions = 2;
  ttl.ttl_seconds = 3600;
  desc.AddFamily(versions);
  desc.AddFamily(ttl);
  Table& t = store().CreateTable(desc);
  const int64_t now = NowMillis();
  auto loader = NewLoader("t");
  ASSERT_OK(loader);
  ASSERT_OK((*loader)->Add("r", "t", "fresh", "x", now));
  ASSERT_OK((*loader)->Add("r", "t", "old", "x", now - 7200 * 1000));  // expired by the TTL
  ASSERT_OK((*loader)->Add("r", "v", "q", "3", 30));
  ASSERT_OK((*loader)->Add("r", "v", "q", "2", 20));
  ASSERT_OK((*loader)->Add("r", "v", "q", "1", 10));  // beyond the 2 versions kept
  ASSERT_OK((*loader)->Finish());
  const std::vector<std::string> want = {"r/t:fresh@" + std::to_string(now) + "=x", "r/v:q@30=3",
                                         "r/v:q@20=2"};
  EXPECT_EQ(AllCells(t, Scan().ReadVersions(10)), want);
  if (store().SupportsMaintenance()) {
    ASSERT_OK(store().MajorCompact(TableName("default", "t")));
    EXPECT_EQ(AllCells(store().table("t"), Scan().ReadVersions(10).SetRaw(true)), want);
  }
}

// A read before the load leaves an idle iterator in the engine's pool; the read after the load
// must see the ingested files all the same.
TEST_P(BulkLoadTest, ReadsRightAfterTheLoadSeeIt) {
  BASALT_SKIP_BULK_LOAD_IF_REMOTE();
  Table& t = store().CreateTable("t", {"f"});
  ASSERT_OK(t.Put(Put("other").Add("f", "q", 1, "x")));
  for (int round = 0; round < 3; ++round) {
    const std::string row = "row" + std::to_string(round);
    auto before = t.Get(Get(row));
    ASSERT_OK(before);
    EXPECT_TRUE(before->empty());
    EXPECT_EQ(ScanRows(t).size(), static_cast<size_t>(round + 1));
    auto loader = NewLoader("t");
    ASSERT_OK(loader);
    ASSERT_OK((*loader)->Add(row, "f", "q", "loaded", 5));
    ASSERT_OK((*loader)->Finish());
    auto after = t.Get(Get(row));
    ASSERT_OK(after);
    EXPECT_EQ(Describe(*after), (std::vector<std::string>{"f:q@5=loaded"}));
    EXPECT_EQ(ScanRows(t).size(), static_cast<size_t>(round + 2));
  }
}

TEST_P(BulkLoadTest, LargeLoadIsSplitIntoFilesAndReadsBack) {
  BASALT_SKIP_BULK_LOAD_IF_REMOTE();
  store().CreateTable("t", {"f"});
  BulkLoadOptions options;
  options.target_file_bytes = 64 << 10;
  auto loader = NewLoader("t", options);
  ASSERT_OK(loader);
  const int rows = 20000;
  char row[16];
  for (int i = 0; i < rows; ++i) {
    std::snprintf(row, sizeof(row), "r%08d", i);
    ASSERT_OK((*loader)->Add(row, "f", "q", std::string(40, static_cast<char>('a' + i % 26)), 1));
  }
  auto stats = (*loader)->Finish();
  ASSERT_OK(stats);
  EXPECT_GT(stats->files, 5);
  store().Reopen();
  Table& r = store().table("t");
  const auto all = ScanAll(r);
  ASSERT_EQ(all.size(), static_cast<size_t>(rows));
  EXPECT_EQ(all[12345].row(), "r00012345");
  EXPECT_EQ(all[12345].cells()[0].value, std::string(40, static_cast<char>('a' + 12345 % 26)));
}

// Every kind of bad cell ends the load with a clear error, and nothing of it is loaded.
TEST_P(BulkLoadTest, BadCellEndsTheLoadAndNothingIsLoaded) {
  BASALT_SKIP_BULK_LOAD_IF_REMOTE();
  store().CreateTable(TwoFamilies("t", 3));
  struct Bad {
    TestCell cell;
    std::string message;
  };
  const std::vector<Bad> bad = {
      {{"b", "f", "q", 1, "v"},
       "cells out of order: row 'b', column f:q, timestamp 1 comes after "
       "row 'c', column f:q, timestamp 1"},
      {{"c", "f", "a", 1, "v"}, "comes after"},  // a smaller qualifier in the same row
      {{"c", "f", "q", 2, "v"}, "comes after"},  // a newer version after an older one
      {{"c", "f", "q", 1, "w"}, "the cell row 'c', column f:q, timestamp 1 was added twice"},
      {{"d", "nope", "q", 1, "v"}, "column family 'nope' does not exist in table 't'"},
      {{"", "f", "q", 1, "v"}, "row key must not be empty"},
      {{"d", "f", "q", -5, "v"}, "timestamp -5 is negative"},
  };
  for (const Bad& b : bad) {
    auto loader = NewLoader("t");
    ASSERT_OK(loader);
    ASSERT_OK((*loader)->Add("a", "f", "q", "fine", 1));
    ASSERT_OK((*loader)->Add("a", "g", "q", "fine", 1));
    ASSERT_OK((*loader)->Add("c", "f", "q", "fine", 1));
    Status s = (*loader)->Add(b.cell.row, b.cell.family, b.cell.qualifier, b.cell.value, b.cell.ts);
    // A family the table lacks is NotFound, as in every other write; the rest are bad input.
    ASSERT_TRUE(b.cell.family == "nope" ? s.IsNotFound() : s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.message().find(b.message), std::string::npos) << s.ToString();
    // The load is over: the next cell, even a good one, and Finish say why.
    Status next = (*loader)->Add("z", "f", "q", "fine", 1);
    EXPECT_EQ(next.message(), s.message());
    auto finish = (*loader)->Finish();
    EXPECT_EQ(finish.status().message(), s.message());
  }
  EXPECT_TRUE(ScanAll(store().table("t")).empty());
}

TEST_P(BulkLoadTest, ValueOverTheSizeLimitIsRefused) {
  BASALT_SKIP_BULK_LOAD_IF_REMOTE();
  store().CreateTable("t", {"f"});
  auto loader = NewLoader("t");
  ASSERT_OK(loader);
  Status s =
      (*loader)->Add("r", "f", "q", std::string(ConnectionOptions().max_value_bytes + 1, 'x'));
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("the limit is"), std::string::npos) << s.ToString();
}

TEST_P(BulkLoadTest, AbandonedLoadLeavesNothingBehind) {
  BASALT_SKIP_BULK_LOAD_IF_REMOTE();
  store().CreateTable(TwoFamilies("t", 1));
  {
    auto loader = NewLoader("t");
    ASSERT_OK(loader);
    for (int i = 0; i < 1000; ++i) {
      ASSERT_OK((*loader)->Add("r" + std::to_string(1000 + i), i % 2 ? "f" : "g", "q", "v"));
    }
  }  // destroyed without Finish
  EXPECT_TRUE(ScanAll(store().table("t")).empty());
  const std::string target = store().conn().target();
  if (target.rfind("embedded:", 0) == 0) {
    for (const auto& e : std::filesystem::directory_iterator(target.substr(9))) {
      EXPECT_EQ(e.path().filename().string().rfind("bulkload-", 0), std::string::npos) << e.path();
    }
  }
  // A finished load with nothing in it is fine, and loads nothing.
  auto empty = NewLoader("t");
  ASSERT_OK(empty);
  auto stats = (*empty)->Finish();
  ASSERT_OK(stats);
  EXPECT_EQ(stats->cells, 0);
  EXPECT_EQ(stats->files, 0);
  EXPECT_TRUE((*empty)->Finish().status().IsFailedPrecondition());
  EXPECT_TRUE((*empty)->Add("r", "f", "q", "v").IsFailedPrecondition());
}

// Files left by a load that never finished (a crash) are deleted by the next open.
TEST_P(BulkLoadTest, ReopenDeletesFilesOfUnfinishedLoads) {
  BASALT_SKIP_BULK_LOAD_IF_REMOTE();
  if (store().kind() != StoreKind::kReopen) GTEST_SKIP() << "needs a store that reopens";
  store().CreateTable("t", {"f"});
  const std::string dir = store().conn().target().substr(9) + "/bulkload-42";
  std::filesystem::create_directory(dir);
  { std::ofstream(dir + "/f1-0.sst") << "half a file"; }
  store().Reopen();
  EXPECT_FALSE(std::filesystem::exists(dir));
  EXPECT_TRUE(ScanAll(store().table("t")).empty());
}

TEST_P(BulkLoadTest, TableMustExistAndBeEnabled) {
  BASALT_SKIP_BULK_LOAD_IF_REMOTE();
  EXPECT_TRUE(NewLoader("absent").status().IsNotFound());
  store().CreateTable("t", {"f"});
  const TableName name("default", "t");
  ASSERT_OK(store().admin().DisableTable(name));
  EXPECT_TRUE(NewLoader("t").status().IsFailedPrecondition());
  ASSERT_OK(store().admin().EnableTable(name));
  BulkLoadOptions zero;
  zero.target_file_bytes = 0;
  EXPECT_TRUE(NewLoader("t", zero).status().IsInvalidArgument());

  // Disabled while the load runs: Finish refuses, and nothing is loaded.
  auto loader = NewLoader("t");
  ASSERT_OK(loader);
  ASSERT_OK((*loader)->Add("r", "f", "q", "v"));
  ASSERT_OK(store().admin().DisableTable(name));
  auto finish = (*loader)->Finish();
  EXPECT_TRUE(finish.status().IsFailedPrecondition()) << finish.status().ToString();
  ASSERT_OK(store().admin().EnableTable(name));
  EXPECT_TRUE(ScanAll(store().table("t")).empty());
}

// The ingest is atomic across families: when one family cannot take its files (deleted while
// the load ran), the other family's cells are not loaded either.
TEST_P(BulkLoadTest, FamilyDeletedWhileLoadingFailsTheWholeLoad) {
  BASALT_SKIP_BULK_LOAD_IF_REMOTE();
  store().CreateTable(TwoFamilies("t", 1));
  const TableName name("default", "t");
  auto loader = NewLoader("t");
  ASSERT_OK(loader);
  ASSERT_OK((*loader)->Add("r", "f", "q", "v"));
  ASSERT_OK((*loader)->Add("r", "g", "q", "v"));
  ASSERT_OK(store().admin().DeleteFamily(name, "g"));
  auto finish = (*loader)->Finish();
  EXPECT_TRUE(finish.status().IsFailedPrecondition()) << finish.status().ToString();
  EXPECT_NE(finish.status().message().find("'g'"), std::string::npos);
  EXPECT_TRUE(ScanAll(store().table("t")).empty());

  // Truncated while the load runs: the same.
  auto again = NewLoader("t");
  ASSERT_OK(again);
  ASSERT_OK((*again)->Add("r", "f", "q", "v"));
  ASSERT_OK(store().admin().DisableTable(name));
  ASSERT_OK(store().admin().TruncateTable(name));
  EXPECT_TRUE((*again)->Finish().status().IsFailedPrecondition());
  EXPECT_TRUE(ScanAll(store().table("t")).empty());
}

TEST_P(BulkLoadTest, FinishAfterTheConnectionClosedIsAborted) {
  BASALT_SKIP_BULK_LOAD_IF_REMOTE();
  store().CreateTable("t", {"f"});
  auto loader = NewLoader("t");
  ASSERT_OK(loader);
  ASSERT_OK((*loader)->Add("r", "f", "q", "v"));
  ASSERT_OK(store().conn().Close());
  auto finish = (*loader)->Finish();
  EXPECT_TRUE(finish.status().IsAborted()) << finish.status().ToString();
}

BASALT_INSTANTIATE_STORE_TEST(BulkLoadTest);

}  // namespace
}  // namespace basalt::testing
