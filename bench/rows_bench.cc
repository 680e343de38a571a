// The in-process side of bench/http_bench.py: the operations its wrk runs send over HTTP, on
// the same store, through the public API and the recipes.
//
//   get         a Get of a random row "row%08d" of the table "bench" (family "f", one cell)
//   cell        a GetInto of its one cell f:q into a reused RowResult (REST: GET /bench/ROW/f:q)
//   put         a Put of one cell f:q (a 100-byte value) into a random row
//   scan10      a Scan of the 10 rows under a random prefix "row%07d" (REST: GET /bench/PREFIX*)
//   timeline    the first page (20 posts) of a random demo user's home timeline (Feed)
//   activity10  the latest 10 actions of a random demo user (ActivityLog::Page)
//
// Usage: basalt_rows_bench --data DIR --op OP [--rows N] [--users U] [--namespace NS]
//                          [--threads T] [--seconds S]
//   DIR must hold the table "bench" (http_bench.py loads it over REST, then stops the server)
//   and, for timeline and activity10, the demo data set of U users in namespace NS (default
//   "app", where `basalt serve --demo` loads it).
// Prints one line: {"op":..., "threads":T, "ops_per_s":..., "p50_us":..., "p90_us":...,
// "p99_us":...}; latencies are of single calls, as wrk reports them for requests.

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "basalt/basalt.h"
#include "basalt/recipes/activity_log.h"
#include "basalt/recipes/feed.h"
#include "basalt/recipes/follow_graph.h"
#include "harness.h"

namespace {

using Clock = std::chrono::steady_clock;
using basalt::bench::Check;

struct Config {
  std::string data;
  std::string op;
  int64_t rows = 100000;
  int32_t users = 20;
  std::string name_space = "app";
  int threads = 2;
  double seconds = 10;
};

// Returns -1 to go on, or the exit code.
int ParseArgs(int argc, char** argv, Config* cfg, basalt::bench::Harness* harness) {
  CLI::App& app = harness->app();
  app.add_option("--data", cfg->data, "the store (bench/http_bench.py's)")->required();
  app.add_option("--op", cfg->op, "the operation")
      ->required()
      ->check(CLI::IsMember({"get", "cell", "put", "scan10", "timeline", "activity10"}));
  app.add_option("--rows", cfg->rows, "rows in the table")
      ->check(CLI::Range(int64_t{10}, INT64_MAX))
      ->capture_default_str();
  app.add_option("--users", cfg->users, "demo users")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--namespace", cfg->name_space, "the demo's namespace")->capture_default_str();
  app.add_option("--threads", cfg->threads, "calling threads")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  harness->AddSeconds(&cfg->seconds, 10);
  return harness->Parse(argc, argv);
}

std::string RowKey(int64_t i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "row%08lld", static_cast<long long>(i));
  return buf;
}

// The prefix of the 10 rows i*10 .. i*10+9.
std::string RowPrefix(int64_t i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "row%07lld", static_cast<long long>(i));
  return buf;
}

// The demo's user names (src/recipes/demo.cc).
std::string DemoUser(int32_t i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "user%04d", i + 1);
  return buf;
}

// The recipes the timeline and activity10 operations read, opened as the server opens them.
struct Recipes {
  std::unique_ptr<basalt::recipes::FollowGraph> graph;
  std::unique_ptr<basalt::recipes::Feed> feed;
  std::unique_ptr<basalt::recipes::ActivityLog> activity;
};

Recipes OpenRecipes(basalt::Connection& conn, const Config& cfg) {
  Recipes r;
  if (cfg.op != "timeline" && cfg.op != "activity10") return r;
  basalt::recipes::FollowGraphOptions graph_options;
  graph_options.name_space = cfg.name_space;
  auto graph = basalt::recipes::FollowGraph::Open(conn, graph_options);
  Check(graph.status(), "opening the follow graph");
  r.graph = std::move(*graph);
  basalt::recipes::FeedOptions feed_options;
  feed_options.name_space = cfg.name_space;
  auto feed = basalt::recipes::Feed::Open(conn, *r.graph, feed_options);
  Check(feed.status(), "opening the feed");
  r.feed = std::move(*feed);
  basalt::recipes::ActivityLogOptions log_options;
  log_options.name_space = cfg.name_space;
  auto activity = basalt::recipes::ActivityLog::Open(conn, log_options);
  Check(activity.status(), "opening the activity log");
  r.activity = std::move(*activity);
  return r;
}
}  // namespace

int main(int argc, char** argv) {
  Config cfg;
  basalt::bench::Harness harness(
      "basalt_rows_bench", "The in-process side of bench/http_bench.py; prints one JSON line");
  if (int rc = ParseArgs(argc, argv, &cfg, &harness); rc >= 0) return rc;
  auto conn = basalt::Connection::Open(cfg.data);
  Check(conn.status(), "opening the store");
  const std::string value(100, 'v');
  Recipes recipes = OpenRecipes(**conn, cfg);
  std::vector<std::vector<double>> latencies(cfg.threads);
  std::atomic<bool> stop{false};
  std::vector<std::thread> workers;
  const auto start = Clock::now();
  for (int t = 0; t < cfg.threads; ++t) {
    workers.emplace_back([&, t] {
      auto table = (*conn)->GetTable("bench");
      Check(table.status(), "opening the table");
      std::mt19937_64 rng(static_cast<uint64_t>(t) + 1);
      std::uniform_int_distribution<int64_t> pick(0, cfg.rows - 1);
      std::uniform_int_distribution<int64_t> pick_block(0, cfg.rows / 10 - 1);
      std::uniform_int_distribution<int32_t> pick_user(0, cfg.users - 1);
      std::vector<double>& mine = latencies[t];
      basalt::RowResult cell;  // reused, as served_bench's point get
      while (!stop.load(std::memory_order_relaxed)) {
        const std::string row = RowKey(pick(rng));
        const std::string prefix = RowPrefix(pick_block(rng));
        const std::string user = DemoUser(pick_user(rng));
        const auto begin = Clock::now();
        if (cfg.op == "get") {
          auto r = (*table)->Get(basalt::Get(row));
          Check(r.status(), "get");
          if (r->empty()) Check(basalt::Status::NotFound(row), "get");
        } else if (cfg.op == "cell") {
          Check((*table)->GetInto(basalt::Get(row).AddColumn("f", "q"), &cell), "get");
          if (cell.empty()) Check(basalt::Status::NotFound(row), "get");
        } else if (cfg.op == "put") {
          Check((*table)->Put(basalt::Put(row).Add("f", "q", value)), "put");
        } else if (cfg.op == "scan10") {
          auto scanner = (*table)->GetScanner(basalt::Scan().SetRowPrefix(prefix));
          Check(scanner.status(), "scan");
          basalt::RowResult r;
          int rows = 0;
          while ((*scanner)->Next(&r)) ++rows;
          Check((*scanner)->status(), "scan");
          if (rows != 10) Check(basalt::Status::NotFound(prefix + " has not 10 rows"), "scan");
        } else if (cfg.op == "timeline") {
          Check(recipes.feed->HomeTimeline(user, 20).status(), "home timeline");
        } else {
          Check(recipes.activity->Page(user, 10).status(), "activity page");
        }
        mine.push_back(std::chrono::duration<double, std::micro>(Clock::now() - begin).count());
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(cfg.seconds));
  stop = true;
  for (auto& w : workers) w.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  std::vector<double> all;
  for (const auto& l : latencies) all.insert(all.end(), l.begin(), l.end());
  const double rate = static_cast<double>(all.size()) / elapsed;
  const double p50 = basalt::bench::Percentile(all, 0.50);
  const double p90 = basalt::bench::Percentile(all, 0.90);
  const double p99 = basalt::bench::Percentile(all, 0.99);
  std::printf(
      "{\"op\": \"%s\", \"threads\": %d, \"ops_per_s\": %.0f, \"p50_us\": %.1f, \"p90_us\": "
      "%.1f, \"p99_us\": %.1f}\n",
      cfg.op.c_str(), cfg.threads, rate, p50, p90, p99);
  basalt::bench::Table table;
  table.columns = {"op", "threads", "ops/s", "p50 us", "p90 us", "p99 us"};
  table.right_aligned = {false, true, true, true, true, true};
  table.AddRow({cfg.op, std::to_string(cfg.threads), basalt::bench::Fixed(rate, 0),
                basalt::bench::Fixed(p50, 1), basalt::bench::Fixed(p90, 1),
                basalt::bench::Fixed(p99, 1)});
  harness.Keep(table);
  recipes = Recipes();  // its tables go before the Connection
  Check((*conn)->Close(), "closing the store");
  return harness.Finish();
}
