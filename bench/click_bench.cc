// Click counters' sketches against the exact answers they approximate, side by side in one run:
// TopKApprox (hourly Count-Min sketches and their candidates) against TopK (a scan of every
// (minute, item) bucket of the window), and DistinctVisitors (hourly HyperLogLog registers)
// against the true count, on a day of Zipf-distributed clicks over 1k, 10k and 100k items.
//
// For each size, a fresh on-disk store gets `clicks` clicks (ClickBy: item Zipf(1.0) over the
// items, visitor uniform over `visitors`, times uniform over one day), then:
//   click      ClickBy calls per second during the load (4 or 5 Increments and a Put)
//   exact      TopK(day, 10) calls per second
//   approx     TopKApprox(day, 10) calls per second
//   recall     how many of the exact top 10 the approximate top 10 has
//   excess     the largest (approximate - exact) count among them, and the error bound
//   visitors   DistinctVisitors(top item, day) per second, and its error against the truth
//
// Usage: basalt_click_bench [--dir DIR] [--clicks N] [--items N] [--seconds S] [--markdown FILE]
//   [--json FILE]
//   --items N runs one size instead of the three.

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "basalt/basalt.h"
#include "basalt/recipes/click_counters.h"
#include "harness.h"

namespace {

using basalt::bench::Check;
using basalt::bench::RatePerSecond;
using basalt::recipes::ClickCounters;
using Clock = std::chrono::steady_clock;

constexpr int64_t kDay0 = 1795392000000;  // 2026-11-23 00:00 UTC
constexpr int64_t kDayMs = 24 * ClickCounters::kHourMs;

struct Config {
  std::string dir = "/tmp/basalt-click-bench";
  int64_t clicks = 200000;
  double seconds = 1.0;
  int items = 0;  // 0: 1k, 10k and 100k
};

template <class T>
T Value(basalt::Result<T> r, const char* what) {
  Check(r.status(), what);
  return std::move(r).value();
}

void Run(const Config& cfg, int items, basalt::bench::Table* table) {
  const std::string dir = cfg.dir + "/" + std::to_string(items);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  auto conn = Value(basalt::Connection::Open(dir), "open");
  auto counters = Value(ClickCounters::Open(*conn, {}), "open counters");
  std::vector<double> weights(static_cast<size_t>(items));
  for (int i = 0; i < items; ++i) weights[static_cast<size_t>(i)] = 1.0 / (i + 1);
  std::discrete_distribution<int> item_of(weights.begin(), weights.end());
  const int visitors = 50000;
  std::mt19937_64 rng(42);
  std::map<std::string, std::set<int>> seen;  // item -> visitors, for the truth
  const auto start = Clock::now();
  for (int64_t c = 0; c < cfg.clicks; ++c) {
    const std::string item = "item" + std::to_string(item_of(rng));
    const int visitor = static_cast<int>(rng() % visitors);
    const int64_t t = kDay0 + static_cast<int64_t>(rng() % kDayMs);
    Check(counters->ClickBy(item, "visitor" + std::to_string(visitor), 1, t), "click");
    if (item == "item0") seen[item].insert(visitor);
  }
  const double click_rate =
      static_cast<double>(cfg.clicks) / std::chrono::duration<double>(Clock::now() - start).count();

  const auto exact = Value(counters->TopK(kDay0, kDay0 + kDayMs, 10), "top");
  const auto approx = Value(counters->TopKApprox(kDay0, kDay0 + kDayMs, 10), "approx");
  std::map<std::string, int64_t> truth;
  for (const auto& c : exact) truth[c.item] = c.count;
  int recall = 0;
  int64_t excess = 0;
  for (const auto& c : approx.items) {
    auto it = truth.find(c.item);
    if (it == truth.end()) continue;
    ++recall;
    excess = std::max(excess, c.count - it->second);
  }
  const double exact_rate = RatePerSecond(cfg.seconds, [&] {
    Check(counters->TopK(kDay0, kDay0 + kDayMs, 10).status(), "top");
    return int64_t{1};
  });
  const double approx_rate = RatePerSecond(cfg.seconds, [&] {
    Check(counters->TopKApprox(kDay0, kDay0 + kDayMs, 10).status(), "approx");
    return int64_t{1};
  });
  const int64_t distinct = Value(counters->DistinctVisitors("item0", kDay0, kDay0 + kDayMs), "dv");
  const double distinct_rate = RatePerSecond(cfg.seconds, [&] {
    Check(counters->DistinctVisitors("item0", kDay0, kDay0 + kDayMs).status(), "dv");
    return int64_t{1};
  });
  const double true_distinct = static_cast<double>(seen["item0"].size());
  char excess_text[64];
  std::snprintf(excess_text, sizeof excess_text, "%lld (bound %lld)",
                static_cast<long long>(excess), static_cast<long long>(approx.error_bound));
  char visitors_text[96];
  std::snprintf(visitors_text, sizeof visitors_text, "%lld vs %.0f (%+.2f%%)",
                static_cast<long long>(distinct), true_distinct,
                100.0 * (static_cast<double>(distinct) - true_distinct) / true_distinct);
  table->AddRow(
      {std::to_string(items), std::to_string(cfg.clicks), basalt::bench::Fixed(click_rate, 0),
       basalt::bench::Fixed(exact_rate, 1), basalt::bench::Fixed(approx_rate, 1),
       basalt::bench::Fixed(approx_rate / exact_rate, 1) + "x", std::to_string(recall) + "/10",
       excess_text, basalt::bench::Fixed(distinct_rate, 0), visitors_text});
  std::fputs(basalt::bench::MarkdownRow(table->rows.back()).c_str(), stdout);
  std::fflush(stdout);
  counters.reset();
  conn.reset();
  std::filesystem::remove_all(dir);
}

}  // namespace

int main(int argc, char** argv) {
  Config cfg;
  basalt::bench::Harness harness("basalt_click_bench",
                                 "Click counters' sketches against the exact answers");
  harness.app().add_option("--dir", cfg.dir, "where the stores go")->capture_default_str();
  harness.app()
      .add_option("--clicks", cfg.clicks, "clicks loaded per size")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  harness.app()
      .add_option("--items", cfg.items, "items (0: 1k, 10k and 100k)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  harness.AddSeconds(&cfg.seconds, 1.0);
  if (int rc = harness.Parse(argc, argv); rc >= 0) return rc;
  basalt::bench::Table table;
  table.columns = {"items", "clicks", "ClickBy/s", "TopK/s (exact)",     "TopKApprox/s",
                   "ratio", "recall", "excess",    "DistinctVisitors/s", "visitors (est. vs true)"};
  table.right_aligned = std::vector<bool>(table.columns.size(), true);
  if (cfg.items > 0) {
    Run(cfg, cfg.items, &table);
  } else {
    for (int items : {1000, 10000, 100000}) Run(cfg, items, &table);
  }
  std::printf("\n");
  harness.Emit(table);
  return harness.Finish();
}
