// Table: data operations on one table. Obtained from Connection::GetTable.
//
// Thread safety: a Table may be shared by many threads. A ResultScanner belongs to one thread at
// a time.
// Lifetime: a Table and its scanners must be destroyed before the Connection that made them.
//
// Every call that writes is atomic per row: all of a row's changes in one call become visible
// together or not at all. Table::Batch is atomic across its rows on the embedded backend.
// Unknown families, bad row keys, oversized values and writes to a disabled table fail with
// InvalidArgument, NotFound or FailedPrecondition and change nothing.

#ifndef BASALT_TABLE_H_
#define BASALT_TABLE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/check_and_mutate.h"
#include "basalt/get.h"
#include "basalt/mutation.h"
#include "basalt/row_result.h"
#include "basalt/scan.h"
#include "basalt/schema.h"
#include "basalt/status.h"

namespace basalt {

// What a scan did so far, in the spirit of HBase's ScanMetrics. A field a backend cannot count
// is -1.
struct ScanMetrics {
  int64_t rows_scanned = -1;   // rows the store positioned on, including rows it did not return
  int64_t rows_filtered = -1;  // rows scanned but not returned: a filter dropped them, or none
                               // of their cells was visible
  int64_t keys_visited = -1;   // storage iterator steps (seeks and nexts): the cost of the scan
};

// Streams the rows of a Scan. Rows are produced as the caller asks for them; nothing is
// buffered beyond the current row.
class ResultScanner {
 public:
  virtual ~ResultScanner() = default;

  // Fills `*out` with the next row (or row piece, with Scan::SetBatch) and returns true; returns
  // false at the end of the scan or on error, after which status() tells which.
  [[nodiscard]] virtual bool Next(RowResult* out) = 0;

  // Skips the next `n` rows the scan would return and returns how many it skipped: fewer than
  // `n` only at the end of the scan or on error (then status() tells which). Rows the scan
  // would not return (a filter drops them, or none of their cells is visible) do not count;
  // the scan's limit counts skipped rows as returned. With Scan::SetBatch, if the last Next()
  // returned a partial piece, the rest of that row is skipped first and counts as one of the
  // `n`. n <= 0 skips nothing.
  //
  // The default calls Next() until `n` pieces with partial() false have gone by. partial()
  // only says more of the row *may* follow (HBase's mayHaveMoreCellsInRow): with a batch and
  // several versions or families a row's last piece can say it, and the default then counts
  // that row together with the next; ReadOffsetPage therefore skips with Next when the scan has
  // a batch. The embedded backend counts rows exactly, and steps past each without copying its
  // cells, so skipping costs little more than the storage's own steps.
  virtual int64_t SkipRows(int64_t n);

  // OK unless the scan failed.
  virtual Status status() const = 0;

  // Releases the scanner's resources early; Next() then returns false. Idempotent.
  virtual void Close() = 0;

  // Counters of the work done so far. Default: nothing counted.
  virtual ScanMetrics metrics() const { return {}; }
};

class Table {
 public:
  virtual ~Table() = default;

  virtual const TableName& name() const = 0;

  // Writes the cells of one Put. REQUIRES: at least one cell.
  virtual Status Put(const basalt::Put& put) = 0;

  // Writes many Puts (HBase's Table.put(List<Put>), Thrift2's putMultiple). Every Put is
  // validated first; if one is invalid nothing is written. Atomic across rows on the embedded
  // backend, as Batch is. The default goes through Batch. For bulk loads, build each Put in its
  // place in the vector (`puts.emplace_back(row).Add(...)`): moving in a temporary Put costs
  // a few percent of a small Put's write.
  virtual Status Put(const std::vector<basalt::Put>& puts);

  // Applies the delete markers of one Delete (see mutation.h for what each kind hides).
  virtual Status Delete(const basalt::Delete& del) = 0;

  // The row's cells selected by `get`; an empty RowResult when there are none.
  virtual Result<RowResult> Get(const basalt::Get& get) = 0;

  // Get(get) into `*out`, whose row the caller is done with: the embedded backend overwrites its
  // cells in place, so a loop of point reads through one RowResult allocates little (as a
  // scanner's Next does). `*out` is empty when the row has none of the cells, or on error.
  // The default goes through Get(get).
  virtual Status GetInto(const basalt::Get& get, RowResult* out);

  // One RowResult per Get, in order.
  virtual Result<std::vector<RowResult>> Get(const std::vector<basalt::Get>& gets) = 0;

  // The newest value of the column `family:qualifier` in each of `rows`, in order; nullopt where
  // the row has no visible value (HBase's visibility, as a Get naming the column sees it). The
  // same as a multi-get of `Get(row).AddColumn(family, qualifier)` per row, without a Get and a
  // RowResult each: for hydrating many rows' one column (a page of posts' texts). Fails, reading
  // nothing, on the multi-get's errors (an unknown family, an empty or too long row key). The
  // default goes through Get(gets); the embedded backend reads every row through one iterator.
  virtual Result<std::vector<std::optional<std::string>>> GetColumnValues(
      std::string_view family, std::string_view qualifier, const std::vector<std::string>& rows);

  // Whether `get` would return at least one cell.
  virtual Result<bool> Exists(const basalt::Get& get) = 0;

  virtual Result<std::unique_ptr<ResultScanner>> GetScanner(const basalt::Scan& scan) = 0;

  // Atomically adds to counters and returns their new values (unless return_results is false).
  virtual Result<RowResult> Increment(const basalt::Increment& inc) = 0;

  // Atomically appends and returns the new values (unless return_results is false).
  virtual Result<RowResult> Append(const basalt::Append& app) = 0;

  // True when the check passed and the action was applied; false when it did not pass.
  virtual Result<bool> CheckAndMutate(const basalt::CheckAndMutate& cam) = 0;

  // Applies every mutation of one row atomically, in order.
  virtual Status MutateRow(const RowMutations& mutations) = 0;

  // Applies mutations to many rows. Every mutation is validated first; if one is invalid
  // nothing is written. Returns one RowResult per mutation (the new values for Increment and
  // Append, empty for the others).
  virtual Result<std::vector<RowResult>> Batch(const std::vector<Mutation>& mutations) = 0;

  // Convenience: increments one counter and returns its new value.
  Result<int64_t> IncrementColumnValue(std::string row, std::string family, std::string qualifier,
                                       int64_t amount,
                                       Durability durability = Durability::kUseDefault);
};

// Encodes a counter as HBase stores it: 8 bytes, big-endian two's complement.
std::string EncodeCounter(int64_t value);
// Decodes a counter cell value; InvalidArgument unless it is exactly 8 bytes.
Result<int64_t> DecodeCounter(std::string_view bytes);

}  // namespace basalt

#endif  // BASALT_TABLE_H_
