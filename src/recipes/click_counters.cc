// Click counters: minute buckets in two key orders, totals, and the half-hourly weekly refresh.
// Byte layouts are in docs/recipes.md; keys are built with KeyBuilder.

#include "basalt/recipes/click_counters.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <thread>
#include <utility>

#include "basalt/keys.h"
#include "basalt/salting.h"
#include "basalt/table.h"
#include "recipes/click_sketches.h"
#include "recipes/recipe_format.h"
#include "recipes/table_setup.h"
#include "util/mutex.h"

namespace basalt::recipes {
namespace {

constexpr char kFamily[] = "c";
// The version of the layout in click_counters.h, in the totals table's meta row
// (recipe_format.h); bump it with any change of the layout. Never reuse a number.
constexpr int kClickCountersFormatVersion = 1;
constexpr int kOldestReadableClickCountersFormatVersion = 1;
constexpr char kBucketColumn[] = "n";
constexpr char kTotalColumn[] = "all";
constexpr char kWeekColumn[] = "week";
constexpr char kRefreshedToColumn[] = "to";
// Not an item's key: every item key ends with the tuple codec's terminator 00 01.
constexpr char kRefreshRow[] = "refresh";
constexpr size_t kMinuteWidth = 12;  // yyyyMMddHHmm
constexpr size_t kHourWidth = 10;    // yyyyMMddHH
constexpr char kVisitorFamily[] = "v";
constexpr char kSketchFamily[] = "s";
constexpr char kCandidateFamily[] = "k";
constexpr char kShardTotalColumn[] = "n";  // never a counter's qualifier: those are 3 bytes
// 9999-12-31 23:59:59.999 UTC: the last time whose minute has four year digits.
constexpr int64_t kMaxTimeMs = 253402300799999;

int64_t FloorTo(int64_t ms, int64_t unit) {
  return ms - ms % unit;  // REQUIRES: ms >= 0
}

// "yyyyMMddHHmm" (UTC) of a time in [0, kMaxTimeMs]; fixed width, so text order is time order.
std::string MinuteText(int64_t ms) {
  const int64_t minutes = ms / ClickCounters::kMinuteMs;
  int64_t days = minutes / (24 * 60);
  const int64_t minute_of_day = minutes % (24 * 60);
  // Howard Hinnant's civil_from_days.
  days += 719468;
  const int64_t era = days / 146097;
  const int64_t doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t day = doy - (153 * mp + 2) / 5 + 1;
  const int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  std::string text(kMinuteWidth, '0');
  size_t end = 0;
  auto put = [&](int64_t v, size_t width) {  // v >= 0 fits `width` digits for valid times
    end += width;
    for (size_t i = 0; i < width; ++i, v /= 10) text[end - 1 - i] = static_cast<char>('0' + v % 10);
  };
  put(year, 4);
  put(month, 2);
  put(day, 2);
  put(minute_of_day / 60, 2);
  put(minute_of_day % 60, 2);
  return text;
}

std::string ItemKey(std::string_view item) {
  return KeyBuilder().AddBytes(item).Build();
}

std::string ItemMinuteKey(std::string_view item, int64_t ms) {
  return KeyBuilder().AddBytes(item).AddFixedBytes(MinuteText(ms)).Build();
}

std::string MinuteItemKey(std::string_view item, int64_t ms) {
  return KeyBuilder().AddFixedBytes(MinuteText(ms)).AddBytes(item).Build();
}

// The minute-major prefix of every bucket in the minute of `ms`.
std::string MinuteKey(int64_t ms) {
  return KeyBuilder().AddFixedBytes(MinuteText(ms)).Build();
}

// "yyyyMMddHH" (UTC) of a time in [0, kMaxTimeMs]; a later time (the end of a window that
// includes the last hour) gives "9999123124", after every hour.
std::string HourText(int64_t ms) {
  if (ms > kMaxTimeMs) return "9999123124";
  return MinuteText(ms).substr(0, kHourWidth);
}

std::string ItemHourKey(std::string_view item, int64_t ms) {
  return KeyBuilder().AddBytes(item).AddFixedBytes(HourText(ms)).Build();
}

// The heavy-hitter row of a shard in the hour of `ms`: the hour first, so a window is one range.
std::string HourShardKey(int64_t ms, uint8_t shard) {
  std::string key = HourText(ms);
  key.push_back(static_cast<char>(shard));
  return key;
}

// A visitor cell's qualifier: register (big-endian) and rank.
std::string RegisterQualifier(sketch::RegisterUpdate u) {
  return {static_cast<char>(u.index >> 8), static_cast<char>(u.index & 0xff),
          static_cast<char>(u.rank)};
}

// A Count-Min counter's qualifier: row, then column (big-endian).
std::string CounterQualifier(int depth, uint16_t column) {
  return {static_cast<char>(depth), static_cast<char>(column >> 8),
          static_cast<char>(column & 0xff)};
}

Result<int64_t> CellCounter(const RowResult& row, std::string_view column,
                            std::string_view family = kFamily) {
  auto value = row.Value(family, column);
  if (!value) return int64_t{0};
  return DecodeCounter(*value);
}

class Counters final : public ClickCounters {
 public:
  Counters(ClickCountersOptions options, std::unique_ptr<Table> by_item,
           std::unique_ptr<Table> by_minute, std::unique_ptr<Table> totals,
           std::unique_ptr<Table> visitors, std::unique_ptr<Table> heavy)
      : options_(std::move(options)),
        by_item_(std::move(by_item)),
        by_minute_(std::move(by_minute)),
        totals_(std::move(totals)),
        visitors_(std::move(visitors)),
        heavy_(std::move(heavy)) {
    if (!options_.clock) options_.clock = SystemWallMillis;
  }
  ~Counters() override { Stop(); }

  Status Salt() {
    if (options_.salt_buckets == 0) return Status::OK();
    BASALT_ASSIGN_OR_RETURN(auto item, SaltedTable::Wrap(*by_item_, options_.salt_buckets));
    BASALT_ASSIGN_OR_RETURN(auto minute, SaltedTable::Wrap(*by_minute_, options_.salt_buckets));
    BASALT_ASSIGN_OR_RETURN(auto visitors, SaltedTable::Wrap(*visitors_, options_.salt_buckets));
    salted_item_.emplace(std::move(item));
    salted_minute_.emplace(std::move(minute));
    salted_visitors_.emplace(std::move(visitors));
    return Status::OK();
  }

  Status Click(std::string_view item, int64_t n, int64_t time_ms) override {
    if (time_ms == -1) time_ms = options_.clock();
    if (time_ms < 0 || time_ms > kMaxTimeMs) {
      return Status::InvalidArgument("click counters: time out of range");
    }
    if (n < 1) return Status::InvalidArgument("click counters: n < 1");
    BASALT_RETURN_IF_ERROR(AddToSketch(item, n, time_ms));
    BASALT_RETURN_IF_ERROR(ItemTable()
                               .Increment(basalt::Increment(ItemMinuteKey(item, time_ms))
                                              .AddColumn(kFamily, kBucketColumn, n)
                                              .SetReturnResults(false))
                               .status());
    BASALT_RETURN_IF_ERROR(MinuteTable()
                               .Increment(basalt::Increment(MinuteItemKey(item, time_ms))
                                              .AddColumn(kFamily, kBucketColumn, n)
                                              .SetReturnResults(false))
                               .status());
    return totals_
        ->Increment(basalt::Increment(ItemKey(item))
                        .AddColumn(kFamily, kTotalColumn, n)
                        .SetReturnResults(false))
        .status();
  }

  Status ClickBy(std::string_view item, std::string_view visitor, int64_t n,
                 int64_t time_ms) override {
    if (time_ms == -1) time_ms = options_.clock();
    BASALT_RETURN_IF_ERROR(Click(item, n, time_ms));
    const sketch::RegisterUpdate u = sketch::HllUpdate(visitor);
    return VisitorTable().Put(
        basalt::Put(ItemHourKey(item, time_ms)).Add(kVisitorFamily, RegisterQualifier(u), ""));
  }

  Result<int64_t> DistinctVisitors(std::string_view item, int64_t from_ms, int64_t to_ms) override {
    if (!HourWindow(&from_ms, &to_ms)) return int64_t{0};
    Scan scan = Scan()
                    .SetRowPrefix(ItemKey(item))
                    .WithStartRow(ItemHourKey(item, from_ms))
                    .WithStopRow(ItemHourKey(item, to_ms))
                    .AddFamily(kVisitorFamily);
    BASALT_ASSIGN_OR_RETURN(auto scanner, VisitorTable().GetScanner(scan));
    sketch::HyperLogLog hll;
    RowResult row;
    while (scanner->Next(&row)) {
      for (const Cell& cell : row.cells()) {
        const std::string& q = cell.qualifier;
        if (q.size() != 3) return Status::Corruption("click counters: bad visitor register cell");
        const auto index = static_cast<uint16_t>((static_cast<unsigned char>(q[0]) << 8) |
                                                 static_cast<unsigned char>(q[1]));
        const auto rank = static_cast<uint8_t>(q[2]);
        if (index >= sketch::kRegisters || rank < 1 || rank > sketch::kMaxRank) {
          return Status::Corruption("click counters: bad visitor register cell");
        }
        hll.Raise(index, rank);
      }
    }
    BASALT_RETURN_IF_ERROR(scanner->status());
    return hll.Estimate();
  }

  Result<HeavyHitters> TopKApprox(int64_t from_ms, int64_t to_ms, int32_t k) override {
    if (k < 1) return Status::InvalidArgument("click counters: k < 1");
    HeavyHitters out;
    if (!HourWindow(&from_ms, &to_ms)) return out;
    out.from_ms = from_ms;
    out.to_ms = to_ms;
    // Pass 1: every (hour, shard) row's clicks and candidates, with the clicks each candidate
    // had while a candidate. An item's clicks in a row it was not yet (or never) a candidate of
    // are fewer than kHeavyShare of the row's clicks: each such click saw an estimate, which
    // counts all of them before it, below that share. So an item's clicks in the window lie in
    // [counted, counted + slack of its shard), slack = kHeavyShare * the shard's clicks.
    std::vector<SketchRow> rows;
    std::map<std::string, int64_t> counted;
    std::array<double, sketch::kShards> slack{};
    {
      Scan scan = Scan()
                      .WithStartRow(HourShardKey(from_ms, 0))
                      .WithStopRow(HourShardKey(to_ms, 0))
                      .AddFamily(kCandidateFamily)
                      .AddColumn(kSketchFamily, kShardTotalColumn);
      BASALT_ASSIGN_OR_RETURN(auto scanner, heavy_->GetScanner(scan));
      RowResult row;
      while (scanner->Next(&row)) {
        const std::string& key = row.row();
        if (key.size() != kHourWidth + 1 || static_cast<uint8_t>(key.back()) >= sketch::kShards) {
          return Status::Corruption("click counters: bad heavy-hitter row key");
        }
        const auto shard = static_cast<uint8_t>(key.back());
        BASALT_ASSIGN_OR_RETURN(int64_t clicks, CellCounter(row, kShardTotalColumn, kSketchFamily));
        out.clicks += clicks;
        slack[shard] += kHeavyShare * static_cast<double>(clicks);
        for (const Cell& cell : row.cells()) {
          if (cell.family != kCandidateFamily) continue;
          BASALT_ASSIGN_OR_RETURN(int64_t n, DecodeCounter(cell.value));
          counted[cell.qualifier] += n;
        }
        rows.push_back({key, shard});
      }
      BASALT_RETURN_IF_ERROR(scanner->status());
    }
    out.error_bound =
        static_cast<int64_t>(std::ceil(sketch::kCountMinEpsilon * static_cast<double>(out.clicks)));

    // Only an item whose upper bound reaches the k-th largest lower bound can be among the top
    // k: the k items with the largest lower bounds are reported with at least those.
    std::vector<int64_t> lows;
    lows.reserve(counted.size());
    for (const auto& [item, n] : counted) lows.push_back(n);
    int64_t threshold = 0;
    if (lows.size() >= static_cast<size_t>(k)) {
      std::nth_element(lows.begin(), lows.begin() + (k - 1), lows.end(), std::greater<>());
      threshold = lows[static_cast<size_t>(k - 1)];
    }
    std::array<std::vector<std::string>, sketch::kShards> contenders;
    for (const auto& [item, n] : counted) {
      if (static_cast<double>(n) + slack[sketch::ShardOf(item)] >= static_cast<double>(threshold)) {
        contenders[sketch::ShardOf(item)].push_back(item);
      }
    }

    // Pass 2: the contenders' Count-Min estimates in every hour of their shard. The window's
    // estimate is the sum of the hourly ones (each the least of d counters), never above the
    // merged sketch's estimate, so the Count-Min bound holds; an item's count is the smaller of
    // that and its upper bound above. Both are at least its true clicks.
    std::vector<Get> gets;
    std::vector<const std::vector<std::string>*> asked;
    for (const SketchRow& r : rows) {
      const auto& items = contenders[r.shard];
      if (items.empty()) continue;
      Get get(r.key);
      for (const std::string& item : items) {
        for (int d = 0; d < sketch::kSketchDepth; ++d) {
          get.AddColumn(kSketchFamily, CounterQualifier(d, sketch::CountMinColumn(item, d)));
        }
      }
      gets.push_back(std::move(get));
      asked.push_back(&items);
    }
    std::map<std::string, int64_t> estimates;
    if (!gets.empty()) {
      BASALT_ASSIGN_OR_RETURN(std::vector<RowResult> got, heavy_->Get(gets));
      for (size_t i = 0; i < got.size(); ++i) {
        for (const std::string& item : *asked[i]) {
          int64_t least = std::numeric_limits<int64_t>::max();
          for (int d = 0; d < sketch::kSketchDepth && least > 0; ++d) {
            BASALT_ASSIGN_OR_RETURN(
                int64_t n, CellCounter(got[i], CounterQualifier(d, sketch::CountMinColumn(item, d)),
                                       kSketchFamily));
            least = std::min(least, n);
          }
          estimates[item] += least;
        }
      }
    }
    std::vector<ItemCount> all;
    for (const auto& shard_items : contenders) {
      for (const std::string& item : shard_items) {
        const auto upper = static_cast<int64_t>(
            std::floor(static_cast<double>(counted[item]) + slack[sketch::ShardOf(item)]));
        all.push_back({item, std::min(estimates[item], upper)});
      }
    }
    SortTop(&all, k);
    out.items = std::move(all);
    return out;
  }

  Result<int64_t> Total(std::string_view item) override { return TotalsColumn(item, kTotalColumn); }

  Result<int64_t> RollingWeek(std::string_view item) override {
    return TotalsColumn(item, kWeekColumn);
  }

  Result<int64_t> Count(std::string_view item, int64_t from_ms, int64_t to_ms) override {
    if (!ClampWindow(&from_ms, &to_ms)) return int64_t{0};
    const std::string key = ItemKey(item);
    Scan scan = Scan()
                    .SetRowPrefix(key)
                    .WithStartRow(ItemMinuteKey(item, from_ms))
                    .WithStopRow(ItemMinuteKey(item, to_ms))
                    .AddColumn(kFamily, kBucketColumn);
    BASALT_ASSIGN_OR_RETURN(auto scanner, ItemTable().GetScanner(scan));
    int64_t sum = 0;
    RowResult row;
    while (scanner->Next(&row)) {
      BASALT_ASSIGN_OR_RETURN(int64_t n, CellCounter(row, kBucketColumn));
      sum += n;
    }
    BASALT_RETURN_IF_ERROR(scanner->status());
    return sum;
  }

  Result<std::vector<ItemCount>> TopK(int64_t from_ms, int64_t to_ms, int32_t k) override {
    if (k < 1) return Status::InvalidArgument("click counters: k < 1");
    BASALT_ASSIGN_OR_RETURN(auto sums, WindowSums(from_ms, to_ms));
    std::vector<ItemCount> all;
    all.reserve(sums.size());
    for (auto& [item, count] : sums) {
      if (count != 0) all.push_back({item, count});
    }
    SortTop(&all, k);
    return all;
  }

  Result<int64_t> RefreshWeekly(int64_t now_ms) override {
    if (now_ms < 0) return Status::InvalidArgument("click counters: negative time");
    util::MutexLock lock(refresh_mu_);
    const int64_t to = FloorTo(now_ms, kRefreshPeriodMs);
    BASALT_ASSIGN_OR_RETURN(std::optional<int64_t> prev, RefreshedTo());
    const int64_t ttl_ms = int64_t{options_.bucket_ttl_seconds} * 1000;
    if (!prev || to - *prev > ttl_ms - kWeekMs) return Rebuild(to, prev);
    if (*prev >= to) return int64_t{0};
    BASALT_ASSIGN_OR_RETURN(bool claimed, Claim(prev, to));
    if (!claimed) return int64_t{0};  // another refresher got there first
    // week(to) = week(prev) + clicks[prev, to) - clicks[prev - 7d, to - 7d)
    BASALT_ASSIGN_OR_RETURN(auto deltas, WindowSums(*prev, to));
    BASALT_ASSIGN_OR_RETURN(auto removed, WindowSums(*prev - kWeekMs, to - kWeekMs));
    for (const auto& [item, n] : removed) deltas[item] -= n;
    std::vector<Mutation> batch;
    for (const auto& [item, delta] : deltas) {
      if (delta == 0) continue;
      batch.emplace_back(basalt::Increment(ItemKey(item))
                             .AddColumn(kFamily, kWeekColumn, delta)
                             .SetReturnResults(false));
    }
    if (!batch.empty()) BASALT_RETURN_IF_ERROR(totals_->Batch(batch).status());
    return static_cast<int64_t>(batch.size());
  }

  Result<int64_t> RebuildWeekly(int64_t now_ms) override {
    if (now_ms < 0) return Status::InvalidArgument("click counters: negative time");
    util::MutexLock lock(refresh_mu_);
    BASALT_ASSIGN_OR_RETURN(std::optional<int64_t> prev, RefreshedTo());
    return Rebuild(FloorTo(now_ms, kRefreshPeriodMs), prev);
  }

  Status StartRefresher() override {
    util::MutexLock lock(thread_mu_);
    if (thread_.joinable()) return Status::FailedPrecondition("click counters: refresher runs");
    {
      util::MutexLock stop_lock(stop_mu_);
      stop_ = false;
    }
    thread_ = std::thread([this] { RefreshLoop(); });
    return Status::OK();
  }

  void Stop() override {
    util::MutexLock lock(thread_mu_);
    if (!thread_.joinable()) return;
    {
      util::MutexLock stop_lock(stop_mu_);
      stop_ = true;
    }
    stop_cv_.NotifyAll();
    thread_.join();
  }

 private:
  Table& ItemTable() { return salted_item_ ? *salted_item_ : *by_item_; }
  Table& VisitorTable() { return salted_visitors_ ? *salted_visitors_ : *visitors_; }

  // One (hour, shard) row of the heavy-hitter table in a TopKApprox window.
  struct SketchRow {
    std::string key;
    uint8_t shard;
  };

  // Keeps the `k` largest counts, most first, ties by item bytes.
  static void SortTop(std::vector<ItemCount>* all, int32_t k) {
    auto more = [](const ItemCount& a, const ItemCount& b) {
      return a.count != b.count ? a.count > b.count : a.item < b.item;
    };
    const size_t n = std::min(all->size(), static_cast<size_t>(k));
    std::partial_sort(all->begin(), all->begin() + n, all->end(), more);
    all->resize(n);
  }

  // Widens a window to the whole hours it overlaps, clamped to valid times; false when empty.
  static bool HourWindow(int64_t* from_ms, int64_t* to_ms) {
    if (*to_ms <= *from_ms) return false;
    *from_ms = FloorTo(std::clamp<int64_t>(*from_ms, 0, kMaxTimeMs), kHourMs);
    const int64_t to = std::clamp<int64_t>(*to_ms, 0, kMaxTimeMs);
    *to_ms = to % kHourMs == 0 ? to : FloorTo(to, kHourMs) + kHourMs;
    return *to_ms > *from_ms;
  }

  // Adds `n` clicks of `item` to its shard's Count-Min sketch of the hour and, when its estimate
  // (which counts this click) reaches kHeavyShare of the shard's clicks so far, to its
  // candidate counter of that hour. Both writes are Increments, which commute with any other
  // click's, so concurrent clicks keep the summary sound.
  Status AddToSketch(std::string_view item, int64_t n, int64_t time_ms) {
    const std::string row = HourShardKey(time_ms, sketch::ShardOf(item));
    basalt::Increment inc(row);
    inc.AddColumn(kSketchFamily, kShardTotalColumn, n);
    std::array<std::string, sketch::kSketchDepth> qualifiers;
    for (int d = 0; d < sketch::kSketchDepth; ++d) {
      qualifiers[d] = CounterQualifier(d, sketch::CountMinColumn(item, d));
      inc.AddColumn(kSketchFamily, qualifiers[d], n);
    }
    BASALT_ASSIGN_OR_RETURN(RowResult after, heavy_->Increment(inc));
    BASALT_ASSIGN_OR_RETURN(int64_t shard_clicks,
                            CellCounter(after, kShardTotalColumn, kSketchFamily));
    int64_t estimate = std::numeric_limits<int64_t>::max();
    for (const std::string& q : qualifiers) {
      BASALT_ASSIGN_OR_RETURN(int64_t c, CellCounter(after, q, kSketchFamily));
      estimate = std::min(estimate, c);
    }
    if (static_cast<double>(estimate) < kHeavyShare * static_cast<double>(shard_clicks)) {
      return Status::OK();
    }
    return heavy_
        ->Increment(basalt::Increment(row)
                        .AddColumn(kCandidateFamily, std::string(item), n)
                        .SetReturnResults(false))
        .status();
  }
  Table& MinuteTable() { return salted_minute_ ? *salted_minute_ : *by_minute_; }

  // Rounds a window to whole minutes, clamped to valid times; false when it is empty.
  static bool ClampWindow(int64_t* from_ms, int64_t* to_ms) {
    *from_ms = FloorTo(std::clamp<int64_t>(*from_ms, 0, kMaxTimeMs), kMinuteMs);
    *to_ms = FloorTo(std::clamp<int64_t>(*to_ms, 0, kMaxTimeMs), kMinuteMs);
    return *to_ms > *from_ms;
  }

  Result<int64_t> TotalsColumn(std::string_view item, const char* column) {
    BASALT_ASSIGN_OR_RETURN(RowResult row,
                            totals_->Get(Get(ItemKey(item)).AddColumn(kFamily, column)));
    return CellCounter(row, column);
  }

  // Clicks per item in the minutes [from, to): one scan of the minute-major table.
  Result<std::map<std::string, int64_t>> WindowSums(int64_t from_ms, int64_t to_ms) {
    std::map<std::string, int64_t> sums;
    if (!ClampWindow(&from_ms, &to_ms)) return sums;
    Scan scan = Scan()
                    .WithStartRow(MinuteKey(from_ms))
                    .WithStopRow(MinuteKey(to_ms))
                    .AddColumn(kFamily, kBucketColumn)
                    .SetCaching(1000);
    BASALT_ASSIGN_OR_RETURN(auto scanner, MinuteTable().GetScanner(scan));
    RowResult row;
    while (scanner->Next(&row)) {
      KeyParser parser(row.row());
      std::string minute, item;
      BASALT_RETURN_IF_ERROR(parser.ReadFixedBytes(kMinuteWidth, &minute));
      BASALT_RETURN_IF_ERROR(parser.ReadBytes(&item));
      BASALT_RETURN_IF_ERROR(parser.Finish());
      BASALT_ASSIGN_OR_RETURN(int64_t n, CellCounter(row, kBucketColumn));
      sums[item] += n;
    }
    BASALT_RETURN_IF_ERROR(scanner->status());
    return sums;
  }

  Result<std::optional<int64_t>> RefreshedTo() {
    BASALT_ASSIGN_OR_RETURN(RowResult row,
                            totals_->Get(Get(kRefreshRow).AddColumn(kFamily, kRefreshedToColumn)));
    auto value = row.Value(kFamily, kRefreshedToColumn);
    if (!value) return std::optional<int64_t>();
    BASALT_ASSIGN_OR_RETURN(int64_t to, DecodeCounter(*value));
    return std::optional<int64_t>(to);
  }

  // Moves the refreshed boundary from `prev` to `to` unless someone else moved it first.
  Result<bool> Claim(std::optional<int64_t> prev, int64_t to) {
    CheckAndMutate cam(kRefreshRow);
    if (prev) {
      cam.IfEquals(kFamily, kRefreshedToColumn, EncodeCounter(*prev));
    } else {
      cam.IfNotExists(kFamily, kRefreshedToColumn);
    }
    cam.Then(basalt::Put(kRefreshRow).Add(kFamily, kRefreshedToColumn, EncodeCounter(to)));
    return totals_->CheckAndMutate(cam);
  }

  // Sets every item's week to the clicks of [to - 7d, to).
  Result<int64_t> Rebuild(int64_t to, std::optional<int64_t> prev) {
    BASALT_ASSIGN_OR_RETURN(bool claimed, Claim(prev, to));
    if (!claimed) return int64_t{0};
    BASALT_ASSIGN_OR_RETURN(auto sums, WindowSums(to - kWeekMs, to));
    // Items whose stored week differs; those not clicked in the window go back to 0.
    std::map<std::string, int64_t> writes;
    BASALT_ASSIGN_OR_RETURN(auto scanner,
                            totals_->GetScanner(Scan().AddColumn(kFamily, kWeekColumn)));
    RowResult row;
    while (scanner->Next(&row)) {
      KeyParser parser(row.row());
      std::string item;
      BASALT_RETURN_IF_ERROR(parser.ReadBytes(&item));
      BASALT_RETURN_IF_ERROR(parser.Finish());
      BASALT_ASSIGN_OR_RETURN(int64_t stored, CellCounter(row, kWeekColumn));
      auto it = sums.find(item);
      const int64_t want = it == sums.end() ? 0 : it->second;
      if (stored != want) writes[item] = want;
      if (it != sums.end()) sums.erase(it);
    }
    BASALT_RETURN_IF_ERROR(scanner->status());
    for (const auto& [item, n] : sums) {
      if (n != 0) writes[item] = n;
    }
    std::vector<Mutation> batch;
    for (const auto& [item, n] : writes) {
      batch.emplace_back(basalt::Put(ItemKey(item)).Add(kFamily, kWeekColumn, EncodeCounter(n)));
    }
    if (!batch.empty()) BASALT_RETURN_IF_ERROR(totals_->Batch(batch).status());
    return static_cast<int64_t>(batch.size());
  }

  void RefreshLoop() {
    int64_t done = -1;  // the last boundary refreshed by this thread
    while (!Stopping()) {
      const int64_t now = options_.clock();
      const int64_t boundary = now < 0 ? -1 : FloorTo(now, kRefreshPeriodMs);
      if (boundary > done) {
        Result<int64_t> r = RefreshWeekly(now);
        if (r.ok()) done = boundary;  // on error, retried at the next poll
        if (options_.on_refresh) options_.on_refresh(boundary, r.status());
      }
      const auto deadline =
          std::chrono::steady_clock::now() + std::chrono::milliseconds(options_.refresher_poll_ms);
      util::MutexLock lock(stop_mu_);
      while (!stop_ && stop_cv_.WaitUntil(stop_mu_, deadline)) {
      }
    }
  }

  bool Stopping() {
    util::MutexLock lock(stop_mu_);
    return stop_;
  }

  ClickCountersOptions options_;
  std::unique_ptr<Table> by_item_;
  std::unique_ptr<Table> by_minute_;
  std::unique_ptr<Table> totals_;
  std::unique_ptr<Table> visitors_;
  std::unique_ptr<Table> heavy_;
  std::optional<SaltedTable> salted_item_;
  std::optional<SaltedTable> salted_minute_;
  std::optional<SaltedTable> salted_visitors_;

  util::Mutex refresh_mu_;  // one RefreshWeekly / RebuildWeekly at a time in this process

  util::Mutex thread_mu_;
  std::thread thread_ BASALT_GUARDED_BY(thread_mu_);
  util::Mutex stop_mu_;
  util::CondVar stop_cv_;
  bool stop_ BASALT_GUARDED_BY(stop_mu_) = false;
};

}  // namespace

Result<std::unique_ptr<ClickCounters>> ClickCounters::Open(Connection& conn,
                                                           ClickCountersOptions options) {
  if (int64_t{options.bucket_ttl_seconds} * 1000 <= kWeekMs) {
    return Status::InvalidArgument("click counters: bucket_ttl_seconds must exceed 7 days");
  }
  if (options.salt_buckets < 0 || options.salt_buckets > SaltedTable::kMaxBuckets) {
    return Status::InvalidArgument("click counters: salt_buckets outside 0..256");
  }
  if (options.refresher_poll_ms < 1) {
    return Status::InvalidArgument("click counters: refresher_poll_ms < 1");
  }
  BASALT_ASSIGN_OR_RETURN(auto splits,
                          EvenFirstByteSplits(options.presplit_regions, options.salt_buckets,
                                              "click counters: presplit_regions"));
  if (options.presplit_regions > 1 && options.salt_buckets == 0) {
    return Status::InvalidArgument("click counters: presplit_regions needs salt_buckets");
  }
  const std::string& ns = options.name_space;
  const TableName item_name(ns, options.table_prefix + "_by_item");
  const TableName minute_name(ns, options.table_prefix + "_by_minute");
  const TableName totals_name(ns, options.table_prefix + "_totals");
  const TableName visitors_name(ns, options.table_prefix + "_visitors");
  const TableName heavy_name(ns, options.table_prefix + "_heavy");
  auto family = [&](const char* name, int32_t ttl_seconds) {
    FamilyDescriptor f(name);
    f.ttl_seconds = ttl_seconds;
    f.compression = options.compression;
    return f;
  };
  const FamilyDescriptor buckets = family(kFamily, options.bucket_ttl_seconds);
  const FamilyDescriptor registers = family(kVisitorFamily, options.bucket_ttl_seconds);
  const FamilyDescriptor counters = family(kSketchFamily, options.bucket_ttl_seconds);
  const FamilyDescriptor candidates = family(kCandidateFamily, options.bucket_ttl_seconds);
  BASALT_RETURN_IF_ERROR(
      EnsureTable(conn.admin(), TableDescriptor(item_name).AddFamily(buckets), splits));
  BASALT_RETURN_IF_ERROR(
      EnsureTable(conn.admin(), TableDescriptor(minute_name).AddFamily(buckets), splits));
  BASALT_RETURN_IF_ERROR(EnsureTable(
      conn.admin(), TableDescriptor(totals_name).AddFamily(family(kFamily, kForeverTtl))));
  BASALT_RETURN_IF_ERROR(
      EnsureTable(conn.admin(), TableDescriptor(visitors_name).AddFamily(registers), splits));
  BASALT_RETURN_IF_ERROR(EnsureTable(
      conn.admin(), TableDescriptor(heavy_name).AddFamily(counters).AddFamily(candidates)));
  BASALT_ASSIGN_OR_RETURN(auto by_item, conn.GetTable(item_name));
  BASALT_ASSIGN_OR_RETURN(auto by_minute, conn.GetTable(minute_name));
  BASALT_ASSIGN_OR_RETURN(auto totals, conn.GetTable(totals_name));
  BASALT_ASSIGN_OR_RETURN(auto visitors, conn.GetTable(visitors_name));
  BASALT_ASSIGN_OR_RETURN(auto heavy, conn.GetTable(heavy_name));
  BASALT_RETURN_IF_ERROR(
      CheckRecipeFormat(*totals, RecipeFormat{"click counters", kClickCountersFormatVersion,
                                              kOldestReadableClickCountersFormatVersion,
                                              std::string(kRecipeMetaRow), kFamily}));
  auto made =
      std::make_unique<Counters>(std::move(options), std::move(by_item), std::move(by_minute),
                                 std::move(totals), std::move(visitors), std::move(heavy));
  BASALT_RETURN_IF_ERROR(made->Salt());
  return std::unique_ptr<ClickCounters>(std::move(made));
}

}  // namespace basalt::recipes
