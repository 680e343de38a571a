// The in-process side of bench/http_bench.sh: the operations its wrk runs send over REST, on
// the same store, through the public API (Table::Get / Table::Put of one row).
//
//   get   a Get of a random row "row%08d" of the table "bench" (family "f", one cell)
//   put   a Put of one cell f:q (a 100-byte value) into a random row
//
// Usage: basalt_rows_bench --data DIR --op get|put [--rows N] [--threads T] [--seconds S]
//   DIR must hold the table "bench" (http_bench.sh loads it over REST, then stops the server).
// Prints one line: {"op":..., "threads":T, "ops_per_s":..., "p50_us":..., "p90_us":...,
// "p99_us":...}; latencies are of single calls, as wrk reports them for requests.

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "basalt/basalt.h"
#include "bench_util.h"

namespace {

using Clock = std::chrono::steady_clock;
using basalt::bench::Check;

struct Config {
  std::string data;
  std::string op;
  int64_t rows = 100000;
  int threads = 2;
  double seconds = 10;
};

[[noreturn]] void Usage() {
  std::fprintf(stderr,
               "usage: basalt_rows_bench --data DIR --op get|put [--rows N] [--threads T] "
               "[--seconds S]\n");
  std::exit(2);
}

Config ParseArgs(int argc, char** argv) {
  Config cfg;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (i + 1 >= argc) Usage();
    std::string value = argv[++i];
    if (arg == "--data") {
      cfg.data = value;
    } else if (arg == "--op") {
      cfg.op = value;
    } else if (arg == "--rows") {
      cfg.rows = std::atoll(value.c_str());
    } else if (arg == "--threads") {
      cfg.threads = std::atoi(value.c_str());
    } else if (arg == "--seconds") {
      cfg.seconds = std::atof(value.c_str());
    } else {
      Usage();
    }
  }
  if (cfg.data.empty() || (cfg.op != "get" && cfg.op != "put") || cfg.rows < 1 || cfg.threads < 1 ||
      cfg.seconds <= 0) {
    Usage();
  }
  return cfg;
}

std::string RowKey(int64_t i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "row%08lld", static_cast<long long>(i));
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  const Config cfg = ParseArgs(argc, argv);
  auto conn = basalt::Connection::Open(cfg.data);
  Check(conn.status(), "opening the store");
  const std::string value(100, 'v');
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
      std::vector<double>& mine = latencies[t];
      while (!stop.load(std::memory_order_relaxed)) {
        const std::string row = RowKey(pick(rng));
        const auto begin = Clock::now();
        if (cfg.op == "get") {
          auto r = (*table)->Get(basalt::Get(row));
          Check(r.status(), "get");
          if (r->empty()) Check(basalt::Status::NotFound(row), "get");
        } else {
          Check((*table)->Put(basalt::Put(row).Add("f", "q", value)), "put");
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
  std::printf(
      "{\"op\": \"%s\", \"threads\": %d, \"ops_per_s\": %.0f, \"p50_us\": %.1f, \"p90_us\": "
      "%.1f, \"p99_us\": %.1f}\n",
      cfg.op.c_str(), cfg.threads, static_cast<double>(all.size()) / elapsed,
      basalt::bench::Percentile(all, 0.50), basalt::bench::Percentile(all, 0.90),
      basalt::bench::Percentile(all, 0.99));
  Check((*conn)->Close(), "closing the store");
  return 0;
}
