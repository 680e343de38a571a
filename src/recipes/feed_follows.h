// FeedFollows: a feed's follows and unfollows, which keep inboxes in step with the graph: a
// follow backfills the followed user's newest posts (FeedOptions::backfill_posts) and narrows the
// inbox's bound below the ones it left out; an unfollow marks the reader (their home reads then
// check inbox authors against the graph) and removes the followee's entries.

#ifndef BASALT_RECIPES_FEED_FOLLOWS_H_
#define BASALT_RECIPES_FEED_FOLLOWS_H_

#include <string_view>

#include "basalt/status.h"
#include "recipes/feed_context.h"
#include "recipes/high_follower_marks.h"
#include "recipes/inbox_delivery.h"
#include "recipes/inbox_maintenance.h"
#include "recipes/reader_activity.h"

namespace basalt::recipes {

class FeedFollows {
 public:
  FeedFollows(const FeedContext& feed, HighFollowerMarks& marks, ReaderActivity& activity,
              InboxDelivery& delivery, InboxMaintenance& maintenance)
      : feed_(feed),
        marks_(marks),
        activity_(activity),
        delivery_(delivery),
        maintenance_(maintenance) {}

  // Feed::Follow.
  Status Follow(std::string_view follower, std::string_view followed);
  // Feed::Unfollow.
  Status Unfollow(std::string_view follower, std::string_view followed);

 private:
  FeedContext feed_;
  HighFollowerMarks& marks_;
  ReaderActivity& activity_;
  InboxDelivery& delivery_;
  InboxMaintenance& maintenance_;
};

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_FEED_FOLLOWS_H_
