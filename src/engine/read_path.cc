// The read path for Get and the construction of scanners. Visibility rules are in
// row_reader.h.

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <rocksdb/db.h>
#include <rocksdb/iterator.h>

#include "engine/engine.h"
#include "engine/key_format.h"
#include "engine/rocksdb_status.h"
#include "engine/row_reader.h"
#include "engine/scanner.h"
#include "filter/filter_state.h"
#include "util/clock.h"

namespace basalt::engine {
namespace {

Status CheckReadVersions(int32_t max_versions) {
  if (max_versions < 1) {
    return Status::InvalidArgument("max versions must be at least 1, not " +
                                   std::to_string(max_versions));
  }
  return Status::OK();
}

Status CheckTimeRange(const TimeRange& r) {
  if (r.min < 0 || r.max < r.min) {
    return Status::InvalidArgument("bad time range [" + std::to_string(r.min) + ", " +
                                   std::to_string(r.max) + ")");
  }
  return Status::OK();
}

Status CheckRowKey(std::string_view row) {
  if (row.empty()) return Status::InvalidArgument("row key must not be empty");
  if (row.size() > kMaxRowKeyLength) {
    return Status::InvalidArgument("row key is longer than " + std::to_string(kMaxRowKeyLength) +
                                   " bytes");
  }
  return Status::OK();
}

// The family a read names, or why there is none.
Result<const FamilyHandle*> FindReadFamily(const TableState& table, std::string_view family) {
  const FamilyHandle* f = table.FindFamily(family);
  if (f == nullptr) {
    return table.NoSuchFamily(family);
  }
  return f;
}

// Fills `*out` with the families a read touches, in name order: the selected ones, or all.
// With `qualifiers`, also each family's selected qualifiers (nullptr: all of them).
Status SelectFamiliesInto(const TableState& table, const ColumnSelection& columns,
                          std::vector<const FamilyHandle*>* out,
                          std::vector<const std::set<std::string>*>* qualifiers = nullptr) {
  out->clear();
  if (qualifiers != nullptr) qualifiers->clear();
  if (columns.empty()) {
    for (const auto& f : table.families) out->push_back(&f);
    if (qualifiers != nullptr) qualifiers->assign(out->size(), nullptr);
    return Status::OK();
  }
  for (const auto& [family, selected] : columns) {
    BASALT_ASSIGN_OR_RETURN(const FamilyHandle* f, FindReadFamily(table, family));
    out->push_back(f);
    if (qualifiers != nullptr) qualifiers->push_back(&selected);
  }
  return Status::OK();
}

Result<std::vector<const FamilyHandle*>> SelectFamilies(const TableState& table,
                                                        const ColumnSelection& columns) {
  std::vector<const FamilyHandle*> out;
  BASALT_RETURN_IF_ERROR(SelectFamiliesInto(table, columns, &out));
  return out;
}

// Buffers a Get reuses from the previous Get on its thread: allocating them anew was a few
// percent of a point read. Engine::Get is never re-entered on one thread.
struct GetScratch {
  std::vector<const FamilyHandle*> families;
  std::vector<const std::set<std::string>*> qualifiers;  // per family; see SelectFamiliesInto
  std::string row_prefix;
  std::string column_buffer;
};
thread_local GetScratch t_get_scratch;

// The time TTLs are measured against; 0 when no family read has a TTL (the clock is then never
// consulted, and reading it costs as much as a small part of a point read).
int64_t ReadTime(const std::vector<const FamilyHandle*>& families) {
  for (const FamilyHandle* f : families) {
    if (f->settings.ttl_ms != INT64_MAX) return util::MonotonicWallMillis();
  }
  return 0;
}

// Appends to `*cells` what a read of `row` (escaped: `row_prefix`) in `family` returns, from
// `it`, which it seeks to the row.
Status ReadFamilyRow(rocksdb::Iterator* it, const FamilyHandle& family, const ReadSpec& spec,
                     const std::set<std::string>* qualifiers, const std::string& row_prefix,
                     const std::string& row, std::string* column_buffer, CellBuffer* cells) {
  it->Seek(row_prefix);
  FamilyRowReader reader(it, family.name(), family.settings, spec, qualifiers, column_buffer);
  reader.StartRow(row_prefix, row);
  reader.Read(cells, 0);
  return reader.status();  // an iterator failure included
}

// A Get's limit per family may be far above what its row holds: a bound reserves no more.
constexpr size_t kMostCellsReservedPerGet = 256;

// The indexes 0..n-1 ordered by the row key row(i) names, the caller's order among equal keys.
// E(x) preserves order, so this is also the order of the rows' keys in RocksDB.
template <class RowOf>
std::vector<uint32_t> KeyOrder(size_t n, const RowOf& row) {
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  // std::sort with the index as the tie-break: std::stable_sort takes a temporary buffer from
  // the heap on every call.
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const int c = row(a).compare(row(b));
    return c < 0 || (c == 0 && a < b);
  });
  return order;
}

// Leaves *out as a Get that found nothing leaves it: no row, no cells.
Status NothingFound(RowResult* out) {
  *out = RowResult();
  return Status::OK();
}

Status CheckReadable(const TableState& table) {
  if (!table.record.enabled) {
    return Status::FailedPrecondition("table '" + table.name().ToString() + "' is disabled");
  }
  return Status::OK();
}

}  // namespace

Result<RowResult> Engine::Get(const TableState& table, const basalt::Get& get) {
  RowResult row;
  BASALT_RETURN_IF_ERROR(GetInto(table, get, &row));
  return row;
}

Status Engine::GetInto(const TableState& table, const basalt::Get& get, RowResult* out) {
  Status s = ReadRowInto(table, get, out);
  if (!s.ok()) *out = RowResult();
  return s;
}

std::shared_ptr<const rocksdb::Snapshot> Engine::TakeSnapshot() const {
  rocksdb::DB* db = db_;
  return std::shared_ptr<const rocksdb::Snapshot>(
      db->GetSnapshot(), [db](const rocksdb::Snapshot* s) { db->ReleaseSnapshot(s); });
}

Status Engine::ReadRowInto(const TableState& table, const basalt::Get& get, RowResult* out) {
  util::ReaderMutexLock life(lifecycle_mu_);
  BASALT_RETURN_IF_ERROR(CheckOpen());
  return ReadRowLocked(table, get, out, nullptr);
}

Status Engine::ReadRowLocked(const TableState& table, const basalt::Get& get, RowResult* out,
                             HeldIterators* held) {
  BASALT_RETURN_IF_ERROR(CheckReadable(table));
  BASALT_RETURN_IF_ERROR(CheckRowKey(get.row()));
  BASALT_RETURN_IF_ERROR(CheckReadVersions(get.max_versions()));
  BASALT_RETURN_IF_ERROR(CheckTimeRange(get.time_range()));
  GetScratch& scratch = t_get_scratch;
  std::vector<const FamilyHandle*>& families = scratch.families;
  const std::vector<const std::set<std::string>*>& qualifiers = scratch.qualifiers;
  BASALT_RETURN_IF_ERROR(SelectFamiliesInto(table, get.columns(), &families, &scratch.qualifiers));

  ReadSpec spec;
  spec.max_versions = get.max_versions();
  spec.time_range = get.time_range();
  spec.now_ms = ReadTime(families);
  spec.max_results_per_family = get.max_results_per_family();
  spec.row_offset_per_family = get.row_offset_per_family();
  spec.no_fast_paths = engine_options_.TEST_no_read_fast_paths;

  // A Get is a one-row scan for the filter: row verdicts first, whole-row verdicts last.
  std::unique_ptr<filter::FilterState> filter;
  if (get.filter() != nullptr) {
    BASALT_ASSIGN_OR_RETURN(filter, filter::Compile(*get.filter(), /*reversed=*/false));
    if (filter->FilterAllRemaining()) return NothingFound(out);
    filter->Reset();
    filter::RowHint hint;
    if (filter->FilterRowKey(get.row(), &hint) != filter::RowVerdict::kInclude) {
      return NothingFound(out);
    }
    spec.filter = filter.get();
  }
  auto filter_done = [&] { return filter != nullptr && filter->FilterAllRemaining(); };

  std::string& row_prefix = scratch.row_prefix;
  row_prefix.clear();
  AppendEscaped(&row_prefix, get.row());  // RowPrefix(row), into the reused buffer
  // The caller is done with the row in *out: the read overwrites its cells.
  CellBuffer cells;
  cells.TakeSpares(&out->mutable_cells());
  if (spec.max_results_per_family > 0) {
    cells.Reserve(
        std::min<size_t>(static_cast<size_t>(spec.max_results_per_family) * families.size(),
                         kMostCellsReservedPerGet));
  }
  auto read_family = [&](rocksdb::Iterator* it, size_t i) {
    return ReadFamilyRow(it, *families[i], spec, qualifiers[i], row_prefix, get.row(),
                         &scratch.column_buffer, &cells);
  };
  if (families.size() == 1 && held != nullptr) {
    BASALT_ASSIGN_OR_RETURN(rocksdb::Iterator * it, held->Get(families[0]->cf, IteratorKind::kRow));
    BASALT_RETURN_IF_ERROR(read_family(it, 0));
  } else if (families.size() == 1) {
    BASALT_ASSIGN_OR_RETURN(PooledIterator it,
                            iterator_pool_->Acquire(families[0]->cf, IteratorKind::kRow));
    BASALT_RETURN_IF_ERROR(read_family(it.get(), 0));
  } else {
    // One consistent view across families keeps the row atomic for the reader; pooled
    // iterators are refreshed one by one and could straddle a write. The snapshot makes the view
    // one (Scanner::Init says why NewIterators alone does not).
    std::shared_ptr<const rocksdb::Snapshot> snapshot = TakeSnapshot();
    rocksdb::ReadOptions ro;
    ro.snapshot = snapshot.get();
    ro.prefix_same_as_start = true;    // every key of the row shares the row prefix: bloom filters
    ro.ignore_range_deletions = true;  // basalt writes no range tombstones
    std::vector<rocksdb::ColumnFamilyHandle*> cfs;
    for (const auto* f : families) cfs.push_back(f->cf);
    std::vector<rocksdb::Iterator*> raw;
    BASALT_RETURN_IF_ERROR(FromRocks(db_->NewIterators(ro, cfs, &raw)));
    std::vector<std::unique_ptr<rocksdb::Iterator>> iters(raw.begin(), raw.end());
    for (size_t i = 0; i < families.size() && !filter_done(); ++i) {
      BASALT_RETURN_IF_ERROR(read_family(iters[i].get(), i));
    }
  }
  std::vector<Cell>& row_cells = cells.Trim();
  if (filter != nullptr && filter->HasFilterRow()) {
    filter->FilterRowCells(&row_cells);
    if (!row_cells.empty() && filter->FilterRow()) row_cells.clear();
  }
  if (row_cells.empty()) return NothingFound(out);
  out->Assign(get.row(), std::move(row_cells));
  return Status::OK();
}

Result<std::vector<RowResult>> Engine::MultiGet(const TableState& table,
                                                const std::vector<basalt::Get>& gets) {
  util::ReaderMutexLock life(lifecycle_mu_);
  BASALT_RETURN_IF_ERROR(CheckOpen());
  // One iterator per family serves every read of the call (`held` goes before the lock does):
  // a home timeline's 20 posts took 40 trips to the pool and back. Each read still sees every
  // write acknowledged before the call began.
  std::vector<RowResult> out(gets.size());
  {
    HeldIterators held(iterator_pool_.get());
    if (engine_options_.TEST_no_read_fast_paths || gets.size() < 2) {
      for (size_t i = 0; i < gets.size(); ++i) {
        BASALT_RETURN_IF_ERROR(ReadRowLocked(table, gets[i], &out[i], &held));
      }
      return out;
    }
    // Rows read in key order, each forward of the last on the held iterator: RocksDB's table
    // iterator then stays in the data block it is on when the next row is in it, with no index
    // seek and no block cache lookup, and its level iterator in the file it is on. This is the
    // saving of RocksDB's batched MultiGet, which a cell key's timestamp keeps basalt from using
    // (a read names no exact key). Each read still sees every write acknowledged before the
    // call began, whatever the order.
    std::vector<uint32_t> order =
        KeyOrder(gets.size(), [&](size_t i) -> const std::string& { return gets[i].row(); });
    bool failed = false;
    for (uint32_t i : order) {
      if (!ReadRowLocked(table, gets[i], &out[i], &held).ok()) {
        failed = true;
        break;
      }
    }
    if (!failed) return out;
  }
  // A read failed: the reads again in the caller's order, so that the call fails as it always
  // has, with the error of the first read (in the caller's order) that fails.
  HeldIterators held(iterator_pool_.get());
  for (size_t i = 0; i < gets.size(); ++i) {
    BASALT_RETURN_IF_ERROR(ReadRowLocked(table, gets[i], &out[i], &held));
  }
  return out;
}

Result<std::vector<std::optional<std::string>>> Engine::GetColumnValues(
    const TableState& table, std::string_view family, std::string_view qualifier,
    const std::vector<std::string>& rows) {
  util::ReaderMutexLock life(lifecycle_mu_);
  BASALT_RETURN_IF_ERROR(CheckOpen());
  BASALT_RETURN_IF_ERROR(CheckReadable(table));
  BASALT_ASSIGN_OR_RETURN(const FamilyHandle* handle, FindReadFamily(table, family));
  for (const std::string& row : rows) BASALT_RETURN_IF_ERROR(CheckRowKey(row));
  std::vector<std::optional<std::string>> values(rows.size());
  if (rows.empty()) return values;
  // What a Get naming the column reads: one version, the column alone. Each row is read as
  // ReadRowLocked reads it, but with the family found once, one iterator, and one buffer of
  // cells whose strings are overwritten from row to row instead of a RowResult built for each.
  const std::set<std::string> qualifiers{std::string(qualifier)};
  ReadSpec spec;
  spec.now_ms = ReadTime({handle});
  spec.no_fast_paths = engine_options_.TEST_no_read_fast_paths;
  BASALT_ASSIGN_OR_RETURN(PooledIterator it,
                          iterator_pool_->Acquire(handle->cf, IteratorKind::kRow));
  GetScratch& scratch = t_get_scratch;
  std::string& row_prefix = scratch.row_prefix;
  CellBuffer cells;
  auto read = [&](size_t i) {
    row_prefix.clear();
    AppendEscaped(&row_prefix, rows[i]);
    cells.Clear();
    Status s = ReadFamilyRow(it.get(), *handle, spec, &qualifiers, row_prefix, rows[i],
                             &scratch.column_buffer, &cells);
    if (s.ok() && !cells.empty()) values[i] = std::move(cells[0].value);
    return s;
  };
  if (!spec.no_fast_paths && rows.size() > 1) {
    // In key order, as MultiGet reads its rows; a failure is read again in the caller's order.
    std::vector<uint32_t> order =
        KeyOrder(rows.size(), [&](size_t i) -> const std::string& { return rows[i]; });
    bool failed = false;
    for (uint32_t i : order) {
      if (!read(i).ok()) {
        failed = true;
        break;
      }
    }
    if (!failed) return values;
    values.assign(rows.size(), std::nullopt);
  }
  for (size_t i = 0; i < rows.size(); ++i) BASALT_RETURN_IF_ERROR(read(i));
  return values;
}

Result<std::unique_ptr<ResultScanner>> Engine::NewScanner(std::shared_ptr<const TableState> table,
                                                          const basalt::Scan& scan) {
  util::ReaderMutexLock life(lifecycle_mu_);
  BASALT_RETURN_IF_ERROR(CheckOpen());
  BASALT_RETURN_IF_ERROR(CheckReadable(*table));
  BASALT_RETURN_IF_ERROR(CheckReadVersions(scan.max_versions()));
  BASALT_RETURN_IF_ERROR(CheckTimeRange(scan.time_range()));
  for (const std::string* row : {&scan.start_row(), &scan.stop_row(), &scan.row_prefix()}) {
    if (row->size() > kMaxRowKeyLength) {
      return Status::InvalidArgument("scan bound is longer than the row key limit");
    }
  }
  BASALT_ASSIGN_OR_RETURN(auto families, SelectFamilies(*table, scan.columns()));
  const int64_t now_ms = ReadTime(families);
  auto scanner =
      std::make_unique<Scanner>(shared_from_this(), table, scan, std::move(families), now_ms);
  BASALT_RETURN_IF_ERROR(scanner->Init());
  return std::unique_ptr<ResultScanner>(std::move(scanner));
}

}  // namespace basalt::engine
