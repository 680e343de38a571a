// The backup directory calls of basalt/backup.h, on RocksDB's BackupEngine. Engine::CreateBackup
// (engine.h) takes a backup of an open store.

#ifndef BASALT_ENGINE_BACKUP_H_
#define BASALT_ENGINE_BACKUP_H_

#include <string>
#include <vector>

#include "basalt/backup.h"
#include "basalt/status.h"

namespace basalt::engine {

Result<std::vector<BackupInfo>> ListStoreBackups(const std::string& backup_dir);
Status VerifyStoreBackup(const std::string& backup_dir, uint32_t id);
Status RestoreStoreBackup(const std::string& backup_dir, uint32_t id, const std::string& data_dir);

}  // namespace basalt::engine

#endif  // BASALT_ENGINE_BACKUP_H_
