// Closing the store while other threads back it up: a backup holds the store's lifecycle lock
// for as long as it reads the store, so Close waits for backups in progress and later ones are
// refused. Every backup ends either complete (and verifies) or Aborted before it began, and
// (under TSan) there is no race.

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "basalt/backup.h"
#include "basalt/connection.h"
#include "support/test_store.h"

namespace basalt::testing {
namespace {

constexpr int kBackupThreads = 2;
// A bound on each thread's backups: the lifecycle lock does not make Close overtake readers, so
// backups taken back to back can hold Close off until they stop.
constexpr int kMostBackupsPerThread = 20;

TEST(BackupCloseConcurrencyTest, CloseDuringBackupsEndsEachCompleteOrAborted) {
  TempDir dir;
  auto conn = Connection::Open(dir.path() + "/store");
  ASSERT_OK(conn);
  TableDescriptor desc(TableName("default", "t"));
  desc.AddFamily(FamilyDescriptor("f"));
  ASSERT_OK((*conn)->admin().CreateTable(desc));
  auto table = (*conn)->GetTable(TableName("default", "t"));
  ASSERT_OK(table);
  std::vector<Put> puts;
  for (int i = 0; i < 2000; ++i) {
    char row[16];
    std::snprintf(row, sizeof(row), "row%05d", i);
    puts.emplace_back(row).Add("f", "q", std::string(100, 'v'));
  }
  ASSERT_OK((*table)->Put(puts));

  std::atomic<int> completed{0};
  std::atomic<int> finished{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kBackupThreads; ++t) {
    threads.emplace_back([&, t] {
      const std::string backups = dir.path() + "/backups" + std::to_string(t);
      // Backs up until the store refuses: some backups are then in progress when it closes.
      for (int i = 0; i < kMostBackupsPerThread; ++i) {
        Result<BackupInfo> info = (*conn)->admin().CreateBackup(backups);
        if (!info.ok()) {
          EXPECT_TRUE(info.status().IsAborted()) << info.status().ToString();
          finished.fetch_add(1);
          return;
        }
        completed.fetch_add(1, std::memory_order_relaxed);
      }
      finished.fetch_add(1);
    });
  }
  while (completed.load() < kBackupThreads && finished.load() == 0) std::this_thread::yield();
  ASSERT_OK((*conn)->Close());
  for (auto& t : threads) t.join();
  // The last backup each thread took, the one closest to the Close, is whole.
  for (int t = 0; t < kBackupThreads; ++t) {
    EXPECT_OK(VerifyBackup(dir.path() + "/backups" + std::to_string(t)));
  }
}

}  // namespace
}  // namespace basalt::testing
