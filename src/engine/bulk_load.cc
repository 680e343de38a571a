// Bulk load (basalt/bulk_load.h has the contract): each family's cells go straight into RocksDB
// table files through an SstFileWriter, in the layout of key_format.h, and Finish ingests every
// family's files in one IngestExternalFiles call, which RocksDB applies atomically across column
// families.
//
// Why the sequence number and the default timestamp are taken when the loader is created: a
// cell's value carries the write sequence number that delete markers compare against, and it is
// written to the file as the cell is added, long before the ingest. Taking both at creation
// gives the load one consistent place in the write order (that of a Put made at that moment),
// and lets cells stream to disk without being held back.
//
// Ingest options, and why:
//   - allow_global_seqno (the default): a file overlapping keys already in the column family
//     (memtable or files, e.g. concurrent Puts) gets a RocksDB sequence number above theirs, so
//     readers see a consistent order; allow_blocking_flush (the default) flushes an overlapping
//     memtable first.
//   - ingest_behind stays off: it would put loaded cells below existing keys at the RocksDB
//     level, which would undo "the loaded cell replaces a Put of the same key" above, and it
//     needs allow_ingest_behind on the whole database.
//   - move_files: the files are written inside the store's directory, so they are hard-linked
//     into the database rather than copied (copied where the file system cannot link).
//   - write_global_seqno off: the sequence number is kept in the MANIFEST instead of being
//     written into each file, which RocksDB recommends for databases only it opens.
// An ingest does not always advance RocksDB's latest sequence number (a file that overlaps
// nothing goes in at sequence 0), which the iterator pool uses to hand out an idle iterator
// without refreshing it: Finish bumps the storage epoch, so those idle iterators are dropped.

#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_writer.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/cell_checks.h"
#include "engine/engine.h"
#include "engine/key_format.h"
#include "engine/rocksdb_status.h"
#include "util/bytes_format.h"
#include "util/clock.h"

namespace basalt::engine {
namespace {

constexpr std::string_view kBulkLoadDirPrefix = "bulkload-";

// "row 'r', column f:q, timestamp t" of a cell key, in HBase's printable form.
std::string DescribeCell(std::string_view family, std::string_view key) {
  ParsedKey pk;
  if (!ParseKey(key, &pk)) return "an unreadable key";
  const std::string row = RowFromPrefix(pk.row_prefix);
  const std::string qualifier = QualifierFromColumnPrefix(pk.column_prefix, pk.row_prefix.size());
  return "row '" + util::ToStringBinary(row) + "', column " + std::string(family) + ":" +
         util::ToStringBinary(qualifier) + ", timestamp " + std::to_string(pk.timestamp);
}

}  // namespace

class BulkLoad : public BulkLoader {
 public:
  BulkLoad(std::shared_ptr<Engine> engine, std::shared_ptr<const TableState> table,
           const BulkLoadOptions& options, rocksdb::Env* env, std::string dir, int64_t now_ms,
           uint64_t seq)
      : engine_(std::move(engine)),
        table_(std::move(table)),
        options_(options),
        env_(env),
        dir_(std::move(dir)),
        now_ms_(now_ms),
        seq_(seq) {
    families_.resize(table_->families.size());
    for (size_t i = 0; i < families_.size(); ++i) families_[i].family = &table_->families[i];
  }

  ~BulkLoad() override {
    if (!ingested_) RemoveFiles();
  }

  Status Add(std::string_view row, std::string_view family, std::string_view qualifier,
             std::string_view value, int64_t timestamp) override;
  int64_t cells() const override { return cells_; }
  Result<BulkLoadStats> Finish() override;

 private:
  struct FamilyFiles {
    const FamilyHandle* family = nullptr;
    std::unique_ptr<rocksdb::SstFileWriter> writer;  // the file being written, or null
    std::string writing;                             // its path
    std::vector<std::string> done;                   // finished files
    std::string last_key;                            // the last cell added; empty before one
  };

  Status Check(std::string_view row, std::string_view family, std::string_view qualifier,
               std::string_view value, int64_t timestamp, FamilyFiles** out);
  Status OpenFile(FamilyFiles* f);
  Status CloseFile(FamilyFiles* f);
  // Deletes every file of the load and its directory. Errors are dropped: the next open of the
  // store deletes what is left (Engine::DeleteStaleBulkLoads).
  void RemoveFiles();
  Status Fail(Status s) {
    status_ = s;
    return s;
  }

  const std::shared_ptr<Engine> engine_;
  const std::shared_ptr<const TableState> table_;
  const BulkLoadOptions options_;
  rocksdb::Env* const env_;
  const std::string dir_;
  const int64_t now_ms_;
  const uint64_t seq_;
  std::vector<FamilyFiles> families_;  // parallel to table_->families
  bool dir_created_ = false;
  bool finished_ = false;
  bool ingested_ = false;
  Status status_;  // the error that ended the load
  int64_t cells_ = 0;
  int64_t file_count_ = 0;
  std::string key_buf_;
  std::string value_buf_;
};

Status BulkLoad::Check(std::string_view row, std::string_view family, std::string_view qualifier,
                       std::string_view value, int64_t timestamp, FamilyFiles** out) {
  BASALT_RETURN_IF_ERROR(CheckRow(row));
  BASALT_RETURN_IF_ERROR(CheckQualifier(qualifier));
  if (timestamp != kLatestTimestamp) BASALT_RETURN_IF_ERROR(CheckTimestamp(timestamp));
  BASALT_RETURN_IF_ERROR(
      CheckValueSize(family, qualifier, value.size(), engine_->options().max_value_bytes));
  for (auto& f : families_) {
    if (f.family->name() == family) {
      *out = &f;
      return Status::OK();
    }
  }
  return table_->NoSuchFamily(family);
}

Status BulkLoad::Add(std::string_view row, std::string_view family, std::string_view qualifier,
                     std::string_view value, int64_t timestamp) {
  BASALT_RETURN_IF_ERROR(status_);
  if (finished_) return Status::FailedPrecondition("this bulk load is finished");
  FamilyFiles* f = nullptr;
  Status s = Check(row, family, qualifier, value, timestamp, &f);
  if (!s.ok()) return Fail(std::move(s));

  key_buf_.clear();
  AppendEscaped(&key_buf_, row);
  AppendQualifier(&key_buf_, qualifier);
  AppendKeySuffix(&key_buf_, timestamp == kLatestTimestamp ? now_ms_ : timestamp, CellType::kPut);
  // The files of a column family must not overlap and each must be sorted, so cells must come
  // in key order; comparing encoded keys is comparing (row, qualifier, -timestamp).
  if (!f->last_key.empty()) {
    const int order = rocksdb::Slice(key_buf_).compare(f->last_key);
    if (order <= 0) {
      const std::string& name = f->family->name();
      return Fail(Status::InvalidArgument(
          order == 0 ? "the cell " + DescribeCell(name, key_buf_) + " was added twice"
                     : "cells out of order: " + DescribeCell(name, key_buf_) + " comes after " +
                           DescribeCell(name, f->last_key) +
                           " (a family's cells must be added by row, then qualifier, ascending "
                           "bytewise, then timestamp descending)"));
    }
  }
  if (f->writer == nullptr) {
    s = OpenFile(f);
    if (!s.ok()) return Fail(std::move(s));
  }
  value_buf_.clear();
  AppendValueHeader(&value_buf_, seq_);
  value_buf_.append(value);
  s = FromRocks(f->writer->Put(key_buf_, value_buf_));
  if (!s.ok()) return Fail(s.WithContext("writing a bulk load file"));
  f->last_key.assign(key_buf_);
  ++cells_;
  if (f->writer->FileSize() >= options_.target_file_bytes) {
    s = CloseFile(f);
    if (!s.ok()) return Fail(std::move(s));
  }
  return Status::OK();
}

Status BulkLoad::OpenFile(FamilyFiles* f) {
  // The writer reads the column family's id and options: the handle must still be open.
  util::ReaderMutexLock life(engine_->lifecycle_mu_);
  BASALT_RETURN_IF_ERROR(engine_->CheckOpen());
  if (!dir_created_) {
    BASALT_RETURN_IF_ERROR(
        FromRocks(env_->CreateDirIfMissing(dir_)).WithContext("creating the bulk load directory"));
    dir_created_ = true;
  }
  // The column family's own options: its table format, compression, block size and prefix
  // bloom filter, so an ingested file is like one the store would have written.
  rocksdb::Options options(engine_->db_->GetDBOptions(), engine_->db_->GetOptions(f->family->cf));
  f->writer = std::make_unique<rocksdb::SstFileWriter>(rocksdb::EnvOptions(options), options,
                                                       f->family->cf);
  f->writing =
      dir_ + "/" + f->family->record.cf_name + "-" + std::to_string(file_count_++) + ".sst";
  return FromRocks(f->writer->Open(f->writing)).WithContext("creating a bulk load file");
}

Status BulkLoad::CloseFile(FamilyFiles* f) {
  Status s = FromRocks(f->writer->Finish()).WithContext("finishing a bulk load file");
  f->writer.reset();
  if (s.ok()) {
    f->done.push_back(std::move(f->writing));
    f->writing.clear();
  }
  return s;
}

void BulkLoad::RemoveFiles() {
  for (auto& f : families_) {
    f.writer.reset();  // abandons an unfinished file
    if (!f.writing.empty()) env_->DeleteFile(f.writing).PermitUncheckedError();
    for (const auto& path : f.done) env_->DeleteFile(path).PermitUncheckedError();
    f.writing.clear();
    f.done.clear();
  }
  if (dir_created_) env_->DeleteDir(dir_).PermitUncheckedError();
  dir_created_ = false;
}

Result<BulkLoadStats> BulkLoad::Finish() {
  BASALT_RETURN_IF_ERROR(status_);
  if (finished_) return Status::FailedPrecondition("this bulk load is finished");
  finished_ = true;
  BulkLoadStats stats;
  stats.cells = cells_;
  std::vector<Engine::BulkLoadFiles> files;
  for (auto& f : families_) {
    if (f.writer != nullptr) {
      Status s = CloseFile(&f);
      if (!s.ok()) {
        RemoveFiles();
        return Fail(std::move(s));
      }
    }
    if (f.done.empty()) continue;
    for (const auto& path : f.done) {
      uint64_t size = 0;
      Status s = FromRocks(env_->GetFileSize(path, &size));
      if (!s.ok()) {
        RemoveFiles();
        return Fail(std::move(s));
      }
      stats.bytes += static_cast<int64_t>(size);
    }
    stats.files += static_cast<int64_t>(f.done.size());
    files.push_back({f.family, f.done});
  }
  if (files.empty()) {
    RemoveFiles();
    return stats;
  }
  Status s = engine_->IngestBulkLoad(*table_, files);
  if (!s.ok()) {
    RemoveFiles();
    return Fail(std::move(s));
  }
  ingested_ = true;
  // Moved files are gone already; copies (where the file system cannot link) are not.
  RemoveFiles();
  return stats;
}

Result<std::unique_ptr<BulkLoader>> Engine::NewBulkLoader(const TableName& name,
                                                          const BulkLoadOptions& options) {
  if (options.target_file_bytes == 0) {
    return Status::InvalidArgument("bulk load target_file_bytes must be positive");
  }
  util::ReaderMutexLock life(lifecycle_mu_);
  BASALT_RETURN_IF_ERROR(CheckOpen());
  BASALT_ASSIGN_OR_RETURN(auto table, FindTableLocked(name));
  if (!table->record.enabled) {
    return Status::FailedPrecondition("table '" + name.ToString() + "' is disabled");
  }
  // As a Put: its time, then its sequence number (see the top of this file).
  const int64_t now = util::MonotonicWallMillis();
  BASALT_ASSIGN_OR_RETURN(uint64_t seq, sequence_->Next(1));
  std::string dir = path_ + "/" + std::string(kBulkLoadDirPrefix) + std::to_string(seq);
  return std::unique_ptr<BulkLoader>(new BulkLoad(shared_from_this(), std::move(table), options,
                                                  db_->GetEnv(), std::move(dir), now, seq));
}

Status Engine::IngestBulkLoad(const TableState& loaded, const std::vector<BulkLoadFiles>& files) {
  // Schema changes are held off, so the column families cannot be dropped under the ingest.
  BASALT_ASSIGN_OR_RETURN(SchemaChangeLocks locks, LockForSchemaChange());
  AssertSchemaChangeLocksHeld();
  const std::string table = loaded.name().ToString();
  auto current = FindTableLocked(loaded.name());
  if (!current.ok() || (*current)->record.id != loaded.record.id) {
    return Status::FailedPrecondition("table '" + table +
                                      "' was dropped while the bulk load ran; nothing was loaded");
  }
  if (!(*current)->record.enabled) {
    return Status::FailedPrecondition("table '" + table + "' is disabled; nothing was loaded");
  }
  std::vector<rocksdb::IngestExternalFileArg> args;
  for (const BulkLoadFiles& f : files) {
    const FamilyHandle* now = (*current)->FindFamily(f.family->name());
    if (now == nullptr || now->record.id != f.family->record.id) {
      return Status::FailedPrecondition("column family '" + f.family->name() + "' of table '" +
                                        table +
                                        "' was deleted or truncated while the bulk load ran; "
                                        "nothing was loaded");
    }
    rocksdb::IngestExternalFileArg arg;
    arg.column_family = now->cf;
    arg.external_files = f.paths;
    arg.options.move_files = true;
    arg.options.write_global_seqno = false;
    args.push_back(std::move(arg));
  }
  if (needs_resume_.load()) BASALT_RETURN_IF_ERROR(ResumeAfterIoError());
  Status s = NoteIoError(db_->IngestExternalFiles(args));
  storage_epoch_->fetch_add(1, std::memory_order_release);
  return s.WithContext("ingesting the bulk load into '" + table + "'");
}

Status Engine::DeleteStaleBulkLoads() {
  rocksdb::Env* env = db_->GetEnv();
  std::vector<std::string> names;
  BASALT_RETURN_IF_ERROR(FromRocks(env->GetChildren(path_, &names)));
  for (const auto& name : names) {
    if (name.rfind(kBulkLoadDirPrefix, 0) != 0) continue;
    const std::string dir = path_ + "/" + name;
    std::vector<std::string> files;
    BASALT_RETURN_IF_ERROR(FromRocks(env->GetChildren(dir, &files)));
    for (const auto& file : files) {
      if (file == "." || file == "..") continue;
      BASALT_RETURN_IF_ERROR(FromRocks(env->DeleteFile(dir + "/" + file)));
    }
    BASALT_RETURN_IF_ERROR(FromRocks(env->DeleteDir(dir)));
  }
  return Status::OK();
}

}  // namespace basalt::engine
