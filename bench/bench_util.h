// Helpers shared by the benchmark programs: failing fast, timing an operation, summarising
// rounds. Benchmarks are programs, not tests; a failed call ends the run with a message.

#ifndef BASALT_BENCH_BENCH_UTIL_H_
#define BASALT_BENCH_BENCH_UTIL_H_

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "basalt/status.h"

namespace basalt::bench {

// Ends the program when `s` is not OK, naming what failed.
inline void Check(const Status& s, const char* what) {
  if (s.ok()) return;
  std::fprintf(stderr, "%s: %s\n", what, s.ToString().c_str());
  std::exit(1);
}

// Runs `op` (which returns how many operations it did) again and again for about `seconds`;
// returns operations per second.
inline double RatePerSecond(double seconds, const std::function<int64_t()>& op) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  int64_t ops = 0;
  double elapsed = 0;
  do {
    ops += op();
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  } while (elapsed < seconds);
  return static_cast<double>(ops) / elapsed;
}

// REQUIRES: !v.empty().
inline double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The p-quantile (0 <= p <= 1) of `v`; 0 for an empty `v`.
inline double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

}  // namespace basalt::bench

#endif  // BASALT_BENCH_BENCH_UTIL_H_
