// ClickCounters: per-item click counts by minute, all time and over a rolling 7 days (seed note
// 002's e-commerce example), on the public table API only, so it runs unchanged on every backend.
//
// Tables (docs/recipes.md has the bytes), in `name_space`, created on Open when missing:
//   <prefix>_by_item    row = Bytes(item) + "yyyyMMddHHmm" (UTC), family "c" (TTL), column
//                       "n": the item's clicks in that minute (`click-counts`' itemId#yyyyMMddHHmm,
//                       with the tuple codec instead of '#' so any item bytes are safe).
//   <prefix>_by_minute  row = "yyyyMMddHHmm" + Bytes(item), the same counts minute-major, so a
//                       window across all items is one bounded range scan (top-K, refresh).
//   <prefix>_totals     row = Bytes(item), family "c" (no TTL): "all" (all-time total) and
//                       "week" (the rolling 7-day count as of the last refresh); and the row
//                       "refresh" (never an item's key) holding the last refreshed boundary
//                       ("c:to"), and the meta row "\0meta" (nor that: a 00 byte in an item's
//                       key is followed by FF or 01) holding "c:v" = the layout's format
//                       version, decimal ("1"). Open refuses (FailedPrecondition) tables of a
//                       version it does not read.
//   <prefix>_visitors   row = Bytes(item) + "yyyyMMddHH" (UTC hour), family "v" (TTL): one
//                       empty cell per HyperLogLog (register, rank) a visitor of that hour
//                       reached; qualifier = register (2 bytes, big-endian) + rank (1 byte).
//   <prefix>_heavy      row = "yyyyMMddHH" + shard (1 byte, 0..7, a hash of the item), family
//                       "s" (TTL): a Count-Min sketch of the shard's clicks that hour (4 x 2048
//                       counters, qualifier = row (1 byte) + column (2 bytes, big-endian), and
//                       "n", the shard's clicks); family "k" (TTL): a counter per candidate
//                       heavy hitter, qualifier = the item's bytes: its clicks that hour from
//                       the click that made it a candidate on.
// Counters are HBase's 8-byte big-endian longs, written with Increment.
//
// Distinct visitors and heavy hitters are approximate and by whole UTC hours (a query covers
// every hour that overlaps its window). Every write to their tables commutes: a visitor adds a
// (register, rank) cell (a Put of the same cell twice is one cell, and a read takes each
// register's highest rank), and a click adds to counters (Increment, the candidate counter
// too), so concurrent clicks from any number of threads or processes lose nothing, with no
// read-modify-write and no retry.
//
// The rolling week follows the note: every 30 minutes a job computes, for the half-hour
// boundary T it reaches, week(T) = week(T') + clicks[T', T) - clicks[T' - 7d, T - 7d), where T'
// is the previous boundary, from the minute-major table. Minute buckets must outlive 7 days
// plus the refresh gap, hence the default TTL of 8 days; after a longer gap (or the first time)
// the week is rebuilt from the buckets of [T - 7d, T).
//
// Thread safety: all methods may be called concurrently. Counts under concurrent clicks are
// exact (each is an atomic Increment). A click is four or five Increments (and ClickBy's Put),
// not one atomic unit: a crash between them leaves a table or a sketch a click behind.

#ifndef BASALT_RECIPES_CLICK_COUNTERS_H_
#define BASALT_RECIPES_CLICK_COUNTERS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/connection.h"
#include "basalt/schema.h"
#include "basalt/status.h"

namespace basalt::recipes {

struct ItemCount {
  std::string item;
  int64_t count = 0;
  friend bool operator==(const ItemCount&, const ItemCount&) = default;
};

// The items clicked most in a window, from the hourly Count-Min sketches and their candidates.
struct HeavyHitters {
  // At most k items, most clicked first (ties by item bytes). Each count is an estimate that is
  // never below the item's true clicks in the window's hours and exceeds them by at most
  // `error_bound` with probability >= 1 - e^-4 (98%), and always by less than 1/256 of the
  // window's clicks in the item's shard.
  std::vector<ItemCount> items;
  // All clicks in the window's hours.
  int64_t clicks = 0;
  // ceil(e / 2048 * clicks).
  int64_t error_bound = 0;
  // The whole hours covered: [from_ms, to_ms).
  int64_t from_ms = 0;
  int64_t to_ms = 0;
};

struct ClickCountersOptions {
  // Tables are "<table_prefix>_by_item", "_by_minute" and "_totals" in `name_space`.
  std::string name_space = "default";
  std::string table_prefix = "clicks";
  // TTL of the minute buckets (and of the sketches' hour buckets), seconds after their last
  // click. Must exceed 7 days so that the half hour 7 days ago can still be subtracted.
  // Default: 8 days.
  int32_t bucket_ttl_seconds = 8 * 24 * 3600;
  // When > 0, minute-bucket and visitor rows are salted over this many buckets (salting.h:
  // 1..256) against write hot spots; reads merge the buckets. A stored format: always open a
  // counter set with the salt it was written with. Default: 0, not salted.
  int salt_buckets = 0;
  // With salt_buckets: when > 1, the minute-bucket and visitor tables are created pre-split at
  // salt bucket boundaries into min(presplit_regions, salt_buckets) regions of equal bucket counts
  // (within one), as the `modelling` rules advise for clusters. Only at creation: existing tables
  // keep their regions. 0..256; InvalidArgument otherwise, and without salt (unsalted keys
  // start with the item, whose spread is unknown). Default: 0, one region (an embedded store
  // gains nothing from regions: each family is one RocksDB column family).
  int presplit_regions = 0;
  // Milliseconds since the Unix epoch; the default time of Click and the refresher's clock.
  // Default: the system clock.
  std::function<int64_t()> clock;
  // How often the refresher thread looks at the clock (real time). Default: 1 s.
  int64_t refresher_poll_ms = 1000;
  // Called by the refresher thread after each RefreshWeekly, with the boundary it refreshed to
  // and the outcome. Optional.
  std::function<void(int64_t boundary_ms, const Status& status)> on_refresh;
  // Compression of every family of the counters' tables, given when Open creates them;
  // existing tables keep their own (Admin::ModifyFamily changes it). Default: LZ4
  // (docs/recipes.md).
  Compression compression = Compression::kLz4;
};

class ClickCounters {
 public:
  static constexpr int64_t kMinuteMs = 60 * 1000;
  static constexpr int64_t kRefreshPeriodMs = 30 * kMinuteMs;
  static constexpr int64_t kWeekMs = 7 * 24 * 60 * kMinuteMs;
  static constexpr int64_t kHourMs = 60 * kMinuteMs;
  // DistinctVisitors' relative standard error: 1.04 / sqrt(4096) (HyperLogLog, p = 12).
  static constexpr double kDistinctRelativeError = 1.04 / 64;
  // An item is a heavy-hitter candidate of an hour once its estimate reaches this fraction of
  // its shard's clicks in that hour; so every item with at least this fraction of a window's
  // clicks is found (docs/recipes.md has the argument).
  static constexpr double kHeavyShare = 1.0 / 256;

  // Opens (creating the tables if needed) the counters on `conn`, which must outlive them.
  // InvalidArgument for a bucket TTL of 7 days or less, a salt outside 0..256, or a
  // refresher_poll_ms < 1.
  static Result<std::unique_ptr<ClickCounters>> Open(Connection& conn,
                                                     ClickCountersOptions options = {});
  // Stops the refresher if it runs.
  virtual ~ClickCounters() = default;

  // Adds `n` clicks of `item` at `time_ms` (-1, the default: the clock) to its minute bucket
  // and its all-time total, and to the hour's heavy-hitter sketch. InvalidArgument for another
  // negative time or for n < 1 (a sketch cannot take clicks back). Cost: four Increments, and a
  // fifth while the item is a heavy-hitter candidate of the hour.
  virtual Status Click(std::string_view item, int64_t n = 1, int64_t time_ms = -1) = 0;

  // Click(item, n, time_ms) by `visitor` (any bytes, e.g. a user name or a cookie id), who is
  // also counted among the item's distinct visitors of that hour: one more Put.
  virtual Status ClickBy(std::string_view item, std::string_view visitor, int64_t n = 1,
                         int64_t time_ms = -1) = 0;

  // The estimated number of distinct visitors (ClickBy) of `item` in the UTC hours that overlap
  // [from, to): the HyperLogLog registers of those hours merged (register-wise max). Relative
  // standard error kDistinctRelativeError; exact in practice for a few dozen visitors. Hours
  // older than the bucket TTL are gone. Cost: one scan of the item's hours in the window, at
  // most 4096 x (ranks reached) cells per hour; memory 4 KiB.
  virtual Result<int64_t> DistinctVisitors(std::string_view item, int64_t from_ms,
                                           int64_t to_ms) = 0;

  // The all-time total. 0 for an item never clicked.
  virtual Result<int64_t> Total(std::string_view item) = 0;

  // The exact clicks in the minutes [from, to), both rounded down to whole minutes, summed
  // from the minute buckets (those older than the bucket TTL are gone). Cost: one scan of the
  // item's buckets in the window, at most (to - from) / 1 min rows.
  virtual Result<int64_t> Count(std::string_view item, int64_t from_ms, int64_t to_ms) = 0;

  // The rolling 7-day count as of the last refresh: the clicks of [T - 7d, T) for the last
  // boundary T refreshed. 0 before the first refresh. Cost: one Get.
  virtual Result<int64_t> RollingWeek(std::string_view item) = 0;

  // The `k` items with the most clicks in the minutes [from, to) (rounded down as in Count),
  // most first, ties by item bytes. Cost: one scan of the minute-major table over the window:
  // every non-empty (minute, item) bucket in it is read once, whatever the number of items
  // outside it; memory is one entry per distinct item in the window.
  virtual Result<std::vector<ItemCount>> TopK(int64_t from_ms, int64_t to_ms, int32_t k) = 0;

  // The `k` items clicked most in the UTC hours that overlap [from, to), estimated without
  // reading any item's buckets: one scan of the hours' candidate counters (8 rows per hour),
  // then one multi-Get of 4 Count-Min counters per hour for each item that can still be among
  // the top k. Every item with at least kHeavyShare of the window's clicks is a candidate, and
  // no item left out has more true clicks than the k-th count reported. InvalidArgument for
  // k < 1.
  virtual Result<HeavyHitters> TopKApprox(int64_t from_ms, int64_t to_ms, int32_t k) = 0;

  // Brings the rolling week up to the last half-hour boundary T <= now_ms (see the file
  // comment). A boundary already reached is a no-op, so calling it again, or from several
  // processes, applies each half hour once: the boundary is claimed with CheckAndMutate before
  // the deltas are applied (in one Table::Batch). If the process dies between the claim and
  // the batch, that half hour's delta is lost until RebuildWeekly. Returns the number of items
  // whose weekly count changed.
  virtual Result<int64_t> RefreshWeekly(int64_t now_ms) = 0;

  // Recomputes every item's weekly count from the minute buckets of [T - 7d, T), T the last
  // boundary <= now_ms, and records T as refreshed. Cost: a scan of 7 days of minute-major
  // buckets and of the totals table.
  virtual Result<int64_t> RebuildWeekly(int64_t now_ms) = 0;

  // Starts a thread that calls RefreshWeekly(clock()) at once and then each time the clock
  // passes a half-hour boundary, until Stop. FailedPrecondition if it already runs.
  virtual Status StartRefresher() = 0;
  // Stops the refresher thread and waits for it; a no-op when it does not run.
  virtual void Stop() = 0;
};

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_CLICK_COUNTERS_H_
