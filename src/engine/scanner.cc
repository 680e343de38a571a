#include "engine/scanner.h"

#include <rocksdb/db.h>
#include <rocksdb/iterator.h>

#include "engine/key_format.h"
#include "engine/rocksdb_status.h"
#include "util/coding.h"

namespace basalt::engine {
namespace {

void Raise(std::string* bound, std::string candidate) {
  if (bound->empty() || candidate > *bound) *bound = std::move(candidate);
}

void Lower(std::string* bound, std::string candidate) {
  if (bound->empty() || candidate < *bound) *bound = std::move(candidate);
}

}  // namespace

ScanBounds ComputeScanBounds(const Scan& scan) {
  ScanBounds b;
  // Row r's keys are [E(r) 00 01, E(r) 00 02); see key_format.h.
  auto at = [](const std::string& row) { return RowPrefix(row); };
  auto after = [](const std::string& row) { return RowEndKey(row); };
  if (!scan.reversed()) {
    if (!scan.start_row().empty()) {
      b.lower = scan.start_inclusive() ? at(scan.start_row()) : after(scan.start_row());
    }
    if (!scan.stop_row().empty()) {
      b.upper = scan.stop_inclusive() ? after(scan.stop_row()) : at(scan.stop_row());
    }
  } else {
    if (!scan.start_row().empty()) {
      b.upper = scan.start_inclusive() ? after(scan.start_row()) : at(scan.start_row());
    }
    if (!scan.stop_row().empty()) {
      b.lower = scan.stop_inclusive() ? at(scan.stop_row()) : after(scan.stop_row());
    }
  }
  if (!scan.row_prefix().empty()) {
    std::string start = RowPrefix(scan.row_prefix());
    // Every row starting with the prefix has keys starting with E(prefix), the start without
    // its terminator.
    b.escaped_prefix.assign(start, 0, start.size() - 2);
    std::string successor = util::PrefixSuccessor(b.escaped_prefix);
    Raise(&b.lower, std::move(start));
    if (!successor.empty()) {
      Lower(&b.upper, successor);
      b.prefix_ends_range = b.upper == successor;
    }
  }
  b.empty = !b.lower.empty() && !b.upper.empty() && b.lower >= b.upper;
  return b;
}

Scanner::Scanner(std::shared_ptr<Engine> engine, std::shared_ptr<const TableState> table,
                 const Scan& scan, std::vector<const FamilyHandle*> families, int64_t now_ms)
    : engine_(std::move(engine)),
      table_(std::move(table)),
      scan_(scan),
      bounds_(ComputeScanBounds(scan)),
      families_(std::move(families)) {
  spec_.max_versions = scan.max_versions();
  spec_.time_range = scan.time_range();
  spec_.raw = scan.raw();
  spec_.now_ms = now_ms;
  spec_.max_results_per_family = scan.max_results_per_family();
  spec_.row_offset_per_family = scan.row_offset_per_family();
  spec_.no_fast_paths = engine_->engine_options_.TEST_no_read_fast_paths;
  engine_->RegisterScanner(this);
}

Scanner::~Scanner() {
  Close();
  engine_->UnregisterScanner(this);
}

Status Scanner::Init() {
  util::FutexMutexLock l(mu_);
  if (scan_.filter() != nullptr) {
    BASALT_ASSIGN_OR_RETURN(filter_, filter::Compile(*scan_.filter(), scan_.reversed()));
    if (scan_.batch() > 0 && filter_->HasFilterRow()) {
      return Status::InvalidArgument(
          "this filter decides on whole rows and cannot be used with a scan batch size");
    }
    spec_.filter = filter_.get();
  }
  if (bounds_.empty) {
    done_ = true;
    return Status::OK();
  }
  std::vector<PooledIterator> iters;
  iters.reserve(families_.size());
  cursors_.reserve(families_.size());
  if (families_.size() == 1) {
    BASALT_ASSIGN_OR_RETURN(
        auto it, engine_->iterator_pool_->Acquire(families_[0]->cf, IteratorKind::kScan));
    iters.push_back(std::move(it));
  } else {
    // One consistent view across families keeps rows atomic for the reader; pooled iterators
    // are refreshed one by one and could straddle a write. The view needs a snapshot of its own:
    // without one, NewIterators reads at the last sequence number but takes each family's
    // files after it, and a compaction finishing in between may have zeroed the sequence
    // numbers of newer writes (bottommost files keep none that no snapshot needs), so one family
    // showed a row's newer Put and the other its older one (RowAtomicityTest caught it).
    rocksdb::ReadOptions ro;
    ro.total_order_seek = true;
    ro.ignore_range_deletions = true;  // basalt writes no range tombstones
    if (!bounds_.lower.empty()) {
      lower_slice_ = std::make_unique<rocksdb::Slice>(bounds_.lower);
      ro.iterate_lower_bound = lower_slice_.get();
    }
    if (!bounds_.upper.empty()) {
      upper_slice_ = std::make_unique<rocksdb::Slice>(bounds_.upper);
      ro.iterate_upper_bound = upper_slice_.get();
    }
    snapshot_ = engine_->TakeSnapshot();
    ro.snapshot = snapshot_.get();
    std::vector<rocksdb::ColumnFamilyHandle*> cfs;
    for (const auto* f : families_) cfs.push_back(f->cf);
    std::vector<rocksdb::Iterator*> raw;
    BASALT_RETURN_IF_ERROR(FromRocks(engine_->db_->NewIterators(ro, cfs, &raw)));
    for (auto* it : raw) iters.emplace_back(it);
  }
  const ColumnSelection& columns = scan_.columns();
  for (size_t i = 0; i < families_.size(); ++i) {
    Cursor c;
    c.family = families_[i];
    c.it = std::move(iters[i]);
    auto sel = columns.find(c.family->name());
    const std::set<std::string>* qualifiers = sel == columns.end() ? nullptr : &sel->second;
    c.reader = std::make_unique<FamilyRowReader>(c.it.get(), c.family->name(), c.family->settings,
                                                 spec_, qualifiers);
    ++steps_;
    if (scan_.reversed()) {
      if (bounds_.upper.empty()) {
        c.it->SeekToLast();
      } else {
        c.it->SeekForPrev(bounds_.upper);
        if (c.it->Valid() && c.it->key().compare(bounds_.upper) >= 0) c.it->Prev();
      }
    } else if (!bounds_.lower.empty()) {
      c.it->Seek(bounds_.lower);
    } else {
      c.it->SeekToFirst();
    }
    c.reader->Sync();
    cursors_.push_back(std::move(c));
  }
  simple_rows_ = cursors_.size() == 1 && filter_ == nullptr && !scan_.reversed() &&
                 scan_.batch() <= 0 && cursors_[0].reader->TakesFirstPuts();
  return Status::OK();
}

Status Scanner::status() const {
  util::FutexMutexLock l(mu_);
  return status_;
}

bool Scanner::Fail(Status s) {
  if (status_.ok()) status_ = std::move(s);
  done_ = true;
  return false;
}

void Scanner::ReleaseIterators() {
  util::FutexMutexLock l(mu_);
  DropCursors();
  if (!done_) Fail(Status::Aborted("the store was closed while the scanner was open"));
}

void Scanner::DropCursors() {
  for (const auto& c : cursors_) steps_ += c.reader->steps();
  cursors_.clear();
  snapshot_.reset();  // before the store closes, which must not outlive it
}

ScanMetrics Scanner::metrics() const {
  // Engine::Close may drop the cursors meanwhile; it does so under mu_.
  util::FutexMutexLock l(mu_);
  ScanMetrics m;
  m.rows_scanned = rows_scanned_;
  m.rows_filtered = rows_scanned_ - rows_returned_;
  m.keys_visited = steps_;
  for (const auto& c : cursors_) m.keys_visited += c.reader->steps();
  return m;
}

void Scanner::Close() {
  util::FutexMutexLock l(mu_);
  done_ = true;
  DropCursors();
}

bool Scanner::StartNextRow(bool need_row) {
  while (true) {
    if (filter_ != nullptr && filter_->FilterAllRemaining()) return false;
    const Cursor* best = nullptr;
    for (auto& c : cursors_) {
      c.in_row = false;
      c.row_prefix = {};
      if (!c.reader->valid()) {
        if (!c.it->status().ok()) return Fail(FromRocks(c.it->status()));
        continue;
      }
      const rocksdb::Slice key = c.reader->key();
      // Pooled iterators carry no bounds: the scan's range is enforced here.
      if (!scan_.reversed() ? !bounds_.upper.empty() && key.compare(bounds_.upper) >= 0
                            : !bounds_.lower.empty() && key.compare(bounds_.lower) < 0) {
        continue;
      }
      size_t len = RowPrefixLength({key.data(), key.size()});
      if (len == 0) {
        return Fail(Status::Corruption("undecodable key in family " + c.family->name()));
      }
      c.row_prefix = std::string_view(key.data(), len);
      if (best == nullptr ||
          (scan_.reversed() ? c.row_prefix > best->row_prefix : c.row_prefix < best->row_prefix)) {
        best = &c;
      }
    }
    if (best == nullptr) return false;
    ++rows_scanned_;
    row_prefix_.assign(best->row_prefix);
    if (need_row || filter_ != nullptr) UnescapeInto(row_prefix_, &row_);
    // Every view still points into its iterator's key: no iterator has moved since.
    for (auto& c : cursors_)
      c.in_row = &c == best || (!c.row_prefix.empty() && c.row_prefix == row_prefix_);
    if (filter_ != nullptr) {
      filter_->Reset();
      filter::RowHint hint;
      filter::RowVerdict verdict = filter_->FilterRowKey(row_, &hint);
      if (verdict != filter::RowVerdict::kInclude) {
        if (verdict == filter::RowVerdict::kSkip || !SeekToHint(hint)) FinishRow();
        continue;
      }
    }
    for (auto& c : cursors_) {
      if (!c.in_row) continue;
      // A reversed cursor sits on the row's last key; rows are read forward.
      if (scan_.reversed()) {
        c.it->Seek(row_prefix_);
        c.reader->Sync();
        ++steps_;
      }
      c.reader->StartRow(row_prefix_, row_);
    }
    in_row_ = true;
    row_returned_ = false;
    next_cursor_ = 0;
    return true;
  }
}

bool Scanner::StartSimpleRow(bool need_row) {
  Cursor& c = cursors_[0];
  FamilyRowReader& reader = *c.reader;
  if (!reader.valid()) {
    if (!c.it->status().ok()) return Fail(FromRocks(c.it->status()));
    return false;
  }
  const rocksdb::Slice key = reader.key();
  // A forward scan's keys start at its lower bound, at or after E(prefix) 00 01 for a prefix
  // scan, and stay before the upper, at or before the prefix's successor: every key it reads
  // starts with E(prefix), which ends at a whole escape (a byte or 00 FF). So the end of the
  // range is where keys stop starting with it, and a row key's terminator is searched for, and
  // the key un-escaped, only after it.
  const std::string& prefix = bounds_.escaped_prefix;
  if (bounds_.prefix_ends_range) {
    if (key.size() < prefix.size() || !util::BytesEqual(key.data(), prefix.data(), prefix.size())) {
      return false;
    }
  } else if (!bounds_.upper.empty() && key.compare(bounds_.upper) >= 0) {
    return false;
  }
  const size_t skip = prefix.size();
  size_t len = EmptyQualifierRowPrefixLength({key.data(), key.size()});
  if (len < skip + 2) {
    const size_t rest = RowPrefixLength({key.data() + skip, key.size() - skip});
    if (rest == 0) {
      return Fail(Status::Corruption("undecodable key in family " + c.family->name()));
    }
    len = skip + rest;
  }
  ++rows_scanned_;
  row_prefix_.assign(key.data(), len);
  if (need_row) {
    row_.assign(scan_.row_prefix());
    UnescapeAppend(std::string_view(row_prefix_).substr(skip), &row_);
  }
  c.in_row = true;
  reader.StartRow(row_prefix_, row_);
  in_row_ = true;
  return true;
}

bool Scanner::NextSimpleRow(RowResult* out) {
  Cursor& c = cursors_[0];
  while (true) {
    if (scan_.limit() > 0 && rows_returned_ >= scan_.limit()) {
      done_ = true;
      return false;
    }
    if (!StartSimpleRow(/*need_row=*/true)) {
      done_ = true;
      return false;
    }
    cells_.Clear();
    if (c.reader->TakeFirstPut(&cells_) == FamilyRowReader::FirstPut::kRowRead) {
      c.in_row = false;
      in_row_ = false;
    } else {
      c.reader->Read(&cells_, 0);
      if (!c.reader->status().ok()) return Fail(c.reader->status());
      FinishRow();
    }
    if (cells_.empty()) continue;
    ++rows_returned_;
    std::vector<Cell> row_cells = std::move(cells_.Trim());
    cells_.TakeSpares(&out->mutable_cells());
    out->Assign(row_, std::move(row_cells));
    return true;
  }
}

int64_t Scanner::SkipSimpleRows(int64_t n) {
  Cursor& c = cursors_[0];
  int64_t skipped = 0;
  while (skipped < n) {
    if (scan_.limit() > 0 && rows_returned_ >= scan_.limit()) {
      done_ = true;
      break;
    }
    if (!StartSimpleRow(/*need_row=*/false)) {
      done_ = true;
      break;
    }
    bool visible = true;
    switch (c.reader->TakeFirstPut(nullptr)) {
      case FamilyRowReader::FirstPut::kRowRead:
        c.in_row = false;
        in_row_ = false;
        break;
      case FamilyRowReader::FirstPut::kRowGoesOn:
        FinishRow();
        break;
      case FamilyRowReader::FirstPut::kNotTaken:
        visible = c.reader->HasVisibleCell();
        if (!c.reader->status().ok()) {
          Fail(c.reader->status());
          return skipped;
        }
        FinishRow();
        break;
    }
    if (visible) {
      ++skipped;
      ++rows_returned_;
    }
  }
  return skipped;
}

bool Scanner::SeekToHint(const filter::RowHint& hint) {
  if (!scan_.reversed()) {
    std::string target = hint.inclusive ? RowPrefix(hint.row) : RowEndKey(hint.row);
    if (target < RowPrefixEnd(row_prefix_)) return false;
    for (auto& c : cursors_) {
      c.it->Seek(target);
      c.reader->Sync();
    }
    steps_ += static_cast<int64_t>(cursors_.size());
  } else {
    // Every key of the rows before the hint lies below `limit`.
    std::string limit = hint.inclusive ? RowEndKey(hint.row) : RowPrefix(hint.row);
    if (limit > row_prefix_) return false;
    for (auto& c : cursors_) {
      c.it->SeekForPrev(limit);
      ++steps_;
      if (c.it->Valid() && c.it->key().compare(limit) >= 0) {
        c.it->Prev();
        ++steps_;
      }
      c.reader->Sync();
    }
  }
  for (auto& c : cursors_) c.in_row = false;
  return true;
}

void Scanner::FilterWholeRow(std::vector<Cell>* cells) {
  if (filter_ == nullptr || !filter_->HasFilterRow()) return;
  filter_->FilterRowCells(cells);
  if (!cells->empty() && filter_->FilterRow()) cells->clear();
}

void Scanner::FinishRow() {
  for (auto& c : cursors_) {
    if (!c.in_row) continue;
    if (scan_.reversed()) {
      c.it->Seek(row_prefix_);
      if (c.it->Valid()) c.it->Prev();
      c.reader->Sync();
      steps_ += 2;
    } else {
      steps_ += c.reader->SkipPast(row_prefix_);
    }
    c.in_row = false;
  }
  in_row_ = false;
}

bool Scanner::Next(RowResult* out) {
  // Engine::Close, the only other thread that touches the cursors, releases them under mu_ and
  // marks the scanner done before it closes the store; so mu_, uncontended but for that, is all
  // a step needs. The engine's lifecycle lock (a pthread rwlock: two library calls and two
  // atomic operations) was 3% of a short prefix scan, taken once per row.
  util::FutexMutexLock l(mu_);
  if (done_) return false;
  if (simple_rows_) return NextSimpleRow(out);
  const size_t budget = scan_.batch() > 0 ? static_cast<size_t>(scan_.batch()) : 0;
  while (true) {
    if (!in_row_) {
      if (scan_.limit() > 0 && rows_returned_ >= scan_.limit()) {
        done_ = true;
        return false;
      }
      if (!StartNextRow()) {
        done_ = true;
        return false;
      }
    }
    cells_.Clear();
    bool row_done = true;
    for (; next_cursor_ < cursors_.size(); ++next_cursor_) {
      Cursor& c = cursors_[next_cursor_];
      if (!c.in_row) continue;
      size_t remaining = 0;
      if (budget != 0) {
        if (cells_.size() >= budget) {
          row_done = false;
          break;
        }
        remaining = budget - cells_.size();
      }
      bool family_done = c.reader->Read(&cells_, remaining);
      if (!c.reader->status().ok()) return Fail(c.reader->status());
      if (!family_done) {
        row_done = false;
        break;
      }
      // A filter done with the scan is done with the rest of this row too.
      if (filter_ != nullptr && filter_->FilterAllRemaining()) break;
    }
    std::vector<Cell>& cells = cells_.Trim();
    if (row_done) {
      FinishRow();
      FilterWholeRow(&cells);
    }
    if (cells.empty()) continue;
    if (!row_returned_) {
      row_returned_ = true;
      ++rows_returned_;
    }
    // The caller is done with the row in *out: its cells become the spares the next row is
    // read into.
    std::vector<Cell> row_cells = std::move(cells);
    cells_.TakeSpares(&out->mutable_cells());
    out->Assign(row_, std::move(row_cells), !row_done);
    return true;
  }
}

int64_t Scanner::SkipRows(int64_t n) {
  util::FutexMutexLock l(mu_);  // as in Next
  if (n <= 0 || done_) return 0;
  int64_t skipped = 0;
  if (in_row_) {
    // Next handed out a piece of this row (so it already counts as returned): the rest of it
    // is the first row skipped.
    FinishRow();
    ++skipped;
  }
  if (simple_rows_) return skipped + SkipSimpleRows(n - skipped);
  while (skipped < n) {
    if (scan_.limit() > 0 && rows_returned_ >= scan_.limit()) {
      done_ = true;
      break;
    }
    if (!StartNextRow(/*need_row=*/false)) {
      done_ = true;
      break;
    }
    bool visible = false;
    if (filter_ == nullptr) {
      for (auto& c : cursors_) {
        if (!c.in_row) continue;
        visible = c.reader->HasVisibleCell();
        if (!c.reader->status().ok()) {
          Fail(c.reader->status());
          return skipped;
        }
        if (visible) break;
      }
      FinishRow();
    } else {
      // A filter sees the row's cells and may drop the row for them: the row is read as Next
      // reads it, in one piece (whole-row filters allow no batch, and cell filters decide the
      // same cells however the row is cut).
      cells_.Clear();
      for (auto& c : cursors_) {
        if (!c.in_row) continue;
        c.reader->Read(&cells_, 0);
        if (!c.reader->status().ok()) {
          Fail(c.reader->status());
          return skipped;
        }
        if (filter_->FilterAllRemaining()) break;
      }
      std::vector<Cell>& cells = cells_.Trim();
      FinishRow();
      FilterWholeRow(&cells);
      visible = !cells.empty();
      cells_.Clear();
    }
    if (visible) {
      ++skipped;
      ++rows_returned_;
    }
  }
  return skipped;
}

}  // namespace basalt::engine
