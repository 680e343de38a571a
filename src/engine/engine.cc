// Engine lifecycle and schema operations. Data paths live in write_path.cc, read_path.cc and
// scanner.cc.

#include "engine/engine.h"

#include <rocksdb/cache.h>
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/listener.h>
#include <rocksdb/statistics.h>
#include <rocksdb/table.h>
#include <rocksdb/utilities/options_util.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <functional>

#include "engine/compaction_filter.h"
#include "engine/info_log.h"
#include "engine/key_format.h"
#include "engine/rocksdb_status.h"
#include "engine/row_prefix_transform.h"
#include "engine/scanner.h"
#include "util/coding.h"

namespace basalt::engine {
namespace {

// Tells the iterator pool that idle iterators may now pin obsolete memtables or files.
class StorageChangeListener : public rocksdb::EventListener {
 public:
  explicit StorageChangeListener(std::shared_ptr<std::atomic<uint64_t>> epoch)
      : epoch_(std::move(epoch)) {}
  void OnFlushCompleted(rocksdb::DB*, const rocksdb::FlushJobInfo&) override { Bump(); }
  void OnCompactionCompleted(rocksdb::DB*, const rocksdb::CompactionJobInfo&) override { Bump(); }

 private:
  void Bump() { epoch_->fetch_add(1, std::memory_order_release); }
  std::shared_ptr<std::atomic<uint64_t>> epoch_;
};

rocksdb::CompressionType ToRocksCompression(Compression c) {
  switch (c) {
    case Compression::kNone:
      return rocksdb::kNoCompression;
    case Compression::kSnappy:
      return rocksdb::kSnappyCompression;
    case Compression::kLz4:
      return rocksdb::kLZ4Compression;
    case Compression::kZstd:
      return rocksdb::kZSTD;
    case Compression::kGz:
      return rocksdb::kZlibCompression;
  }
  return rocksdb::kNoCompression;
}

Status CheckCompressionSupported(Compression c) {
  auto supported = rocksdb::GetSupportedCompressions();
  if (c == Compression::kNone ||
      std::find(supported.begin(), supported.end(), ToRocksCompression(c)) != supported.end()) {
    return Status::OK();
  }
  return Status::NotSupported("compression " + std::string(CompressionName(c)) +
                              " is not available in this build of RocksDB");
}

// Takes RocksDB's recovery from a full disk into the engine's hands (docs/reliability.md, "Full
// disk"). RocksDB 7.8 hands a NoSpace error to its SstFileManager, which polls the free space
// every 5 seconds and resumes only once the disk has a whole write buffer free (64 MiB by
// default, whatever the disk's size or the memtables' contents); until then a DB::Resume() of
// the engine's answers Busy. With that recovery turned off, the engine's own DB::Resume (before
// the next write, see Engine::ResumeAfterIoError) gets the store going again as soon as the
// memtables' flush fits.
class NoSpaceListener : public rocksdb::EventListener {
 public:
  explicit NoSpaceListener(std::function<void()> on_stopped) : on_stopped_(std::move(on_stopped)) {}
  void OnBackgroundError(rocksdb::BackgroundErrorReason, rocksdb::Status* error) override {
    // A soft error (a compaction that found no room) leaves writes going, and the reserve stays
    // for when they stop.
    if (error->IsNoSpace() && error->severity() >= rocksdb::Status::Severity::kHardError) {
      on_stopped_();
    }
  }
  void OnErrorRecoveryBegin(rocksdb::BackgroundErrorReason, rocksdb::Status error,
                            bool* auto_recovery) override {
    if (error.IsNoSpace()) *auto_recovery = false;
    error.PermitUncheckedError();
  }

 private:
  std::function<void()> on_stopped_;
};

// While the disk is full, the least time between two DB::Resume() attempts: each one flushes
// every memtable, writing table files until the disk refuses; the writes in between fail at once.
constexpr std::chrono::milliseconds kResumeInterval{200};

// kMaxFamiliesPerTable, for a table that would have `families`.
Status CheckTableFamilyCap(const TableName& table, size_t families) {
  if (families <= kMaxFamiliesPerTable) return Status::OK();
  return Status::InvalidArgument(
      "table '" + table.ToString() + "' would have " + std::to_string(families) +
      " column families; a table may have at most " + std::to_string(kMaxFamiliesPerTable));
}

bool IsReservedNamespace(std::string_view ns) {
  return ns == kDefaultNamespace || ns == kSystemNamespace;
}

std::atomic<uint64_t> g_mem_store_counter{0};

}  // namespace

Engine::Engine(std::string path, const ConnectionOptions& options,
               const EngineOptions& engine_options)
    : path_(std::move(path)), options_(options), engine_options_(engine_options) {}

Engine::~Engine() {
  Close().PermitUncheckedError();
}

Result<std::shared_ptr<Engine>> Engine::Open(const std::string& path,
                                             const ConnectionOptions& options,
                                             const EngineOptions& engine_options) {
  std::string effective = path;
  if (options.in_memory && effective.empty()) {
    effective = "/basalt-mem-" + std::to_string(g_mem_store_counter.fetch_add(1));
  }
  if (effective.empty()) return Status::InvalidArgument("no data directory given");
  std::shared_ptr<Engine> engine(new Engine(effective, options, engine_options));
  BASALT_RETURN_IF_ERROR(engine->OpenImpl());
  return engine;
}

rocksdb::ColumnFamilyOptions Engine::FamilyCfOptions(const FamilyRecord& family) {
  const FamilyDescriptor& d = family.descriptor;
  rocksdb::ColumnFamilyOptions o;
  o.write_buffer_size = options_.write_buffer_bytes;
  o.level_compaction_dynamic_level_bytes = true;
  o.compression = ToRocksCompression(d.compression);
  o.prefix_extractor = std::make_shared<RowPrefixTransform>();
  rocksdb::BlockBasedTableOptions t;
  t.block_cache = block_cache_;
  t.block_size = static_cast<size_t>(d.block_size);
  t.format_version = 5;
  if (d.bloom_filter != BloomFilter::kNone) {
    t.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
    t.whole_key_filtering = false;  // keys carry timestamps: only the row prefix is looked up
  }
  // Index and filter blocks live in the block cache, so that the store's memory is the cache
  // plus the memtables at any data size: left outside, they grow with the data (about 1.3 bytes
  // per cell, 120 MiB at 100M cells). Partitioned, so that a cache miss reads a 4 KiB partition,
  // not a table file's whole filter (megabytes); the top level, L0's (read on every lookup) and
  // the partitions, at high priority, are the last to be evicted.
  t.cache_index_and_filter_blocks = true;
  t.cache_index_and_filter_blocks_with_high_priority = true;
  t.pin_l0_filter_and_index_blocks_in_cache = true;
  t.pin_top_level_index_and_filter = true;
  t.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
  t.partition_filters = t.filter_policy != nullptr;
  t.metadata_block_size = 4096;
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  o.compaction_filter_factory =
      std::make_shared<CellCompactionFilterFactory>(SettingsCell(family.id));
  return o;
}

std::shared_ptr<FamilySettingsCell> Engine::SettingsCell(uint64_t family_id) {
  util::MutexLock l(settings_mu_);
  auto& cell = settings_cells_[family_id];
  if (!cell) cell = std::make_shared<FamilySettingsCell>(FamilySettings{});
  return cell;
}

Status Engine::OpenImpl() {
  rocksdb::DBOptions db_opts;
  db_opts.create_if_missing = options_.create_if_missing;
  db_opts.max_background_jobs = options_.background_jobs;
  db_opts.bytes_per_sync = 1 << 20;
  if (options_.in_memory) {
    mem_env_.reset(rocksdb::NewMemEnv(rocksdb::Env::Default()));
    db_opts.env = mem_env_.get();
  }
  if (engine_options_.env != nullptr) db_opts.env = engine_options_.env;
  block_cache_ = rocksdb::NewLRUCache(options_.block_cache_bytes);
  db_opts.db_write_buffer_size = options_.memtable_budget_bytes;
  if (options_.statistics) {
    // Tickers only: histograms and timers cost more on every operation, and nothing reads them.
    statistics_ = rocksdb::CreateDBStatistics();
    statistics_->set_stats_level(rocksdb::StatsLevel::kExceptHistogramOrTimers);
    db_opts.statistics = statistics_;
  }
  db_opts.listeners.push_back(std::make_shared<StorageChangeListener>(storage_epoch_));
  db_opts.listeners.push_back(std::make_shared<NoSpaceListener>([this] { OnNoSpace(); }));
  // Replayed write-ahead logs stay in the memtables (and the logs on disk) instead of being
  // flushed to table files by the open: the open then needs no room for that flush, so a store
  // whose disk is still (nearly) full opens again. The memtables are flushed as usual later.
  db_opts.avoid_flush_during_recovery = true;
  // No preallocation: RocksDB would fallocate 1.1 write buffers (70 MiB by default) ahead of each
  // write-ahead log and table file, and on ext4 a fallocate that fails for lack of space keeps
  // what it got. On a disk with less than that free, the first log took all of it, so the OPTIONS
  // file, the MANIFEST and every flush failed (a new store could not even be created on 11 MiB
  // free), and after a full disk was resumed the next log took the freed space again. Sequential
  // appends lose nothing measurable without it (1 KiB puts, synced and not, on this machine).
  db_opts.allow_fallocate = false;

  std::vector<std::string> cf_names;
  bool exists = rocksdb::DB::ListColumnFamilies(db_opts, path_, &cf_names).ok();
  if (!exists && !options_.create_if_missing) {
    return Status::NotFound("no basalt store in '" + path_ + "'");
  }
  // RocksDB's own info log aborts the process on a full disk (info_log.h). Set before the
  // read-only open below, which would otherwise make one too.
  rocksdb::Env* env = db_opts.env != nullptr ? db_opts.env : rocksdb::Env::Default();
  info_log_ = OpenInfoLog(env, path_, db_opts.info_log_level);
  db_opts.info_log = info_log_;
  if (!options_.in_memory) {
    reserve_ = std::make_unique<SpaceReserve>(path_);
    reserve_->PrepareForOpen();
  }

  // The catalog says which options each family's column family needs, and RocksDB wants those
  // at open: read it first from a read-only instance.
  std::map<std::string, FamilyRecord> cf_families;
  if (exists) {
    rocksdb::DB* ro = nullptr;
    std::vector<rocksdb::ColumnFamilyDescriptor> ro_cfs{
        {rocksdb::kDefaultColumnFamilyName, rocksdb::ColumnFamilyOptions()}};
    std::vector<rocksdb::ColumnFamilyHandle*> ro_handles;
    BASALT_RETURN_IF_ERROR(
        FromRocks(rocksdb::DB::OpenForReadOnly(db_opts, path_, ro_cfs, &ro_handles, &ro))
            .WithContext("opening '" + path_ + "'"));
    std::unique_ptr<rocksdb::Iterator> it(ro->NewIterator(rocksdb::ReadOptions(), ro_handles[0]));
    std::string prefix = CatalogTablePrefix();
    Status load;
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
      auto record = DecodeTableRecord({it->value().data(), it->value().size()});
      if (!record.ok()) {
        load = record.status();
        break;
      }
      for (const auto& f : record->families) cf_families[f.cf_name] = f;
    }
    it.reset();
    for (auto* h : ro_handles) ro->DestroyColumnFamilyHandle(h);
    delete ro;
    BASALT_RETURN_IF_ERROR(load);
  }

  for (const auto& [name, record] : cf_families) {
    SettingsCell(record.id)->Set(FamilySettings::From(record.descriptor));
  }
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
  cfs.emplace_back(rocksdb::kDefaultColumnFamilyName, rocksdb::ColumnFamilyOptions());
  std::vector<std::string> orphans;
  for (const auto& name : cf_names) {
    if (name == rocksdb::kDefaultColumnFamilyName) continue;
    auto it = cf_families.find(name);
    if (it == cf_families.end()) {
      // Left by a schema change that crashed before its catalog write: no table owns it.
      orphans.push_back(name);
      cfs.emplace_back(name, rocksdb::ColumnFamilyOptions());
    } else {
      cfs.emplace_back(name, FamilyCfOptions(it->second));
    }
  }
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::Status s = rocksdb::DB::Open(db_opts, path_, cfs, &handles, &db_);
  if (!s.ok()) {
    if (s.IsIOError() && s.ToString().find("lock") != std::string::npos) {
      return Status::Busy("data directory '" + path_ +
                          "' is in use by another process: " + s.ToString());
    }
    if (s.IsNoSpace()) {
      return Status::IOError("cannot open '" + path_ + "': its disk is full (" + s.ToString() +
                             "); free some space on it and open it again");
    }
    return FromRocks(s).WithContext("opening '" + path_ + "'");
  }
  all_handles_ = handles;
  default_cf_ = handles[0];
  BASALT_RETURN_IF_ERROR(DeleteStaleBulkLoads());
  BASALT_RETURN_IF_ERROR(DeleteUnfinishedSnapshots());
  iterator_pool_ = std::make_unique<IteratorPool>(db_, storage_epoch_);
  std::map<std::string, rocksdb::ColumnFamilyHandle*> by_name;
  for (auto* h : handles) by_name[h->GetName()] = h;
  if (!orphans.empty()) {
    // In one call: RocksDB rewrites its OPTIONS file (every column family's options) once per
    // DropColumnFamily call, so dropping them one at a time takes time quadratic in their number.
    std::vector<rocksdb::ColumnFamilyHandle*> dropped;
    for (const auto& name : orphans) dropped.push_back(by_name[name]);
    BASALT_RETURN_IF_ERROR(FromRocks(db_->DropColumnFamilies(dropped))
                               .WithContext("dropping column families no table owns"));
  }

  // Format version.
  std::string version;
  s = db_->Get(rocksdb::ReadOptions(), default_cf_, MetaFormatVersionKey(), &version);
  if (!s.ok() && !s.IsNotFound()) return FromRocks(s);
  if (s.ok() && version != std::to_string(kFormatVersion)) {
    int stored = 0;
    const auto [end, ec] = std::from_chars(version.data(), version.data() + version.size(), stored);
    const bool readable = ec == std::errc() && end == version.data() + version.size() &&
                          stored >= kOldestReadableFormatVersion && stored < kFormatVersion;
    if (!readable) {
      return Status::NotSupported(
          "store '" + path_ + "' has format version " + version + "; this basalt reads versions " +
          std::to_string(kOldestReadableFormatVersion) + " to " + std::to_string(kFormatVersion));
    }
  }
  if (s.IsNotFound() || version != std::to_string(kFormatVersion)) {
    // Recorded before any cell is written in the current layout, so an older basalt never
    // opens a store holding cells it cannot read.
    rocksdb::WriteOptions wo;
    wo.sync = true;
    BASALT_RETURN_IF_ERROR(FromRocks(
        db_->Put(wo, default_cf_, MetaFormatVersionKey(), std::to_string(kFormatVersion))));
  }

  // Catalog. No other thread has the engine yet; the lock states what guards the maps.
  util::WriterMutexLock catalog_lock(tables_mu_);
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), default_cf_));
  std::string ns_prefix = CatalogNamespacePrefix();
  for (it->Seek(ns_prefix); it->Valid() && it->key().starts_with(ns_prefix); it->Next()) {
    BASALT_ASSIGN_OR_RETURN(NamespaceDescriptor ns,
                            DecodeNamespace({it->value().data(), it->value().size()}));
    namespaces_[ns.name] = ns;
  }
  for (std::string_view reserved : {kDefaultNamespace, kSystemNamespace}) {
    namespaces_.try_emplace(std::string(reserved), NamespaceDescriptor{std::string(reserved), {}});
  }
  std::string table_prefix = CatalogTablePrefix();
  for (it->Seek(table_prefix); it->Valid() && it->key().starts_with(table_prefix); it->Next()) {
    BASALT_ASSIGN_OR_RETURN(TableRecord record,
                            DecodeTableRecord({it->value().data(), it->value().size()}));
    std::vector<FamilyHandle> families;
    for (const auto& f : record.families) {
      auto h = by_name.find(f.cf_name);
      if (h == by_name.end()) {
        return Status::Corruption("catalog names column family " + f.cf_name +
                                  " that the database does not have");
      }
      families.push_back({f, FamilySettings::From(f.descriptor), h->second});
    }
    BASALT_ASSIGN_OR_RETURN(auto state, BuildState(record, families));
    tables_[record.name] = std::move(state);
  }
  it.reset();

  std::string limit;
  uint64_t first_seq = 1;
  s = db_->Get(rocksdb::ReadOptions(), default_cf_, MetaSequenceLimitKey(), &limit);
  if (s.ok()) {
    if (limit.size() != 8) return Status::Corruption("bad sequence limit record");
    first_seq = util::DecodeFixed64BE(limit.data());
  } else if (!s.IsNotFound()) {
    return FromRocks(s);
  }
  sequence_ = std::make_unique<SequenceAllocator>(
      first_seq, [this](uint64_t l) { return PersistSequenceLimit(l); });
  PutResumeAnchor();
  return Status::OK();
}

Status Engine::ResumeAfterIoError() {
  util::MutexLock l(resume_mu_);
  if (!needs_resume_.load()) return Status::OK();  // another write resumed the store meanwhile
  const auto now = std::chrono::steady_clock::now();
  if (no_space_.load() && now < next_resume_) return DiskFullError(last_resume_error_);
  rocksdb::Status rs = db_->Resume();
  if (rs.ok()) {
    PutResumeAnchor();
    needs_resume_ = false;
    if (no_space_.exchange(false) && reserve_ != nullptr) reserve_->Restore();
    return Status::OK();
  }
  if (no_space_.load() && (rs.IsNoSpace() || rs.IsBusy()) &&
      rs.severity() < rocksdb::Status::Severity::kFatalError) {
    // The resume's flush found no room (or one is still running): the disk is still full.
    next_resume_ = now + kResumeInterval;
    last_resume_error_ = rs.ToString();
    return DiskFullError(last_resume_error_);
  }
  Status s = FromRocks(rs);
  if (s.IsBusy()) {
    // RocksDB's own recovery (e.g. from a retryable error) is still running; it may finish by
    // itself.
    return Status::IOError("the store '" + path_ +
                           "' stopped writing after an I/O error and is still recovering (" +
                           s.ToString() + "); retry later");
  }
  // RocksDB resumes after a failed flush or compaction once the fault is gone, and after a full
  // disk, but not after another failed write-ahead log write, nor when its resume could not even
  // create a new write-ahead log (fatal errors for it): then only a reopen helps.
  return Status::IOError("the store '" + path_ +
                         "' stopped writing after an I/O error and could not resume (" +
                         s.ToString() + "); writes fail until it is closed and reopened");
}

Status Engine::NoteIoError(const rocksdb::Status& s) {
  if (s.IsNoSpace()) {
    OnNoSpace();
    return DiskFullError(s.ToString());
  }
  if (s.IsIOError()) needs_resume_ = true;
  return FromRocks(s);
}

void Engine::PutResumeAnchor() {
  rocksdb::WriteOptions wo;
  wo.disableWAL = true;
  db_->Put(wo, default_cf_, MetaResumeAnchorKey(), "").PermitUncheckedError();
}

void Engine::OnNoSpace() {
  // The reserve goes first, so that the resume (or a reopen) has room even if nothing else is
  // freed.
  if (reserve_ != nullptr) reserve_->Release();
  no_space_ = true;
  needs_resume_ = true;
}

Status Engine::DiskFullError(const std::string& detail) const {
  return Status::Busy("the disk of the store '" + path_ + "' is full (" + detail +
                      "): writes fail until space is freed on it, then succeed again; retry "
                      "later");
}

Status Engine::PersistSequenceLimit(uint64_t limit) {
  std::string v;
  util::PutFixed64BE(&v, limit);
  rocksdb::WriteOptions wo;
  wo.sync = true;
  if (needs_resume_.load()) BASALT_RETURN_IF_ERROR(ResumeAfterIoError());
  return NoteIoError(db_->Put(wo, default_cf_, MetaSequenceLimitKey(), v));
}

Status Engine::Close() {
  util::WriterMutexLock l(lifecycle_mu_);
  if (closed_ || db_ == nullptr) {
    closed_ = true;
    return Status::OK();
  }
  closed_ = true;
  {
    util::FutexMutexLock sl(scanners_mu_);
    while (scanners_ != nullptr) {
      Scanner* s = scanners_;
      s->ReleaseIterators();
      UnregisterScannerLocked(s);
    }
  }
  if (iterator_pool_) iterator_pool_->Clear();
  // Writes made with SKIP_WAL live only in memtables: flush so that a clean close keeps them.
  Status result;
  {
    util::ReaderMutexLock tl(tables_mu_);
    std::vector<rocksdb::ColumnFamilyHandle*> live;
    for (const auto& [name, t] : tables_) {
      for (const auto& f : t->families) live.push_back(f.cf);
    }
    if (!live.empty()) {
      rocksdb::FlushOptions fo;
      result = FromRocks(db_->Flush(fo, live)).WithContext("flushing on close");
    }
  }
  {
    util::WriterMutexLock tl(tables_mu_);
    tables_.clear();
  }
  for (auto* h : all_handles_) db_->DestroyColumnFamilyHandle(h);
  all_handles_.clear();
  Status close = FromRocks(db_->Close());
  delete db_;
  db_ = nullptr;
  return result.ok() ? close : result;
}

Status Engine::CheckOpen() const {
  if (closed_) return Status::Aborted("the store '" + path_ + "' is closed");
  return Status::OK();
}

Result<Engine::SchemaChangeLocks> Engine::LockForSchemaChange() {
  std::shared_lock<util::SharedMutex> life(lifecycle_mu_);
  BASALT_RETURN_IF_ERROR(CheckOpen());
  return SchemaChangeLocks{std::move(life), std::unique_lock<util::Mutex>(schema_mu_)};
}

Status Engine::ReplaceTableRecord(const TableState& current, const TableRecord& record) {
  BASALT_RETURN_IF_ERROR(PutTableRecord(record));
  BASALT_ASSIGN_OR_RETURN(auto state, BuildState(record, current.families));
  InstallTable(std::move(state));
  return Status::OK();
}

Status Engine::InstallWithNewFamilies(const TableRecord& record,
                                      const std::vector<FamilyHandle>& families) {
  Status s = PutTableRecord(record);
  if (!s.ok()) {
    DropColumnFamilies(families).PermitUncheckedError();  // no record names them
    return s;
  }
  BASALT_ASSIGN_OR_RETURN(auto state, BuildState(record, families));
  InstallTable(std::move(state));
  return Status::OK();
}

Result<uint64_t> Engine::NextId() {
  return NextIds(1);
}

Result<uint64_t> Engine::NextIds(uint64_t count) {
  std::string v;
  uint64_t next = 1;
  rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), default_cf_, MetaNextIdKey(), &v);
  if (s.ok() && v.size() == 8) {
    next = util::DecodeFixed64BE(v.data());
  } else if (!s.ok() && !s.IsNotFound()) {
    return FromRocks(s);
  }
  std::string out;
  util::PutFixed64BE(&out, next + count);
  rocksdb::WriteOptions wo;
  wo.sync = true;
  if (needs_resume_.load()) BASALT_RETURN_IF_ERROR(ResumeAfterIoError());
  BASALT_RETURN_IF_ERROR(NoteIoError(db_->Put(wo, default_cf_, MetaNextIdKey(), out)));
  return next;
}

Status Engine::WriteCatalog(const std::string& key, const std::string* value) {
  rocksdb::WriteOptions wo;
  wo.sync = true;
  if (needs_resume_.load()) BASALT_RETURN_IF_ERROR(ResumeAfterIoError());
  if (value == nullptr) return NoteIoError(db_->Delete(wo, default_cf_, key));
  return NoteIoError(db_->Put(wo, default_cf_, key, *value));
}

Status Engine::PutTableRecord(const TableRecord& record) {
  std::string value = EncodeTableRecord(record);
  return WriteCatalog(CatalogTableKey(record.name.ns, record.name.qualifier), &value);
}

Result<std::vector<FamilyHandle>> Engine::CreateFamilies(std::vector<FamilyRecord>* records) {
  for (auto& rec : *records) {
    BASALT_RETURN_IF_ERROR(CheckCompressionSupported(rec.descriptor.compression));
  }
  if (records->empty()) return std::vector<FamilyHandle>{};
  // One id write and one CreateColumnFamilies call for all of them: RocksDB writes its OPTIONS
  // file, which lists every column family of the store, once per call, not once per family.
  BASALT_ASSIGN_OR_RETURN(uint64_t first_id, NextIds(records->size()));
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  descriptors.reserve(records->size());
  for (size_t i = 0; i < records->size(); ++i) {
    FamilyRecord& rec = (*records)[i];
    rec.id = first_id + i;
    rec.cf_name = FamilyCfName(rec.id);
    SettingsCell(rec.id)->Set(FamilySettings::From(rec.descriptor));
    descriptors.emplace_back(rec.cf_name, FamilyCfOptions(rec));
  }
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  const rocksdb::Status s = db_->CreateColumnFamilies(descriptors, &handles);
  // On failure `handles` holds the ones made before it, which all_handles_ keeps until Close.
  all_handles_.insert(all_handles_.end(), handles.begin(), handles.end());
  std::vector<FamilyHandle> out;
  out.reserve(handles.size());
  for (size_t i = 0; i < handles.size(); ++i) {
    const FamilyRecord& rec = (*records)[i];
    out.push_back({rec, FamilySettings::From(rec.descriptor), handles[i]});
  }
  if (!s.ok()) {
    // No catalog record names them: drop them now (or, if that fails too, at the next open).
    DropColumnFamilies(out).PermitUncheckedError();
    return NoteIoError(s);
  }
  if (engine_options_.TEST_families_created) engine_options_.TEST_families_created();
  return out;
}

Status Engine::DropColumnFamilies(const std::vector<FamilyHandle>& families) {
  if (families.empty()) return Status::OK();
  std::vector<rocksdb::ColumnFamilyHandle*> cfs;
  cfs.reserve(families.size());
  for (const auto& f : families) {
    iterator_pool_->Drop(f.cf);
    cfs.push_back(f.cf);
  }
  // One call, so one OPTIONS file write (see CreateFamilies).
  return FromRocks(db_->DropColumnFamilies(cfs));
}

Result<std::shared_ptr<TableState>> Engine::BuildState(const TableRecord& record,
                                                       const std::vector<FamilyHandle>& families) {
  auto state = std::make_shared<TableState>();
  state->record = record;
  state->families = families;
  std::sort(state->families.begin(), state->families.end(),
            [](const FamilyHandle& a, const FamilyHandle& b) { return a.name() < b.name(); });
  std::sort(state->record.families.begin(), state->record.families.end(),
            [](const FamilyRecord& a, const FamilyRecord& b) {
              return a.descriptor.name < b.descriptor.name;
            });
  return state;
}

void Engine::InstallTable(std::shared_ptr<TableState> state) {
  util::WriterMutexLock l(tables_mu_);
  auto& slot = tables_[state->name()];
  if (slot && slot->record.id == state->record.id) state->write_gate = slot->write_gate;
  if (slot) slot->stale.store(true, std::memory_order_release);
  slot = std::move(state);
}

Result<std::shared_ptr<const TableState>> Engine::FindTableLocked(const TableName& name) {
  util::ReaderMutexLock l(tables_mu_);
  auto it = tables_.find(name);
  if (it == tables_.end()) {
    return Status::NotFound("table '" + name.ToString() + "' does not exist");
  }
  return std::shared_ptr<const TableState>(it->second);
}

Result<std::shared_ptr<const TableState>> Engine::FindTable(const TableName& name) {
  util::ReaderMutexLock l(lifecycle_mu_);
  BASALT_RETURN_IF_ERROR(CheckOpen());
  return FindTableLocked(name);
}

// ---- Namespaces ----

Status Engine::CreateNamespace(const NamespaceDescriptor& ns) {
  BASALT_RETURN_IF_ERROR(ValidateNamespaceName(ns.name));
  BASALT_ASSIGN_OR_RETURN(SchemaChangeLocks locks, LockForSchemaChange());
  AssertSchemaChangeLocksHeld();
  {
    util::ReaderMutexLock tl(tables_mu_);
    if (namespaces_.count(ns.name)) {
      return Status::AlreadyExists("namespace '" + ns.name + "' already exists");
    }
  }
  std::string value = EncodeNamespace(ns);
  BASALT_RETURN_IF_ERROR(WriteCatalog(CatalogNamespaceKey(ns.name), &value));
  util::WriterMutexLock tl(tables_mu_);
  namespaces_[ns.name] = ns;
  return Status::OK();
}

Status Engine::DeleteNamespace(const std::string& name) {
  util::ReaderMutexLock life(lifecycle_mu_);
  BASALT_RETURN_IF_ERROR(CheckOpen());
  if (IsReservedNamespace(name)) {
    return Status::FailedPrecondition("namespace '" + name + "' is reserved and cannot be dropped");
  }
  util::MutexLock l(schema_mu_);
  {
    util::ReaderMutexLock tl(tables_mu_);
    if (!namespaces_.count(name)) {
      return Status::NotFound("namespace '" + name + "' does not exist");
    }
    for (const auto& [tn, t] : tables_) {
      if (tn.ns == name) {
        return Status::FailedPrecondition("namespace '" + name + "' still has table '" +
                                          tn.ToString() + "'; drop its tables first");
      }
    }
  }
  BASALT_RETURN_IF_ERROR(WriteCatalog(CatalogNamespaceKey(name), nullptr));
  util::WriterMutexLock tl(tables_mu_);
  namespaces_.erase(name);
  return Status::OK();
}

Result<NamespaceDescriptor> Engine::GetNamespace(const std::string& name) {
  util::ReaderMutexLock life(lifecycle_mu_);
  BASALT_RETURN_IF_ERROR(CheckOpen());
  util::ReaderMutexLock tl(tables_mu_);
  auto it = namespaces_.find(name);
  if (it == namespaces_.end()) return Status::NotFound("namespace '" + name + "' does not exist");
  return it->second;
}

Result<std::vector<NamespaceDescriptor>> Engine::ListNamespaces() {
  util::ReaderMutexLock life(lifecycle_mu_);
  BASALT_RETURN_IF_ERROR(CheckOpen());
  util::ReaderMutexLock tl(tables_mu_);
  std::vector<NamespaceDescriptor> out;
  for (const auto& [name, ns] : namespaces_) out.push_back(ns);
  return out;
}

// ---- Tables ----

Status Engine::CheckFamilyCaps(const TableName& table, size_t existing, size_t added) {
  BASALT_RETURN_IF_ERROR(CheckTableFamilyCap(table, existing + added));
  size_t in_store = 0;
  {
    util::ReaderMutexLock tl(tables_mu_);
    for (const auto& [name, t] : tables_) in_store += t->families.size();
  }
  if (in_store + added > options_.max_store_families) {
    return Status::FailedPrecondition(
        "the store has " + std::to_string(in_store) + " column families in all its tables and " +
        std::to_string(added) + " more would pass its limit of " +
        std::to_string(options_.max_store_families) + "; drop tables or families first");
  }
  return Status::OK();
}

Status Engine::CreateTable(const TableDescriptor& desc,
                           const std::vector<std::string>& split_keys) {
  // Before the descriptor's checks, which look at every family.
  BASALT_RETURN_IF_ERROR(CheckTableFamilyCap(desc.name, desc.families.size()));
  BASALT_RETURN_IF_ERROR(desc.Validate());
  std::vector<std::string> splits = split_keys;
  std::sort(splits.begin(), splits.end());
  for (size_t i = 0; i < splits.size(); ++i) {
    if (splits[i].empty()) return Status::InvalidArgument("split keys must not be empty");
    if (splits[i].size() > kMaxRowKeyLength) {
      return Status::InvalidArgument("split key longer than the row key limit");
    }
    if (i > 0 && splits[i] == splits[i - 1]) {
      return Status::InvalidArgument("split keys must be distinct");
    }
  }
  BASALT_ASSIGN_OR_RETURN(SchemaChangeLocks locks, LockForSchemaChange());
  AssertSchemaChangeLocksHeld();
  {
    util::ReaderMutexLock tl(tables_mu_);
    if (!namespaces_.count(desc.name.ns)) {
      return Status::NotFound("namespace '" + desc.name.ns + "' does not exist");
    }
    if (tables_.count(desc.name)) {
      return Status::AlreadyExists("table '" + desc.name.ToString() + "' already exists");
    }
  }
  BASALT_RETURN_IF_ERROR(CheckFamilyCaps(desc.name, 0, desc.families.size()));
  TableRecord record;
  record.name = desc.name;
  record.durability = desc.durability;
  record.split_keys = splits;
  BASALT_ASSIGN_OR_RETURN(record.id, NextId());
  for (const auto& f : desc.families) record.families.push_back({f, 0, ""});
  BASALT_ASSIGN_OR_RETURN(auto families, CreateFamilies(&record.families));
  return InstallWithNewFamilies(record, families);
}

Result<std::vector<TableName>> Engine::ListTables(const std::string& ns) {
  util::ReaderMutexLock life(lifecycle_mu_);
  BASALT_RETURN_IF_ERROR(CheckOpen());
  util::ReaderMutexLock tl(tables_mu_);
  if (!ns.empty() && !namespaces_.count(ns)) {
    return Status::NotFound("namespace '" + ns + "' does not exist");
  }
  std::vector<TableName> out;
  for (const auto& [name, t] : tables_) {
    if (ns.empty() || name.ns == ns) out.push_back(name);
  }
  return out;
}

Result<TableInfo> Engine::DescribeTable(const TableName& name) {
  BASALT_ASSIGN_OR_RETURN(auto state, FindTable(name));
  TableInfo info;
  info.descriptor = state->record.Descriptor();
  info.enabled = state->record.enabled;
  info.split_keys = state->record.split_keys;
  return info;
}

Status Engine::AddFamily(const TableName& table, const FamilyDescriptor& family) {
  BASALT_RETURN_IF_ERROR(family.Validate());
  BASALT_ASSIGN_OR_RETURN(SchemaChangeLocks locks, LockForSchemaChange());
  AssertSchemaChangeLocksHeld();
  BASALT_ASSIGN_OR_RETURN(auto current, FindTableLocked(table));
  if (current->FindFamily(family.name) != nullptr) {
    return Status::AlreadyExists("family '" + family.name + "' already exists in table '" +
                                 table.ToString() + "'");
  }
  BASALT_RETURN_IF_ERROR(CheckFamilyCaps(table, current->families.size(), 1));
  std::vector<FamilyRecord> added{{family, 0, ""}};
  BASALT_ASSIGN_OR_RETURN(auto handles, CreateFamilies(&added));
  TableRecord record = current->record;
  record.families.push_back(added[0]);
  Status s = PutTableRecord(record);
  if (!s.ok()) {
    DropColumnFamilies(handles).PermitUncheckedError();
    return s;
  }
  std::vector<FamilyHandle> families = current->families;
  families.push_back(handles[0]);
  BASALT_ASSIGN_OR_RETURN(auto state, BuildState(record, families));
  InstallTable(std::move(state));
  return Status::OK();
}

Status Engine::ModifyFamily(const TableName& table, const FamilyDescriptor& family) {
  BASALT_RETURN_IF_ERROR(family.Validate());
  BASALT_RETURN_IF_ERROR(CheckCompressionSupported(family.compression));
  BASALT_ASSIGN_OR_RETURN(SchemaChangeLocks locks, LockForSchemaChange());
  AssertSchemaChangeLocksHeld();
  BASALT_ASSIGN_OR_RETURN(auto current, FindTableLocked(table));
  const FamilyHandle* old = current->FindFamily(family.name);
  if (old == nullptr) {
    return Status::NotFound("family '" + family.name + "' does not exist in table '" +
                            table.ToString() + "'");
  }
  const FamilyDescriptor& before = old->record.descriptor;
  // Storage options apply to files written from now on; existing files keep theirs until they
  // are compacted.
  std::unordered_map<std::string, std::string> changes;
  if (before.compression != family.compression) {
    std::string name;
    rocksdb::GetStringFromCompressionType(&name, ToRocksCompression(family.compression));
    changes["compression"] = name;
  }
  if (before.block_size != family.block_size || before.bloom_filter != family.bloom_filter) {
    std::string filter =
        family.bloom_filter == BloomFilter::kNone ? "nullptr" : "bloomfilter:10:false";
    changes["block_based_table_factory"] = "{block_size=" + std::to_string(family.block_size) +
                                           ";filter_policy=" + filter +
                                           ";whole_key_filtering=false}";
  }
  if (!changes.empty()) {
    BASALT_RETURN_IF_ERROR(
        FromRocks(db_->SetOptions(old->cf, changes)).WithContext("changing storage options"));
  }
  TableRecord record = current->record;
  for (auto& f : record.families) {
    if (f.descriptor.name == family.name) f.descriptor = family;
  }
  BASALT_RETURN_IF_ERROR(PutTableRecord(record));
  SettingsCell(old->record.id)->Set(FamilySettings::From(family));
  std::vector<FamilyHandle> families = current->families;
  for (auto& f : families) {
    if (f.name() == family.name) {
      f.record.descriptor = family;
      f.settings = FamilySettings::From(family);
    }
  }
  BASALT_ASSIGN_OR_RETURN(auto state, BuildState(record, families));
  InstallTable(std::move(state));
  return Status::OK();
}

Status Engine::DeleteFamily(const TableName& table, const std::string& family) {
  BASALT_ASSIGN_OR_RETURN(SchemaChangeLocks locks, LockForSchemaChange());
  AssertSchemaChangeLocksHeld();
  BASALT_ASSIGN_OR_RETURN(auto current, FindTableLocked(table));
  const FamilyHandle* old = current->FindFamily(family);
  if (old == nullptr) {
    return Status::NotFound("family '" + family + "' does not exist in table '" + table.ToString() +
                            "'");
  }
  if (current->families.size() == 1) {
    return Status::FailedPrecondition("cannot delete family '" + family + "': it is the last of '" +
                                      table.ToString() + "'");
  }
  TableRecord record = current->record;
  std::erase_if(record.families,
                [&](const FamilyRecord& f) { return f.descriptor.name == family; });
  std::vector<FamilyHandle> families = current->families;
  FamilyHandle dropped = *old;
  std::erase_if(families, [&](const FamilyHandle& f) { return f.name() == family; });
  BASALT_RETURN_IF_ERROR(PutTableRecord(record));
  BASALT_ASSIGN_OR_RETURN(auto state, BuildState(record, families));
  InstallTable(std::move(state));
  // The catalog no longer names it; if this fails the next open drops it as an orphan.
  DropColumnFamilies({dropped}).PermitUncheckedError();
  return Status::OK();
}

Status Engine::SetDurability(const TableName& table, Durability durability) {
  BASALT_ASSIGN_OR_RETURN(SchemaChangeLocks locks, LockForSchemaChange());
  AssertSchemaChangeLocksHeld();
  BASALT_ASSIGN_OR_RETURN(auto current, FindTableLocked(table));
  TableRecord record = current->record;
  record.durability = durability;
  return ReplaceTableRecord(*current, record);
}

Status Engine::SetEnabled(const TableName& name, bool enabled) {
  BASALT_ASSIGN_OR_RETURN(SchemaChangeLocks locks, LockForSchemaChange());
  AssertSchemaChangeLocksHeld();
  BASALT_ASSIGN_OR_RETURN(auto current, FindTableLocked(name));
  if (current->record.enabled == enabled) {
    return Status::FailedPrecondition("table '" + name.ToString() + "' is already " +
                                      (enabled ? "enabled" : "disabled"));
  }
  TableRecord record = current->record;
  record.enabled = enabled;
  return ReplaceTableRecord(*current, record);
}

Status Engine::TruncateTable(const TableName& name, bool preserve_splits) {
  BASALT_ASSIGN_OR_RETURN(SchemaChangeLocks locks, LockForSchemaChange());
  AssertSchemaChangeLocksHeld();
  BASALT_ASSIGN_OR_RETURN(auto current, FindTableLocked(name));
  if (current->record.enabled) {
    return Status::FailedPrecondition("table '" + name.ToString() +
                                      "' is enabled; disable it before truncating");
  }
  // Fresh, empty column families replace the old ones in one catalog write; the old ones are
  // dropped after.
  TableRecord record = current->record;
  // As HBase's TruncateTableProcedure, the truncated table ends enabled.
  record.enabled = true;
  if (!preserve_splits) record.split_keys.clear();
  for (auto& f : record.families) f.id = 0;
  BASALT_ASSIGN_OR_RETURN(auto families, CreateFamilies(&record.families));
  BASALT_RETURN_IF_ERROR(InstallWithNewFamilies(record, families));
  DropColumnFamilies(current->families).PermitUncheckedError();
  return Status::OK();
}

Status Engine::DeleteTable(const TableName& name) {
  BASALT_ASSIGN_OR_RETURN(SchemaChangeLocks locks, LockForSchemaChange());
  AssertSchemaChangeLocksHeld();
  BASALT_ASSIGN_OR_RETURN(auto current, FindTableLocked(name));
  if (current->record.enabled) {
    return Status::FailedPrecondition("table '" + name.ToString() +
                                      "' is enabled; disable it before dropping");
  }
  BASALT_RETURN_IF_ERROR(WriteCatalog(CatalogTableKey(name.ns, name.qualifier), nullptr));
  {
    util::WriterMutexLock tl(tables_mu_);
    auto it = tables_.find(name);
    if (it != tables_.end()) {
      it->second->stale.store(true, std::memory_order_release);
      tables_.erase(it);
    }
  }
  DropColumnFamilies(current->families).PermitUncheckedError();
  return Status::OK();
}

Status Engine::Flush(const TableName& name) {
  BASALT_ASSIGN_OR_RETURN(auto state, FindTable(name));
  util::ReaderMutexLock life(lifecycle_mu_);
  BASALT_RETURN_IF_ERROR(CheckOpen());
  std::vector<rocksdb::ColumnFamilyHandle*> cfs;
  for (const auto& f : state->families) cfs.push_back(f.cf);
  if (needs_resume_.load()) BASALT_RETURN_IF_ERROR(ResumeAfterIoError());
  return NoteIoError(db_->Flush(rocksdb::FlushOptions(), cfs));
}

Status Engine::MajorCompact(const TableName& name) {
  BASALT_ASSIGN_OR_RETURN(auto state, FindTable(name));
  util::ReaderMutexLock life(lifecycle_mu_);
  BASALT_RETURN_IF_ERROR(CheckOpen());
  for (const auto& f : state->families) {
    BASALT_RETURN_IF_ERROR(NoteIoError(db_->Flush(rocksdb::FlushOptions(), f.cf)));
    rocksdb::CompactRangeOptions o;
    o.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    BASALT_RETURN_IF_ERROR(NoteIoError(db_->CompactRange(o, f.cf, nullptr, nullptr)));
  }
  return Status::OK();
}

void Engine::RegisterScanner(Scanner* s) {
  util::FutexMutexLock l(scanners_mu_);
  s->registry_prev_ = nullptr;
  s->registry_next_ = scanners_;
  if (scanners_ != nullptr) scanners_->registry_prev_ = s;
  scanners_ = s;
}

void Engine::UnregisterScanner(Scanner* s) {
  util::FutexMutexLock l(scanners_mu_);
  UnregisterScannerLocked(s);
}

void Engine::UnregisterScannerLocked(Scanner* s) {
  // Only the head has no predecessor: any other such scanner was unlinked by Close() already.
  if (s->registry_prev_ == nullptr && scanners_ != s) return;
  if (s->registry_prev_ != nullptr) {
    s->registry_prev_->registry_next_ = s->registry_next_;
  } else {
    scanners_ = s->registry_next_;
  }
  if (s->registry_next_ != nullptr) s->registry_next_->registry_prev_ = s->registry_prev_;
  s->registry_prev_ = s->registry_next_ = nullptr;
}

}  // namespace basalt::engine
