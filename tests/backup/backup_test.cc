// Backups through the public API: taken while a writer runs, each restored store holds exactly
// the writes acknowledged before its backup began (and none the writer had not yet started).

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "basalt/backup.h"
#include "basalt/basalt.h"
#include "support/test_store.h"

namespace basalt {
namespace {

using testing::TempDir;

std::string RowKey(int i) {
  return "row" + std::to_string(1000000 + i);
}

TEST(BackupTest, EachBackupTakenUnderLoadRestoresTheAcknowledgedWrites) {
  TempDir dir;
  const std::string data = dir.path() + "/data", backups = dir.path() + "/backups";
  auto conn = Connection::Open(data);
  ASSERT_OK(conn);
  TableDescriptor desc(TableName("default", "t"));
  desc.AddFamily(FamilyDescriptor("f"));
  desc.AddFamily(FamilyDescriptor("g"));
  ASSERT_OK((*conn)->admin().CreateTable(desc, {}));
  auto table = (*conn)->GetTable("t");
  ASSERT_OK(table);

  // The writer puts rows 0, 1, 2, ... in order, one Put per row across both families, and
  // publishes how many it has had acknowledged.
  std::atomic<int> acked{0};
  std::atomic<bool> stop{false};
  Status writer_status;
  std::thread writer([&] {
    for (int i = 0; !stop.load(); ++i) {
      Put put(RowKey(i));
      put.Add("f", "q", std::to_string(i)).Add("g", "q", std::to_string(i));
      writer_status = (*table)->Put(put);
      if (!writer_status.ok()) return;
      acked.store(i + 1);
    }
  });
  struct Taken {
    uint32_t id;
    int acked_before;   // acknowledged before the backup began: must be in it
    int started_after;  // at most this many writes had begun when it ended: nothing beyond
  };
  std::vector<Taken> taken;
  for (int b = 0; b < 4; ++b) {
    while (acked.load() < 200 * (b + 1)) std::this_thread::yield();
    int before = acked.load();
    auto info = (*conn)->admin().CreateBackup(backups);
    ASSERT_OK(info);
    taken.push_back({info->id, before, acked.load() + 1});
  }
  stop.store(true);
  writer.join();
  ASSERT_OK(writer_status);

  auto listed = ListBackups(backups);
  ASSERT_OK(listed);
  ASSERT_EQ(listed->size(), taken.size());
  for (const Taken& t : taken) {
    SCOPED_TRACE("backup " + std::to_string(t.id));
    ASSERT_OK(VerifyBackup(backups, t.id));
    const std::string restored = dir.path() + "/restored" + std::to_string(t.id);
    ASSERT_OK(RestoreBackup(backups, t.id, restored));
    auto copy = Connection::Open(restored);
    ASSERT_OK(copy);
    auto copy_table = (*copy)->GetTable("t");
    ASSERT_OK(copy_table);
    // Rows form a prefix 0..n-1 (writes are acknowledged in order), with both families.
    int n = 0;
    for (;; ++n) {
      auto row = (*copy_table)->Get(Get(RowKey(n)));
      ASSERT_OK(row);
      if (row->empty()) break;
      ASSERT_EQ(row->Value("f", "q"), std::to_string(n));
      ASSERT_EQ(row->Value("g", "q"), std::to_string(n));
    }
    EXPECT_GE(n, t.acked_before);
    EXPECT_LE(n, t.started_after);
    auto next = (*copy_table)->Get(Get(RowKey(n + 1)));
    ASSERT_OK(next);
    EXPECT_TRUE(next->empty()) << "a gap in the restored rows at " << n;
  }
}

TEST(BackupTest, RestoreRefusesAStoreAndACorruptBackupLeavesNothing) {
  TempDir dir;
  const std::string data = dir.path() + "/data", backups = dir.path() + "/backups";
  {
    auto conn = Connection::Open(data);
    ASSERT_OK(conn);
    TableDescriptor desc(TableName("default", "t"));
    desc.AddFamily(FamilyDescriptor("f"));
    ASSERT_OK((*conn)->admin().CreateTable(desc, {}));
    auto table = (*conn)->GetTable("t");
    ASSERT_OK(table);
    ASSERT_OK((*table)->Put(Put("r").Add("f", "q", "v")));
    ASSERT_OK((*conn)->admin().CreateBackup(backups));
  }
  EXPECT_TRUE(RestoreBackup(backups, 0, data).IsFailedPrecondition());
  EXPECT_TRUE(VerifyBackup(backups, 7).IsNotFound());
  EXPECT_TRUE(VerifyBackup(dir.path() + "/none", 0).IsNotFound());

  // Flip a byte of every table file of the backup: verify and restore both fail, and the
  // failed restore leaves no directory behind.
  for (const auto& e : std::filesystem::directory_iterator(backups + "/shared_checksum")) {
    std::FILE* f = std::fopen(e.path().c_str(), "r+b");
    ASSERT_NE(f, nullptr);
    std::fseek(f, 10, SEEK_SET);
    int c = std::fgetc(f);
    std::fseek(f, 10, SEEK_SET);
    std::fputc(c ^ 0xFF, f);
    std::fclose(f);
  }
  EXPECT_TRUE(VerifyBackup(backups, 0).IsCorruption());
  const std::string restored = dir.path() + "/restored";
  EXPECT_TRUE(RestoreBackup(backups, 0, restored).IsCorruption());
  EXPECT_FALSE(std::filesystem::exists(restored));
  EXPECT_FALSE(std::filesystem::exists(restored + ".restoring"));
}

}  // namespace
}  // namespace basalt
