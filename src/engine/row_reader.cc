#include "engine/row_reader.h"

#include <rocksdb/iterator.h>

#include <iterator>

#include "engine/key_format.h"
#include "engine/rocksdb_status.h"
#include "util/coding.h"

namespace basalt::engine {
namespace {

// Nexts tried before a Seek when skipping the rest of a column or row; a Seek costs about as
// much as a few Nexts.
constexpr int kSkipNexts = 4;

bool StartsWith(const rocksdb::Slice& s, std::string_view prefix) {
  return s.size() >= prefix.size() && util::BytesEqual(s.data(), prefix.data(), prefix.size());
}

std::string_view View(const rocksdb::Slice& s) {
  return {s.data(), s.size()};
}

void DecodeSuffix(const rocksdb::Slice& key, int64_t* ts, uint8_t* type_code) {
  const char* suffix = key.data() + key.size() - kKeySuffixSize;
  *ts = INT64_MAX - static_cast<int64_t>(util::DecodeFixed64BE(suffix));
  *type_code = static_cast<uint8_t>(0xff - static_cast<uint8_t>(suffix[8]));
}

}  // namespace

FamilyRowReader::FamilyRowReader(rocksdb::Iterator* it, const std::string& family_name,
                                 const FamilySettings& settings, const ReadSpec& spec,
                                 const std::set<std::string>* qualifiers,
                                 std::string* column_buffer)
    : it_(it),
      family_(family_name),
      settings_(settings),
      spec_(spec),
      qualifiers_(qualifiers != nullptr && !qualifiers->empty() ? qualifiers : nullptr),
      column_prefix_(column_buffer != nullptr ? *column_buffer : own_column_buffer_),
      ceiling_(spec.filter != nullptr ? spec.filter->Ceiling() : nullptr) {
  Sync();
}

void FamilyRowReader::StartRow(std::string_view row_prefix, const std::string& row) {
  row_prefix_ = row_prefix;
  row_ = &row;
  family_deletes_.clear();
  family_version_deletes_.clear();
  family_cells_seen_ = 0;
  if (qualifiers_ != nullptr) next_qualifier_ = qualifiers_->begin();
  stage_ = Stage::kMarkers;
  // The first-key shortcuts judge the row's first key as its column's first (Judge).
  ResetColumn();
}

void FamilyRowReader::ResetColumn() {
  column_delete_seq_ = 0;
  version_delete_ts_ = -1;
  version_delete_seq_ = 0;
  rank_ = 0;
  returned_ = 0;
}

inline bool FamilyRowReader::AnyMarker() const {
  return column_delete_seq_ != 0 || version_delete_ts_ >= 0 || !family_deletes_.empty() ||
         !family_version_deletes_.empty();
}

inline FamilyRowReader::Verdict FamilyRowReader::Judge(int64_t ts, uint64_t seq) const {
  // Most rows have no family marker: the lists are not walked for them.
  if (seq < column_delete_seq_ || (ts == version_delete_ts_ && seq < version_delete_seq_) ||
      ((!family_deletes_.empty() || !family_version_deletes_.empty()) && MaskedByFamily(ts, seq))) {
    return Verdict::kMasked;
  }
  const int32_t allowed =
      settings_.Expired(ts, spec_.now_ms) ? settings_.min_versions : settings_.max_versions;
  // Older versions rank lower and are as expired or more, and older than the range too.
  if (rank_ + 1 > allowed || ts < spec_.time_range.min) return Verdict::kColumnDone;
  return ts < spec_.time_range.max ? Verdict::kVisible : Verdict::kTooNew;
}

bool FamilyRowReader::InRow() const {
  return valid_ && StartsWith(key_, row_prefix_);
}

void FamilyRowReader::Sync() {
  valid_ = it_->Valid();
  key_ = valid_ ? it_->key() : rocksdb::Slice();
}

void FamilyRowReader::Step() {
  it_->Next();
  ++steps_;
  Sync();
}

void FamilyRowReader::SeekTo(std::string_view target) {
  it_->Seek(rocksdb::Slice(target.data(), target.size()));
  ++steps_;
  Sync();
}

void FamilyRowReader::Fail(Status s) {
  if (status_.ok()) status_ = std::move(s);
  stage_ = Stage::kDone;
}

bool FamilyRowReader::Read(CellBuffer* out, size_t budget) {
  // One version per column, all of the row at once, nothing to offer a filter: each column's
  // newest cell may be read from the column's first key (ReadFirstPut, TakeColumnFirstPut),
  // counted against the per-family offset (a feed inbox's trim steps over its first 1,000).
  const bool first_puts = budget == 0 && !probing_ && ReadsNewestOnly();
  if (stage_ == Stage::kMarkers && first_puts) ReadFirstPut(out);
  const size_t start = out->size();
  while (status_.ok() && stage_ != Stage::kDone) {
    switch (stage_) {
      case Stage::kMarkers:
        ReadFamilyMarkers(out);
        if (stage_ == Stage::kMarkers) stage_ = Stage::kNextColumn;
        break;
      case Stage::kNextColumn:
        stage_ = NextColumn() ? Stage::kInColumn : Stage::kDone;
        break;
      case Stage::kInColumn: {
        size_t used = out->size() - start;
        if (budget != 0 && used >= budget) return false;
        if (first_puts && TakeColumnFirstPut(out)) break;
        if (!ReadColumn(out, budget == 0 ? 0 : budget - used)) return false;
        if (stage_ == Stage::kInColumn) stage_ = Stage::kNextColumn;
        break;
      }
      case Stage::kDone:
        break;
    }
  }
  // A failed iterator turns invalid, which looks like the end of the row: report the failure
  // instead of a short row. Only an invalid iterator is asked (a valid one's status() walks every
  // merged child).
  if (status_.ok() && !valid_ && !it_->status().ok()) {
    Fail(FromRocks(it_->status()));
  }
  return true;
}

bool FamilyRowReader::HasVisibleCell() {
  int64_t ts;
  // No payload asked for: a row only stepped over leaves its value unread.
  if (FirstKeyIsVisiblePut(&ts, nullptr)) {
    stage_ = Stage::kDone;
    return true;
  }
  CellBuffer unused;  // probing emits nothing
  probing_ = true;
  found_ = false;
  Read(&unused, 0);
  probing_ = false;
  return found_;
}

void FamilyRowReader::ReadFirstPut(CellBuffer* out) {
  int64_t ts;
  std::string_view payload;
  if (!FirstKeyIsVisiblePut(&ts, &payload)) return;
  // What NextColumn and ReadColumn would do with this key: open its column, emit the version,
  // and (one version read) skip the column's older ones.
  if (qualifiers_ == nullptr) {
    OpenKeysColumn();
  } else {
    // FirstKeyIsVisiblePut built the first selected column's prefix and found the key in it.
    qualifier_.assign(*next_qualifier_);
    escaped_qualifier_.clear();
    ++next_qualifier_;
  }
  EmitNewestAndSkipColumn(out, ts, payload);
}

bool FamilyRowReader::FirstKeyIsVisiblePut(int64_t* ts, std::string_view* payload) {
  if (stage_ != Stage::kMarkers || spec_.no_fast_paths || spec_.raw || spec_.filter != nullptr ||
      spec_.row_offset_per_family != 0 || spec_.max_results_per_family == 0 || !InRow()) {
    return false;
  }
  const size_t p = row_prefix_.size();
  // Not a column's first key: truncated, or a family marker (00 00 after the row), which
  // ReadFamilyMarkers reads first.
  if (key_.size() < p + 2 + kKeySuffixSize || (key_[p] == 0 && key_[p + 1] == 0)) return false;
  if (qualifiers_ != nullptr) {
    // Columns named: the key must be in the first of them, which NextColumn would open first;
    // a row whose first key is in another column takes the full rules.
    column_prefix_.assign(row_prefix_);
    AppendQualifier(&column_prefix_, *next_qualifier_);
    if (key_.size() != column_prefix_.size() + kKeySuffixSize ||
        !StartsWith(key_, column_prefix_)) {
      return false;
    }
  }
  return ColumnStartIsVisiblePut(ts, payload);
}

inline bool FamilyRowReader::ColumnStartIsVisiblePut(int64_t* ts, std::string_view* payload) {
  uint8_t type;
  DecodeSuffix(key_, ts, &type);
  if (type != static_cast<uint8_t>(CellType::kPut)) return false;  // a marker: ReadColumn's
  // With no marker read for the row, no sequence number hides the Put: a row only stepped over
  // leaves its value unread.
  uint64_t seq = 0;
  if (payload != nullptr || AnyMarker()) {
    // An undecodable value is reported by the full rules, as Read would report it.
    ParsedValue value;
    if (!ParseValue(View(it_->value()), &value)) return false;
    seq = value.seq;
    if (payload != nullptr) *payload = value.payload;
  }
  return Judge(*ts, seq) == Verdict::kVisible;
}

bool FamilyRowReader::TakeColumnFirstPut(CellBuffer* out) {
  if (!valid_ || key_.size() != column_prefix_.size() + kKeySuffixSize ||
      !StartsWith(key_, column_prefix_)) {
    return false;
  }
  int64_t ts;
  std::string_view payload;
  if (!ColumnStartIsVisiblePut(&ts, &payload)) return false;
  EmitNewestAndSkipColumn(out, ts, payload);
  return true;
}

void FamilyRowReader::EmitNewestAndSkipColumn(CellBuffer* out, int64_t ts,
                                              std::string_view payload) {
  // Within the per-family offset the cell is counted, not emitted; NextColumn enforces the limit.
  if (TakeFamilySlot()) Emit(out, ts, CellType::kPut, payload);
  stage_ = Stage::kNextColumn;
  SkipColumn();  // may end the family: the last selected column is read
}

void FamilyRowReader::ReadFamilyMarkers(CellBuffer* out) {
  const size_t marker_key_size = row_prefix_.size() + 2 + kKeySuffixSize;
  while (InRow()) {
    const rocksdb::Slice key = key_;
    if (key.size() != marker_key_size || key[row_prefix_.size()] != 0 ||
        key[row_prefix_.size() + 1] != 0) {
      return;  // the first column key: markers are over
    }
    int64_t ts;
    uint8_t type;
    DecodeSuffix(key, &ts, &type);
    ParsedValue value;
    if (!ParseValue(View(it_->value()), &value)) {
      Fail(Status::Corruption("undecodable delete marker value in family " + family_));
      return;
    }
    if (spec_.raw) {
      if (spec_.time_range.Contains(ts)) {
        qualifier_.clear();
        escaped_qualifier_.clear();
        bool counted;
        if (Offer(out, ts, static_cast<CellType>(type), {}, &counted) == After::kEndFamily) {
          stage_ = Stage::kDone;
          return;
        }
      }
    } else if (!IgnoreMarker(ts)) {
      if (type == static_cast<uint8_t>(CellType::kDeleteFamily)) {
        family_deletes_.push_back({ts, value.seq});
      } else if (type == static_cast<uint8_t>(CellType::kDeleteFamilyVersion)) {
        family_version_deletes_.push_back({ts, value.seq});
      } else {
        Fail(Status::Corruption("unexpected cell type in the family-marker section"));
        return;
      }
    }
    Step();
  }
}

void FamilyRowReader::OpenKeysColumn() {
  column_prefix_.assign(key_.data(), key_.size() - kKeySuffixSize);
  SetKeysQualifier();
}

void FamilyRowReader::SetKeysQualifier() {
  const std::string_view escaped(key_.data() + row_prefix_.size(),
                                 key_.size() - row_prefix_.size() - kKeySuffixSize);
  // Rows of one table mostly repeat the same column names: unescape only a new one.
  if (escaped != escaped_qualifier_) {
    escaped_qualifier_.assign(escaped);
    UnescapeInto(escaped, &qualifier_);
  }
}

bool FamilyRowReader::NextColumn() {
  if (spec_.max_results_per_family >= 0 &&
      family_cells_seen_ >= spec_.row_offset_per_family + spec_.max_results_per_family) {
    return false;
  }
  if (qualifiers_ == nullptr) {
    if (!InRow()) return false;
    if (key_.size() < row_prefix_.size() + 2 + kKeySuffixSize) {
      Fail(Status::Corruption("truncated cell key in family " + family_));
      return false;
    }
    OpenKeysColumn();
  } else {
    while (true) {
      if (next_qualifier_ == qualifiers_->end() || !valid_) return false;
      column_prefix_.assign(row_prefix_);
      AppendQualifier(&column_prefix_, *next_qualifier_);
      ++next_qualifier_;
      // A selected column a few keys on (past a column not selected, such as a feed post's
      // mark before its text) is reached with Nexts, a farther one with a Seek.
      auto before_column = [&] { return key_.compare(rocksdb::Slice(column_prefix_)) < 0; };
      for (int i = 0; i < kSkipNexts && InRow() && before_column(); ++i) Step();
      if (InRow() && before_column()) SeekTo(column_prefix_);
      if (!valid_) return false;
      if (StartsWith(key_, column_prefix_)) break;
      if (!InRow()) return false;  // past the row: no selected column remains
    }
    // A selected column's name is known: no need to unescape it from the key.
    qualifier_.assign(*std::prev(next_qualifier_));
    escaped_qualifier_.clear();
  }
  // The filter keeps nothing from here on: the family ends without walking the rest of its
  // columns (in a trimmed feed inbox, the markers of every earlier trim).
  if (ceiling_ != nullptr && !ceiling_->Below(qualifier_)) return false;
  ResetColumn();
  return true;
}

bool FamilyRowReader::ReadColumn(CellBuffer* out, size_t budget) {
  const size_t start = out->size();
  const size_t key_size = column_prefix_.size() + kKeySuffixSize;
  const TimeRange& range = spec_.time_range;
  while (valid_) {
    const rocksdb::Slice key = key_;
    if (key.size() != key_size || !StartsWith(key, column_prefix_)) return true;
    int64_t ts;
    uint8_t type;
    DecodeSuffix(key, &ts, &type);
    ParsedValue value;
    if (!ParseValue(View(it_->value()), &value)) {
      Fail(Status::Corruption("undecodable cell value in family " + family_));
      return true;
    }
    bool emitted = false;
    if (spec_.raw) {
      if (ts < range.min) {
        SkipColumn();
        return true;
      }
      if (ts < range.max &&
          TakeVersion(out, ts, static_cast<CellType>(type), value.payload, &emitted)) {
        return true;
      }
    } else if (type == static_cast<uint8_t>(CellType::kDeleteColumn)) {
      if (!IgnoreMarker(ts)) column_delete_seq_ = std::max(column_delete_seq_, value.seq);
    } else if (type == static_cast<uint8_t>(CellType::kDelete)) {
      if (!IgnoreMarker(ts)) {
        if (ts == version_delete_ts_) {
          version_delete_seq_ = std::max(version_delete_seq_, value.seq);
        } else {
          version_delete_ts_ = ts;
          version_delete_seq_ = value.seq;
        }
      }
    } else if (type == static_cast<uint8_t>(CellType::kPut)) {
      const Verdict verdict = Judge(ts, value.seq);
      if (verdict != Verdict::kMasked) ++rank_;
      if (verdict == Verdict::kColumnDone) {
        SkipColumn();
        return true;
      }
      if (verdict == Verdict::kVisible &&
          TakeVersion(out, ts, CellType::kPut, value.payload, &emitted)) {
        return true;
      }
    } else {
      Fail(Status::Corruption("unexpected cell type " + std::to_string(type) + " in family " +
                              family_));
      return true;
    }
    if (spec_.max_results_per_family >= 0 &&
        family_cells_seen_ >= spec_.row_offset_per_family + spec_.max_results_per_family) {
      stage_ = Stage::kDone;
      return true;
    }
    Step();
    if (emitted && budget != 0 && out->size() - start >= budget) return false;
  }
  return true;
}

bool FamilyRowReader::TakeVersion(CellBuffer* out, int64_t ts, CellType type,
                                  std::string_view payload, bool* emitted) {
  const size_t before = out->size();
  bool counted;
  After after = Offer(out, ts, type, payload, &counted);
  *emitted = out->size() > before;
  if (counted && ++returned_ >= spec_.max_versions && after == After::kNextVersion) {
    after = After::kNextColumn;  // every older version is beyond the read's limit
  }
  if (after == After::kNextVersion) return false;
  Follow(after);
  return true;
}

void FamilyRowReader::SkipColumn() {
  if (qualifiers_ != nullptr && next_qualifier_ == qualifiers_->end()) {
    // The last selected column is done, so is the row: skipping the column's older versions
    // would only look at keys nobody reads. The iterator stays inside the row, which
    // SkipToRowEnd allows; a point Get of one column then costs one Seek and no Next.
    stage_ = Stage::kDone;
    return;
  }
  Step();
  SkipRestOfColumn(1);
}

void FamilyRowReader::SkipRestOfColumn(int steps) {
  for (; steps < kSkipNexts; ++steps) {
    if (!valid_ || !StartsWith(key_, column_prefix_)) return;
    Step();
  }
  if (valid_ && StartsWith(key_, column_prefix_)) SeekTo(ColumnEnd(column_prefix_));
}

bool FamilyRowReader::ReadsNewestOnly() const {
  return !spec_.no_fast_paths && !spec_.raw && spec_.filter == nullptr && spec_.max_versions == 1;
}

bool FamilyRowReader::TakesFirstPuts() const {
  return ReadsNewestOnly() && spec_.row_offset_per_family == 0 &&
         spec_.max_results_per_family != 0 && qualifiers_ == nullptr;
}

FamilyRowReader::FirstPut FamilyRowReader::TakeFirstPut(CellBuffer* out) {
  int64_t ts;
  std::string_view payload;
  if (!FirstKeyIsVisiblePut(&ts, out == nullptr ? nullptr : &payload)) return FirstPut::kNotTaken;
  // ReadFirstPut's work, without building the column's key prefix unless the row goes on.
  if (out != nullptr) {
    SetKeysQualifier();
    ++family_cells_seen_;
    Emit(out, ts, CellType::kPut, payload);
  }
  Step();
  if (!valid_ || !StartsWith(key_, row_prefix_)) {
    stage_ = Stage::kDone;
    return FirstPut::kRowRead;
  }
  if (out == nullptr) return FirstPut::kRowGoesOn;
  column_prefix_.assign(row_prefix_);
  column_prefix_.append(escaped_qualifier_);
  stage_ = Stage::kNextColumn;
  SkipRestOfColumn(1);  // one version per column is read
  return FirstPut::kRowGoesOn;
}

void FamilyRowReader::SkipToRowEnd() {
  steps_ += SkipPast(row_prefix_);
}

int FamilyRowReader::SkipPast(std::string_view row_prefix) {
  int steps = 0;
  for (; steps < kSkipNexts; ++steps) {
    if (!valid_ || !StartsWith(key_, row_prefix)) return steps;
    it_->Next();
    Sync();
  }
  if (valid_ && StartsWith(key_, row_prefix)) {
    it_->Seek(RowPrefixEnd(row_prefix));
    Sync();
    ++steps;
  }
  return steps;
}

bool FamilyRowReader::MaskedByFamily(int64_t ts, uint64_t seq) const {
  for (const Marker& m : family_deletes_) {
    if (ts <= m.ts && seq < m.seq) return true;
  }
  for (const Marker& m : family_version_deletes_) {
    if (ts == m.ts && seq < m.seq) return true;
  }
  return false;
}

bool FamilyRowReader::IgnoreMarker(int64_t marker_ts) const {
  return settings_.keep_deleted_cells != KeepDeletedCells::kFalse &&
         marker_ts >= spec_.time_range.max;
}

bool FamilyRowReader::TakeFamilySlot() {
  int32_t index = family_cells_seen_++;
  if (index < spec_.row_offset_per_family) return false;
  return spec_.max_results_per_family < 0 ||
         index < spec_.row_offset_per_family + spec_.max_results_per_family;
}

FamilyRowReader::After FamilyRowReader::Offer(CellBuffer* out, int64_t ts, CellType type,
                                              std::string_view payload, bool* counted) {
  filter::FilterState* filter = spec_.filter;
  // Below a ceiling that keeps every cell (NextColumn ends the family at it), as with no filter.
  if (filter == nullptr || (ceiling_ != nullptr && ceiling_->keeps_all_below)) {
    *counted = true;
    if (TakeFamilySlot()) {
      if (probing_) {
        found_ = true;
        return After::kEndFamily;
      }
      Emit(out, ts, type, payload);
    }
    return After::kNextVersion;
  }
  // The filter judges the cell as the caller would see it; take it back if it is left out.
  Cell& cell = Emit(out, ts, type, payload);
  filter::CellVerdict verdict = filter->FilterCell(cell, &seek_qualifier_);
  *counted = filter::IsInclude(verdict);
  if (*counted && TakeFamilySlot()) {
    filter->TransformCell(&cell);
  } else {
    out->PopBack();
  }
  // A filter that is done with the whole scan (ColumnCountGetFilter, WhileMatchFilter) is also
  // done with this row: the caller stops reading the row's other families too.
  if (filter->FilterAllRemaining()) return After::kEndFamily;
  switch (verdict) {
    case filter::CellVerdict::kInclude:
    case filter::CellVerdict::kSkip:
      return After::kNextVersion;
    case filter::CellVerdict::kIncludeAndNextColumn:
    case filter::CellVerdict::kNextColumn:
      return After::kNextColumn;
    case filter::CellVerdict::kSeekColumn:
      return After::kSeekColumn;
    case filter::CellVerdict::kIncludeAndNextRow:
    case filter::CellVerdict::kNextRow:
      return After::kEndFamily;
  }
  return After::kNextVersion;
}

void FamilyRowReader::Follow(After after) {
  switch (after) {
    case After::kNextVersion:
      return;
    case After::kNextColumn:
      SkipColumn();
      return;
    case After::kEndFamily:
      stage_ = Stage::kDone;
      return;
    case After::kSeekColumn: {
      // Only forward: a hint at or before this column means "the next column".
      if (seek_qualifier_ <= qualifier_) {
        SkipColumn();
        return;
      }
      std::string target(row_prefix_);
      AppendQualifier(&target, seek_qualifier_);
      SeekTo(target);
      return;
    }
  }
}

Cell& FamilyRowReader::Emit(CellBuffer* out, int64_t ts, CellType type, std::string_view payload) {
  Cell& c = out->Append();
  c.row = *row_;
  c.family = family_;
  c.qualifier = qualifier_;
  c.timestamp = ts;
  c.type = type;
  c.value.assign(payload);
  return c;
}

}  // namespace basalt::engine
