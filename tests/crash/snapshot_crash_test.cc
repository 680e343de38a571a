// Snapshots survive kill -9, and a kill in the middle of one leaves nothing half made.
//
// A child process writes rows (one Put of the same counter into two families of a row) from two
// threads while its main thread takes snapshots, clones each one into a table and deletes the
// snapshot before the last, reporting through a pipe each snapshot it finished. The parent kills
// it with SIGKILL at a random moment and reopens the store: no `.tmp-*` directory is left, every
// snapshot reported taken (and not reported deleted) is listed, every listed snapshot clones to a
// table whose rows hold both families or neither, every clone the child made is whole, and the
// store has no column family that no table owns (a clone cut between its import and its catalog
// write leaves some, which the open drops).
//
// The child is this binary run again (child_process.h): a snapshot flushes.

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "basalt/basalt.h"
#include "child_process.h"
#include "support/test_store.h"

namespace basalt {
namespace {

using testing::TempDir;

constexpr int kRounds = 4;

std::string SnapshotName(int round, int k) {
  return "r" + std::to_string(round) + "-s" + std::to_string(k);
}

std::string CloneName(int round, int k) {
  return "r" + std::to_string(round) + "_c" + std::to_string(k);
}

// What the child reports: snapshot k of the round taken (kind 0), its clone made (1), or
// snapshot k deleted (2).
struct Report {
  int32_t kind;
  int32_t k;
};

void Send(int fd, int32_t kind, int32_t k) {
  Report r{kind, k};
  if (write(fd, &r, sizeof(r)) != sizeof(r)) _exit(7);
}

// Runs in the child until killed. Never returns.
[[noreturn]] void SnapshotLoopMain(const std::string& dir, int round, int report_fd) {
  auto conn = Connection::Open(dir);
  if (!conn.ok()) {
    std::fprintf(stderr, "child: %s\n", conn.status().ToString().c_str());
    _exit(2);
  }
  std::vector<std::thread> writers;
  for (int w = 0; w < 2; ++w) {
    writers.emplace_back([&, w] {
      auto t = (*conn)->GetTable("t");
      if (!t.ok()) _exit(3);
      for (int i = 0;; ++i) {
        const std::string n = std::to_string(i);
        Put p("w" + std::to_string(w) + "-" + std::to_string(i % 200));
        p.Add("f", "c", n).Add("g", "c", n);
        if (!(*t)->Put(p).ok()) _exit(4);
      }
    });
  }
  Admin& admin = (*conn)->admin();
  for (int k = 0;; ++k) {
    Status s = admin.Snapshot(TableName("default", "t"), SnapshotName(round, k));
    if (!s.ok()) {
      std::fprintf(stderr, "child: %s\n", s.ToString().c_str());
      _exit(5);
    }
    Send(report_fd, 0, k);
    if (!admin.CloneSnapshot(SnapshotName(round, k), TableName("default", CloneName(round, k)))
             .ok()) {
      _exit(6);
    }
    Send(report_fd, 1, k);
    if (k >= 2) {
      if (!admin.DeleteSnapshot(SnapshotName(round, k - 2)).ok()) _exit(8);
      Send(report_fd, 2, k - 2);
    }
  }
}

[[noreturn]] void SnapshotLoopChild(const std::vector<std::string>& args) {
  if (args.size() != 3) _exit(10);
  SnapshotLoopMain(args[0], std::stoi(args[1]), std::stoi(args[2]));
}
const bool kSnapshotLoopRegistered = crash::RegisterChildRole("snapshot-loop", &SnapshotLoopChild);

struct Reported {
  std::set<int> taken, cloned, deleted;
};

// Kills the child `run_ms` after its first report (or after 30 s without one).
Reported RunAndKill(const std::string& dir, int round, int run_ms) {
  const std::string written =
      crash::RunUntilKilled("snapshot-loop", {dir, std::to_string(round)}, run_ms);
  Reported reported;
  Report r;
  for (size_t at = 0; written.size() - at >= sizeof(r); at += sizeof(r)) {
    std::memcpy(&r, written.data() + at, sizeof(r));
    (r.kind == 0 ? reported.taken : r.kind == 1 ? reported.cloned : reported.deleted).insert(r.k);
  }
  return reported;
}

// Every row of `table` has both families with the same counter, or is absent. Returns the rows.
size_t ExpectConsistent(Connection& conn, const std::string& table) {
  SCOPED_TRACE("table " + table);
  auto t = conn.GetTable(table);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  if (!t.ok()) return 0;
  auto scanner = (*t)->GetScanner(Scan());
  EXPECT_TRUE(scanner.ok()) << scanner.status().ToString();
  if (!scanner.ok()) return 0;
  RowResult r;
  size_t rows = 0;
  while ((*scanner)->Next(&r)) {
    ++rows;
    auto f = r.Value("f", "c"), g = r.Value("g", "c");
    EXPECT_TRUE(f.has_value() && g.has_value()) << "row " << r.row() << " has one family only";
    if (f && g) {
      EXPECT_EQ(*f, *g) << "row " << r.row();
    }
  }
  EXPECT_TRUE((*scanner)->status().ok()) << (*scanner)->status().ToString();
  return rows;
}

TEST(SnapshotCrashTest, AKillLeavesOnlyWholeSnapshotsAndClones) {
  TempDir dir;
  {
    auto conn = Connection::Open(dir.path());
    ASSERT_OK(conn);
    TableDescriptor desc(TableName("default", "t"));
    desc.AddFamily(FamilyDescriptor("f"));
    desc.AddFamily(FamilyDescriptor("g"));
    ASSERT_OK((*conn)->admin().CreateTable(desc, {}));
  }
  std::mt19937 rng(std::random_device{}());
  std::uniform_int_distribution<int> run_ms(100, 700);
  for (int round = 0; round < kRounds; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const Reported reported = RunAndKill(dir.path(), round, run_ms(rng));
    ASSERT_FALSE(reported.taken.empty()) << "the child took no snapshot before it was killed";

    size_t families = 0;
    {
      auto conn = Connection::Open(dir.path());
      ASSERT_OK(conn);
      Admin& admin = (*conn)->admin();
      for (const auto& e : std::filesystem::directory_iterator(dir.path() + "/snapshots")) {
        EXPECT_FALSE(e.path().filename().string().starts_with("."))
            << e.path() << " was left by the kill and not removed by the open";
      }
      auto listed = admin.ListSnapshots();
      ASSERT_OK(listed);
      std::set<std::string> names;
      for (const SnapshotInfo& s : *listed) names.insert(s.name);
      // After reporting clone k the child deletes snapshot k - 2: that one may be gone unreported.
      const int in_flight_delete = reported.cloned.empty() ? -1 : *reported.cloned.rbegin() - 2;
      for (int k : reported.taken) {
        if (reported.deleted.count(k)) {
          EXPECT_EQ(names.count(SnapshotName(round, k)), 0u) << "deleted snapshot listed";
        } else if (k != in_flight_delete) {
          EXPECT_EQ(names.count(SnapshotName(round, k)), 1u)
              << "snapshot " << SnapshotName(round, k) << " was taken but is not listed";
        }
      }
      // Every snapshot listed (this round's, whether reported or cut just after its commit)
      // clones to a consistent table.
      for (const SnapshotInfo& s : *listed) {
        const std::string check =
            "check_" + std::to_string(round) + "_" + std::to_string(&s - listed->data());
        ASSERT_OK(admin.CloneSnapshot(s.name, TableName("default", check)));
        ExpectConsistent(**conn, check);
        ASSERT_OK(admin.DisableTable(TableName("default", check)));
        ASSERT_OK(admin.DeleteTable(TableName("default", check)));
      }
      // Every clone that exists is whole, and each one reported made exists.
      auto tables = admin.ListTables("default");
      ASSERT_OK(tables);
      std::set<std::string> present;
      for (const TableName& t : *tables) present.insert(t.qualifier);
      for (int k : reported.cloned) {
        EXPECT_EQ(present.count(CloneName(round, k)), 1u) << CloneName(round, k) << " lost";
      }
      for (const TableName& t : *tables) {
        ExpectConsistent(**conn, t.qualifier);
        auto info = admin.DescribeTable(t);
        ASSERT_OK(info);
        EXPECT_EQ(info->descriptor.families.size(), 2u) << t.qualifier << " is not whole";
        families += info->descriptor.families.size();
      }
      ASSERT_OK((*conn)->Close());
    }
    std::vector<std::string> cfs;
    ASSERT_TRUE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), dir.path(), &cfs).ok());
    EXPECT_EQ(cfs.size(), families + 1) << "column families no table owns survived the open";
  }
}

}  // namespace
}  // namespace basalt
