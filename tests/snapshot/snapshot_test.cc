// Table snapshots through the public API (basalt/snapshot.h, Admin's snapshot calls): a clone
// holds exactly the snapshot's rows, a restore puts a disabled table back, snapshots survive a
// reopen, and a snapshot taken under a write load never holds half of one write.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "basalt/basalt.h"
#include "basalt/snapshot.h"
#include "support/test_store.h"

namespace basalt {
namespace {

using testing::TempDir;

// row -> "family:qualifier" -> newest value.
using Rows = std::map<std::string, std::map<std::string, std::string>>;

Rows ReadAll(Connection& conn, const std::string& table) {
  Rows rows;
  auto t = conn.GetTable(table);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  if (!t.ok()) return rows;
  auto scanner = (*t)->GetScanner(Scan());
  EXPECT_TRUE(scanner.ok()) << scanner.status().ToString();
  if (!scanner.ok()) return rows;
  RowResult r;
  while ((*scanner)->Next(&r)) {
    for (const Cell& c : r.cells()) {
      rows[c.row].try_emplace(c.family + ":" + c.qualifier, c.value);
    }
  }
  EXPECT_TRUE((*scanner)->status().ok()) << (*scanner)->status().ToString();
  return rows;
}

void CreateTable(Connection& conn, const std::string& name, std::vector<std::string> families) {
  TableDescriptor desc(TableName("default", name));
  for (const auto& f : families) desc.AddFamily(FamilyDescriptor(f));
  ASSERT_OK(conn.admin().CreateTable(desc, {"m"}));
}

void PutRows(Connection& conn, const std::string& table, int from, int to,
             const std::string& value) {
  auto t = conn.GetTable(table);
  ASSERT_OK(t);
  for (int i = from; i < to; ++i) {
    Put p("row" + std::to_string(1000 + i));
    p.Add("f", "q", value + std::to_string(i)).Add("g", "q", value);
    ASSERT_OK((*t)->Put(p));
  }
}

class SnapshotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    data_ = dir_.path() + "/data";
    Reopen();
  }
  void Reopen() {
    conn_.reset();
    auto conn = Connection::Open(data_);
    ASSERT_OK(conn);
    conn_ = std::move(*conn);
  }
  Admin& admin() { return conn_->admin(); }

  TempDir dir_;
  std::string data_;
  std::unique_ptr<Connection> conn_;
};

TEST_F(SnapshotTest, CloneHoldsExactlyTheSnapshotsRows) {
  CreateTable(*conn_, "t", {"f", "g"});
  PutRows(*conn_, "t", 0, 50, "a");
  const Rows at_snapshot = ReadAll(*conn_, "t");
  ASSERT_OK(admin().Snapshot(TableName("default", "t"), "snap"));
  // Written after the snapshot: a new row, an overwrite and a delete, none of them in the clone.
  PutRows(*conn_, "t", 40, 60, "b");
  auto t = conn_->GetTable("t");
  ASSERT_OK(t);
  ASSERT_OK((*t)->Delete(Delete("row1000")));

  ASSERT_OK(admin().CloneSnapshot("snap", TableName("default", "c")));
  EXPECT_EQ(ReadAll(*conn_, "c"), at_snapshot);
  auto info = admin().DescribeTable(TableName("default", "c"));
  ASSERT_OK(info);
  EXPECT_TRUE(info->enabled);
  EXPECT_EQ(info->split_keys, std::vector<std::string>{"m"});
  ASSERT_EQ(info->descriptor.families.size(), 2u);

  // The clone and the table are separate from now on.
  auto c = conn_->GetTable("c");
  ASSERT_OK(c);
  ASSERT_OK((*c)->Put(Put("zz").Add("f", "q", "clone only")));
  auto in_t = (*t)->Get(Get("zz"));
  ASSERT_OK(in_t);
  EXPECT_TRUE(in_t->empty());
  const Rows live = ReadAll(*conn_, "t");
  EXPECT_EQ(live.count("row1000"), 0u);
  EXPECT_EQ(live.at("row1059").at("g:q"), "b");
}

TEST_F(SnapshotTest, CloneOfAnEmptyFamilyAndIntoAnExistingTable) {
  CreateTable(*conn_, "t", {"f", "g", "empty"});
  PutRows(*conn_, "t", 0, 3, "a");
  ASSERT_OK(admin().Snapshot(TableName("default", "t"), "s1"));
  EXPECT_TRUE(admin().CloneSnapshot("s1", TableName("default", "t")).IsAlreadyExists());
  EXPECT_TRUE(admin().CloneSnapshot("nope", TableName("default", "c")).IsNotFound());
  EXPECT_TRUE(admin().CloneSnapshot("s1", TableName("nons", "c")).IsNotFound());
  ASSERT_OK(admin().CloneSnapshot("s1", TableName("default", "c")));
  EXPECT_EQ(ReadAll(*conn_, "c"), ReadAll(*conn_, "t"));
  auto c = conn_->GetTable("c");
  ASSERT_OK(c);
  ASSERT_OK((*c)->Put(Put("x").Add("empty", "q", "v")));
  auto row = (*c)->Get(Get("x"));
  ASSERT_OK(row);
  EXPECT_EQ(row->Value("empty", "q"), "v");
}

TEST_F(SnapshotTest, RestoreNeedsTheTableDisabledAndBringsItBack) {
  CreateTable(*conn_, "t", {"f", "g"});
  PutRows(*conn_, "t", 0, 20, "a");
  const Rows at_snapshot = ReadAll(*conn_, "t");
  ASSERT_OK(admin().Snapshot(TableName("default", "t"), "snap"));
  PutRows(*conn_, "t", 10, 30, "b");
  ASSERT_OK(admin().AddFamily(TableName("default", "t"), FamilyDescriptor("h")));

  Status enabled = admin().RestoreSnapshot("snap");
  EXPECT_TRUE(enabled.IsFailedPrecondition()) << enabled.ToString();
  ASSERT_OK(admin().DisableTable(TableName("default", "t")));
  ASSERT_OK(admin().RestoreSnapshot("snap"));
  auto info = admin().DescribeTable(TableName("default", "t"));
  ASSERT_OK(info);
  EXPECT_FALSE(info->enabled) << "a restored table stays disabled, as in HBase";
  EXPECT_EQ(info->descriptor.families.size(), 2u) << "the snapshot's schema comes back";
  ASSERT_OK(admin().EnableTable(TableName("default", "t")));
  EXPECT_EQ(ReadAll(*conn_, "t"), at_snapshot);
  // Writes after a restore go on as usual, and survive a reopen with the restored rows.
  PutRows(*conn_, "t", 100, 101, "c");
  Reopen();
  Rows after = ReadAll(*conn_, "t");
  EXPECT_EQ(after.size(), at_snapshot.size() + 1);
  EXPECT_EQ(after.at("row1100").at("g:q"), "c");

  // A dropped table is created again from its snapshot, as HBase's restore does.
  ASSERT_OK(admin().DisableTable(TableName("default", "t")));
  ASSERT_OK(admin().DeleteTable(TableName("default", "t")));
  ASSERT_OK(admin().RestoreSnapshot("snap"));
  EXPECT_EQ(ReadAll(*conn_, "t"), at_snapshot);
}

TEST_F(SnapshotTest, SnapshotSurvivesAReopenAndDeleteRemovesIt) {
  CreateTable(*conn_, "t", {"f", "g"});
  PutRows(*conn_, "t", 0, 10, "a");
  const Rows at_snapshot = ReadAll(*conn_, "t");
  ASSERT_OK(admin().Snapshot(TableName("default", "t"), "b-snap"));
  ASSERT_OK(admin().Snapshot(TableName("default", "t"), "a.snap_1"));
  Reopen();
  auto listed = admin().ListSnapshots();
  ASSERT_OK(listed);
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ((*listed)[0].name, "a.snap_1");
  EXPECT_EQ((*listed)[1].name, "b-snap");
  EXPECT_EQ((*listed)[1].table, TableName("default", "t"));
  EXPECT_GT((*listed)[1].creation_time_ms, 0);
  EXPECT_GT((*listed)[1].shared_bytes, 0u);
  EXPECT_EQ((*listed)[1].exclusive_bytes, 0u) << "every file is still the table's";

  // Once the table has compacted its files away, they are the snapshots' own (still shared
  // between the two snapshots, so counted as shared; deleting one leaves them exclusive).
  PutRows(*conn_, "t", 0, 10, "b");
  ASSERT_OK(admin().MajorCompact(TableName("default", "t")));
  Reopen();  // the store's open deletes the files compaction left behind, whoever still read them
  ASSERT_OK(admin().DeleteSnapshot("a.snap_1"));
  listed = admin().ListSnapshots();
  ASSERT_OK(listed);
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].name, "b-snap");
  EXPECT_GT((*listed)[0].exclusive_bytes, 0u);

  ASSERT_OK(admin().CloneSnapshot("b-snap", TableName("default", "c")));
  EXPECT_EQ(ReadAll(*conn_, "c"), at_snapshot);
  ASSERT_OK(admin().DeleteSnapshot("b-snap"));
  listed = admin().ListSnapshots();
  ASSERT_OK(listed);
  EXPECT_TRUE(listed->empty());
  EXPECT_TRUE(admin().DeleteSnapshot("b-snap").IsNotFound());
  // The clone owns its files: deleting the snapshot leaves it whole.
  Reopen();
  EXPECT_EQ(ReadAll(*conn_, "c"), at_snapshot);
}

TEST_F(SnapshotTest, ErrorsAsHBases) {
  CreateTable(*conn_, "t", {"f"});
  EXPECT_TRUE(admin().Snapshot(TableName("default", "missing"), "s").IsNotFound());
  for (const std::string& bad :
       std::vector<std::string>{"", ".hidden", "-dash", "a b", "a/b", "snap:1", "x~y",
                                std::string(kMaxSnapshotNameLength + 1, 'a')}) {
    Status s = admin().Snapshot(TableName("default", "t"), bad);
    EXPECT_TRUE(s.IsInvalidArgument()) << "'" << bad << "': " << s.ToString();
  }
  ASSERT_OK(admin().Snapshot(TableName("default", "t"), "s"));
  EXPECT_TRUE(admin().Snapshot(TableName("default", "t"), "s").IsAlreadyExists());
  EXPECT_TRUE(admin().RestoreSnapshot("none").IsNotFound());
  EXPECT_TRUE(admin().DeleteSnapshot("none").IsNotFound());
  EXPECT_TRUE(admin().DeleteSnapshot("../data").IsInvalidArgument());
  // A disabled table can be snapshotted (HBase takes an offline snapshot).
  ASSERT_OK(admin().DisableTable(TableName("default", "t")));
  ASSERT_OK(admin().Snapshot(TableName("default", "t"), "offline"));
}

TEST(SnapshotMemTest, AnInMemoryStoreHasNoSnapshots) {
  ConnectionOptions options;
  options.in_memory = true;
  auto conn = Connection::Open("mem:", options);
  ASSERT_OK(conn);
  TableDescriptor desc(TableName("default", "t"));
  desc.AddFamily(FamilyDescriptor("f"));
  ASSERT_OK((*conn)->admin().CreateTable(desc, {}));
  EXPECT_TRUE((*conn)->admin().Snapshot(TableName("default", "t"), "s").IsNotSupported());
  EXPECT_TRUE((*conn)->admin().ListSnapshots().status().IsNotSupported());
}

TEST_F(SnapshotTest, TakingOneLinksTheTablesFilesInsteadOfCopyingThem) {
  CreateTable(*conn_, "t", {"f", "g"});
  PutRows(*conn_, "t", 0, 200, "a");
  ASSERT_OK(admin().Flush(TableName("default", "t")));
  PutRows(*conn_, "t", 200, 300, "a");  // still in the memtables: the snapshot flushes them
  ASSERT_OK(admin().Snapshot(TableName("default", "t"), "snap"));
  int files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(data_ + "/snapshots/snap")) {
    if (e.path().extension() != ".sst") continue;
    struct stat st {};
    ASSERT_EQ(::stat(e.path().c_str(), &st), 0);
    EXPECT_GE(st.st_nlink, 2u) << e.path() << " is a copy, not a link of the table's file";
    ++files;
  }
  EXPECT_GE(files, 2) << "each family's files are in the snapshot";
  auto listed = admin().ListSnapshots();
  ASSERT_OK(listed);
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].exclusive_bytes, 0u);
}

// Writers put the same counter into two families of one row in one Put while snapshots are
// taken: in every clone, each row has both families or neither, with equal values.
TEST_F(SnapshotTest, ASnapshotUnderWritesNeverHoldsHalfAWrite) {
  CreateTable(*conn_, "t", {"f", "g"});
  constexpr int kWriters = 3;
  std::atomic<bool> stop{false};
  std::vector<Status> writer_status(kWriters);
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      auto t = conn_->GetTable("t");
      if (!t.ok()) {
        writer_status[w] = t.status();
        return;
      }
      for (int i = 0; !stop.load(); ++i) {
        const std::string n = std::to_string(i);
        Put p("w" + std::to_string(w) + "-" + std::to_string(i % 50));
        p.Add("f", "c", n).Add("g", "c", n);
        writer_status[w] = (*t)->Put(p);
        if (!writer_status[w].ok()) return;
      }
    });
  }
  constexpr int kSnapshots = 6;
  for (int s = 0; s < kSnapshots; ++s) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_OK(admin().Snapshot(TableName("default", "t"), "s" + std::to_string(s)));
  }
  stop.store(true);
  for (auto& th : writers) th.join();
  for (const Status& s : writer_status) ASSERT_OK(s);
  for (int s = 0; s < kSnapshots; ++s) {
    const std::string clone = "c" + std::to_string(s);
    ASSERT_OK(admin().CloneSnapshot("s" + std::to_string(s), TableName("default", clone)));
    const Rows rows = ReadAll(*conn_, clone);
    if (s == kSnapshots - 1) {
      EXPECT_FALSE(rows.empty());
    }
    for (const auto& [row, cols] : rows) {
      ASSERT_EQ(cols.size(), 2u) << clone << " row " << row << " has one family only";
      EXPECT_EQ(cols.at("f:c"), cols.at("g:c")) << clone << " row " << row;
    }
  }
}

}  // namespace
}  // namespace basalt
