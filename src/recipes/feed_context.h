// FeedContext: what every part of a Feed works on (the connection, the graph, the options and
// the two tables), shared by reference. The parts are feed_posts.h, home_walk.h, feed_follows.h,
// inbox_delivery.h, inbox_maintenance.h, inbox_rebuild.h, reader_activity.h,
// high_follower_marks.h and fanout_job_queue.h; feed.cc puts them together.

#ifndef BASALT_RECIPES_FEED_CONTEXT_H_
#define BASALT_RECIPES_FEED_CONTEXT_H_

#include "basalt/connection.h"
#include "basalt/recipes/feed.h"
#include "basalt/recipes/follow_graph.h"
#include "basalt/table.h"

namespace basalt::recipes {

// Every reference outlives the parts that hold a copy of this.
struct FeedContext {
  Connection& conn;
  FollowGraph& graph;
  const FeedOptions& options;
  Table& posts;  // "<prefix>_posts": posts, fan-out jobs, high-follower marks
  Table& inbox;  // "<prefix>_inbox": inboxes and reader rows
};

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_FEED_CONTEXT_H_
