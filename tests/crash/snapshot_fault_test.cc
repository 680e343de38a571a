// Snapshots under injected I/O errors and a full disk in the store's snapshot directory.
//
// Each operation (take, clone, restore, delete) is run with a fault that fails its first call
// into the directory, then its second, and so on, until a run gets through every call. After
// each failed run: the call returned an error; a snapshot is listed whole or not at all (a
// failed take lists nothing, a failed delete may have hidden the snapshot before the failure);
// a failed clone made no table, a failed restore left the table as it was; the store still
// takes writes. Once the runs are over, a reopen finds no scratch directory and no column family
// that no table owns.

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "basalt/basalt.h"
#include "client/embedded.h"
#include "fault_injection_fs.h"
#include "support/test_store.h"

namespace basalt::crash {
namespace {

using testing::TempDir;

constexpr int64_t kRows = 300;
// An operation makes a few dozen calls into the snapshot directory; more means a loop.
constexpr int64_t kMaxSteps = 400;

Put RowPut(const std::string& row, int64_t value) {
  const std::string v = std::to_string(value);
  Put p(row);
  p.Add("f", "c", v).Add("g", "c", v);
  return p;
}

class SnapshotFaultTest : public ::testing::TestWithParam<Fault> {
 protected:
  void SetUp() override {
    fs_ = std::make_shared<FaultInjectionFileSystem>(rocksdb::FileSystem::Default());
    fs_->SetFaultDirectory(data_ + "/snapshots");
    env_ = rocksdb::NewCompositeEnv(fs_);
    Open(env_.get());
    for (const char* name : {"t", "other"}) {
      TableDescriptor desc(TableName("default", name));
      desc.AddFamily(FamilyDescriptor("f"));
      desc.AddFamily(FamilyDescriptor("g"));
      ASSERT_OK(conn_->admin().CreateTable(desc, {}));
    }
  }
  void TearDown() override {
    fs_->SetFault(Fault::kNone);
    if (conn_) conn_->Close().PermitUncheckedError();
  }

  void Open(rocksdb::Env* env) {
    engine::EngineOptions engine_options;
    engine_options.env = env;
    auto conn = client::OpenEmbedded(data_, ConnectionOptions(), engine_options);
    ASSERT_OK(conn);
    conn_ = std::move(*conn);
  }
  Admin& admin() { return conn_->admin(); }

  // Rows [0, n) of table t, each holding n in both families.
  void WriteRows(int64_t n) {
    auto t = conn_->GetTable("t");
    ASSERT_OK(t);
    for (int64_t i = 0; i < n; ++i) ASSERT_OK((*t)->Put(RowPut("r" + std::to_string(i), n)));
  }
  // Checks that `table` holds rows [0, n), each holding `value` in both families.
  void ExpectRows(const std::string& table, int64_t n, int64_t value) {
    auto t = conn_->GetTable(table);
    ASSERT_OK(t);
    auto scanner = (*t)->GetScanner(Scan());
    ASSERT_OK(scanner);
    RowResult r;
    int64_t rows = 0;
    while ((*scanner)->Next(&r)) {
      ++rows;
      EXPECT_EQ(r.Value("f", "c"), std::to_string(value)) << table << " row " << r.row();
      EXPECT_EQ(r.Value("g", "c"), std::to_string(value)) << table << " row " << r.row();
    }
    ASSERT_OK((*scanner)->status());
    EXPECT_EQ(rows, n) << "rows in " << table;
  }
  std::set<std::string> Listed() {
    auto listed = admin().ListSnapshots();
    EXPECT_OK(listed);
    std::set<std::string> names;
    if (listed.ok()) {
      for (const SnapshotInfo& s : *listed) names.insert(s.name);
    }
    return names;
  }
  bool TableExists(const std::string& name) {
    auto tables = admin().ListTables("default");
    EXPECT_OK(tables);
    if (!tables.ok()) return false;
    for (const TableName& t : *tables) {
      if (t.qualifier == name) return true;
    }
    return false;
  }
  // The store takes writes whatever happened in the snapshot directory.
  void ExpectStoreWrites() {
    auto t = conn_->GetTable("other");
    ASSERT_OK(t);
    ++writes_;
    EXPECT_OK((*t)->Put(RowPut("w" + std::to_string(writes_), writes_)));
  }
  void ExpectClonesWith(const std::string& snapshot, int64_t rows, int64_t value) {
    const std::string clone = "check" + std::to_string(++clones_);
    ASSERT_OK(admin().CloneSnapshot(snapshot, TableName("default", clone)));
    ExpectRows(clone, rows, value);
    ASSERT_OK(admin().DisableTable(TableName("default", clone)));
    ASSERT_OK(admin().DeleteTable(TableName("default", clone)));
  }

  // Runs `op` with the fault failing its first call into the snapshot directory, then its
  // second, ..., calling `after_failure` (with the fault cleared) after each failed run, until a
  // run meets no fault. Returns the number of failed runs.
  int FailEachStep(const std::function<Status()>& op, const std::function<void()>& after_failure) {
    for (int64_t step = 0; step < kMaxSteps; ++step) {
      SCOPED_TRACE("failing call " + std::to_string(step + 1));
      const int64_t injected = fs_->injected();
      fs_->SetFaultAfter(step);
      fs_->SetFault(GetParam(), FaultScope::kUnderDirectory);
      const Status st = op();
      fs_->SetFault(Fault::kNone);
      fs_->SetFaultAfter(0);
      if (fs_->injected() == injected) {
        EXPECT_OK(st);
        return static_cast<int>(step);
      }
      EXPECT_FALSE(st.ok()) << "a call failed and the operation reported success";
      EXPECT_NE(st.ToString().find("snapshot '"), std::string::npos)
          << "the error does not name the snapshot: " << st.ToString();
      after_failure();
      if (HasFatalFailure()) return static_cast<int>(step);
    }
    ADD_FAILURE() << "the operation met a fault on each of " << kMaxSteps << " runs";
    return kMaxSteps;
  }

  // Reopens the store on the plain file system: the open removes what failed runs left, and no
  // column family is left that no table owns.
  void ReopenAndCheck() {
    ASSERT_OK(conn_->Close());
    conn_.reset();
    Open(rocksdb::Env::Default());
    for (const auto& e : std::filesystem::directory_iterator(data_ + "/snapshots")) {
      EXPECT_FALSE(e.path().filename().string().starts_with("."))
          << e.path() << " was left by a failed run and not removed by the open";
    }
    size_t families = 0;
    auto tables = admin().ListTables("default");
    ASSERT_OK(tables);
    for (const TableName& t : *tables) {
      auto info = admin().DescribeTable(t);
      ASSERT_OK(info);
      families += info->descriptor.families.size();
    }
    ASSERT_OK(conn_->Close());
    conn_.reset();
    std::vector<std::string> cfs;
    ASSERT_TRUE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), data_, &cfs).ok());
    EXPECT_EQ(cfs.size(), families + 1) << "column families no table owns survived the open";
    Open(rocksdb::Env::Default());
  }

  TempDir dir_;
  const std::string data_ = dir_.path() + "/data";
  std::shared_ptr<FaultInjectionFileSystem> fs_;
  std::unique_ptr<rocksdb::Env> env_;
  std::unique_ptr<Connection> conn_;
  int64_t writes_ = 0;
  int clones_ = 0;
};

TEST_P(SnapshotFaultTest, AFailedSnapshotIsAnErrorAndLeavesNoSnapshot) {
  WriteRows(kRows);
  ASSERT_OK(admin().Snapshot(TableName("default", "t"), "before"));
  WriteRows(2 * kRows);
  const int failures = FailEachStep(
      [&] { return admin().Snapshot(TableName("default", "t"), "during"); },
      [&] {
        EXPECT_EQ(Listed(), std::set<std::string>{"before"}) << "a failed snapshot is listed";
        ExpectStoreWrites();
      });
  // Every fault kind meets one of its calls: the manifest's write and sync, the links.
  EXPECT_GT(failures, 0);
  EXPECT_EQ(Listed(), (std::set<std::string>{"before", "during"}));
  ExpectClonesWith("before", kRows, kRows);
  ExpectClonesWith("during", 2 * kRows, 2 * kRows);
  ReopenAndCheck();
  ExpectClonesWith("during", 2 * kRows, 2 * kRows);
}

TEST_P(SnapshotFaultTest, AFailedCloneIsAnErrorAndMakesNoTable) {
  WriteRows(kRows);
  ASSERT_OK(admin().Snapshot(TableName("default", "t"), "s"));
  const int failures =
      FailEachStep([&] { return admin().CloneSnapshot("s", TableName("default", "copy")); },
                   [&] {
                     EXPECT_FALSE(TableExists("copy")) << "a failed clone left its table";
                     ExpectStoreWrites();
                   });
  // A clone writes into the snapshot directory only the links it imports, which only a disk
  // out of inodes fails.
  if (GetParam() == Fault::kNoSpaceOrInodes) {
    EXPECT_GT(failures, 0);
  }
  ExpectRows("copy", kRows, kRows);
  ReopenAndCheck();
  ExpectRows("copy", kRows, kRows);
}

TEST_P(SnapshotFaultTest, AFailedRestoreIsAnErrorAndLeavesTheTableAsItWas) {
  WriteRows(kRows);
  ASSERT_OK(admin().Snapshot(TableName("default", "t"), "s"));
  WriteRows(2 * kRows);
  const TableName t("default", "t");
  ASSERT_OK(admin().DisableTable(t));
  const int failures = FailEachStep([&] { return admin().RestoreSnapshot("s"); },
                                    [&] {
                                      ASSERT_OK(admin().EnableTable(t));
                                      ExpectRows("t", 2 * kRows, 2 * kRows);
                                      ASSERT_OK(admin().DisableTable(t));
                                      ExpectStoreWrites();
                                    });
  if (GetParam() == Fault::kNoSpaceOrInodes) {
    EXPECT_GT(failures, 0);
  }
  ASSERT_OK(admin().EnableTable(t));
  ExpectRows("t", kRows, kRows);
  ReopenAndCheck();
  ExpectRows("t", kRows, kRows);
}

TEST_P(SnapshotFaultTest, AFailedDeleteIsAnErrorAndLeavesTheSnapshotWholeOrGone) {
  WriteRows(kRows);
  ASSERT_OK(admin().Snapshot(TableName("default", "t"), "s"));
  ASSERT_OK(admin().Snapshot(TableName("default", "t"), "keep"));
  bool gone = false;
  FailEachStep(
      [&] {
        // A run after the one that hid the snapshot finds it gone.
        Status st = admin().DeleteSnapshot("s");
        return gone && st.IsNotFound() ? Status::OK() : st;
      },
      [&] {
        const std::set<std::string> listed = Listed();
        EXPECT_TRUE(listed.count("keep"));
        if (listed.count("s")) {
          ExpectClonesWith("s", kRows, kRows);
        } else {
          gone = true;
        }
        ExpectStoreWrites();
      });
  EXPECT_EQ(Listed(), std::set<std::string>{"keep"});
  ReopenAndCheck();
  EXPECT_EQ(Listed(), std::set<std::string>{"keep"});
  ExpectClonesWith("keep", kRows, kRows);
}

INSTANTIATE_TEST_SUITE_P(Faults, SnapshotFaultTest, ::testing::ValuesIn(kWriteFaults),
                         FaultParamName());

}  // namespace
}  // namespace basalt::crash
