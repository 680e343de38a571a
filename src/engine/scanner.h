// Scanner: the embedded backend's ResultScanner. One RocksDB iterator per selected family, all
// from one consistent view taken when the scanner opens; rows are merged across families in key
// order (descending for reversed scans) and read with FamilyRowReader.

#ifndef BASALT_ENGINE_SCANNER_H_
#define BASALT_ENGINE_SCANNER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/scan.h"
#include "basalt/table.h"
#include "engine/engine.h"
#include "engine/row_reader.h"
#include "util/futex_mutex.h"
#include "util/thread_annotations.h"

namespace rocksdb {
class Iterator;
class Slice;
class Snapshot;
}  // namespace rocksdb

namespace basalt::engine {

// Key-space bounds of a scan: the smallest key it may read (inclusive) and the key it stops
// before (exclusive); empty means unbounded. Exposed for tests.
struct ScanBounds {
  std::string lower;
  std::string upper;
  bool empty = false;  // the range holds no row
  // E(row prefix) without its terminator: every key of a row with the prefix starts with it.
  // Empty when the scan has no row prefix.
  std::string escaped_prefix;
  // `upper` is the successor of escaped_prefix (no stop row ends the range earlier): a key in
  // the range is one that starts with escaped_prefix.
  bool prefix_ends_range = false;
};
ScanBounds ComputeScanBounds(const Scan& scan);

class Scanner : public ResultScanner {
 public:
  // Use Engine::NewScanner.
  Scanner(std::shared_ptr<Engine> engine, std::shared_ptr<const TableState> table, const Scan& scan,
          std::vector<const FamilyHandle*> families, int64_t now_ms);
  ~Scanner() override;

  // Compiles the filter and positions the cursors; an error fails Engine::NewScanner.
  Status Init() BASALT_EXCLUDES(mu_);
  bool Next(RowResult* out) override;
  // Without a filter, asks each family's reader whether the row has a visible cell and steps
  // past it; with one, reads the row's cells as Next would, without handing them out.
  int64_t SkipRows(int64_t n) override;
  Status status() const override;
  void Close() override;
  ScanMetrics metrics() const override;

  // Called by Engine::Close, with every other engine call excluded: drops the iterators.
  void ReleaseIterators();

 private:
  struct Cursor {
    const FamilyHandle* family;
    PooledIterator it;
    std::unique_ptr<FamilyRowReader> reader;
    // The row prefix of the key the iterator is on, viewed in that key: valid only while
    // StartNextRow picks the next row (empty when the cursor has no row to offer).
    std::string_view row_prefix;
    bool in_row = false;
  };

  // Positions on the next row the filter does not reject; false at the end of the scan.
  // Without `need_row` and without a filter, row_ is left stale: the caller only steps past the
  // row, and un-escaping its key would be wasted.
  bool StartNextRow(bool need_row = true) BASALT_REQUIRES(mu_);
  // StartNextRow for a scan of simple rows (simple_rows_): the one cursor's next row.
  bool StartSimpleRow(bool need_row) BASALT_REQUIRES(mu_);
  // Next and SkipRows for a scan of simple rows: each row's first key is taken by
  // FamilyRowReader::TakeFirstPut, which reads a row of one key in one step.
  bool NextSimpleRow(RowResult* out) BASALT_REQUIRES(mu_);
  int64_t SkipSimpleRows(int64_t n) BASALT_REQUIRES(mu_);
  // Moves the cursors that are on the current row past it (every key of it, in the scan's
  // direction).
  void FinishRow() BASALT_REQUIRES(mu_);
  // Moves every cursor to the filter's hint; false when the hint is not past the current row.
  bool SeekToHint(const filter::RowHint& hint) BASALT_REQUIRES(mu_);
  // Applies the filter's whole-row decisions to a finished row's cells.
  void FilterWholeRow(std::vector<Cell>* cells) BASALT_REQUIRES(mu_);
  bool Fail(Status s) BASALT_REQUIRES(mu_);
  // Releases the cursors, keeping the count of their readers' steps.
  void DropCursors() BASALT_REQUIRES(mu_);

  std::shared_ptr<Engine> engine_;
  std::shared_ptr<const TableState> table_;
  const Scan scan_;
  const ScanBounds bounds_;
  const std::vector<const FamilyHandle*> families_;
  // Guards the scan's state below: held by every call of the scanner's and by Engine::Close's
  // ReleaseIterators(), which marks the scanner done: a scanner never steps an iterator of a closed
  // store. Init takes it uncontended (Engine::NewScanner holds the lifecycle lock through it, so
  // Close cannot run meanwhile), so that the analysis checks Init's writes like the rest.
  mutable util::FutexMutex mu_;
  std::unique_ptr<filter::FilterState> filter_ BASALT_GUARDED_BY(mu_);  // nullptr: no filter
  ReadSpec spec_ BASALT_GUARDED_BY(mu_);
  // Holds the view of a scan of several families (Init); dropped with the cursors.
  std::shared_ptr<const rocksdb::Snapshot> snapshot_ BASALT_GUARDED_BY(mu_);
  std::unique_ptr<rocksdb::Slice> lower_slice_ BASALT_GUARDED_BY(mu_);
  std::unique_ptr<rocksdb::Slice> upper_slice_ BASALT_GUARDED_BY(mu_);
  std::vector<Cursor> cursors_ BASALT_GUARDED_BY(mu_);

  // One family read forward in whole rows, every column's newest version, no filter: the read
  // of a tall table (a log, a timeline), whose rows are mostly a single key.
  bool simple_rows_ BASALT_GUARDED_BY(mu_) = false;
  bool done_ BASALT_GUARDED_BY(mu_) = false;
  bool in_row_ BASALT_GUARDED_BY(mu_) = false;
  bool row_returned_ BASALT_GUARDED_BY(mu_) = false;
  size_t next_cursor_ BASALT_GUARDED_BY(mu_) = 0;
  std::string row_prefix_ BASALT_GUARDED_BY(mu_);
  std::string row_ BASALT_GUARDED_BY(mu_);
  // The row being read. Its spares are the cells of the row handed out before the last one,
  // which the caller gave back by asking for the next row.
  CellBuffer cells_ BASALT_GUARDED_BY(mu_);
  int64_t rows_returned_ BASALT_GUARDED_BY(mu_) = 0;
  int64_t rows_scanned_ BASALT_GUARDED_BY(mu_) = 0;
  // The scanner's own iterator steps; the readers count theirs.
  int64_t steps_ BASALT_GUARDED_BY(mu_) = 0;
  Status status_ BASALT_GUARDED_BY(mu_);

  // The engine's list of open scanners; guarded by Engine::scanners_mu_.
  friend class Engine;
  Scanner* registry_prev_ = nullptr;
  Scanner* registry_next_ = nullptr;
};

}  // namespace basalt::engine

#endif  // BASALT_ENGINE_SCANNER_H_
