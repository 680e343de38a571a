#include "engine/compaction_filter.h"

#include <algorithm>
#include <cstdint>

#include "engine/key_format.h"
#include "util/clock.h"

namespace basalt::engine {

CellCompactionFilter::CellCompactionFilter(std::shared_ptr<const FamilySettings> settings,
                                           bool full_compaction, int64_t now_ms)
    : settings_(std::move(settings)),
      full_(full_compaction),
      clear_sequences_(full_compaction &&
                       settings_->keep_deleted_cells == KeepDeletedCells::kFalse),
      now_ms_(now_ms) {}

rocksdb::CompactionFilter::Decision CellCompactionFilter::FilterV2(
    int /*level*/, const rocksdb::Slice& key, ValueType value_type,
    const rocksdb::Slice& existing_value, std::string* new_value,
    std::string* /*skip_until*/) const {
  if (value_type != ValueType::kValue) return Decision::kKeep;
  Decision d = const_cast<CellCompactionFilter*>(this)->Decide(key, existing_value, new_value);
  if (d == Decision::kRemove) ++dropped_;
  if (d == Decision::kChangeValue) ++sequences_cleared_;
  return d;
}

bool CellCompactionFilter::DropMarker(int64_t ts) const {
  const FamilySettings& s = *settings_;
  if (s.keep_deleted_cells == KeepDeletedCells::kTrue) return false;
  // Everything a marker covers is at or before its timestamp, so once the marker has expired
  // so has all it covers.
  if (s.min_versions == 0 && s.Expired(ts, now_ms_)) return true;
  if (s.keep_deleted_cells == KeepDeletedCells::kTtl) return false;
  return full_;
}

rocksdb::CompactionFilter::Decision CellCompactionFilter::Decide(const rocksdb::Slice& key,
                                                                 const rocksdb::Slice& value,
                                                                 std::string* new_value) {
  ParsedKey pk;
  ParsedValue pv;
  if (!ParseKey({key.data(), key.size()}, &pk) || !ParseValue({value.data(), value.size()}, &pv)) {
    return Decision::kKeep;
  }
  State& st = state_;
  if (pk.row_prefix != st.row_prefix) {
    st.row_prefix.assign(pk.row_prefix);
    st.family_deletes.clear();
    st.family_version_deletes.clear();
    st.column_prefix.clear();
  }
  if (pk.family_marker) {
    auto& list = pk.type == CellType::kDeleteFamily ? st.family_deletes : st.family_version_deletes;
    list.push_back({pk.timestamp, pv.seq});
    return DropMarker(pk.timestamp) ? Decision::kRemove : Decision::kKeep;
  }
  if (pk.column_prefix != st.column_prefix) {
    st.column_prefix.assign(pk.column_prefix);
    st.column_delete_seq = 0;
    st.version_delete_ts = -1;
    st.version_delete_seq = 0;
    st.rank = 0;
    st.min_ranked_seq = UINT64_MAX;
  }
  switch (pk.type) {
    case CellType::kDeleteColumn:
      st.column_delete_seq = std::max(st.column_delete_seq, pv.seq);
      return DropMarker(pk.timestamp) ? Decision::kRemove : Decision::kKeep;
    case CellType::kDelete:
      if (pk.timestamp == st.version_delete_ts) {
        st.version_delete_seq = std::max(st.version_delete_seq, pv.seq);
      } else {
        st.version_delete_ts = pk.timestamp;
        st.version_delete_seq = pv.seq;
      }
      return DropMarker(pk.timestamp) ? Decision::kRemove : Decision::kKeep;
    case CellType::kPut:
      break;
    default:
      return Decision::kKeep;
  }

  const FamilySettings& s = *settings_;
  const int64_t ts = pk.timestamp;
  const uint64_t seq = pv.seq;
  bool masked =
      seq < st.column_delete_seq || (ts == st.version_delete_ts && seq < st.version_delete_seq);
  for (const Marker& m : st.family_deletes) masked = masked || (ts <= m.ts && seq < m.seq);
  for (const Marker& m : st.family_version_deletes) masked = masked || (ts == m.ts && seq < m.seq);
  const bool expired = s.Expired(ts, now_ms_);
  if (masked) {
    if (s.keep_deleted_cells == KeepDeletedCells::kFalse) return Decision::kRemove;
    return expired && s.min_versions == 0 ? Decision::kRemove : Decision::kKeep;
  }
  ++st.rank;
  // See the header: final when every marker is here, or when this Put is no newer in the write
  // order than any above it (a marker hiding one of those hides it too).
  const bool rank_is_final = full_ || seq <= st.min_ranked_seq;
  st.min_ranked_seq = std::min(st.min_ranked_seq, seq);
  const int32_t allowed = expired ? s.min_versions : s.max_versions;
  if (st.rank > allowed && rank_is_final) return Decision::kRemove;
  if (clear_sequences_ && (pv.seq != 0 || value.size() - pv.payload.size() != 1)) {
    // A surviving Put's sequence number only ranks it against markers. Every marker with a
    // smaller number is in this compaction and is dropped by it, and every marker still to come
    // gets a larger one, so 0 hides the same cells from the same markers and costs one byte.
    // (A format-1 value is rewritten to format 2 on the way.)
    new_value->clear();
    AppendValueHeader(new_value, 0);
    new_value->append(pv.payload.data(), pv.payload.size());
    return Decision::kChangeValue;
  }
  return Decision::kKeep;
}

std::unique_ptr<rocksdb::CompactionFilter> CellCompactionFilterFactory::CreateCompactionFilter(
    const rocksdb::CompactionFilter::Context& context) {
  return std::make_unique<CellCompactionFilter>(settings_->Get(), context.is_full_compaction,
                                                util::MonotonicWallMillis());
}

}  // namespace basalt::engine
