// The write path: validation, row locks, timestamps, sequence numbers, and one RocksDB write per
// call.
//
// Every call is checked completely before anything is locked or written, so bad input changes
// nothing. Then the rows are locked (striped, in ascending stripe order), the clock and the
// sequence numbers are read, each mutation is turned into cells in one write batch, and the batch
// is written once. A mutation that must read the row first (Increment, Append, CheckAndMutate,
// a Delete of the newest version) reads through the batch, so it sees what earlier mutations of
// the same call wrote.

#include <rocksdb/db.h>
#include <rocksdb/utilities/write_batch_with_index.h>
#include <rocksdb/write_batch.h>

#include <algorithm>

#include "engine/cell_checks.h"
#include "engine/engine.h"
#include "engine/key_format.h"
#include "engine/rocksdb_status.h"
#include "engine/row_reader.h"
#include "util/clock.h"

namespace basalt::engine {
namespace {

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

int DurabilityStrength(Durability d) {
  switch (d) {
    case Durability::kSkipWal:
      return 0;
    case Durability::kAsyncWal:
      return 1;
    case Durability::kUseDefault:
    case Durability::kSyncWal:
      return 2;
    case Durability::kFsyncWal:
      return 3;
  }
  return 2;
}

Result<const FamilyHandle*> FindFamily(const TableState& table, std::string_view family) {
  const FamilyHandle* f = table.FindFamily(family);
  if (f == nullptr) {
    return table.NoSuchFamily(family);
  }
  return f;
}

}  // namespace

// About what a Put adds to a RocksDB write batch: per cell the escaped key with its suffix, the
// value header, and the batch's own record framing.
static size_t EstimatedBatchBytes(const Put& p) {
  size_t bytes = 0;
  for (const auto& e : p.entries()) {
    bytes += p.row().size() + e.qualifier.size() + e.value.size() + 40;
  }
  return bytes;
}

// The checks a mutation passes before any lock is taken or anything is written, so that a call
// with one bad mutation changes nothing.
class MutationChecker {
 public:
  MutationChecker(const TableState& table, size_t max_value_bytes)
      : table_(table), max_value_bytes_(max_value_bytes) {}

  Status Check(const Put& p) const;
  Status Check(const Delete& d) const;
  Status Check(const Increment& inc) const;
  Status Check(const Append& app) const;
  Status Check(const RowMutations& rm) const;

 private:
  const TableState& table_;
  const size_t max_value_bytes_;
};

// The cells of one Engine::Write call, built under the row locks.
class WriteTxn {
 public:
  // `reserve_bytes`: the expected size of the batch, so that it is allocated once.
  WriteTxn(Engine& engine, const TableState& table, bool needs_reads, int64_t now_ms,
           size_t reserve_bytes = 0)
      : engine_(engine), table_(&table), now_ms_(now_ms), plain_(needs_reads ? 0 : reserve_bytes) {
    if (needs_reads) {
      indexed_ = std::make_unique<rocksdb::WriteBatchWithIndex>(rocksdb::BytewiseComparator(), 0,
                                                                /*overwrite_key=*/true);
    }
  }

  // The table the next Apply calls write to (Engine::MutateRows spans tables).
  void SetTable(const TableState& table) { table_ = &table; }

  // REQUIRES: the row is locked. `put_now` is the time given to Put cells without a timestamp.
  Status Apply(const Put& p, uint64_t seq, int64_t put_now);
  Status Apply(const Delete& d, uint64_t seq);
  Status Apply(const Increment& inc, uint64_t seq, RowResult* result);
  Status Apply(const Append& app, uint64_t seq, RowResult* result);

  // The newest visible Put of family:qualifier in `range`, through this batch.
  Result<std::optional<Cell>> ReadLatest(const FamilyHandle& family, const std::string& row,
                                         const std::string& qualifier, const TimeRange& range);

  Status Commit(Durability durability);

 private:
  rocksdb::WriteBatchBase* batch() {
    return indexed_ ? static_cast<rocksdb::WriteBatchBase*>(indexed_.get()) : &plain_;
  }

  Engine& engine_;
  const TableState* table_;
  const int64_t now_ms_;
  rocksdb::WriteBatch plain_;
  std::unique_ptr<rocksdb::WriteBatchWithIndex> indexed_;
  std::string key_buf_;  // reused across cells: one allocation per transaction
};

Status MutationChecker::Check(const Put& p) const {
  BASALT_RETURN_IF_ERROR(CheckRow(p.row()));
  if (p.entries().empty()) return Status::InvalidArgument("Put has no cells");
  if (p.timestamp() != kLatestTimestamp) BASALT_RETURN_IF_ERROR(CheckTimestamp(p.timestamp()));
  for (const auto& e : p.entries()) {
    // The Result and its error message are built only for a family that is not there: this
    // runs for every cell of a batch.
    if (table_.FindFamily(e.family) == nullptr) return FindFamily(table_, e.family).status();
    BASALT_RETURN_IF_ERROR(CheckQualifier(e.qualifier));
    if (e.timestamp != kLatestTimestamp) BASALT_RETURN_IF_ERROR(CheckTimestamp(e.timestamp));
    BASALT_RETURN_IF_ERROR(CheckValueSize(e.family, e.qualifier, e.value.size(), max_value_bytes_));
  }
  return Status::OK();
}

Status MutationChecker::Check(const Delete& d) const {
  BASALT_RETURN_IF_ERROR(CheckRow(d.row()));
  if (d.timestamp() != kLatestTimestamp) BASALT_RETURN_IF_ERROR(CheckTimestamp(d.timestamp()));
  for (const auto& e : d.entries()) {
    BASALT_RETURN_IF_ERROR(FindFamily(table_, e.family).status());
    BASALT_RETURN_IF_ERROR(CheckQualifier(e.qualifier));
    if (e.timestamp != kLatestTimestamp) BASALT_RETURN_IF_ERROR(CheckTimestamp(e.timestamp));
    if (e.type == CellType::kDeleteFamilyVersion && e.timestamp == kLatestTimestamp &&
        d.timestamp() == kLatestTimestamp) {
      return Status::InvalidArgument("deleting a family version needs a timestamp");
    }
    if (e.type == CellType::kPut) return Status::InvalidArgument("Delete entry of type Put");
  }
  return Status::OK();
}

Status MutationChecker::Check(const Increment& inc) const {
  BASALT_RETURN_IF_ERROR(CheckRow(inc.row()));
  if (inc.entries().empty()) return Status::InvalidArgument("Increment has no columns");
  for (const auto& e : inc.entries()) {
    BASALT_RETURN_IF_ERROR(FindFamily(table_, e.family).status());
    BASALT_RETURN_IF_ERROR(CheckQualifier(e.qualifier));
  }
  return Status::OK();
}

Status MutationChecker::Check(const Append& app) const {
  BASALT_RETURN_IF_ERROR(CheckRow(app.row()));
  if (app.entries().empty()) return Status::InvalidArgument("Append has no columns");
  for (const auto& e : app.entries()) {
    BASALT_RETURN_IF_ERROR(FindFamily(table_, e.family).status());
    BASALT_RETURN_IF_ERROR(CheckQualifier(e.qualifier));
    if (e.value.size() > max_value_bytes_) {
      return Status::InvalidArgument("appended value is over the value size limit");
    }
  }
  return Status::OK();
}

Status MutationChecker::Check(const RowMutations& rm) const {
  BASALT_RETURN_IF_ERROR(CheckRow(rm.row()));
  if (rm.items().empty()) return Status::InvalidArgument("RowMutations has no mutations");
  for (const auto& item : rm.items()) {
    const std::string& row =
        std::visit([](const auto& m) -> const std::string& { return m.row(); }, item);
    if (row != rm.row()) {
      return Status::InvalidArgument("a mutation in RowMutations names another row");
    }
    BASALT_RETURN_IF_ERROR(std::visit([this](const auto& m) { return Check(m); }, item));
  }
  return Status::OK();
}

Status WriteTxn::Apply(const Put& p, uint64_t seq, int64_t put_now) {
  const int64_t default_ts = p.timestamp() != kLatestTimestamp ? p.timestamp() : put_now;
  // The key is built in key_buf_, which only grows: room for the row and qualifier escaped at
  // worst (every byte a zero), their terminators and the suffix.
  const size_t row_room = 2 * p.row().size() + 2;
  char header_bytes[kMaxValueHeaderSize];
  const rocksdb::Slice header(header_bytes, EncodeValueHeader(header_bytes, seq));
  char* row_end = nullptr;
  for (const auto& e : p.entries()) {
    // Checked before the locks were taken: a table of one family has only that one to find.
    const FamilyHandle* f =
        table_->families.size() == 1 ? &table_->families.front() : table_->FindFamily(e.family);
    const size_t room = row_room + 2 * e.qualifier.size() + 2 + kKeySuffixSize;
    if (key_buf_.size() < room) {
      key_buf_.resize(std::max(room, 2 * key_buf_.size()));
      row_end = nullptr;  // moved
    }
    if (row_end == nullptr) row_end = WriteEscaped(key_buf_.data(), p.row());
    char* end = WriteEscaped(row_end, e.qualifier);
    end = WriteKeySuffix(end, e.timestamp != kLatestTimestamp ? e.timestamp : default_ts,
                         CellType::kPut);
    // The value is the header then the payload, written without concatenating them first.
    const rocksdb::Slice key(key_buf_.data(), static_cast<size_t>(end - key_buf_.data()));
    const rocksdb::Slice value[2] = {header, e.value};
    const rocksdb::SliceParts key_parts(&key, 1);
    const rocksdb::SliceParts value_parts(value, 2);
    // The plain batch is called directly, not through WriteBatchBase: a Put of a batched put
    // is then not a virtual call.
    rocksdb::Status st = indexed_ ? indexed_->Put(f->cf, key_parts, value_parts)
                                  : plain_.Put(f->cf, key_parts, value_parts);
    if (!st.ok()) return FromRocks(st);
  }
  return Status::OK();
}

Status WriteTxn::Apply(const Delete& d, uint64_t seq) {
  const std::string marker_value = EncodeValue(seq, {});
  if (d.entries().empty()) {
    const int64_t default_ts = d.timestamp() != kLatestTimestamp ? d.timestamp() : now_ms_;
    for (const auto& f : table_->families) {
      BASALT_RETURN_IF_ERROR(FromRocks(batch()->Put(
          f.cf, FamilyMarkerKey(d.row(), default_ts, CellType::kDeleteFamily), marker_value)));
    }
    return Status::OK();
  }
  for (const auto& e : d.entries()) {
    const FamilyHandle* f = table_->FindFamily(e.family);
    int64_t ts = e.timestamp != kLatestTimestamp ? e.timestamp : d.timestamp();
    std::string key;
    switch (e.type) {
      case CellType::kDeleteFamily:
      case CellType::kDeleteFamilyVersion:
        key = FamilyMarkerKey(d.row(), ts == kLatestTimestamp ? now_ms_ : ts, e.type);
        break;
      case CellType::kDeleteColumn:
        key = CellKey(d.row(), e.qualifier, ts == kLatestTimestamp ? now_ms_ : ts, e.type);
        break;
      case CellType::kDelete:
        if (ts == kLatestTimestamp) {
          // HBase: the newest visible version. Reading through the batch makes a second such
          // delete of the same column in this call hit the next version.
          BASALT_ASSIGN_OR_RETURN(auto latest, ReadLatest(*f, d.row(), e.qualifier, {}));
          if (!latest.has_value()) continue;  // nothing to delete
          ts = latest->timestamp;
        }
        key = CellKey(d.row(), e.qualifier, ts, e.type);
        break;
      case CellType::kPut:
        return Status::InvalidArgument("Delete entry of type Put");
    }
    BASALT_RETURN_IF_ERROR(FromRocks(batch()->Put(f->cf, key, marker_value)));
  }
  return Status::OK();
}

Status WriteTxn::Apply(const Increment& inc, uint64_t seq, RowResult* result) {
  std::vector<Cell> cells;
  for (const auto& e : inc.entries()) {
    const FamilyHandle* f = table_->FindFamily(e.family);
    BASALT_ASSIGN_OR_RETURN(auto current, ReadLatest(*f, inc.row(), e.qualifier, inc.time_range()));
    int64_t old_value = 0;
    int64_t ts = now_ms_;
    if (current.has_value()) {
      auto decoded = DecodeCounter(current->value);
      if (!decoded.ok()) {
        return decoded.status().WithContext("cannot increment " + e.family + ":" + e.qualifier);
      }
      old_value = *decoded;
      // Never write the new value behind the cell it replaces.
      ts = std::max(ts, current->timestamp);
    }
    int64_t new_value =
        static_cast<int64_t>(static_cast<uint64_t>(old_value) + static_cast<uint64_t>(e.amount));
    std::string encoded = EncodeCounter(new_value);
    BASALT_RETURN_IF_ERROR(FromRocks(batch()->Put(
        f->cf, CellKey(inc.row(), e.qualifier, ts, CellType::kPut), EncodeValue(seq, encoded))));
    cells.push_back({inc.row(), e.family, e.qualifier, ts, CellType::kPut, std::move(encoded)});
  }
  if (result != nullptr && inc.return_results()) {
    // An Increment naming a column twice returns its final value once: the last entry's (each
    // entry reads the ones before it), so the sort must keep the entries' order.
    std::reverse(cells.begin(), cells.end());
    std::stable_sort(cells.begin(), cells.end(),
                     [](const Cell& a, const Cell& b) { return CompareCells(a, b) < 0; });
    cells.erase(std::unique(cells.begin(), cells.end(),
                            [](const Cell& a, const Cell& b) {
                              return a.family == b.family && a.qualifier == b.qualifier;
                            }),
                cells.end());
    *result = RowResult(inc.row(), std::move(cells));
  }
  return Status::OK();
}

Status WriteTxn::Apply(const Append& app, uint64_t seq, RowResult* result) {
  std::vector<Cell> cells;
  for (const auto& e : app.entries()) {
    const FamilyHandle* f = table_->FindFamily(e.family);
    BASALT_ASSIGN_OR_RETURN(auto current, ReadLatest(*f, app.row(), e.qualifier, {}));
    std::string value;
    int64_t ts = now_ms_;
    if (current.has_value()) {
      value = std::move(current->value);
      ts = std::max(ts, current->timestamp);
    }
    value.append(e.value);
    if (value.size() > engine_.options_.max_value_bytes) {
      return Status::InvalidArgument("append would make " + e.family + ":" + e.qualifier +
                                     " larger than the value size limit");
    }
    BASALT_RETURN_IF_ERROR(FromRocks(batch()->Put(
        f->cf, CellKey(app.row(), e.qualifier, ts, CellType::kPut), EncodeValue(seq, value))));
    cells.push_back({app.row(), e.family, e.qualifier, ts, CellType::kPut, std::move(value)});
  }
  if (result != nullptr && app.return_results()) {
    std::stable_sort(cells.begin(), cells.end(),
                     [](const Cell& a, const Cell& b) { return CompareCells(a, b) < 0; });
    *result = RowResult(app.row(), std::move(cells));
  }
  return Status::OK();
}

Result<std::optional<Cell>> WriteTxn::ReadLatest(const FamilyHandle& family, const std::string& row,
                                                 const std::string& qualifier,
                                                 const TimeRange& range) {
  const std::string prefix = RowPrefix(row);
  // When this transaction has written nothing to the row yet (a check before any write, a
  // counter in a row of its own) the store alone answers: a pooled iterator then saves creating
  // one and wrapping it in the batch's (about a fifth of a conditional write's reads).
  bool batch_has_row = false;
  if (indexed_) {
    std::unique_ptr<rocksdb::WBWIIterator> delta(indexed_->NewIterator(family.cf));
    delta->Seek(prefix);
    batch_has_row = delta->Valid() && delta->Entry().key.starts_with(prefix);
  }
  // The bound and the options outlive the iterators that point at them.
  std::string upper;
  rocksdb::Slice upper_slice;
  rocksdb::ReadOptions ro;
  PooledIterator pooled;
  std::unique_ptr<rocksdb::Iterator> merged;
  rocksdb::Iterator* it = nullptr;
  if (!batch_has_row) {
    // Within one row (prefix_same_as_start), as the read path: the row's prefix bloom filters
    // answer for a row that is not there (a new edge) without a seek into the table files.
    BASALT_ASSIGN_OR_RETURN(pooled, engine_.iterator_pool_->Acquire(family.cf, IteratorKind::kRow));
    it = pooled.get();
  } else {
    upper = RowEndKey(row);
    upper_slice = upper;
    ro.prefix_same_as_start = true;
    ro.ignore_range_deletions = true;  // basalt writes no range tombstones
    ro.iterate_upper_bound = &upper_slice;
    merged.reset(
        indexed_->NewIteratorWithBase(family.cf, engine_.db_->NewIterator(ro, family.cf), &ro));
    it = merged.get();
  }
  it->Seek(prefix);
  ReadSpec spec;
  spec.max_versions = 1;
  spec.time_range = range;
  spec.now_ms = now_ms_;
  spec.no_fast_paths = engine_.engine_options_.TEST_no_read_fast_paths;
  std::set<std::string> columns{qualifier};
  FamilyRowReader reader(it, family.name(), family.settings, spec, &columns);
  reader.StartRow(prefix, row);
  CellBuffer cells;
  reader.Read(&cells, 0);
  BASALT_RETURN_IF_ERROR(reader.status());
  BASALT_RETURN_IF_ERROR(FromRocks(it->status()));
  if (cells.empty()) return std::optional<Cell>();
  return std::optional<Cell>(std::move(cells.Trim().front()));
}

Status WriteTxn::Commit(Durability durability) {
  rocksdb::WriteOptions wo;
  if (durability == Durability::kSkipWal) wo.disableWAL = true;
  if (durability == Durability::kFsyncWal) wo.sync = true;
  rocksdb::WriteBatch* wb = indexed_ ? indexed_->GetWriteBatch() : &plain_;
  if (wb->Count() == 0) return Status::OK();
  if (engine_.needs_resume_.load()) BASALT_RETURN_IF_ERROR(engine_.ResumeAfterIoError());
  // After an I/O error RocksDB refuses every write until DB::Resume(); this call fails, and the
  // next one resumes the store first (docs/reliability.md, "Fault injection").
  return engine_.NoteIoError(engine_.db_->Write(wo, wb));
}

namespace {

Durability MutationDurability(const MutationRef& m) {
  return std::visit(Overloaded{[](const RowMutations* rm) {
                                 Durability strongest = Durability::kSkipWal;
                                 for (const auto& item : rm->items()) {
                                   Durability d = std::visit(
                                       [](const auto& x) { return x.durability(); }, item);
                                   if (DurabilityStrength(d) > DurabilityStrength(strongest)) {
                                     strongest = d;
                                   }
                                 }
                                 return strongest;
                               },
                               [](const auto* x) { return x->durability(); }},
                    m);
}

// Whether applying `m` reads its row, so that the batch it goes into must be indexed: an
// Increment, an Append, a RowMutations, or a Delete of a column's newest version.
bool ReadsRow(const MutationRef& m) {
  return std::visit(
      Overloaded{[](const Put*) { return false; },
                 [](const Delete* d) {
                   if (d->timestamp() != kLatestTimestamp) return false;
                   for (const auto& e : d->entries()) {
                     if (e.type == CellType::kDelete && e.timestamp == kLatestTimestamp) {
                       return true;
                     }
                   }
                   return false;
                 },
                 [](const Increment*) { return true; }, [](const Append*) { return true; },
                 [](const RowMutations*) { return true; }},
      m);
}

// Checks `m` (see MutationChecker) and counts what applying it takes: the sequence numbers it
// uses, whether it reads the row (so the batch must be indexed), and about how many batch bytes
// it writes. Sets `*row` to the row it writes.
Status CheckMutation(const MutationChecker& checker, const MutationRef& m, const std::string** row,
                     uint64_t* seq_count, bool* needs_reads, size_t* reserve_bytes) {
  *needs_reads = *needs_reads || ReadsRow(m);
  return std::visit(Overloaded{[&](const Put* p) {
                                 *row = &p->row();
                                 ++*seq_count;
                                 *reserve_bytes += EstimatedBatchBytes(*p);
                                 return checker.Check(*p);
                               },
                               [&](const Delete* d) {
                                 *row = &d->row();
                                 ++*seq_count;
                                 return checker.Check(*d);
                               },
                               [&](const Increment* inc) {
                                 *row = &inc->row();
                                 ++*seq_count;
                                 return checker.Check(*inc);
                               },
                               [&](const Append* app) {
                                 *row = &app->row();
                                 ++*seq_count;
                                 return checker.Check(*app);
                               },
                               [&](const RowMutations* rm) {
                                 *row = &rm->row();
                                 *seq_count += rm->items().size();
                                 return checker.Check(*rm);
                               }},
                    m);
}

// Applies `m` to `txn`, taking sequence numbers from `*seq`. `put_now` is the time of Put cells
// without a timestamp.
Status ApplyMutation(WriteTxn& txn, const MutationRef& m, uint64_t* seq, int64_t put_now,
                     RowResult* result) {
  return std::visit(
      Overloaded{[&](const Put* p) { return txn.Apply(*p, (*seq)++, put_now); },
                 [&](const Delete* d) { return txn.Apply(*d, (*seq)++); },
                 [&](const Increment* inc) { return txn.Apply(*inc, (*seq)++, result); },
                 [&](const Append* app) { return txn.Apply(*app, (*seq)++, result); },
                 [&](const RowMutations* rm) {
                   for (const auto& item : rm->items()) {
                     Status st = std::visit(
                         Overloaded{[&](const Put& p) { return txn.Apply(p, (*seq)++, put_now); },
                                    [&](const Delete& d) { return txn.Apply(d, (*seq)++); }},
                         item);
                     if (!st.ok()) return st;
                   }
                   return Status::OK();
                 }},
      m);
}

Durability ResolveDurability(Durability d, const TableState& table) {
  if (d == Durability::kUseDefault) d = table.record.durability;
  if (d == Durability::kUseDefault) d = Durability::kSyncWal;
  return d;
}

}  // namespace

Status Engine::Write(const TableState& table, std::span<const MutationRef> mutations,
                     std::vector<RowResult>* results) {
  util::ReaderMutexLock life(lifecycle_mu_);
  BASALT_RETURN_IF_ERROR(CheckOpen());
  if (!table.record.enabled) {
    return Status::FailedPrecondition("table '" + table.name().ToString() + "' is disabled");
  }
  if (mutations.empty()) return Status::OK();

  bool needs_reads = false;
  uint64_t seq_count = 0;
  size_t reserve_bytes = 0;
  Durability durability = Durability::kSkipWal;
  std::vector<size_t> stripes;
  stripes.reserve(mutations.size());
  const MutationChecker checker(table, options_.max_value_bytes);
  for (const MutationRef& m : mutations) {
    const std::string* row = nullptr;
    Status s = CheckMutation(checker, m, &row, &seq_count, &needs_reads, &reserve_bytes);
    BASALT_RETURN_IF_ERROR(s);
    Durability d = MutationDurability(m);
    if (DurabilityStrength(d) > DurabilityStrength(durability)) durability = d;
    stripes.push_back(row_locks_.StripeOf(table.record.id, *row));
  }
  durability = ResolveDurability(durability, table);

  std::shared_lock<WriteGate> gate(*table.write_gate);
  RowLocks::Guard guard(&row_locks_, std::move(stripes));
  // Server timestamps are read under the row locks, as HBase assigns them under its row lock:
  // they then follow the order in which writers of a row commit, so a write never lands behind
  // one that finished before it began (a time read before waiting for the lock could be older
  // than the holder's, hiding this write under its cell; the linearizability test caught it).
  const int64_t now = util::MonotonicWallMillis();
  BASALT_ASSIGN_OR_RETURN(uint64_t seq, sequence_->Next(seq_count));
  WriteTxn txn(*this, table, needs_reads, now, reserve_bytes);
  if (results != nullptr) results->assign(mutations.size(), RowResult());
  for (size_t i = 0; i < mutations.size(); ++i) {
    RowResult* result = results != nullptr ? &(*results)[i] : nullptr;
    Status s = ApplyMutation(txn, mutations[i], &seq, now, result);
    BASALT_RETURN_IF_ERROR(s);
  }
  return txn.Commit(durability);
}

Status Engine::WritePuts(const TableState& table, std::span<const Put> puts) {
  util::ReaderMutexLock life(lifecycle_mu_);
  BASALT_RETURN_IF_ERROR(CheckOpen());
  if (!table.record.enabled) {
    return Status::FailedPrecondition("table '" + table.name().ToString() + "' is disabled");
  }
  if (puts.empty()) return Status::OK();

  // Write's steps for a call of Puts only, in one pass over them: checks, batch size,
  // durability and stripes.
  size_t reserve_bytes = 0;
  Durability durability = Durability::kSkipWal;
  std::vector<size_t> stripes;
  stripes.reserve(puts.size());
  const MutationChecker checker(table, options_.max_value_bytes);
  for (const Put& p : puts) {
    BASALT_RETURN_IF_ERROR(checker.Check(p));
    reserve_bytes += EstimatedBatchBytes(p);
    if (DurabilityStrength(p.durability()) > DurabilityStrength(durability)) {
      durability = p.durability();
    }
    stripes.push_back(row_locks_.StripeOf(table.record.id, p.row()));
  }
  durability = ResolveDurability(durability, table);

  // As in Write: the clock and the sequence numbers are read, and the batch written, under the
  // rows' locks.
  std::shared_lock<WriteGate> gate(*table.write_gate);
  RowLocks::Guard guard(&row_locks_, std::move(stripes));
  const int64_t now = util::MonotonicWallMillis();
  BASALT_ASSIGN_OR_RETURN(uint64_t seq, sequence_->Next(puts.size()));
  WriteTxn txn(*this, table, /*needs_reads=*/false, now, reserve_bytes);
  for (const Put& p : puts) BASALT_RETURN_IF_ERROR(txn.Apply(p, seq++, now));
  return txn.Commit(durability);
}

Result<bool> Engine::CheckAndMutate(const TableState& table, const basalt::CheckAndMutate& cam) {
  util::ReaderMutexLock life(lifecycle_mu_);
  BASALT_RETURN_IF_ERROR(CheckOpen());
  if (!table.record.enabled) {
    return Status::FailedPrecondition("table '" + table.name().ToString() + "' is disabled");
  }
  BASALT_RETURN_IF_ERROR(CheckRow(cam.row()));
  BASALT_ASSIGN_OR_RETURN(const FamilyHandle* family, FindFamily(table, cam.family()));
  if (!cam.action().has_value()) {
    return Status::InvalidArgument("CheckAndMutate has no action (call Then)");
  }
  const MutationChecker checker(table, options_.max_value_bytes);
  const CheckAndMutate::Action& action = *cam.action();
  uint64_t seq_count = 1;
  Durability durability = Durability::kUseDefault;
  Status check = std::visit(
      [&](const auto& m) -> Status {
        if (m.row() != cam.row()) {
          return Status::InvalidArgument("the action of a CheckAndMutate must be on its row");
        }
        if constexpr (std::is_same_v<std::decay_t<decltype(m)>, RowMutations>) {
          seq_count = m.items().size();
          durability = MutationDurability(MutationRef(&m));
        } else {
          durability = m.durability();
        }
        return checker.Check(m);
      },
      action);
  BASALT_RETURN_IF_ERROR(check);
  if (durability == Durability::kUseDefault) durability = table.record.durability;
  if (durability == Durability::kUseDefault) durability = Durability::kSyncWal;

  std::shared_lock<WriteGate> gate(*table.write_gate);
  RowLocks::Guard guard(&row_locks_, {row_locks_.StripeOf(table.record.id, cam.row())});
  // Under the row lock, as in Batch.
  const int64_t now = util::MonotonicWallMillis();
  // The check reads before anything is written: the batch is indexed only for an action that
  // reads the row itself.
  const bool needs_reads =
      std::visit([](const auto& m) { return ReadsRow(MutationRef(&m)); }, action);
  WriteTxn txn(*this, table, needs_reads, now);
  BASALT_ASSIGN_OR_RETURN(auto current,
                          txn.ReadLatest(*family, cam.row(), cam.qualifier(), cam.time_range()));
  std::optional<std::string_view> stored;
  if (current.has_value()) stored = current->value;
  if (!CheckPasses(cam.op(), cam.expected(), stored)) return false;

  // HBase writes the action's Puts no earlier than the checked cell, so the write never hides
  // behind the value it was conditioned on.
  const int64_t put_now = current.has_value() ? std::max(now, current->timestamp) : now;
  BASALT_ASSIGN_OR_RETURN(uint64_t seq, sequence_->Next(seq_count));
  Status applied = std::visit(
      Overloaded{[&](const Put& p) { return txn.Apply(p, seq, put_now); },
                 [&](const Delete& d) { return txn.Apply(d, seq); },
                 [&](const RowMutations& rm) {
                   for (const auto& item : rm.items()) {
                     Status st = std::visit(
                         Overloaded{[&](const Put& p) { return txn.Apply(p, seq++, put_now); },
                                    [&](const Delete& d) { return txn.Apply(d, seq++); }},
                         item);
                     if (!st.ok()) return st;
                   }
                   return Status::OK();
                 }},
      action);
  BASALT_RETURN_IF_ERROR(applied);
  BASALT_RETURN_IF_ERROR(txn.Commit(durability));
  return true;
}

Result<bool> Engine::MutateRows(std::span<const RowCondition> conditions,
                                std::span<const TableMutationRef> mutations) {
  util::ReaderMutexLock life(lifecycle_mu_);
  BASALT_RETURN_IF_ERROR(CheckOpen());
  if (mutations.empty()) return Status::InvalidArgument("MultiRowMutation has no mutations");

  // Everything is checked before a lock is taken, as in Write: a bad call writes nothing.
  auto check_enabled = [](const TableState& table) -> Status {
    if (table.record.enabled) return Status::OK();
    return Status::FailedPrecondition("table '" + table.name().ToString() + "' is disabled");
  };
  std::vector<size_t> stripes;
  stripes.reserve(conditions.size() + mutations.size());
  std::vector<const FamilyHandle*> condition_families;
  condition_families.reserve(conditions.size());
  for (const RowCondition& c : conditions) {
    BASALT_RETURN_IF_ERROR(check_enabled(*c.table));
    BASALT_RETURN_IF_ERROR(CheckRow(c.condition->row));
    BASALT_ASSIGN_OR_RETURN(const FamilyHandle* family, FindFamily(*c.table, c.condition->family));
    BASALT_RETURN_IF_ERROR(CheckQualifier(c.condition->qualifier));
    condition_families.push_back(family);
    stripes.push_back(row_locks_.StripeOf(c.table->record.id, c.condition->row));
  }
  // The conditions are read before anything is written: only a mutation that reads the row
  // needs the batch indexed (indexing every cell cost a third of a conditional batch's writes).
  bool needs_reads = false;
  uint64_t seq_count = 0;
  size_t reserve_bytes = 0;
  Durability durability = Durability::kSkipWal;
  for (const TableMutationRef& m : mutations) {
    BASALT_RETURN_IF_ERROR(check_enabled(*m.table));
    const MutationChecker checker(*m.table, options_.max_value_bytes);
    const std::string* row = nullptr;
    BASALT_RETURN_IF_ERROR(
        CheckMutation(checker, m.mutation, &row, &seq_count, &needs_reads, &reserve_bytes));
    Durability d = ResolveDurability(MutationDurability(m.mutation), *m.table);
    if (DurabilityStrength(d) > DurabilityStrength(durability)) durability = d;
    stripes.push_back(row_locks_.StripeOf(m.table->record.id, *row));
  }

  // Stripes are shared by every table and taken in ascending order by every call, so this call
  // cannot deadlock with another MutateRows or with a Write. The tables' write gates come first,
  // in address order, as every writer takes gates before stripes.
  std::vector<WriteGate*> gate_mutexes;
  for (const TableMutationRef& m : mutations) gate_mutexes.push_back(m.table->write_gate.get());
  std::sort(gate_mutexes.begin(), gate_mutexes.end());
  gate_mutexes.erase(std::unique(gate_mutexes.begin(), gate_mutexes.end()), gate_mutexes.end());
  std::vector<std::shared_lock<WriteGate>> gates;
  gates.reserve(gate_mutexes.size());
  for (WriteGate* g : gate_mutexes) gates.emplace_back(*g);
  RowLocks::Guard guard(&row_locks_, std::move(stripes));
  const int64_t now = util::MonotonicWallMillis();  // under the locks, as in Write
  WriteTxn txn(*this, *mutations.front().table, needs_reads, now, reserve_bytes);
  int64_t put_now = now;
  for (size_t i = 0; i < conditions.size(); ++i) {
    const MultiRowMutation::Condition& c = *conditions[i].condition;
    BASALT_ASSIGN_OR_RETURN(
        auto current, txn.ReadLatest(*condition_families[i], c.row, c.qualifier, c.time_range));
    std::optional<std::string_view> stored;
    if (current.has_value()) stored = current->value;
    if (!CheckPasses(c.op, c.expected, stored)) return false;
    // As in CheckAndMutate: never write behind a checked cell.
    if (current.has_value()) put_now = std::max(put_now, current->timestamp);
  }
  BASALT_ASSIGN_OR_RETURN(uint64_t seq, sequence_->Next(seq_count));
  for (const TableMutationRef& m : mutations) {
    txn.SetTable(*m.table);
    BASALT_RETURN_IF_ERROR(ApplyMutation(txn, m.mutation, &seq, put_now, nullptr));
  }
  BASALT_RETURN_IF_ERROR(txn.Commit(durability));
  return true;
}

}  // namespace basalt::engine
