// Small value types shared by the whole API: timestamps, time ranges, cell types, durability and
// compare operators. Numeric values follow HBase where HBase defines them on the wire.

#ifndef BASALT_TYPES_H_
#define BASALT_TYPES_H_

#include <cstdint>
#include <limits>
#include <string_view>

namespace basalt {

// Cell timestamps are signed 64-bit milliseconds since the Unix epoch, as in HBase.
// kLatestTimestamp (HBase's LATEST_TIMESTAMP) means "not set: the store assigns the time when
// the mutation is applied". It is never stored.
inline constexpr int64_t kLatestTimestamp = std::numeric_limits<int64_t>::max();

// The system clock in milliseconds since the Unix epoch: "now" as a cell timestamp. It may go
// backwards when the system clock is stepped back; the store's own timestamps never do.
int64_t SystemWallMillis();

// Limits that HBase also enforces.
inline constexpr size_t kMaxRowKeyLength = 32767;  // HConstants.MAX_ROW_LENGTH

// The kind of a cell. Values are HBase's KeyValue.Type codes (and Thrift2 TColumnValue.type).
// Never renumber: they are stored on disk.
enum class CellType : uint8_t {
  kPut = 4,
  kDelete = 8,                // one version of one column
  kDeleteFamilyVersion = 10,  // one timestamp across a family
  kDeleteColumn = 12,         // all versions of one column up to a timestamp
  kDeleteFamily = 14,         // all columns of a family up to a timestamp
};

std::string_view CellTypeName(CellType type);

// A half-open timestamp interval [min, max). The default covers every timestamp.
struct TimeRange {
  int64_t min = 0;
  int64_t max = kLatestTimestamp;

  static TimeRange All() { return {}; }
  // Exactly one timestamp: [ts, ts + 1).
  static TimeRange At(int64_t ts) { return {ts, ts == kLatestTimestamp ? ts : ts + 1}; }

  bool Contains(int64_t ts) const { return ts >= min && ts < max; }
  bool IsAll() const { return min == 0 && max == kLatestTimestamp; }
  friend bool operator==(const TimeRange&, const TimeRange&) = default;
};

// How hard a mutation is pushed to stable storage before it is acknowledged (HBase Durability).
//   kSkipWal:  not logged; lost if the process dies before the memtable is flushed.
//   kAsyncWal: logged; basalt writes the log before acknowledging (as kSyncWal), so it is at
//              least as durable as HBase's ASYNC_WAL.
//   kSyncWal:  logged to the operating system before the call returns; survives kill -9 of the
//              process, not a power loss. This is the default.
//   kFsyncWal: logged and fsync'ed; survives a power loss.
//   kUseDefault: the table's setting (itself kSyncWal unless changed).
// Values match HBase's Durability enum and Thrift2 TDurability. Never renumber.
enum class Durability : uint8_t {
  kUseDefault = 0,
  kSkipWal = 1,
  kAsyncWal = 2,
  kSyncWal = 3,
  kFsyncWal = 4,
};

std::string_view DurabilityName(Durability d);

// Compare operators for CheckAndMutate (and, later, filters). Values match HBase's
// CompareOperator ordinal and Thrift2 TCompareOperator. Never renumber.
enum class CompareOp : uint8_t {
  kLess = 0,
  kLessOrEqual = 1,
  kEqual = 2,
  kNotEqual = 3,
  kGreaterOrEqual = 4,
  kGreater = 5,
  kNoOp = 6,
};

std::string_view CompareOpName(CompareOp op);
// The filter-language symbol of `op` ("<", "<=", "=", "!=", ">=", ">"); empty for kNoOp.
std::string_view CompareOpSymbol(CompareOp op);

// Whether `a op b` holds, given cmp = a <=> b (negative, zero or positive). kNoOp never holds.
bool CompareOpHolds(CompareOp op, int cmp);

}  // namespace basalt

#endif  // BASALT_TYPES_H_
