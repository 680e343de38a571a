// Backups of a whole store: incremental (a table file shared by several backups is stored once),
// checksummed (every file's CRC32C is recorded and checked on verify and restore), and taken
// online from an open store (Admin::CreateBackup). A backup directory holds many backups, each
// an id; a backup is visible only once complete, so a crash while taking one leaves the earlier
// ones intact and the partial files are removed the next time the directory is opened.

#ifndef BASALT_BACKUP_H_
#define BASALT_BACKUP_H_

#include <cstdint>
#include <string>
#include <vector>

#include "basalt/status.h"

namespace basalt {

struct BackupInfo {
  uint32_t id = 0;          // increasing in the backup directory, never reused
  int64_t timestamp = 0;    // seconds since the epoch, when it was taken
  uint64_t size_bytes = 0;  // the bytes of its files (shared ones counted in every backup)
  uint32_t files = 0;
};

// The backups in `backup_dir`, oldest first. NotFound if the directory holds no backup.
Result<std::vector<BackupInfo>> ListBackups(const std::string& backup_dir);

// Checks that every file of backup `id` (0: the latest) is present, of its recorded size and
// checksum. Corruption names the first file that is not; NotFound for an unknown id.
Status VerifyBackup(const std::string& backup_dir, uint32_t id = 0);

// Rebuilds the store of backup `id` (0: the latest) in `data_dir`, which must not exist or be
// empty (FailedPrecondition otherwise: a restore never overwrites a store). Files are verified
// as they are copied.
Status RestoreBackup(const std::string& backup_dir, uint32_t id, const std::string& data_dir);

}  // namespace basalt

#endif  // BASALT_BACKUP_H_
