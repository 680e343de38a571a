#include "basalt/backup.h"

#include "engine/backup.h"

namespace basalt {

Result<std::vector<BackupInfo>> ListBackups(const std::string& backup_dir) {
  return engine::ListStoreBackups(backup_dir);
}

Status VerifyBackup(const std::string& backup_dir, uint32_t id) {
  return engine::VerifyStoreBackup(backup_dir, id);
}

Status RestoreBackup(const std::string& backup_dir, uint32_t id, const std::string& data_dir) {
  return engine::RestoreStoreBackup(backup_dir, id, data_dir);
}

}  // namespace basalt
