// Table snapshots (basalt/snapshot.h; contracts in basalt/admin.h; the design is
// docs/design/snapshots-and-backups.md, "Table snapshots").
//
// A snapshot is a directory `<store>/snapshots/<name>/` holding, for each family of the table, a
// directory named after the family's column family (family names may hold '/') with hard links
// to that column family's table files, and MANIFEST.json: the table's catalog record, the write
// sequence the snapshot ends at, each file's RocksDB metadata (what an import needs) and the
// creation time. It is built under `.tmp-<name>` and renamed into place: the rename is the commit
// point, and a store that opens deletes every `.tmp-*` left by a crash. Names cannot start with
// '.', so no snapshot is ever called `.tmp-...`; the scratch directories of a delete and of an
// import add a '~', which names cannot hold, so no two of them collide either.

#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/file_system.h>
#include <rocksdb/metadata.h>
#include <rocksdb/utilities/checkpoint.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "basalt/types.h"
#include "engine/engine.h"
#include "engine/rocksdb_status.h"

namespace basalt::engine {

struct SnapshotFile {
  std::string name;  // relative to the family's directory, e.g. "000012.sst"
  int level = 0;
  uint64_t smallest_seqno = 0;
  uint64_t largest_seqno = 0;
  uint64_t size = 0;
};

struct SnapshotFamily {
  std::string cf_name;  // the source column family, and the directory of its files
  std::vector<SnapshotFile> files;
};

struct SnapshotManifest {
  std::string dir;  // where the snapshot is
  std::string name;
  TableRecord record;
  uint64_t sequence = 0;  // every cell in it has a smaller write sequence
  int64_t creation_time_ms = 0;
  std::string comparator;
  std::vector<SnapshotFamily> families;
};

namespace {

using nlohmann::json;

constexpr std::string_view kSnapshotsDir = "snapshots";
constexpr std::string_view kTmpPrefix = ".tmp-";
constexpr std::string_view kManifestName = "MANIFEST.json";
// Bumped if the manifest's layout changes; a snapshot of an unknown version is refused.
constexpr int kManifestVersion = 1;

std::string ErrnoText(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}

// The files a snapshot writes go through the store's RocksDB FileSystem, as its table files do,
// so that the fault-injection file system of the tests sees every step.
Status WithPath(const rocksdb::IOStatus& s, const std::string& what, const std::string& path) {
  if (s.ok()) return Status::OK();
  return FromRocks(s).WithContext(what + " " + path);
}

Status CreateDirectory(rocksdb::FileSystem* fs, const std::string& path) {
  return WithPath(fs->CreateDirIfMissing(path, rocksdb::IOOptions(), nullptr), "creating", path);
}

Status FsyncDirectory(rocksdb::FileSystem* fs, const std::string& path) {
  std::unique_ptr<rocksdb::FSDirectory> dir;
  BASALT_RETURN_IF_ERROR(
      WithPath(fs->NewDirectory(path, rocksdb::IOOptions(), &dir, nullptr), "opening", path));
  BASALT_RETURN_IF_ERROR(WithPath(dir->Fsync(rocksdb::IOOptions(), nullptr), "syncing", path));
  return WithPath(dir->Close(rocksdb::IOOptions(), nullptr), "closing", path);
}

Status WriteFileSynced(rocksdb::FileSystem* fs, const std::string& path,
                       const std::string& contents) {
  std::unique_ptr<rocksdb::FSWritableFile> file;
  BASALT_RETURN_IF_ERROR(WithPath(fs->NewWritableFile(path, rocksdb::FileOptions(), &file, nullptr),
                                  "creating", path));
  rocksdb::IOStatus s = file->Append(contents, rocksdb::IOOptions(), nullptr);
  if (!s.ok()) {
    file->Close(rocksdb::IOOptions(), nullptr).PermitUncheckedError();
    return WithPath(s, "writing", path);
  }
  s = file->Fsync(rocksdb::IOOptions(), nullptr);
  if (!s.ok()) {
    file->Close(rocksdb::IOOptions(), nullptr).PermitUncheckedError();
    return WithPath(s, "syncing", path);
  }
  return WithPath(file->Close(rocksdb::IOOptions(), nullptr), "closing", path);
}

Status RenamePath(rocksdb::FileSystem* fs, const std::string& from, const std::string& to) {
  return WithPath(fs->RenameFile(from, to, rocksdb::IOOptions(), nullptr),
                  "renaming " + from + " to", to);
}

Status LinkPath(rocksdb::FileSystem* fs, const std::string& from, const std::string& to) {
  return WithPath(fs->LinkFile(from, to, rocksdb::IOOptions(), nullptr), "linking " + from + " to",
                  to);
}

Status RemoveTree(const std::string& path) {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
  if (ec) return Status::IOError("removing " + path + ": " + ec.message());
  return Status::OK();
}

std::string EncodeManifest(const SnapshotManifest& m) {
  json families = json::array();
  for (const SnapshotFamily& f : m.families) {
    json files = json::array();
    for (const SnapshotFile& file : f.files) {
      files.push_back({{"name", file.name},
                       {"level", file.level},
                       {"smallest_seqno", file.smallest_seqno},
                       {"largest_seqno", file.largest_seqno},
                       {"size", file.size}});
    }
    families.push_back({{"cf", f.cf_name}, {"files", std::move(files)}});
  }
  json j{{"version", kManifestVersion},
         {"name", m.name},
         {"table", json::parse(EncodeTableRecord(m.record))},
         {"sequence", m.sequence},
         {"creation_time_ms", m.creation_time_ms},
         {"comparator", m.comparator},
         {"families", std::move(families)}};
  return j.dump(2) + "\n";
}

Result<SnapshotManifest> DecodeManifest(const std::string& bytes, const std::string& where) {
  try {
    const json j = json::parse(bytes);
    if (j.at("version").get<int>() != kManifestVersion) {
      return Status::NotSupported("snapshot " + where + " has manifest version " +
                                  j.at("version").dump() + "; this basalt reads version " +
                                  std::to_string(kManifestVersion));
    }
    SnapshotManifest m;
    m.name = j.at("name").get<std::string>();
    BASALT_ASSIGN_OR_RETURN(m.record, DecodeTableRecord(j.at("table").dump()));
    m.sequence = j.at("sequence").get<uint64_t>();
    m.creation_time_ms = j.at("creation_time_ms").get<int64_t>();
    m.comparator = j.at("comparator").get<std::string>();
    for (const json& f : j.at("families")) {
      SnapshotFamily family;
      family.cf_name = f.at("cf").get<std::string>();
      for (const json& file : f.at("files")) {
        SnapshotFile sf;
        sf.name = file.at("name").get<std::string>();
        if (sf.name.empty() || sf.name.find('/') != std::string::npos) {
          return Status::Corruption("snapshot " + where + " names a bad file '" + sf.name + "'");
        }
        sf.level = file.at("level").get<int>();
        sf.smallest_seqno = file.at("smallest_seqno").get<uint64_t>();
        sf.largest_seqno = file.at("largest_seqno").get<uint64_t>();
        sf.size = file.at("size").get<uint64_t>();
        family.files.push_back(std::move(sf));
      }
      m.families.push_back(std::move(family));
    }
    for (const FamilyRecord& f : m.record.families) {
      const bool found =
          std::any_of(m.families.begin(), m.families.end(),
                      [&](const SnapshotFamily& sf) { return sf.cf_name == f.cf_name; });
      if (!found) {
        return Status::Corruption("snapshot " + where + " has no files entry for family '" +
                                  f.descriptor.name + "'");
      }
    }
    return m;
  } catch (const json::exception& e) {
    return Status::Corruption("snapshot " + where + " has an unreadable manifest: " + e.what());
  }
}

Result<SnapshotManifest> ReadManifest(rocksdb::FileSystem* fs, const std::string& dir,
                                      const std::string& name) {
  const std::string path = dir + "/" + std::string(kManifestName);
  std::string bytes;
  const rocksdb::IOStatus s = rocksdb::ReadFileToString(fs, path, &bytes);
  if (s.IsNotFound() || s.IsPathNotFound()) {
    return Status::Corruption("snapshot '" + name + "' has no " + path);
  }
  BASALT_RETURN_IF_ERROR(WithPath(s, "reading", path));
  return DecodeManifest(bytes, "'" + name + "'");
}

const SnapshotFamily* FindSnapshotFamily(const SnapshotManifest& m, const std::string& cf_name) {
  for (const SnapshotFamily& f : m.families) {
    if (f.cf_name == cf_name) return &f;
  }
  return nullptr;
}

}  // namespace

std::string Engine::SnapshotsDir() const {
  return path_ + "/" + std::string(kSnapshotsDir);
}

Status Engine::CheckSnapshotsSupported() const {
  if (options_.in_memory) return Status::NotSupported("an in-memory store has no snapshots");
  return Status::OK();
}

Status Engine::DeleteUnfinishedSnapshots() {
  if (options_.in_memory) return Status::OK();
  std::error_code ec;
  const std::string dir = SnapshotsDir();
  if (!std::filesystem::is_directory(dir, ec)) return Status::OK();
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(kTmpPrefix, 0) == 0) BASALT_RETURN_IF_ERROR(RemoveTree(entry.path().string()));
  }
  if (ec) return Status::IOError("listing " + dir + ": " + ec.message());
  return Status::OK();
}

Status Engine::CreateSnapshot(const TableName& table, const std::string& name) {
  BASALT_RETURN_IF_ERROR(CheckSnapshotsSupported());
  BASALT_RETURN_IF_ERROR(ValidateSnapshotName(name));
  BASALT_ASSIGN_OR_RETURN(SchemaChangeLocks locks, LockForSchemaChange());
  AssertSchemaChangeLocksHeld();
  BASALT_ASSIGN_OR_RETURN(auto state, FindTableLocked(table));
  const std::string root = SnapshotsDir();
  const std::string final_dir = root + "/" + name;
  const std::string tmp_dir = root + "/" + std::string(kTmpPrefix) + name;
  std::error_code ec;
  if (std::filesystem::exists(final_dir, ec)) {
    return Status::AlreadyExists("snapshot '" + name + "' already exists");
  }
  rocksdb::FileSystem* fs = db_->GetFileSystem();
  SnapshotManifest manifest;
  manifest.name = name;
  manifest.record = state->record;
  manifest.creation_time_ms = SystemWallMillis();
  Status st = [&]() -> Status {
    BASALT_RETURN_IF_ERROR(CreateDirectory(fs, root));
    BASALT_RETURN_IF_ERROR(RemoveTree(tmp_dir));  // a failed attempt's leftovers
    BASALT_RETURN_IF_ERROR(CreateDirectory(fs, tmp_dir));
    rocksdb::Checkpoint* raw = nullptr;
    BASALT_RETURN_IF_ERROR(FromRocks(rocksdb::Checkpoint::Create(db_, &raw)));
    std::unique_ptr<rocksdb::Checkpoint> checkpoint(raw);
    std::vector<rocksdb::ColumnFamilyHandle*> cfs;
    for (const auto& f : state->families) cfs.push_back(f.cf);
    // With the gate held no write to the table is between taking its sequence numbers and
    // committing, so the flushed files of every family end at the same point of the write order.
    std::unique_lock<WriteGate> gate(*state->write_gate);
    if (needs_resume_.load()) BASALT_RETURN_IF_ERROR(ResumeAfterIoError());
    BASALT_RETURN_IF_ERROR(NoteIoError(db_->Flush(rocksdb::FlushOptions(), cfs)));
    manifest.sequence = sequence_->Peek();
    for (const auto& f : state->families) {
      rocksdb::ExportImportFilesMetaData* exported = nullptr;
      BASALT_RETURN_IF_ERROR(NoteIoError(checkpoint->ExportColumnFamily(
                                             f.cf, tmp_dir + "/" + f.record.cf_name, &exported))
                                 .WithContext("linking the files of family '" + f.name() + "'"));
      std::unique_ptr<rocksdb::ExportImportFilesMetaData> owned(exported);
      manifest.comparator = owned->db_comparator_name;
      SnapshotFamily family;
      family.cf_name = f.record.cf_name;
      for (const rocksdb::LiveFileMetaData& file : owned->files) {
        SnapshotFile sf;
        sf.name = file.name;
        while (!sf.name.empty() && sf.name.front() == '/') sf.name.erase(0, 1);
        sf.level = file.level;
        sf.smallest_seqno = file.smallest_seqno;
        sf.largest_seqno = file.largest_seqno;
        sf.size = file.size;
        family.files.push_back(std::move(sf));
      }
      manifest.families.push_back(std::move(family));
    }
    gate.unlock();
    if (manifest.comparator.empty()) manifest.comparator = "leveldb.BytewiseComparator";
    BASALT_RETURN_IF_ERROR(
        WriteFileSynced(fs, tmp_dir + "/" + std::string(kManifestName), EncodeManifest(manifest)));
    for (const SnapshotFamily& f : manifest.families) {
      BASALT_RETURN_IF_ERROR(FsyncDirectory(fs, tmp_dir + "/" + f.cf_name));
    }
    BASALT_RETURN_IF_ERROR(FsyncDirectory(fs, tmp_dir));
    BASALT_RETURN_IF_ERROR(RenamePath(fs, tmp_dir, final_dir));
    const Status committed = FsyncDirectory(fs, root);
    // A commit that cannot be made durable is taken back: a failed call leaves no snapshot.
    if (!committed.ok()) RenamePath(fs, final_dir, tmp_dir).PermitUncheckedError();
    return committed;
  }();
  if (!st.ok()) {
    RemoveTree(tmp_dir).PermitUncheckedError();  // what is left, the next open removes
    return st.WithContext("taking snapshot '" + name + "' of '" + table.ToString() + "'");
  }
  return Status::OK();
}

Result<std::vector<SnapshotInfo>> Engine::ListSnapshots() {
  BASALT_RETURN_IF_ERROR(CheckSnapshotsSupported());
  BASALT_ASSIGN_OR_RETURN(SchemaChangeLocks locks, LockForSchemaChange());
  AssertSchemaChangeLocksHeld();
  std::vector<SnapshotInfo> out;
  const std::string root = SnapshotsDir();
  std::error_code ec;
  if (!std::filesystem::is_directory(root, ec)) return out;
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(root, ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind('.', 0) == 0) continue;  // unfinished or being deleted
    names.push_back(std::move(name));
  }
  if (ec) return Status::IOError("listing " + root + ": " + ec.message());
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    const std::string dir = root + "/" + name;
    BASALT_ASSIGN_OR_RETURN(SnapshotManifest manifest,
                            ReadManifest(db_->GetFileSystem(), dir, name));
    SnapshotInfo info;
    info.name = name;
    info.table = manifest.record.name;
    info.creation_time_ms = manifest.creation_time_ms;
    for (const SnapshotFamily& f : manifest.families) {
      for (const SnapshotFile& file : f.files) {
        const std::string path = dir + "/" + f.cf_name + "/" + file.name;
        struct stat st {};
        if (::stat(path.c_str(), &st) != 0) {
          return Status::Corruption(ErrnoText("snapshot '" + name + "' lost its file", path));
        }
        (st.st_nlink > 1 ? info.shared_bytes : info.exclusive_bytes) +=
            static_cast<uint64_t>(st.st_size);
      }
    }
    out.push_back(std::move(info));
  }
  return out;
}

Result<SnapshotManifest> Engine::FindSnapshot(const std::string& name) {
  SnapshotManifest manifest;
  const std::string dir = SnapshotsDir() + "/" + name;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return Status::NotFound("snapshot '" + name + "' does not exist");
  }
  BASALT_ASSIGN_OR_RETURN(manifest, ReadManifest(db_->GetFileSystem(), dir, name));
  manifest.dir = dir;
  return manifest;
}

Result<std::vector<FamilyHandle>> Engine::ImportSnapshotFamilies(const SnapshotManifest& manifest,
                                                                 TableRecord* record) {
  *record = manifest.record;
  std::vector<FamilyRecord>& records = record->families;
  BASALT_ASSIGN_OR_RETURN(uint64_t first_id, NextIds(records.size()));
  const std::string scratch =
      SnapshotsDir() + "/" + std::string(kTmpPrefix) + manifest.name + "~import";
  BASALT_RETURN_IF_ERROR(RemoveTree(scratch));
  rocksdb::FileSystem* fs = db_->GetFileSystem();
  BASALT_RETURN_IF_ERROR(CreateDirectory(fs, scratch));
  std::vector<FamilyHandle> made;
  Status st;
  for (size_t i = 0; i < records.size() && st.ok(); ++i) {
    FamilyRecord& rec = records[i];
    const SnapshotFamily* source = FindSnapshotFamily(manifest, rec.cf_name);
    rec.id = first_id + i;
    rec.cf_name = FamilyCfName(rec.id);
    SettingsCell(rec.id)->Set(FamilySettings::From(rec.descriptor));
    rocksdb::ColumnFamilyHandle* handle = nullptr;
    if (source->files.empty()) {
      // RocksDB imports no empty file list: a family that held no cells starts empty.
      st = NoteIoError(db_->CreateColumnFamily(FamilyCfOptions(rec), rec.cf_name, &handle));
    } else {
      // The import moves the files it is given: it gets links of its own, so that the snapshot
      // keeps its files.
      rocksdb::ExportImportFilesMetaData metadata;
      metadata.db_comparator_name = manifest.comparator;
      for (const SnapshotFile& file : source->files) {
        const std::string link_name = std::to_string(i) + "-" + file.name;
        const std::string from = manifest.dir + "/" + source->cf_name + "/" + file.name;
        const std::string to = scratch + "/" + link_name;
        st = LinkPath(fs, from, to);
        if (!st.ok()) break;
        rocksdb::LiveFileMetaData meta;
        meta.name = "/" + link_name;
        meta.relative_filename = link_name;
        meta.db_path = scratch;
        meta.directory = scratch;
        meta.level = file.level;
        meta.smallest_seqno = file.smallest_seqno;
        meta.largest_seqno = file.largest_seqno;
        meta.size = file.size;
        meta.column_family_name = rec.cf_name;
        metadata.files.push_back(std::move(meta));
      }
      if (st.ok()) {
        rocksdb::ImportColumnFamilyOptions import;
        import.move_files = true;
        st = NoteIoError(db_->CreateColumnFamilyWithImport(FamilyCfOptions(rec), rec.cf_name,
                                                           import, metadata, &handle));
      }
    }
    if (handle != nullptr) {
      all_handles_.push_back(handle);
      made.push_back({rec, FamilySettings::From(rec.descriptor), handle});
    }
    if (!st.ok()) st = st.WithContext("importing family '" + rec.descriptor.name + "'");
  }
  RemoveTree(scratch).PermitUncheckedError();  // the next open removes it otherwise
  if (!st.ok()) {
    // No catalog record names them: dropped now, or as orphans at the next open.
    DropColumnFamilies(made).PermitUncheckedError();
    return st;
  }
  storage_epoch_->fetch_add(1, std::memory_order_release);
  return made;
}

Status Engine::CloneSnapshotLocked(const SnapshotManifest& manifest, const TableName& new_table) {
  {
    util::ReaderMutexLock tl(tables_mu_);
    if (!namespaces_.count(new_table.ns)) {
      return Status::NotFound("namespace '" + new_table.ns + "' does not exist");
    }
    if (tables_.count(new_table)) {
      return Status::AlreadyExists("table '" + new_table.ToString() + "' already exists");
    }
  }
  BASALT_RETURN_IF_ERROR(CheckFamilyCaps(new_table, 0, manifest.record.families.size()));
  BASALT_ASSIGN_OR_RETURN(uint64_t id, NextId());
  TableRecord record;
  BASALT_ASSIGN_OR_RETURN(auto families, ImportSnapshotFamilies(manifest, &record));
  record.name = new_table;
  record.id = id;
  record.enabled = true;
  return InstallWithNewFamilies(record, families);
}

Status Engine::CloneSnapshot(const std::string& name, const TableName& new_table) {
  BASALT_RETURN_IF_ERROR(CheckSnapshotsSupported());
  BASALT_RETURN_IF_ERROR(ValidateSnapshotName(name));
  BASALT_RETURN_IF_ERROR(ValidateNamespaceName(new_table.ns));
  BASALT_RETURN_IF_ERROR(ValidateTableQualifier(new_table.qualifier));
  BASALT_ASSIGN_OR_RETURN(SchemaChangeLocks locks, LockForSchemaChange());
  AssertSchemaChangeLocksHeld();
  BASALT_ASSIGN_OR_RETURN(SnapshotManifest manifest, FindSnapshot(name));
  return CloneSnapshotLocked(manifest, new_table)
      .WithContext("cloning snapshot '" + name + "' into '" + new_table.ToString() + "'");
}

Status Engine::RestoreSnapshot(const std::string& name) {
  BASALT_RETURN_IF_ERROR(CheckSnapshotsSupported());
  BASALT_RETURN_IF_ERROR(ValidateSnapshotName(name));
  BASALT_ASSIGN_OR_RETURN(SchemaChangeLocks locks, LockForSchemaChange());
  AssertSchemaChangeLocksHeld();
  BASALT_ASSIGN_OR_RETURN(SnapshotManifest manifest, FindSnapshot(name));
  const TableName& table = manifest.record.name;
  auto current = FindTableLocked(table);
  if (current.status().IsNotFound()) {
    // As HBase's restore of a dropped table: the table is created again from the snapshot.
    return CloneSnapshotLocked(manifest, table)
        .WithContext("restoring snapshot '" + name + "' into dropped table '" + table.ToString() +
                     "'");
  }
  BASALT_RETURN_IF_ERROR(current.status());
  if ((*current)->record.enabled) {
    return Status::FailedPrecondition("table '" + table.ToString() +
                                      "' is enabled; disable it before restoring snapshot '" +
                                      name + "'");
  }
  const size_t before = (*current)->families.size();
  const size_t after = manifest.record.families.size();
  if (after > before) BASALT_RETURN_IF_ERROR(CheckFamilyCaps(table, before, after - before));
  const std::vector<FamilyHandle> old_families = (*current)->families;
  return [&]() -> Status {
    AssertSchemaChangeLocksHeld();  // the caller's, which the analysis does not carry into a lambda
    TableRecord record;
    BASALT_ASSIGN_OR_RETURN(auto families, ImportSnapshotFamilies(manifest, &record));
    record.id = (*current)->record.id;
    record.enabled = false;
    // One catalog write swaps the table's families for the imported ones; the old ones are
    // dropped after (or, if that fails, as orphans at the next open).
    BASALT_RETURN_IF_ERROR(InstallWithNewFamilies(record, families));
    DropColumnFamilies(old_families).PermitUncheckedError();
    return Status::OK();
  }()
                      .WithContext("restoring snapshot '" + name + "' into '" + table.ToString() +
                                   "'");
}

Status Engine::DeleteSnapshot(const std::string& name) {
  BASALT_RETURN_IF_ERROR(CheckSnapshotsSupported());
  BASALT_RETURN_IF_ERROR(ValidateSnapshotName(name));
  BASALT_ASSIGN_OR_RETURN(SchemaChangeLocks locks, LockForSchemaChange());
  AssertSchemaChangeLocksHeld();
  const std::string root = SnapshotsDir();
  const std::string dir = root + "/" + name;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return Status::NotFound("snapshot '" + name + "' does not exist");
  }
  // Renamed out of sight first, so that a delete cut short never leaves a half snapshot listed.
  const std::string doomed = root + "/" + std::string(kTmpPrefix) + name + "~delete";
  rocksdb::FileSystem* fs = db_->GetFileSystem();
  return [&]() -> Status {
    BASALT_RETURN_IF_ERROR(RemoveTree(doomed));
    BASALT_RETURN_IF_ERROR(RenamePath(fs, dir, doomed));
    // A rename that cannot be made durable is reported; the files stay under the scratch
    // name, which the next open removes.
    BASALT_RETURN_IF_ERROR(FsyncDirectory(fs, root));
    return RemoveTree(doomed);
  }()
                      .WithContext("deleting snapshot '" + name + "'");
}

}  // namespace basalt::engine
