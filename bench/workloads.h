// The data sets of the seed notes' workloads, generated alike wherever a benchmark needs them:
// the `action-log` workload (w1_bench.cc) and the `home-feed` microblog (feed_bench.cc). Every
// generator is seeded, so two processes that ask for the same sizes get the same data.

#ifndef BASALT_BENCH_WORKLOADS_H_
#define BASALT_BENCH_WORKLOADS_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace basalt::bench {

// Zipf(s = 1) over ranks 0..n-1: rank r has weight 1 / (r + 1). REQUIRES: n >= 1.
class Zipf {
 public:
  explicit Zipf(int n) : cdf_(n) {
    double sum = 0;
    for (int r = 0; r < n; ++r) cdf_[r] = (sum += 1.0 / (r + 1));
    for (double& c : cdf_) c /= sum;
  }
  int operator()(std::mt19937_64& rng) const {
    const double u = std::uniform_real_distribution<double>(0, 1)(rng);
    const auto it = std::lower_bound(cdf_.begin(), cdf_.end(), u);
    return static_cast<int>(std::min<ptrdiff_t>(it - cdf_.begin(), cdf_.size() - 1));
  }

 private:
  std::vector<double> cdf_;
};

// Note 000 (W1): 100,000 x scale users, 5,000,000 x scale actions whose users follow Zipf(s = 1),
// recorded in time order: action i happens at kActionTime0 + i ms, by action_users[i], and is
// named kActionName.
inline constexpr int64_t kActionTime0 = 1795392000000;  // 2026-11-23 00:00 UTC
inline constexpr char kActionName[] = "Joe User";

struct ActionLogWorkload {
  int users = 0;
  std::vector<int> action_users;  // one per action, in time order
};

inline ActionLogWorkload MakeActionLogWorkload(double scale) {
  ActionLogWorkload w;
  w.users = std::max(1, static_cast<int>(std::lround(100000 * scale)));
  const int64_t actions = std::max<int64_t>(1, std::llround(5000000 * scale));
  const Zipf zipf(w.users);
  w.action_users.resize(static_cast<size_t>(actions));
  std::mt19937_64 rng(42);
  for (int& u : w.action_users) u = zipf(rng);
  return w;
}

// Note 004 (W2): 20,000 x scale users, each following `follows` others drawn from Zipf(s = 1) (a
// few authors have most users as followers), and 100,000 x scale posts by uniformly drawn
// authors, in time order.
struct FeedWorkload {
  int users = 0;
  std::vector<std::pair<int, int>> edges;  // (follower, followed)
  std::vector<int> authors;                // one per post, in time order
};

// Draws from `rng` (feed_bench.cc goes on to draw its readers from it).
inline FeedWorkload MakeFeedWorkload(double scale, int follows, std::mt19937_64& rng) {
  FeedWorkload w;
  w.users = std::max(10, static_cast<int>(20000 * scale));
  const int posts = std::max(10, static_cast<int>(100000 * scale));
  std::vector<double> weights;
  for (int i = 0; i < w.users; ++i) weights.push_back(1.0 / (1 + i));
  std::discrete_distribution<int> zipf(weights.begin(), weights.end());
  for (int f = 0; f < w.users; ++f) {
    std::set<int> chosen;
    for (int tries = 0; static_cast<int>(chosen.size()) < follows && tries < follows * 20;
         ++tries) {
      int followed = zipf(rng);
      if (followed != f) chosen.insert(followed);
    }
    for (int followed : chosen) w.edges.push_back({f, followed});
  }
  std::uniform_int_distribution<int> any(0, w.users - 1);
  for (int i = 0; i < posts; ++i) w.authors.push_back(any(rng));
  return w;
}

inline FeedWorkload MakeFeedWorkload(double scale, int follows) {
  std::mt19937_64 rng(42);
  return MakeFeedWorkload(scale, follows, rng);
}

// A feed user's name: "u%06d".
inline std::string FeedUserName(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "u%06d", i);
  return buf;
}

// Cells `row%012d` -> `value_bytes` pseudo-random bytes, made on the fly from their index (10^8
// of them would not fit in memory). The bytes are splitmix64 of the index, and of `salt` for a
// rewrite of the same row, so both sides of a comparison make the same cells.
class CellSource {
 public:
  explicit CellSource(size_t value_bytes) : value_(value_bytes, '\0') {}

  const std::string& Row(int64_t i) {
    char buf[24];
    std::snprintf(buf, sizeof(buf), "row%012lld", static_cast<long long>(i));
    row_.assign(buf);
    return row_;
  }
  const std::string& Value(int64_t i, uint64_t salt = 0) {
    uint64_t x = (static_cast<uint64_t>(i) ^ salt) * 0x9e3779b97f4a7c15ULL;
    for (size_t pos = 0; pos < value_.size(); pos += 8) {
      x += 0x9e3779b97f4a7c15ULL;
      uint64_t z = x;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      z ^= z >> 31;
      std::memcpy(value_.data() + pos, &z, std::min<size_t>(8, value_.size() - pos));
    }
    return value_;
  }

 private:
  std::string row_;
  std::string value_;
};

}  // namespace basalt::bench

#endif  // BASALT_BENCH_WORKLOADS_H_
