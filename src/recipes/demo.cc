#include "basalt/recipes/demo.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "basalt/recipes/activity_log.h"
#include "basalt/recipes/click_counters.h"
#include "basalt/recipes/fanout_worker.h"
#include "basalt/recipes/feed.h"
#include "basalt/recipes/follow_graph.h"
#include "basalt/recipes/users.h"
#include "recipes/table_setup.h"

namespace basalt::recipes {
namespace {

constexpr int64_t kWeekMs = int64_t{7} * 24 * 3600 * 1000;
// Followees every demo user has at least (when follows are asked for at all).
constexpr int32_t kMinFollows = 3;

std::string UserName(int32_t i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "user%04d", i + 1);
  return buf;
}

// Zipf weights 1/(i+1): a few users or items get most of the attention.
std::discrete_distribution<int32_t> Zipf(int32_t n) {
  std::vector<double> w(static_cast<size_t>(n));
  for (int32_t i = 0; i < n; ++i) w[static_cast<size_t>(i)] = 1.0 / (i + 1);
  return std::discrete_distribution<int32_t>(w.begin(), w.end());
}

const char* const kActions[] = {"login", "view", "like", "share", "comment", "search"};

// Posts a person could have written: a template with its blanks filled from small lists.
const char* const kTemplates[] = {
    "Just shipped {thing}. {mood}",
    "Morning coffee and {thing}: a good start to the day.",
    "Reading about {topic} today. Any recommendations?",
    "Spent the afternoon on {thing}. {mood}",
    "Hot take: {topic} is underrated.",
    "Finally fixed {bug}. {mood}",
    "Who else is going to {event} this week?",
    "Trying {topic} for the first time. Notes soon.",
    "Long day of {thing}. {mood}",
    "Weekend plan: {hobby}, then more {topic}.",
    "Three things I learned about {topic} this month, thread below.",
    "Back from {event}. Great talks on {topic}.",
};
const char* const kThings[] = {"a new release",           "the benchmark suite",
                               "our first region split",  "a tiny command-line tool",
                               "the onboarding docs",     "a flaky test",
                               "the move to tall tables", "a dashboard for clicks"};
const char* const kTopics[] = {"HBase schema design", "row-key salting", "time-series storage",
                               "follow graphs",       "feed fan-out",    "RocksDB tuning",
                               "bloom filters",       "compaction"};
const char* const kMoods[] = {"Worth it.", "Not bad at all.", "Time for tea.", "Still smiling.",
                              "Lesson learned."};
const char* const kBugs[] = {"an off-by-one in the pager", "the time zone bug",
                             "that race in the worker", "a typo in the config"};
const char* const kEvents[] = {"the meetup", "the storage conference", "the hack night"};
const char* const kHobbies[] = {"a long walk", "baking bread", "a bike ride", "board games"};

template <size_t N>
const char* Pick(std::mt19937& rng, const char* const (&list)[N]) {
  return list[rng() % N];
}

std::string Bio(std::mt19937& rng) {
  std::string topic = Pick(rng, kTopics);
  std::string hobby = Pick(rng, kHobbies);
  return "Working on " + topic + ". " + static_cast<char>(std::toupper(hobby[0])) +
         hobby.substr(1) + " on weekends.";
}

std::string PostText(std::mt19937& rng) {
  std::string text = Pick(rng, kTemplates);
  struct Blank {
    const char* name;
    const char* value;
  };
  const Blank blanks[] = {{"{thing}", Pick(rng, kThings)}, {"{topic}", Pick(rng, kTopics)},
                          {"{mood}", Pick(rng, kMoods)},   {"{bug}", Pick(rng, kBugs)},
                          {"{event}", Pick(rng, kEvents)}, {"{hobby}", Pick(rng, kHobbies)}};
  for (const Blank& blank : blanks) {
    size_t at = text.find(blank.name);
    if (at != std::string::npos) text.replace(at, std::strlen(blank.name), blank.value);
  }
  return text;
}

}  // namespace

Result<DemoSummary> LoadDemo(Connection& conn, const DemoOptions& o, const DemoProgress& progress) {
  if (o.users < 2 || o.posts < 0 || o.actions < 0 || o.clicks < 0 || o.mean_follows < 0 ||
      (o.clicks > 0 && o.items < 1)) {
    return Status::InvalidArgument(
        "demo: need at least 2 users, at least 1 item when there are clicks, and no negative "
        "counts");
  }
  auto report = [&](std::string_view stage, int64_t done, int64_t total) {
    if (progress) progress(stage, done, total);
  };
  std::mt19937 rng(o.seed);
  DemoSummary summary;

  UserStoreOptions user_options;
  user_options.name_space = o.name_space;
  BASALT_ASSIGN_OR_RETURN(auto users, UserStore::Open(conn, user_options));
  for (int32_t i = 0; i < o.users; ++i) {
    Status s = users->Register(UserName(i), kDemoPassword);
    if (!s.ok() && !s.IsAlreadyExists()) return s;
    if (s.ok()) {
      BASALT_RETURN_IF_ERROR(users->UpdateProfile(
          UserName(i), Profile{"Demo user " + std::to_string(i + 1), Bio(rng)}));
    }
    ++summary.users;
    report("users", i + 1, o.users);
  }

  FollowGraphOptions graph_options;
  graph_options.name_space = o.name_space;
  graph_options.user_exists = users->UserExistsFunction();
  BASALT_ASSIGN_OR_RETURN(auto graph, FollowGraph::Open(conn, graph_options));
  FeedOptions feed_options;
  feed_options.name_space = o.name_space;
  BASALT_ASSIGN_OR_RETURN(auto feed, Feed::Open(conn, *graph, feed_options));
  FanoutWorkerPool workers(*feed);
  workers.Start();

  // Follows: each user follows a geometric number of others, drawn with Zipf weights, and at
  // least kMinFollows, so that every demo log-in has a home timeline to read.
  auto popular = Zipf(o.users);
  std::geometric_distribution<int32_t> how_many(1.0 / (1.0 + o.mean_follows));
  std::vector<int32_t> follows(static_cast<size_t>(o.users));
  int64_t total_follows = 0;
  const int32_t least = o.mean_follows > 0 ? std::min(kMinFollows, o.users - 1) : 0;
  for (auto& n : follows) {
    n = std::min(std::max(how_many(rng), least), o.users - 1);
    total_follows += n;
  }
  std::set<std::pair<int32_t, int32_t>> edges;
  for (int32_t i = 0; i < o.users; ++i) {
    for (int32_t k = 0, tries = 0; k < follows[static_cast<size_t>(i)] && tries < 20 * o.users;
         ++tries) {
      int32_t j = popular(rng);
      if (j == i || !edges.insert({i, j}).second) continue;
      BASALT_RETURN_IF_ERROR(feed->Follow(UserName(i), UserName(j)));
      ++k;
      ++summary.follows;
      report("follows", summary.follows, total_follows);
    }
  }

  // Posts spread over the last week, written oldest first (as they would have been).
  const int64_t posts_end = SystemWallMillis();
  std::uniform_int_distribution<int64_t> post_time(posts_end - kWeekMs, posts_end - 60'000);
  std::vector<int64_t> post_times(static_cast<size_t>(o.posts));
  for (int64_t& t : post_times) t = post_time(rng);
  std::sort(post_times.begin(), post_times.end());
  auto authors = Zipf(o.users);
  for (int32_t p = 0; p < o.posts; ++p) {
    BASALT_RETURN_IF_ERROR(
        feed->PostAt(UserName(authors(rng)), PostText(rng), post_times[static_cast<size_t>(p)])
            .status());
    ++summary.posts;
    report("posts", p + 1, o.posts);
  }
  // Let the workers deliver every post before the next stages compete with them.
  BASALT_RETURN_IF_ERROR(workers.Drain(std::chrono::minutes(10)));
  workers.Stop();

  const int64_t now = SystemWallMillis();
  std::uniform_int_distribution<int64_t> when(now - kWeekMs, now);
  ActivityLogOptions log_options;
  log_options.name_space = o.name_space;
  BASALT_ASSIGN_OR_RETURN(auto log, ActivityLog::Open(conn, log_options));
  auto active = Zipf(o.users);
  for (int32_t a = 0; a < o.actions; ++a) {
    std::string payload = "{\"page\":" + std::to_string(rng() % 100) + "}";
    BASALT_RETURN_IF_ERROR(log->Record(UserName(active(rng)), kActions[rng() % std::size(kActions)],
                                       payload, when(rng))
                               .status());
    ++summary.actions;
    report("actions", a + 1, o.actions);
  }

  if (o.clicks > 0) {
    ClickCountersOptions click_options;
    click_options.name_space = o.name_space;
    BASALT_ASSIGN_OR_RETURN(auto counters, ClickCounters::Open(conn, click_options));
    auto item = Zipf(o.items);
    std::mt19937 visitor_rng(o.seed + 1);
    for (int32_t c = 0; c < o.clicks; ++c) {
      // By a demo user, so that the items' distinct visitors show too; drawn from a generator of
      // their own, so that the items and times stay what the seed gave before visitors existed
      // (the time was drawn first).
      const int64_t at = when(rng);
      std::string clicked = "item" + std::to_string(item(rng) + 1);
      BASALT_RETURN_IF_ERROR(counters->ClickBy(clicked, UserName(active(visitor_rng)), 1, at));
      ++summary.clicks;
      report("clicks", c + 1, o.clicks);
    }
    BASALT_RETURN_IF_ERROR(counters->RebuildWeekly(now).status());
  }
  return summary;
}

}  // namespace basalt::recipes
