// FeedPosts: a feed's posts: writing one (Feed::Post's crash-safe order), reading one, deleting
// one, and an author's own timeline. PostAt decides how a post reaches its readers: a
// high-follower author's is merged at read time (no job); that of an author with few followers
// (FeedOptions::deliver_in_post_max_followers) is written with its inbox entries in one atomic
// write where the store has one; any other's is written with its fan-out job, in one atomic
// write where the store has one, else in three single-row writes.
//
// Thread safety: all methods may be called concurrently.

#ifndef BASALT_RECIPES_FEED_POSTS_H_
#define BASALT_RECIPES_FEED_POSTS_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/mutation.h"
#include "basalt/recipes/feed.h"
#include "basalt/status.h"
#include "recipes/atomic_row_writes.h"
#include "recipes/fanout_job_queue.h"
#include "recipes/feed_context.h"
#include "recipes/high_follower_marks.h"
#include "recipes/inbox_delivery.h"

namespace basalt::recipes {

class FeedPosts {
 public:
  FeedPosts(const FeedContext& feed, HighFollowerMarks& marks, InboxDelivery& delivery,
            FanoutJobQueue& jobs, AtomicRowWrites& atomic);

  // Feed::PostAt.
  Result<std::string> PostAt(std::string_view author, std::string_view text, int64_t timestamp_ms);
  // Feed::GetPost.
  Result<PostView> GetPost(std::string_view post_id);
  // Feed::DeletePost.
  Status DeletePost(std::string_view requester, std::string_view post_id);
  // Feed::UserTimeline.
  Result<PostPage> UserTimeline(std::string_view author, int32_t page_size,
                                std::string_view cursor);

 private:
  // A post about to be written: its row and the author's own inbox entry. The author's own
  // inbox holds their posts too, so that a home page is one inbox read and one hydration. The
  // entry is written before the post row, or with it: an entry whose post row is missing (a
  // crash in between) is skipped by reads as a deleted post is.
  struct NewPost {
    std::string author;
    std::string id;
    std::string own_key;  // the timeline key of the post
    basalt::Put row;
    basalt::Put own_entry;
  };
  // Whether `author`'s posts are merged into home timelines at read time, not fanned out.
  Result<bool> MergedAtReadTime(std::string_view author);
  // The post of a high-follower author: its mark (again), its own entry and its row.
  Status WriteUnfannedOut(const NewPost& post);
  // The post of an author with at most deliver_in_post_max_followers followers, with its
  // deliveries, in one atomic write. False, with nothing written, when the author has more or
  // the store has no atomic multi-row write: the post then takes a fan-out job.
  Result<bool> WriteWithDeliveries(const NewPost& post);
  // After WriteWithDeliveries delivered to `delivered` (the followers it read, `max_followers`
  // at most): delivers to whoever has followed since.
  Status DeliverToLateFollowers(const NewPost& post, const std::vector<std::string>& delivered,
                                int32_t max_followers);
  // The post of any other author, with its fan-out job.
  Status WriteWithFanoutJob(NewPost& post);
  // The trim the own entry makes due, as a delivery's does.
  Status TrimOwnInbox(const NewPost& post);

  FeedContext feed_;
  HighFollowerMarks& marks_;
  InboxDelivery& delivery_;
  FanoutJobQueue& jobs_;
  AtomicRowWrites& atomic_;
  std::atomic<uint32_t> sequence_;
};

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_FEED_POSTS_H_
