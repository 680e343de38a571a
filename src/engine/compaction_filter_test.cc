#include "engine/compaction_filter.h"

#include <gtest/gtest.h>

#include <optional>

#include "engine/key_format.h"

namespace basalt::engine {
namespace {

using Decision = rocksdb::CompactionFilter::Decision;
constexpr int64_t kNow = 1'000'000'000;

struct StoredCell {
  std::string key;
  uint64_t seq;
};

StoredCell Put(const std::string& row, const std::string& q, int64_t ts, uint64_t seq) {
  return {CellKey(row, q, ts, CellType::kPut), seq};
}
StoredCell Marker(const std::string& row, const std::string& q, int64_t ts, CellType type,
                  uint64_t seq) {
  if (type == CellType::kDeleteFamily || type == CellType::kDeleteFamilyVersion) {
    return {FamilyMarkerKey(row, ts, type), seq};
  }
  return {CellKey(row, q, ts, type), seq};
}

// Runs the filter over `cells` (sorted into key order, as a compaction would) and returns
// which survive, in key order.
std::vector<bool> Survivors(FamilySettings settings, bool full, std::vector<StoredCell> cells) {
  std::sort(cells.begin(), cells.end(),
            [](const StoredCell& a, const StoredCell& b) { return a.key < b.key; });
  CellCompactionFilter filter(std::make_shared<const FamilySettings>(settings), full, kNow);
  std::vector<bool> kept;
  for (const auto& c : cells) {
    std::string value = EncodeValue(c.seq, "v");
    std::string new_value, skip;
    auto d = filter.FilterV2(0, c.key, rocksdb::CompactionFilter::ValueType::kValue, value,
                             &new_value, &skip);
    kept.push_back(d != Decision::kRemove);
  }
  return kept;
}

// What the filter makes of one cell's stored value in a compaction holding only that cell:
// the value it keeps, or nullopt when it drops the cell.
std::optional<std::string> Compacted(FamilySettings settings, bool full, const std::string& key,
                                     const std::string& value) {
  CellCompactionFilter filter(std::make_shared<const FamilySettings>(settings), full, kNow);
  std::string new_value, skip;
  auto d = filter.FilterV2(0, key, rocksdb::CompactionFilter::ValueType::kValue, value, &new_value,
                           &skip);
  if (d == Decision::kRemove) return std::nullopt;
  return d == Decision::kChangeValue ? new_value : value;
}

TEST(CompactionFilterTest, DropsVersionsBeyondMaxVersions) {
  FamilySettings s;
  s.max_versions = 2;
  // Key order: ts 30, 20, 10.
  auto kept =
      Survivors(s, false, {Put("r", "q", 10, 1), Put("r", "q", 20, 2), Put("r", "q", 30, 3)});
  EXPECT_EQ(kept, (std::vector<bool>{true, true, false}));
}

TEST(CompactionFilterTest, APutWrittenAfterOneRankedAboveItWaitsForAFullCompaction) {
  FamilySettings s;
  s.max_versions = 1;
  // ts 8 (seq 1) may be hidden by a family delete at ts 9 (seq 2) in a file this compaction does
  // not hold; ts 7, written after that delete (seq 3), is then the visible version.
  const std::vector<StoredCell> cells{Put("r", "q", 8, 1), Put("r", "q", 7, 3)};
  EXPECT_EQ(Survivors(s, false, cells), (std::vector<bool>{true, true}));
  // A full compaction holds every marker: none hides ts 8, so ts 7 is a second version.
  EXPECT_EQ(Survivors(s, true, cells), (std::vector<bool>{true, false}));
  // With the delete seen, ts 8 drops and ts 7 is the one version.
  std::vector<StoredCell> with_marker = cells;
  with_marker.push_back(Marker("r", "", 9, CellType::kDeleteFamily, 2));
  EXPECT_EQ(Survivors(s, false, with_marker), (std::vector<bool>{true, false, true}));
}

TEST(CompactionFilterTest, MaskedPutsDropButDoNotCountTowardVersions) {
  FamilySettings s;
  s.max_versions = 1;
  // Delete (one version) of ts 30 written after it: 30 is masked, 20 is the visible version.
  auto kept = Survivors(
      s, false,
      {Put("r", "q", 20, 1), Put("r", "q", 30, 2), Marker("r", "q", 30, CellType::kDelete, 3)});
  // Key order: Delete@30, Put@30, Put@20.
  EXPECT_EQ(kept, (std::vector<bool>{true, false, true}));
}

TEST(CompactionFilterTest, MarkersSurvivePartialCompactionsAndDropInFullOnes) {
  FamilySettings s;
  std::vector<StoredCell> cells{Marker("r", "", 50, CellType::kDeleteFamily, 5),
                                Put("r", "a", 40, 1), Put("r", "b", 60, 2)};
  // Key order: marker, a@40 (masked), b@60 (newer than the marker).
  EXPECT_EQ(Survivors(s, false, cells), (std::vector<bool>{true, false, true}));
  EXPECT_EQ(Survivors(s, true, cells), (std::vector<bool>{false, false, true}));
}

TEST(CompactionFilterTest, PutWrittenAfterMarkerSurvives) {
  FamilySettings s;
  // DeleteColumn at ts 100 (seq 2) and a Put at ts 50 written after it (seq 3).
  auto kept =
      Survivors(s, true, {Marker("r", "q", 100, CellType::kDeleteColumn, 2), Put("r", "q", 50, 3)});
  EXPECT_EQ(kept, (std::vector<bool>{false, true}));
}

TEST(CompactionFilterTest, ExpiredCellsDropUnlessKeptByMinVersions) {
  FamilySettings s;
  s.max_versions = 5;
  s.ttl_ms = 1000;
  std::vector<StoredCell> cells{Put("r", "q", kNow - 5000, 1), Put("r", "q", kNow - 4000, 2),
                                Put("r", "q", kNow - 10, 3)};
  // Key order: fresh, -4000, -5000.
  EXPECT_EQ(Survivors(s, false, cells), (std::vector<bool>{true, false, false}));
  s.min_versions = 2;
  EXPECT_EQ(Survivors(s, false, cells), (std::vector<bool>{true, true, false}));
}

TEST(CompactionFilterTest, KeepDeletedCellsKeepsMarkersAndMaskedCells) {
  FamilySettings s;
  s.keep_deleted_cells = KeepDeletedCells::kTrue;
  std::vector<StoredCell> cells{Marker("r", "q", 100, CellType::kDeleteColumn, 2),
                                Put("r", "q", 50, 1)};
  EXPECT_EQ(Survivors(s, true, cells), (std::vector<bool>{true, true}));
}

TEST(CompactionFilterTest, ExpiredMarkerDropsEvenInPartialCompaction) {
  FamilySettings s;
  s.ttl_ms = 1000;
  auto kept = Survivors(s, false, {Marker("r", "q", kNow - 5000, CellType::kDeleteColumn, 2)});
  EXPECT_EQ(kept, (std::vector<bool>{false}));
}

TEST(CompactionFilterTest, StateResetsAtRowAndColumnBoundaries) {
  FamilySettings s;
  // A family marker in row "a" must not mask cells of row "b"; a column marker in column "x"
  // must not mask column "y".
  auto kept = Survivors(s, false,
                        {Marker("a", "", 100, CellType::kDeleteFamily, 9), Put("b", "x", 10, 1),
                         Marker("c", "x", 100, CellType::kDeleteColumn, 9), Put("c", "y", 10, 1)});
  EXPECT_EQ(kept, (std::vector<bool>{true, true, true, true}));
}

TEST(CompactionFilterTest, FullCompactionClearsTheSequenceOfKeptPuts) {
  FamilySettings s;
  const std::string key = CellKey("r", "q", 50, CellType::kPut);
  const std::string value = EncodeValue(123456789, "payload");
  EXPECT_EQ(Compacted(s, true, key, value), EncodeValue(0, "payload"));
  EXPECT_EQ(EncodeValue(0, "payload").size(), 1 + std::string("payload").size());
  // A value already at 0 is left as it is.
  CellCompactionFilter filter(std::make_shared<const FamilySettings>(s), true, kNow);
  std::string nv, skip;
  EXPECT_EQ(filter.FilterV2(0, key, rocksdb::CompactionFilter::ValueType::kValue,
                            EncodeValue(0, "payload"), &nv, &skip),
            Decision::kKeep);
  EXPECT_EQ(filter.sequences_cleared(), 0u);
}

TEST(CompactionFilterTest, FullCompactionRewritesAFormatOneValue) {
  FamilySettings s;
  std::string v1(1, '\0');  // format 1: a 00 flags byte, BE64 seq, payload
  v1.append("\0\0\0\0\0\0\0\x07", 8);
  v1.append("old");
  ParsedValue pv;
  ASSERT_TRUE(ParseValue(v1, &pv));
  ASSERT_EQ(pv.seq, 7u);
  EXPECT_EQ(Compacted(s, true, CellKey("r", "q", 50, CellType::kPut), v1), EncodeValue(0, "old"));
}

TEST(CompactionFilterTest, SequencesStayInPartialCompactionsAndWhenDeletedCellsAreKept) {
  FamilySettings s;
  const std::string key = CellKey("r", "q", 50, CellType::kPut);
  const std::string value = EncodeValue(42, "v");
  // A partial compaction may miss a marker numbered between 0 and 42 that must not hide the cell.
  EXPECT_EQ(Compacted(s, false, key, value), value);
  // Kept markers still rank against the Puts they were compacted with.
  s.keep_deleted_cells = KeepDeletedCells::kTrue;
  EXPECT_EQ(Compacted(s, true, key, value), value);
  s.keep_deleted_cells = KeepDeletedCells::kTtl;
  EXPECT_EQ(Compacted(s, true, key, value), value);
}

TEST(CompactionFilterTest, MarkersAreNeverRewritten) {
  FamilySettings s;
  s.keep_deleted_cells = KeepDeletedCells::kTtl;  // kept in a full compaction
  const std::string value = EncodeValue(42, "");
  EXPECT_EQ(Compacted(s, true, CellKey("r", "q", 50, CellType::kDeleteColumn), value), value);
}

TEST(CompactionFilterTest, UnreadableKeysAreKept) {
  FamilySettings s;
  CellCompactionFilter filter(std::make_shared<const FamilySettings>(s), true, kNow);
  std::string nv, skip;
  EXPECT_EQ(
      filter.FilterV2(0, "garbage", rocksdb::CompactionFilter::ValueType::kValue, "x", &nv, &skip),
      Decision::kKeep);
}

}  // namespace
}  // namespace basalt::engine
