// The embedded store: HBase's data model on one RocksDB database.
//
// One RocksDB database per data directory. The default column family holds the catalog; every
// table family is a RocksDB column family of its own ("f<id>"), with its own options and one
// block cache shared by all. Cells are laid out as key_format.h describes.
//
// Engine is internal: the client layer wraps it in the public Connection/Admin/Table classes.
// Thread safety: every method may be called concurrently. Close() waits for calls in flight and
// makes later calls fail with Aborted.

#ifndef BASALT_ENGINE_ENGINE_H_
#define BASALT_ENGINE_ENGINE_H_

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "basalt/admin.h"
#include "basalt/bulk_load.h"
#include "basalt/check_and_mutate.h"
#include "basalt/get.h"
#include "basalt/multi_row_mutation.h"
#include "basalt/mutation.h"
#include "basalt/options.h"
#include "basalt/row_result.h"
#include "basalt/scan.h"
#include "basalt/schema.h"
#include "basalt/stats.h"
#include "basalt/status.h"
#include "basalt/table.h"
#include "engine/catalog.h"
#include "engine/engine_options.h"
#include "engine/family_settings.h"
#include "engine/iterator_pool.h"
#include "engine/row_locks.h"
#include "engine/sequence.h"
#include "engine/space_reserve.h"
#include "engine/write_gate.h"
#include "util/futex_mutex.h"
#include "util/mutex.h"

namespace rocksdb {
class Cache;
class Status;
class ColumnFamilyHandle;
class DB;
class Env;
class Iterator;
class Logger;
class Snapshot;
class Statistics;
struct ColumnFamilyOptions;
}  // namespace rocksdb

namespace basalt::engine {

struct FamilyHandle {
  FamilyRecord record;
  FamilySettings settings;
  rocksdb::ColumnFamilyHandle* cf = nullptr;  // owned by the Engine

  const std::string& name() const { return record.descriptor.name; }
};

// An immutable snapshot of one table's schema. A schema change installs a new TableState and
// marks the old one stale, so holders know to fetch the new one.
struct TableState {
  TableRecord record;
  std::vector<FamilyHandle> families;  // sorted by name
  mutable std::atomic<bool> stale{false};
  // Held shared by every write to the table for the length of its RocksDB write, exclusively
  // while a snapshot flushes and links the table's files (snapshot.cc). Shared by every state of
  // one table (same id), so that a writer holding a stale state is still kept out.
  std::shared_ptr<WriteGate> write_gate = std::make_shared<WriteGate>();

  const TableName& name() const { return record.name; }
  // Inline: a batched write looks up every cell's family twice (checking, then writing).
  const FamilyHandle* FindFamily(std::string_view family) const {
    for (const auto& f : families) {
      if (f.name() == family) return &f;
    }
    return nullptr;
  }
  // What an operation naming `family`, which this table lacks, fails with.
  Status NoSuchFamily(std::string_view family) const {
    return Status::NoSuchFamily("column family '" + std::string(family) +
                                "' does not exist in table '" + name().ToString() + "'");
  }
};

class Scanner;
class BulkLoad;
struct SnapshotManifest;

// A borrowed mutation: what Engine::Write applies. The pointee must outlive the call.
using MutationRef =
    std::variant<const Put*, const Delete*, const Increment*, const Append*, const RowMutations*>;

// A condition of Engine::MutateRows on a table from FindTable. Both pointees must outlive the
// call.
struct RowCondition {
  const TableState* table;
  const MultiRowMutation::Condition* condition;
};
// A mutation of Engine::MutateRows and the table (from FindTable) it writes to.
struct TableMutationRef {
  const TableState* table;
  MutationRef mutation;
};

class Engine : public std::enable_shared_from_this<Engine> {
 public:
  // Opens (or creates, per options) the store in `path`. With options.in_memory, `path` only
  // names the store in messages.
  static Result<std::shared_ptr<Engine>> Open(const std::string& path,
                                              const ConnectionOptions& options,
                                              const EngineOptions& engine_options = {});

  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  Status Close();
  const std::string& path() const { return path_; }
  const ConnectionOptions& options() const { return options_; }

  // Schema (see basalt/admin.h for the contracts).
  Status CreateNamespace(const NamespaceDescriptor& ns);
  Status DeleteNamespace(const std::string& name);
  Result<NamespaceDescriptor> GetNamespace(const std::string& name);
  Result<std::vector<NamespaceDescriptor>> ListNamespaces();
  Status CreateTable(const TableDescriptor& desc, const std::vector<std::string>& split_keys);
  Result<std::vector<TableName>> ListTables(const std::string& ns);
  Result<TableInfo> DescribeTable(const TableName& name);
  Status AddFamily(const TableName& table, const FamilyDescriptor& family);
  Status ModifyFamily(const TableName& table, const FamilyDescriptor& family);
  Status DeleteFamily(const TableName& table, const std::string& family);
  Status SetDurability(const TableName& table, Durability durability);
  Status SetEnabled(const TableName& name, bool enabled);
  Status TruncateTable(const TableName& name, bool preserve_splits);
  Status DeleteTable(const TableName& name);
  Status Flush(const TableName& name);
  Status MajorCompact(const TableName& name);
  // Defined in engine_stats.cc.
  Result<StoreStats> GetStoreStats();
  // The store's unique id, fixed when it was created (RocksDB's DB identity).
  Result<std::string> StoreId();

  // The current schema of a table; NotFound when it does not exist.
  Result<std::shared_ptr<const TableState>> FindTable(const TableName& name);

  // Data. `table` must come from FindTable. Disabled tables fail with FailedPrecondition.
  // Applies mutations (each atomic per row; the whole call is one RocksDB write). Fills
  // `results` with one RowResult per mutation when not null.
  Status Write(const TableState& table, std::span<const MutationRef> mutations,
               std::vector<RowResult>* results);
  // Write for a call of Puts only (Table::Put): the same checks, locks, sequence numbers and
  // single RocksDB write, without wrapping each Put in a MutationRef.
  Status WritePuts(const TableState& table, std::span<const Put> puts);
  Result<bool> CheckAndMutate(const TableState& table, const basalt::CheckAndMutate& cam);
  // Applies `mutations` in order, as one RocksDB write, when every condition holds under the
  // locks of all the rows involved; true when applied (basalt/multi_row_mutation.h). Each
  // table's record is checked as Write checks it.
  Result<bool> MutateRows(std::span<const RowCondition> conditions,
                          std::span<const TableMutationRef> mutations);
  Result<RowResult> Get(const TableState& table, const basalt::Get& get);
  // Get into `*out`, overwriting the cells it holds (see Table::GetInto); `*out` is empty on
  // error.
  Status GetInto(const TableState& table, const basalt::Get& get, RowResult* out);
  Result<std::vector<RowResult>> MultiGet(const TableState& table,
                                          const std::vector<basalt::Get>& gets);
  // Table::GetColumnValues: one column's newest value in each row, through one iterator.
  Result<std::vector<std::optional<std::string>>> GetColumnValues(
      const TableState& table, std::string_view family, std::string_view qualifier,
      const std::vector<std::string>& rows);
  Result<std::unique_ptr<ResultScanner>> NewScanner(std::shared_ptr<const TableState> table,
                                                    const basalt::Scan& scan);

  // A loader of sorted cells into `table` (bulk_load.cc; the contract is basalt/bulk_load.h).
  Result<std::unique_ptr<BulkLoader>> NewBulkLoader(const TableName& table,
                                                    const BulkLoadOptions& options);

  // For tests: the RocksDB database.
  // Admin::CreateBackup (basalt/backup.h); the rest of the backup calls are in engine/backup.h.
  Result<BackupInfo> CreateBackup(const std::string& backup_dir);

  // Table snapshots (basalt/snapshot.h; the contracts are basalt/admin.h's). Defined in
  // snapshot.cc.
  Status CreateSnapshot(const TableName& table, const std::string& name);
  Result<std::vector<SnapshotInfo>> ListSnapshots();
  Status CloneSnapshot(const std::string& name, const TableName& new_table);
  Status RestoreSnapshot(const std::string& name);
  Status DeleteSnapshot(const std::string& name);

  rocksdb::DB* TEST_db() { return db_; }

 private:
  friend class Scanner;
  friend class WriteTxn;
  friend class BulkLoad;

  // The finished table files of one family of a bulk load.
  struct BulkLoadFiles {
    const FamilyHandle* family;  // as the loader saw it
    std::vector<std::string> paths;
  };
  // Ingests a bulk load's files into `loaded`'s column families, all or none. FailedPrecondition
  // when the table or one of the families was dropped or recreated since the loader saw it, or
  // the table is disabled. Defined in bulk_load.cc.
  Status IngestBulkLoad(const TableState& loaded, const std::vector<BulkLoadFiles>& files);
  // Deletes the files of bulk loads that never finished (a crash before Finish). At open.
  Status DeleteStaleBulkLoads();

  // Snapshots (snapshot.cc). `<path_>/snapshots`.
  std::string SnapshotsDir() const;
  Status CheckSnapshotsSupported() const;
  // Removes the `.tmp-*` directories that snapshots, deletes and imports cut short left. At open.
  Status DeleteUnfinishedSnapshots();
  // The manifest of snapshot `name`; NotFound when there is none.
  Result<SnapshotManifest> FindSnapshot(const std::string& name);
  // Creates new column families (new ids) holding the snapshot's files, and sets `*record` to
  // the snapshot's table record naming them; on failure drops those it made.
  Result<std::vector<FamilyHandle>> ImportSnapshotFamilies(const SnapshotManifest& manifest,
                                                           TableRecord* record)
      BASALT_REQUIRES(schema_mu_);
  // CloneSnapshot once its name is resolved.
  Status CloneSnapshotLocked(const SnapshotManifest& manifest, const TableName& new_table)
      BASALT_REQUIRES(schema_mu_);

  Engine(std::string path, const ConnectionOptions& options, const EngineOptions& engine_options);

  Status OpenImpl();
  // A RocksDB snapshot of the whole store, released when the last copy goes. For reads that
  // span several column families (a row's families): see Scanner::Init.
  std::shared_ptr<const rocksdb::Snapshot> TakeSnapshot() const;
  // Called before a write once needs_resume_ is set: DB::Resume(), so that the store accepts
  // writes again when the fault is gone (space freed, a transient error). While the disk is full
  // it fails with Busy (DiskFullError), trying DB::Resume at most every kResumeInterval in
  // between; after a failed write-ahead log write other than a full disk, which RocksDB does not
  // resume from, it fails with IOError for good: the store must then be closed and reopened.
  Status ResumeAfterIoError();
  // FromRocks(s); sets needs_resume_ when `s` is an I/O error, and turns a full disk into
  // DiskFullError (see OnNoSpace).
  Status NoteIoError(const rocksdb::Status& s);
  // A write, flush or compaction failed for lack of space and RocksDB stopped writing: releases
  // the space reserve (so that recovery and a reopen have room) and marks the store for
  // ResumeAfterIoError. Called on the writing thread, or by RocksDB's listener.
  void OnNoSpace();
  // Writes MetaResumeAnchorKey() to the default column family without the write-ahead log, so
  // that a DB::Resume() always has a memtable to flush. RocksDB 7.8's resume switches to a new
  // write-ahead log only when it flushes a non-empty memtable; when every memtable is empty (the
  // store just opened, or just resumed, which flushes them all) it keeps the log whose append
  // failed, and the next write's append to it trips an assertion in RocksDB's file writer (an
  // abort, with Debian's librocksdb). Called at open and after each resume; its own failure is
  // harmless (the next write fails the same way and resumes).
  void PutResumeAnchor();
  // The retryable error every write gets while the disk is full (HTTP 503, Thrift2 canRetry).
  Status DiskFullError(const std::string& detail) const;
  rocksdb::ColumnFamilyOptions FamilyCfOptions(const FamilyRecord& family);
  Status PersistSequenceLimit(uint64_t limit);
  Result<uint64_t> NextId() BASALT_REQUIRES(schema_mu_);
  // `count` consecutive ids, the first returned, in one catalog write.
  Result<uint64_t> NextIds(uint64_t count) BASALT_REQUIRES(schema_mu_);
  // Whether `table` (`existing` families now, none when it is being created) may take `added`
  // more: kMaxFamiliesPerTable (InvalidArgument) and the store's max_store_families
  // (FailedPrecondition).
  Status CheckFamilyCaps(const TableName& table, size_t existing, size_t added)
      BASALT_REQUIRES(schema_mu_);
  Status WriteCatalog(const std::string& key, const std::string* value);
  Status PutTableRecord(const TableRecord& record);
  // Creates the column families of `records` (setting their ids and names) in one RocksDB
  // call; on failure, drops those it made.
  Result<std::vector<FamilyHandle>> CreateFamilies(std::vector<FamilyRecord>* records)
      BASALT_REQUIRES(schema_mu_);
  void InstallTable(std::shared_ptr<TableState> state) BASALT_REQUIRES(schema_mu_);
  Result<std::shared_ptr<TableState>> BuildState(const TableRecord& record,
                                                 const std::vector<FamilyHandle>& reuse);
  // Drops them in one RocksDB call.
  Status DropColumnFamilies(const std::vector<FamilyHandle>& families);
  Result<std::shared_ptr<const TableState>> FindTableLocked(const TableName& name);
  Status CheckOpen() const BASALT_REQUIRES_SHARED(lifecycle_mu_);

  // What every schema change holds: the store kept open (lifecycle_mu_ shared) and the other
  // schema changes kept out (schema_mu_).
  struct SchemaChangeLocks {
    std::shared_lock<util::SharedMutex> life;
    std::unique_lock<util::Mutex> schema;
  };
  // Takes them, failing (before taking schema_mu_) when the store is closed. The analysis cannot
  // follow locks handed back in an object: the caller says it holds them with
  // AssertSchemaChangeLocksHeld once this has returned them.
  Result<SchemaChangeLocks> LockForSchemaChange() BASALT_NO_THREAD_SAFETY_ANALYSIS;
  void AssertSchemaChangeLocksHeld() const BASALT_ASSERT_CAPABILITY(schema_mu_)
      BASALT_ASSERT_SHARED_CAPABILITY(lifecycle_mu_) {}
  // Writes `record`, the new catalog record of `current`, and installs the table state built from
  // it on `current`'s column families.
  Status ReplaceTableRecord(const TableState& current, const TableRecord& record)
      BASALT_REQUIRES(schema_mu_);
  // Writes `record`, whose column families were just created as `families`, and installs its
  // state; when the record cannot be written the new families are dropped again.
  Status InstallWithNewFamilies(const TableRecord& record,
                                const std::vector<FamilyHandle>& families)
      BASALT_REQUIRES(schema_mu_);
  Status ReadRowInto(const TableState& table, const basalt::Get& get, RowResult* out);
  // ReadRowInto's read, the lifecycle lock held by the caller. With `held`, a read of one family
  // takes that family's iterator from `held` (acquiring it there the first time) instead of from
  // the pool and back: a multi-get's reads share one.
  Status ReadRowLocked(const TableState& table, const basalt::Get& get, RowResult* out,
                       HeldIterators* held) BASALT_REQUIRES_SHARED(lifecycle_mu_);
  std::shared_ptr<FamilySettingsCell> SettingsCell(uint64_t family_id);

  // Scanner registration, so that Close() can release their iterators.
  void RegisterScanner(Scanner* s);
  void UnregisterScanner(Scanner* s);
  void UnregisterScannerLocked(Scanner* s) BASALT_REQUIRES(scanners_mu_);

  const std::string path_;
  const ConnectionOptions options_;
  const EngineOptions engine_options_;
  // Set when a write failed with an I/O error: RocksDB then refuses writes (its "background
  // error") until DB::Resume(), which the next write calls first (see ResumeAfterIoError).
  std::atomic<bool> needs_resume_{false};
  // Set with needs_resume_ when the error was a full disk (RocksDB's NoSpace).
  std::atomic<bool> no_space_{false};
  util::Mutex resume_mu_;
  // While the disk is full, no DB::Resume before this (each one tries to flush every memtable).
  std::chrono::steady_clock::time_point next_resume_ BASALT_GUARDED_BY(resume_mu_);
  std::string last_resume_error_ BASALT_GUARDED_BY(resume_mu_);
  // Null for an in-memory store.
  std::unique_ptr<SpaceReserve> reserve_;
  std::shared_ptr<rocksdb::Logger> info_log_;
  std::unique_ptr<rocksdb::Env> mem_env_;
  std::shared_ptr<rocksdb::Cache> block_cache_;
  std::shared_ptr<rocksdb::Statistics> statistics_;  // null unless options_.statistics
  rocksdb::DB* db_ = nullptr;
  rocksdb::ColumnFamilyHandle* default_cf_ = nullptr;

  // Held shared by every call, exclusively by Close().
  mutable util::SharedMutex lifecycle_mu_;
  bool closed_ BASALT_GUARDED_BY(lifecycle_mu_) = false;

  // Serialises schema changes. Lock order: schema_mu_, then tables_mu_.
  util::Mutex schema_mu_;
  mutable util::SharedMutex tables_mu_;
  std::map<TableName, std::shared_ptr<TableState>> tables_ BASALT_GUARDED_BY(tables_mu_);
  std::map<std::string, NamespaceDescriptor> namespaces_ BASALT_GUARDED_BY(tables_mu_);
  // Every column family handle ever opened; dropped ones stay valid until Close().
  std::vector<rocksdb::ColumnFamilyHandle*> all_handles_;
  util::Mutex settings_mu_;
  std::map<uint64_t, std::shared_ptr<FamilySettingsCell>> settings_cells_
      BASALT_GUARDED_BY(settings_mu_);

  // The open scanners, linked through their registry_prev_/registry_next_ (no allocation per
  // scan).
  util::FutexMutex scanners_mu_;
  Scanner* scanners_ BASALT_GUARDED_BY(scanners_mu_) = nullptr;

  std::unique_ptr<SequenceAllocator> sequence_;
  RowLocks row_locks_;
  // Bumped by a listener whenever a flush or compaction finishes; see iterator_pool.h.
  std::shared_ptr<std::atomic<uint64_t>> storage_epoch_ =
      std::make_shared<std::atomic<uint64_t>>(0);
  std::unique_ptr<IteratorPool> iterator_pool_;
};

}  // namespace basalt::engine

#endif  // BASALT_ENGINE_ENGINE_H_
