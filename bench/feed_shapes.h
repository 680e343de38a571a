// The follow graphs feed_bench.cc runs the `home-feed` microblog on. Each design of fan-out costs
// most at another shape, so the bench takes three: many small fan-outs (a sparse power law), a
// dense community where every post reaches a large share of the users, and one author whose every
// post reaches everyone. Every generator is seeded by its caller, so both sides of a comparison
// (and two processes asking for the same sizes) get the same graph and posts.

#ifndef BASALT_BENCH_FEED_SHAPES_H_
#define BASALT_BENCH_FEED_SHAPES_H_

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "workloads.h"

namespace basalt::bench {

enum class FeedShape {
  // MakeFeedWorkload: 20,000 x scale users following `follows` others each, drawn from Zipf(s =
  // 1); 100,000 x scale posts by uniformly drawn authors.
  kSparse,
  // 4,000 x scale users, each following between 50 and 200 others (uniformly many, uniformly
  // drawn); 4 posts per user by uniformly drawn authors.
  kDense,
  // 20,000 x scale users who all follow user 0, the author of every one of 1,000 x scale posts.
  kCelebrity,
};

inline const char* FeedShapeName(FeedShape s) {
  switch (s) {
    case FeedShape::kSparse:
      return "sparse";
    case FeedShape::kDense:
      return "dense";
    case FeedShape::kCelebrity:
      return "celebrity";
  }
  return "?";
}

// False for a name that is none of FeedShapeName's.
inline bool ParseFeedShape(const std::string& name, FeedShape* out) {
  for (FeedShape s : {FeedShape::kSparse, FeedShape::kDense, FeedShape::kCelebrity}) {
    if (name == FeedShapeName(s)) {
      *out = s;
      return true;
    }
  }
  return false;
}

inline FeedWorkload MakeDenseFeedWorkload(double scale, std::mt19937_64& rng) {
  FeedWorkload w;
  w.users = std::max(10, static_cast<int>(4000 * scale));
  const int most = std::min(200, w.users - 1);
  std::uniform_int_distribution<int> how_many(std::min(50, most), most);
  std::vector<int> others(w.users - 1);
  for (int f = 0; f < w.users; ++f) {
    // Everyone but f, then a partial shuffle: the first k are a uniform draw without repeats.
    std::iota(others.begin(), others.end(), 0);
    if (f < w.users - 1) others[f] = w.users - 1;
    const int k = how_many(rng);
    for (int i = 0; i < k; ++i) {
      std::swap(others[i], others[std::uniform_int_distribution<int>(i, w.users - 2)(rng)]);
      w.edges.push_back({f, others[i]});
    }
  }
  std::uniform_int_distribution<int> any(0, w.users - 1);
  for (int i = 0; i < 4 * w.users; ++i) w.authors.push_back(any(rng));
  return w;
}

inline FeedWorkload MakeCelebrityFeedWorkload(double scale) {
  FeedWorkload w;
  w.users = std::max(10, static_cast<int>(20000 * scale));
  for (int f = 1; f < w.users; ++f) w.edges.push_back({f, 0});
  w.authors.assign(std::max(10, static_cast<int>(1000 * scale)), 0);
  return w;
}

// The shape's workload; `follows` is the sparse shape's follows per user.
inline FeedWorkload MakeShapedFeedWorkload(FeedShape shape, double scale, int follows,
                                           std::mt19937_64& rng) {
  switch (shape) {
    case FeedShape::kSparse:
      return MakeFeedWorkload(scale, follows, rng);
    case FeedShape::kDense:
      return MakeDenseFeedWorkload(scale, rng);
    case FeedShape::kCelebrity:
      return MakeCelebrityFeedWorkload(scale);
  }
  return {};
}

}  // namespace basalt::bench

#endif  // BASALT_BENCH_FEED_SHAPES_H_
