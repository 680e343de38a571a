// FamilyRowReader: turns the stored cells of one row in one family into the cells a read sees.
//
// Visibility rules, applied per column while walking its cells newest first:
//   1. A Put is masked when a delete marker written after it (larger seq) covers it:
//      DeleteFamily / DeleteColumn at ts T cover versions with timestamp <= T;
//      DeleteFamilyVersion / Delete at ts T cover the version at exactly T.
//      With KEEP_DELETED_CELLS (TRUE or TTL), markers at or after the read's time-range end are
//      ignored, so reads "as of" an earlier time see deleted cells.
//   2. Unmasked Puts are ranked newest first. A Put ranked beyond the family's VERSIONS is not
//      visible; an expired Put (TTL) is visible only while ranked within MIN_VERSIONS.
//   3. Of the visible Puts, those in the read's time range are returned, at most the read's
//      max versions per column.
// Raw reads skip 1-3 and return every stored cell (markers included) in the time range.
// Rules 1 and 2, and the time range of 3, are stated once, in Judge: the per-column state machine
// (ReadColumn) asks it of every Put, and each shortcut that takes a row or a column from its first
// key asks it of that key, with the reader in the state the state machine would be in there.
//
// The reader is resumable: Read() can stop after a number of cells and continue later, so a
// scan with a batch size streams a wide row instead of loading it.

#ifndef BASALT_ENGINE_ROW_READER_H_
#define BASALT_ENGINE_ROW_READER_H_

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <rocksdb/slice.h>

#include "basalt/cell.h"
#include "basalt/status.h"
#include "basalt/types.h"
#include "engine/cell_buffer.h"
#include "engine/family_settings.h"
#include "filter/filter_state.h"

namespace rocksdb {
class Iterator;
}

namespace basalt::engine {

struct ReadSpec {
  int32_t max_versions = 1;
  TimeRange time_range;
  bool raw = false;
  int64_t now_ms = 0;
  int32_t max_results_per_family = -1;  // < 0: no limit
  int32_t row_offset_per_family = 0;
  // The read's filter, shared by every family of the row; nullptr: none. Not owned.
  filter::FilterState* filter = nullptr;
  // No first-key shortcut: the per-column rules decide every cell (for tests; see
  // EngineOptions::TEST_no_read_fast_paths).
  bool no_fast_paths = false;
};

class FamilyRowReader {
 public:
  // `qualifiers` selects columns (nullptr or empty: all). `family_name`, `settings` and
  // `qualifiers` must outlive the reader (they belong to the table's schema snapshot).
  //
  // The reader keeps its own view of the iterator's position (see Sync): whoever moves the
  // iterator other than through the reader calls Sync() before using the reader again.
  //
  // `column_buffer`, when given, is where the reader builds column keys: a caller making a reader
  // per read lends it one that has grown before. It must outlive the reader.
  FamilyRowReader(rocksdb::Iterator* it, const std::string& family_name,
                  const FamilySettings& settings, const ReadSpec& spec,
                  const std::set<std::string>* qualifiers, std::string* column_buffer = nullptr);

  // Re-reads the iterator's position after it was moved from outside the reader.
  void Sync();
  // The iterator's validity and key as of the reader's last move or Sync().
  bool valid() const { return valid_; }
  const rocksdb::Slice& key() const { return key_; }

  // Moves the iterator past every key that starts with `row_prefix` (a few Nexts, then a
  // Seek), keeping the reader's view current. Returns the iterator steps taken.
  int SkipPast(std::string_view row_prefix);

  // Starts a row. REQUIRES: the iterator is at the first key of the row in this family, or at
  // a key after the row (then the family has nothing for it). `row` is the unescaped row key.
  // `row_prefix` and `row` are the caller's and must stay valid until the row has been read.
  void StartRow(std::string_view row_prefix, const std::string& row);

  // Appends up to `budget` cells (0: no limit) to `out`. Returns true when the family has no
  // more cells for this row. REQUIRES: only the reader has moved the iterator since StartRow.
  bool Read(CellBuffer* out, size_t budget);

  // Whether Read would append at least one cell for this row, found without building it: reads
  // up to the first such cell and stops there (inside the row). A row whose first key is that
  // cell is judged by its key alone: its value, which a skip does not return, is not decoded. The
  // row key passed to StartRow is not used, so it may be left unset. REQUIRES: the read has no
  // filter (a filter judges the cells it is shown), and Read has not been called since StartRow.
  bool HasVisibleCell();

  // Leaves the iterator at the first key after the row (Read may stop early).
  void SkipToRowEnd();

  // Whether the read is one a scanner may take row by row with TakeFirstPut: every column's
  // newest version, of every column, with no filter and no per-family offset, not raw.
  bool TakesFirstPuts() const;

  enum class FirstPut {
    kNotTaken,   // the first key alone does not decide the row: nothing moved, Read decides
    kRowRead,    // the first key was the row's only key: the iterator is past the row
    kRowGoesOn,  // the row has more keys: Read continues it after the first cell
  };
  // The scanner's shortcut for the common row of a table of one cell per row, taken when
  // TakesFirstPuts(): when the row's first key is a Put the read returns, appends it to `out`
  // and steps past it and its column's older versions; Read then returns the rest of the row.
  // With a null `out` the key is only judged and its value is not read: on kRowGoesOn the row
  // is visible and the caller skips the rest of it (SkipPast). REQUIRES: StartRow was just
  // called, and the iterator's key starts with the row prefix.
  FirstPut TakeFirstPut(CellBuffer* out);

  // Non-OK when a stored key or value did not decode, or the iterator failed.
  const Status& status() const { return status_; }

  // Iterator steps (Next and Seek calls) taken so far: what the read cost in keys visited.
  int64_t steps() const { return steps_; }

 private:
  enum class Stage { kMarkers, kNextColumn, kInColumn, kDone };
  // Where the reader goes after a cell was offered to the filter.
  enum class After { kNextVersion, kNextColumn, kSeekColumn, kEndFamily };

  struct Marker {
    int64_t ts;
    uint64_t seq;
  };

  bool InRow() const;
  // Judge's verdict on a Put of the open column.
  enum class Verdict {
    kMasked,      // a delete marker read before it covers it: it does not rank
    kVisible,     // ranks within what the family keeps and is in the time range: offered
    kTooNew,      // ranks, but is newer than the time range: not returned
    kColumnDone,  // beyond VERSIONS, expired beyond MIN_VERSIONS, or older than the time range:
                  // so is every older version of the column
  };
  // The visibility rules (rules 1 and 2 above, and the read's time range) for a Put of the open
  // column at `ts`, written at `seq`, given the markers of the row and of the column read before
  // it and the rank_ Puts that rank before it.
  inline Verdict Judge(int64_t ts, uint64_t seq) const;
  // Whether a marker that could hide a Put has been read for this row (a Put's seq matters).
  inline bool AnyMarker() const;
  // The column state of a column not yet read: no column marker, no Put ranked or returned.
  void ResetColumn();
  // The shortcuts' question, put to Judge: whether the current key, a Put at its column's
  // first key, is one the read returns as the column's newest version. True with its timestamp
  // and value (a view into the iterator's); false says nothing, and the state machine decides.
  // A null `payload` leaves the value unread where no marker was read, and so unchecked.
  inline bool ColumnStartIsVisiblePut(int64_t* ts, std::string_view* payload);
  // The shortcut for the common row, read from its first key alone: true (with the outputs of
  // ColumnStartIsVisiblePut) when that key is a Put the read returns (for a read naming
  // columns, a Put of the first column named), for a read whose per-family offset and limit do
  // not weigh on it.
  bool FirstKeyIsVisiblePut(int64_t* ts, std::string_view* payload);
  // Read's start when one version per column is read: emits the row's first cell and skips
  // its column's older versions if FirstKeyIsVisiblePut says so; else does nothing.
  void ReadFirstPut(CellBuffer* out);
  // ReadColumn's shortcut when one version is read: emits the column's first key and skips the
  // column when that key is a Put the read returns; else does nothing and returns false.
  // REQUIRES: NextColumn has just opened the column.
  bool TakeColumnFirstPut(CellBuffer* out);
  // The two shortcuts' end: emits the open column's newest version, a Put found visible, and
  // skips the column's older versions (ReadColumn's outcome for a one-version read).
  void EmitNewestAndSkipColumn(CellBuffer* out, int64_t ts, std::string_view payload);
  void Step();
  void SeekTo(std::string_view target);
  void ReadFamilyMarkers(CellBuffer* out);
  // Makes the current key's column the one being read (its key prefix and qualifier).
  // REQUIRES: the key is a cell key of the row.
  void OpenKeysColumn();
  // Sets qualifier_ (and escaped_qualifier_) to the current key's, un-escaping only a qualifier
  // other than the last one. REQUIRES: the key is a cell key of the row.
  void SetKeysQualifier();
  // One version per column, not raw, no filter: each column's newest Put may be read from the
  // column's first key.
  bool ReadsNewestOnly() const;
  // Positions on the next column to read; false when the row has no more selected columns.
  bool NextColumn();
  // Reads the current column until it ends or the budget is used; true when the column is done.
  bool ReadColumn(CellBuffer* out, size_t budget);
  void SkipColumn();
  // SkipColumn's steps from a key at or after the open column's first, `steps` Nexts taken.
  void SkipRestOfColumn(int steps);
  bool MaskedByFamily(int64_t ts, uint64_t seq) const;
  bool IgnoreMarker(int64_t marker_ts) const;
  // Counts a cell against the per-family offset and limit; false when it must not be emitted.
  bool TakeFamilySlot();
  // Offers a version in the read's time range to the filter and the limits, and moves on as
  // they say; true when the column is done.
  bool TakeVersion(CellBuffer* out, int64_t ts, CellType type, std::string_view payload,
                   bool* emitted);
  // Emits the cell unless the filter (or the per-family offset and limit) leaves it out.
  // `*counted`: the filter kept it, so it counts against the read's max versions.
  After Offer(CellBuffer* out, int64_t ts, CellType type, std::string_view payload, bool* counted);
  // Acts on a filter's After other than kNextVersion.
  void Follow(After after);
  Cell& Emit(CellBuffer* out, int64_t ts, CellType type, std::string_view payload);
  void Fail(Status s);

  rocksdb::Iterator* it_;
  // The iterator's validity and key since the last Sync(): a virtual call through RocksDB's
  // iterator wrappers each time costs a measurable part of a scan.
  bool valid_ = false;
  rocksdb::Slice key_;
  const std::string& family_;
  const FamilySettings& settings_;
  ReadSpec spec_;
  const std::set<std::string>* qualifiers_;

  Stage stage_ = Stage::kDone;
  std::string_view row_prefix_;  // the caller's; see StartRow
  const std::string* row_ = nullptr;
  std::vector<Marker> family_deletes_;
  std::vector<Marker> family_version_deletes_;
  std::set<std::string>::const_iterator next_qualifier_;
  int32_t family_cells_seen_ = 0;  // for the per-family offset/limit

  // The column being read. Its key prefix is built in the caller's buffer, or in the reader's.
  std::string own_column_buffer_;
  std::string& column_prefix_;
  std::string qualifier_;
  std::string escaped_qualifier_;   // E(qualifier_) 00 01, or empty
  uint64_t column_delete_seq_ = 0;  // max seq of DeleteColumn markers seen in this column
  int64_t version_delete_ts_ = -1;  // timestamp of the last Delete (one version) marker seen
  uint64_t version_delete_seq_ = 0;
  int32_t rank_ = 0;            // unmasked Puts seen
  int32_t returned_ = 0;        // cells returned from this column
  std::string seek_qualifier_;  // the filter's hint for kSeekColumn
  // The filter's qualifier ceiling (FilterState::Ceiling), or nullptr.
  const filter::QualifierCeiling* ceiling_;

  // HasVisibleCell is running: the first cell that would be emitted ends the read instead.
  bool probing_ = false;
  bool found_ = false;

  int64_t steps_ = 0;
  Status status_;
};

}  // namespace basalt::engine

#endif  // BASALT_ENGINE_ROW_READER_H_
