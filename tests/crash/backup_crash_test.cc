// Backups under the three failures a machine has: a process killed while it takes one, an I/O
// error or a full disk in the backup directory, and a power loss while it is written. In each,
// every backup that was reported complete stays listed, verifies and restores to exactly the
// writes acknowledged before it began; a backup cut short is never listed (the backup directory
// removes its files when next opened); and the store keeps serving (docs/reliability.md,
// "Backups and snapshots").

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <rocksdb/env.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "basalt/backup.h"
#include "basalt/basalt.h"
#include "child_process.h"
#include "client/embedded.h"
#include "fault_injection_fs.h"
#include "support/test_store.h"

namespace basalt::crash {
namespace {

using testing::TempDir;

// Big enough that copying a batch's table files takes a while, so kills land inside a backup.
constexpr int kValueBytes = 1024;
constexpr int kRowsPerBatch = 1500;

std::string RowKey(int64_t i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "r%010lld", static_cast<long long>(i));
  return buf;
}

std::string Value(int64_t i) {
  std::string v = std::to_string(i) + ":";
  v.resize(kValueBytes, static_cast<char>('a' + i % 26));
  return v;
}

void CreateTestTable(Connection& conn) {
  TableDescriptor desc(TableName("default", "t"));
  desc.AddFamily(FamilyDescriptor("f"));
  desc.AddFamily(FamilyDescriptor("g"));
  ASSERT_OK(conn.admin().CreateTable(desc));
}

basalt::Put RowPut(int64_t i) {
  return basalt::Put(RowKey(i)).Add("f", "v", Value(i)).Add("g", "n", std::to_string(i));
}

// Restores backup `id` into a fresh directory and checks that it holds rows [0, rows) whole and
// nothing after them.
void ExpectBackupHolds(const std::string& backup_dir, uint32_t id, int64_t rows) {
  SCOPED_TRACE("backup " + std::to_string(id) + ", expected rows " + std::to_string(rows));
  ASSERT_OK(VerifyBackup(backup_dir, id));
  TempDir restored;
  const std::string data = restored.path() + "/store";
  ASSERT_OK(RestoreBackup(backup_dir, id, data));
  auto conn = Connection::Open(data);
  ASSERT_OK(conn);
  auto table = (*conn)->GetTable("t");
  ASSERT_OK(table);
  auto scanner = (*table)->GetScanner(Scan());
  ASSERT_OK(scanner);
  int64_t next = 0;
  RowResult row;
  while ((*scanner)->Next(&row)) {
    ASSERT_EQ(row.row(), RowKey(next)) << "a row is missing or extra";
    ASSERT_EQ(row.Value("f", "v"), Value(next));
    ASSERT_EQ(row.Value("g", "n"), std::to_string(next));
    ++next;
  }
  ASSERT_OK((*scanner)->status());
  EXPECT_EQ(next, rows);
  scanner->reset();
  table->reset();
  ASSERT_OK((*conn)->Close());
}

// --- kill -9 while a backup is taken -------------------------------------------------------

// What the child reports through its pipe: a write batch acknowledged up to `rows`, a backup
// begun, or a backup `id` complete holding `rows`.
struct Report {
  enum Kind : int64_t { kWritten, kBackupBegun, kBackupDone } kind;
  int64_t rows;
  int64_t id;
};

// Runs in the child: writes a batch, backs up, and again, until killed. Never returns.
[[noreturn]] void BackupLoopMain(const std::string& data, const std::string& backups,
                                 int64_t first_row, int report_fd) {
  auto conn = Connection::Open(data);
  if (!conn.ok()) _exit(2);
  auto table = (*conn)->GetTable("t");
  if (!table.ok()) _exit(3);
  auto send = [&](Report r) {
    if (write(report_fd, &r, sizeof(r)) != sizeof(r)) _exit(4);
  };
  for (int64_t rows = first_row;;) {
    for (int i = 0; i < kRowsPerBatch; ++i, ++rows) {
      if (!(*table)->Put(RowPut(rows)).ok()) _exit(5);
    }
    send({Report::kWritten, rows, 0});
    send({Report::kBackupBegun, rows, 0});
    auto info = (*conn)->admin().CreateBackup(backups);
    if (!info.ok()) {
      std::fprintf(stderr, "child: %s\n", info.status().ToString().c_str());
      _exit(6);
    }
    send({Report::kBackupDone, rows, info->id});
  }
}

// The child's entry point: BackupLoopMain with DATA, BACKUPS, FIRST_ROW and REPORT_FD.
[[noreturn]] void BackupLoopChild(const std::vector<std::string>& args) {
  if (args.size() != 4) _exit(10);
  BackupLoopMain(args[0], args[1], std::stoll(args[2]), std::stoi(args[3]));
}
const bool kBackupLoopRegistered = RegisterChildRole("backup-loop", &BackupLoopChild);

struct RoundResult {
  int64_t rows_acknowledged = 0;
  std::map<uint32_t, int64_t> completed;  // backup id -> rows it holds
  bool killed_in_backup = false;
};

// Starts the child, lets it complete `backups_before_kill` backups, then kills it a random
// moment into the next one: up to 90% of the time the previous backup took, so the kill lands
// inside the backup (after its flush, in the copy of the files, or in writing its metadata).
RoundResult RunAndKill(const std::string& data, const std::string& backups, int64_t first_row,
                       int backups_before_kill, std::mt19937& rng) {
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  const pid_t pid =
      SpawnChild("backup-loop", {data, backups, std::to_string(first_row), std::to_string(fds[1])});
  EXPECT_GT(pid, 0);
  close(fds[1]);
  RoundResult result;
  result.rows_acknowledged = first_row;
  using Clock = std::chrono::steady_clock;
  Clock::time_point begun{}, kill_at = Clock::time_point::max();
  auto give_up = Clock::now() + std::chrono::seconds(60);
  std::chrono::microseconds last_backup_took{0};
  int done = 0;
  bool killed = false, in_backup = false;
  while (true) {
    const auto now = Clock::now();
    if (!killed && (now >= kill_at || now >= give_up)) {
      kill(pid, SIGKILL);
      killed = true;
      result.killed_in_backup = in_backup;
    }
    pollfd p{fds[0], POLLIN, 0};
    if (poll(&p, 1, killed ? 10 : 0) <= 0) continue;
    Report r;
    ssize_t n = read(fds[0], &r, sizeof(r));
    if (n == 0) break;  // the child is gone and every report it sent has been read
    if (n != sizeof(r)) continue;
    switch (r.kind) {
      case Report::kWritten:
        result.rows_acknowledged = r.rows;
        break;
      case Report::kBackupBegun:
        begun = Clock::now();
        in_backup = true;
        if (done == backups_before_kill && !killed) {
          const auto range = std::max<int64_t>(1, last_backup_took.count() * 9 / 10);
          kill_at = begun + std::chrono::microseconds(rng() % range);
        }
        break;
      case Report::kBackupDone:
        in_backup = false;
        last_backup_took =
            std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - begun);
        result.completed[static_cast<uint32_t>(r.id)] = r.rows;
        ++done;
        break;
    }
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
      << "the child stopped by itself (status " << status << ") before it was killed";
  return result;
}

TEST(BackupKillTest, AKillDuringABackupLeavesEveryCompletedBackupIntact) {
  TempDir dir;
  const std::string data = dir.path() + "/data", backups = dir.path() + "/backups";
  {
    auto conn = Connection::Open(data);
    ASSERT_OK(conn);
    CreateTestTable(**conn);
    ASSERT_OK((*conn)->Close());
  }
  std::mt19937 rng(std::random_device{}());
  std::map<uint32_t, int64_t> completed;
  int64_t rows = 0;
  int kills_in_backup = 0;
  constexpr int kRounds = 4;
  for (int round = 0; round < kRounds; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    RoundResult r = RunAndKill(data, backups, rows, 1 + static_cast<int>(rng() % 2), rng);
    kills_in_backup += r.killed_in_backup ? 1 : 0;
    completed.insert(r.completed.begin(), r.completed.end());
    ASSERT_FALSE(completed.empty()) << "no backup completed before the kill";

    // Every backup reported complete, in every round so far, is listed and holds its rows. A
    // backup the kill interrupted after it completed but before it was reported may be listed
    // too; it must then verify. None other is.
    auto listed = ListBackups(backups);
    ASSERT_OK(listed);
    std::map<uint32_t, bool> seen;
    for (const BackupInfo& info : *listed) seen[info.id] = true;
    for (const auto& [id, held] : completed) {
      EXPECT_TRUE(seen.count(id)) << "completed backup " << id << " is gone after the kill";
    }
    for (const BackupInfo& info : *listed) {
      if (completed.count(info.id)) continue;
      EXPECT_GT(info.id, completed.rbegin()->first) << "backup " << info.id << " is unknown";
      EXPECT_OK(VerifyBackup(backups, info.id));
    }
    for (const auto& [id, held] : completed) ExpectBackupHolds(backups, id, held);

    // The store itself lost nothing acknowledged; the next round writes after its last row
    // (the rows of a batch the kill cut are rewritten, with the same values).
    auto conn = Connection::Open(data);
    ASSERT_OK(conn);
    auto table = (*conn)->GetTable("t");
    ASSERT_OK(table);
    if (r.rows_acknowledged > 0) {
      auto last = (*table)->Get(Get(RowKey(r.rows_acknowledged - 1)));
      ASSERT_OK(last);
      EXPECT_FALSE(last->empty()) << "the last acknowledged row is lost";
    }
    rows = r.rows_acknowledged;
    table->reset();
    ASSERT_OK((*conn)->Close());
  }
  // The kill is aimed inside a backup; it may still land just after one on a loaded machine.
  EXPECT_GE(kills_in_backup, kRounds / 2) << "too few kills landed inside a backup";
}

// --- I/O errors and a full disk in the backup directory ------------------------------------

class BackupFaultTest : public ::testing::TestWithParam<Fault> {
 protected:
  void SetUp() override {
    fs_ = std::make_shared<FaultInjectionFileSystem>(rocksdb::FileSystem::Default());
    fs_->SetFaultDirectory(backups_);
    env_ = rocksdb::NewCompositeEnv(fs_);
    engine::EngineOptions engine_options;
    engine_options.env = env_.get();
    auto conn = client::OpenEmbedded(data_, ConnectionOptions(), engine_options);
    ASSERT_OK(conn);
    conn_ = std::move(*conn);
    CreateTestTable(*conn_);
    auto table = conn_->GetTable("t");
    ASSERT_OK(table);
    table_ = std::move(*table);
  }
  void TearDown() override {
    fs_->SetFault(Fault::kNone);
    table_.reset();
    if (conn_) conn_->Close().PermitUncheckedError();
  }
  void WriteRows(int64_t from, int64_t to) {
    for (int64_t i = from; i < to; ++i) ASSERT_OK(table_->Put(RowPut(i)));
  }

  TempDir dir_;
  const std::string data_ = dir_.path() + "/data";
  const std::string backups_ = dir_.path() + "/backups";
  std::shared_ptr<FaultInjectionFileSystem> fs_;
  std::unique_ptr<rocksdb::Env> env_;
  std::unique_ptr<Connection> conn_;
  std::unique_ptr<Table> table_;
};

TEST_P(BackupFaultTest, AFailedBackupIsAnErrorAndLeavesTheEarlierOnesIntact) {
  WriteRows(0, 300);
  auto first = conn_->admin().CreateBackup(backups_);
  ASSERT_OK(first);
  WriteRows(300, 600);

  fs_->SetFault(GetParam(), FaultScope::kUnderDirectory);
  auto failed = conn_->admin().CreateBackup(backups_);
  ASSERT_FALSE(failed.ok()) << "a backup succeeded while its directory failed";
  EXPECT_TRUE(failed.status().IsIOError()) << failed.status().ToString();
  EXPECT_NE(failed.status().ToString().find(backups_), std::string::npos)
      << "the error does not name the backup directory: " << failed.status().ToString();
  EXPECT_GT(fs_->injected(), 0);
  // The store is not the backup: it keeps taking writes while the backup directory fails.
  WriteRows(600, 700);
  fs_->SetFault(Fault::kNone);

  auto listed = ListBackups(backups_);
  ASSERT_OK(listed);
  ASSERT_EQ(listed->size(), 1u) << "the failed backup is listed";
  EXPECT_EQ((*listed)[0].id, first->id);
  ExpectBackupHolds(backups_, first->id, 300);

  // Once the fault clears, the next backup completes and holds every write.
  auto next = conn_->admin().CreateBackup(backups_);
  ASSERT_OK(next);
  EXPECT_GT(next->id, first->id);
  ExpectBackupHolds(backups_, next->id, 700);
  ExpectBackupHolds(backups_, first->id, 300);
}

INSTANTIATE_TEST_SUITE_P(Faults, BackupFaultTest, ::testing::ValuesIn(kWriteFaults),
                         FaultParamName());

// --- power loss while a backup is written ---------------------------------------------------

// The power fails at a random moment of a run of backups. Backups that returned before the cut
// survive it; the one being written is either complete or gone.
TEST(BackupPowerLossTest, BackupsThatReturnedBeforeTheCutSurviveIt) {
  std::mt19937 rng(std::random_device{}());
  for (int trial = 0; trial < 3; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    TempDir dir;
    const std::string data = dir.path() + "/data", backups = dir.path() + "/backups";
    auto fs = std::make_shared<FaultInjectionFileSystem>(rocksdb::FileSystem::Default());
    std::unique_ptr<rocksdb::Env> env = rocksdb::NewCompositeEnv(fs);
    std::map<uint32_t, int64_t> before_cut;  // backups that returned before the cut
    {
      engine::EngineOptions engine_options;
      engine_options.env = env.get();
      auto conn = client::OpenEmbedded(data, ConnectionOptions(), engine_options);
      ASSERT_OK(conn);
      CreateTestTable(**conn);
      auto table = (*conn)->GetTable("t");
      ASSERT_OK(table);
      int64_t rows = 0;
      // Time one batch and backup first, so that the cut can be aimed inside the later ones.
      const auto started = std::chrono::steady_clock::now();
      for (int i = 0; i < kRowsPerBatch / 3; ++i, ++rows) ASSERT_OK((*table)->Put(RowPut(rows)));
      auto first = (*conn)->admin().CreateBackup(backups);
      ASSERT_OK(first);
      before_cut[first->id] = rows;
      const auto one_round = std::chrono::steady_clock::now() - started;
      const auto cut_after = std::chrono::duration_cast<std::chrono::microseconds>(one_round) *
                             static_cast<int64_t>(1 + rng() % 300) / 100;
      std::thread cutter([&] {
        std::this_thread::sleep_for(cut_after);
        fs->CutPower();
      });
      for (int b = 0; b < 4; ++b) {
        for (int i = 0; i < kRowsPerBatch / 3; ++i, ++rows) {
          ASSERT_OK((*table)->Put(RowPut(rows)));
        }
        auto info = (*conn)->admin().CreateBackup(backups);
        ASSERT_OK(info);
        if (!fs->power_cut()) before_cut[info->id] = rows;
      }
      cutter.join();
      ASSERT_TRUE(fs->power_cut());
      table->reset();
      (*conn)->Close().PermitUncheckedError();
    }
    FaultInjectionFileSystem::PowerLossReport report;
    ASSERT_TRUE(fs->DropUnsyncedData(FaultInjectionFileSystem::UnsyncedTail::kKeepRandomPrefix,
                                     rng(), &report)
                    .ok());
    auto listed = ListBackups(backups);
    ASSERT_OK(listed);
    std::map<uint32_t, bool> seen;
    for (const BackupInfo& info : *listed) {
      seen[info.id] = true;
      // A backup the cut caught after it was complete on disk stays, and is whole.
      EXPECT_OK(VerifyBackup(backups, info.id));
    }
    for (const auto& [id, rows] : before_cut) {
      EXPECT_TRUE(seen.count(id)) << "backup " << id << " returned before the cut and is gone";
      ExpectBackupHolds(backups, id, rows);
    }
  }
}

}  // namespace
}  // namespace basalt::crash
