#include "engine/backup.h"

#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/utilities/backup_engine.h>

#include <filesystem>
#include <memory>
#include <system_error>

#include "engine/engine.h"
#include "engine/rocksdb_status.h"

namespace basalt::engine {
namespace {

// Table files are shared between backups under names made of their checksum, size and DB
// session id, so a file is copied once however many backups hold it, and two stores (or a
// store restored and written again) never collide on a file number.
rocksdb::BackupEngineOptions BackupOptions(const std::string& backup_dir) {
  rocksdb::BackupEngineOptions options(backup_dir);
  options.share_table_files = true;
  options.share_files_with_checksum = true;
  options.sync = true;  // a backup reported complete survives a power loss
  return options;
}

Result<std::unique_ptr<rocksdb::BackupEngine>> OpenBackupEngine(const std::string& backup_dir,
                                                                rocksdb::Env* env) {
  rocksdb::BackupEngine* raw = nullptr;
  rocksdb::IOStatus s = rocksdb::BackupEngine::Open(BackupOptions(backup_dir), env, &raw);
  BASALT_RETURN_IF_ERROR(FromRocks(s).WithContext("opening backup directory " + backup_dir));
  return std::unique_ptr<rocksdb::BackupEngine>(raw);
}

Result<std::unique_ptr<rocksdb::BackupEngineReadOnly>> OpenBackupReader(
    const std::string& backup_dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(backup_dir, ec)) {
    return Status::NotFound("no backup directory " + backup_dir);
  }
  rocksdb::BackupEngineReadOnly* raw = nullptr;
  rocksdb::IOStatus s =
      rocksdb::BackupEngineReadOnly::Open(BackupOptions(backup_dir), rocksdb::Env::Default(), &raw);
  BASALT_RETURN_IF_ERROR(FromRocks(s).WithContext("opening backup directory " + backup_dir));
  return std::unique_ptr<rocksdb::BackupEngineReadOnly>(raw);
}

BackupInfo ToBackupInfo(const rocksdb::BackupInfo& info) {
  BackupInfo out;
  out.id = info.backup_id;
  out.timestamp = info.timestamp;
  out.size_bytes = info.size;
  out.files = info.number_files;
  return out;
}

// Resolves id 0 to the latest backup; NotFound when there is none or `id` is unknown.
Result<uint32_t> ResolveBackupId(rocksdb::BackupEngineReadOnly& reader,
                                 const std::string& backup_dir, uint32_t id) {
  std::vector<rocksdb::BackupInfo> infos;
  reader.GetBackupInfo(&infos);
  if (infos.empty()) return Status::NotFound("no backup in " + backup_dir);
  if (id == 0) return infos.back().backup_id;
  for (const auto& info : infos) {
    if (info.backup_id == id) return id;
  }
  return Status::NotFound("no backup " + std::to_string(id) + " in " + backup_dir);
}

}  // namespace

Result<BackupInfo> Engine::CreateBackup(const std::string& backup_dir) {
  // The store stays open while the backup reads it: Close waits for it to finish.
  util::ReaderMutexLock life(lifecycle_mu_);
  BASALT_RETURN_IF_ERROR(CheckOpen());
  if (options_.in_memory) return Status::NotSupported("an in-memory store cannot be backed up");
  BASALT_ASSIGN_OR_RETURN(auto backups, OpenBackupEngine(backup_dir, db_->GetEnv()));
  rocksdb::CreateBackupOptions create;
  // Flushing first makes the backup table files only (no WAL to replay on restore) and puts
  // every acknowledged write in it.
  create.flush_before_backup = true;
  rocksdb::BackupID id = 0;
  BASALT_RETURN_IF_ERROR(FromRocks(backups->CreateNewBackup(create, db_, &id))
                             .WithContext("backing up into " + backup_dir));
  rocksdb::BackupInfo info;
  BASALT_RETURN_IF_ERROR(FromRocks(backups->GetBackupInfo(id, &info)));
  return ToBackupInfo(info);
}

Result<std::vector<BackupInfo>> ListStoreBackups(const std::string& backup_dir) {
  BASALT_ASSIGN_OR_RETURN(auto reader, OpenBackupReader(backup_dir));
  std::vector<rocksdb::BackupInfo> infos;
  reader->GetBackupInfo(&infos);
  if (infos.empty()) return Status::NotFound("no backup in " + backup_dir);
  std::vector<BackupInfo> out;
  for (const auto& info : infos) out.push_back(ToBackupInfo(info));
  return out;
}

Status VerifyStoreBackup(const std::string& backup_dir, uint32_t id) {
  BASALT_ASSIGN_OR_RETURN(auto reader, OpenBackupReader(backup_dir));
  BASALT_ASSIGN_OR_RETURN(uint32_t resolved, ResolveBackupId(*reader, backup_dir, id));
  return FromRocks(reader->VerifyBackup(resolved, /*verify_with_checksum=*/true))
      .WithContext("backup " + std::to_string(resolved) + " in " + backup_dir);
}

Status RestoreStoreBackup(const std::string& backup_dir, uint32_t id, const std::string& data_dir) {
  std::error_code ec;
  if (std::filesystem::exists(data_dir, ec) && !std::filesystem::is_empty(data_dir, ec)) {
    return Status::FailedPrecondition("restore target " + data_dir +
                                      " is not empty: a restore never overwrites a store");
  }
  BASALT_ASSIGN_OR_RETURN(auto reader, OpenBackupReader(backup_dir));
  BASALT_ASSIGN_OR_RETURN(uint32_t resolved, ResolveBackupId(*reader, backup_dir, id));
  // Restored beside the target and renamed into place, so a restore that fails (a corrupt file,
  // a full disk, a kill) never leaves a partial store where a store is expected.
  const std::string partial = data_dir + ".restoring";
  std::filesystem::remove_all(partial, ec);
  Status st =
      FromRocks(reader->RestoreDBFromBackup(resolved, partial, partial))
          .WithContext("restoring backup " + std::to_string(resolved) + " into " + data_dir);
  // A failed restore can return while the engine's copy threads still write other files: the
  // engine is closed (its threads joined) before the partial copy is removed.
  reader.reset();
  if (st.ok()) {
    std::filesystem::remove(data_dir, ec);  // empty, checked above
    std::filesystem::rename(partial, data_dir, ec);
    if (ec) st = Status::IOError("renaming " + partial + " to " + data_dir + ": " + ec.message());
  }
  if (!st.ok()) std::filesystem::remove_all(partial, ec);
  return st;
}

}  // namespace basalt::engine
