// The demo data set: users, a power-law follow graph, posts fanned out to home feeds, activity
// events and clicks, of a realistic shape, written through the recipes (so through the public
// API, on any backend). `basalt demo load` runs it; the server and its UI have something to show.
//
// Every demo user's password is kDemoPassword. Users are "user0001", "user0002", ...; user0001
// has the most followers (followed users are drawn with Zipf weights), and every user follows
// at least 3 others (when mean_follows > 0). Post authors, active users and clicked items are
// Zipf-distributed too. Posts are short sentences a person could have written; posts, activity
// and clicks are spread over the last 7 days. Loading into a store that already holds demo data
// adds to it (existing users are kept).

#ifndef BASALT_RECIPES_DEMO_H_
#define BASALT_RECIPES_DEMO_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "basalt/connection.h"
#include "basalt/status.h"

namespace basalt::recipes {

inline constexpr std::string_view kDemoPassword = "basalt-demo-password";

struct DemoOptions {
  int32_t users = 200;
  int32_t mean_follows = 10;  // follows per user, on average
  int32_t posts = 2000;
  int32_t actions = 20000;
  int32_t items = 300;
  int32_t clicks = 20000;
  uint32_t seed = 42;  // the same seed gives the same data set (but for times)
  // The namespace of every recipe table the demo writes (created when missing).
  std::string name_space = "default";
};

// What was written.
struct DemoSummary {
  int64_t users = 0;
  int64_t follows = 0;
  int64_t posts = 0;
  int64_t actions = 0;
  int64_t clicks = 0;
};

// Called as work progresses: stage name ("users", "follows", ...), units done, units in all.
using DemoProgress = std::function<void(std::string_view stage, int64_t done, int64_t total)>;

// InvalidArgument for negative counts or fewer than 2 users; otherwise the first recipe error.
Result<DemoSummary> LoadDemo(Connection& conn, const DemoOptions& options,
                             const DemoProgress& progress = {});

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_DEMO_H_
