// Note 001's promised comparison: the activity log's tall layout (a row per event) against its
// wide layout (a row per user), side by side in one run, at 1k, 10k and 100k events per user.
//
// For each size, a fresh on-disk store gets `users` users with `size` events each (recorded
// through ActivityLog::Record, round robin over the users, one event per millisecond per user),
// then each query runs for a fixed time on random users:
//   record     events recorded per second (one Put each)
//   latest10   Latest(user, 10): the newest 10
//   offset1000 Latest(user, 10, 1000): the page after skipping 1000 (`action-log`'s OFFSET); at
//              1k events per user, the last page (offset 990)
//   range100   Range(user, from, from + 100 ms): the 100 events of a random 100 ms window
// Ratios are tall / wide (higher: tall is faster).
//
// Usage: basalt_activity_bench [--dir DIR] [--scale F] [--seconds S] [--markdown FILE] [--json
// FILE]
//   --scale F scales the number of users per size (default 1: 200 000 events per size and
//   layout).

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "basalt/basalt.h"
#include "basalt/recipes/activity_log.h"
#include "harness.h"

namespace {

using Clock = std::chrono::steady_clock;
using basalt::recipes::ActivityLog;
using basalt::recipes::ActivityLogOptions;
using Layout = ActivityLogOptions::Layout;

struct Config {
  std::string dir = "/tmp/basalt-activity-bench";
  double scale = 1.0;
  double seconds = 1.0;
};

using basalt::bench::Check;
using basalt::bench::Die;

double Seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

// Runs `op` repeatedly for about `seconds`; returns operations per second.
double Rate(double seconds, const std::function<void()>& op) {
  const auto start = Clock::now();
  int64_t n = 0;
  while (true) {
    for (int i = 0; i < 16; ++i) op();
    n += 16;
    const double elapsed = Seconds(Clock::now() - start);
    if (elapsed >= seconds) return static_cast<double>(n) / elapsed;
  }
}

struct Figures {
  double record = 0, latest10 = 0, offset1000 = 0, range100 = 0;
};

constexpr int64_t kTime0 = 1795392000000;  // 2026-11-23 00:00 UTC

std::string User(int u) {
  return "user" + std::to_string(u);
}

Figures RunLayout(const Config& cfg, Layout layout, int64_t size, int users) {
  const std::string dir =
      cfg.dir + "/" + (layout == Layout::kTall ? "tall" : "wide") + std::to_string(size);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(cfg.dir);
  auto conn = Check(basalt::Connection::Open(dir), "open");
  ActivityLogOptions options;
  options.layout = layout;
  auto log = Check(ActivityLog::Open(*conn, options), "open log");
  Figures f;
  const std::string payload(40, 'p');
  const auto start = Clock::now();
  for (int64_t i = 0; i < size; ++i) {
    for (int u = 0; u < users; ++u) {
      Check(log->Record(User(u), "view", payload, kTime0 + i), "record");
    }
  }
  f.record = static_cast<double>(size * users) / Seconds(Clock::now() - start);
  basalt::Status flushed = conn->admin().Flush(basalt::TableName("default", "activity_events"));
  if (!flushed.ok()) Die("flush: " + flushed.ToString());
  std::mt19937_64 rng(1);
  auto user = [&] { return User(static_cast<int>(rng() % users)); };
  f.latest10 = Rate(cfg.seconds, [&] {
    if (Check(log->Latest(user(), 10), "latest").size() != 10) Die("latest: short");
  });
  f.offset1000 = Rate(cfg.seconds, [&] {
    const int64_t offset = std::min<int64_t>(1000, size - 10);
    if (Check(log->Latest(user(), 10, offset), "offset").size() != 10) Die("offset: short");
  });
  f.range100 = Rate(cfg.seconds, [&] {
    const int64_t from = kTime0 + static_cast<int64_t>(rng() % (size - 100));
    if (Check(log->Range(user(), from, from + 100), "range").size() != 100) Die("range: short");
  });
  log.reset();
  if (!conn->Close().ok()) Die("close");
  conn.reset();
  std::filesystem::remove_all(dir);
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  Config cfg;
  basalt::bench::Harness harness("basalt_activity_bench",
                                 "The activity log's tall layout against its wide one");
  harness.app().add_option("--dir", cfg.dir, "where the stores go")->capture_default_str();
  harness.app()
      .add_option("--scale", cfg.scale, "scales the users per size")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  harness.AddSeconds(&cfg.seconds, 1.0);
  if (int rc = harness.Parse(argc, argv); rc >= 0) return rc;
  basalt::bench::Table table;
  table.columns = {"events/user", "users", "query", "tall", "wide", "tall/wide"};
  table.right_aligned = {true, true, false, true, true, true};
  for (int64_t size : {int64_t{1000}, int64_t{10000}, int64_t{100000}}) {
    const int users = std::max(1, static_cast<int>(200000.0 / size * cfg.scale));
    Figures tall = RunLayout(cfg, Layout::kTall, size, users);
    Figures wide = RunLayout(cfg, Layout::kWide, size, users);
    auto row = [&](const char* name, const char* unit, double t, double w) {
      table.AddRow({std::to_string(size), std::to_string(users), name,
                    basalt::bench::Fixed(t, 0) + " " + unit,
                    basalt::bench::Fixed(w, 0) + " " + unit, basalt::bench::Fixed(t / w, 2) + "x"});
      fputs(basalt::bench::MarkdownRow(table.rows.back()).c_str(), stdout);
      fflush(stdout);
    };
    row("record", "events/s", tall.record, wide.record);
    row("latest 10", "q/s", tall.latest10, wide.latest10);
    row("10 at offset 1000", "q/s", tall.offset1000, wide.offset1000);
    row("range of 100", "q/s", tall.range100, wide.range100);
  }
  harness.Emit(table);
  return harness.Finish();
}
