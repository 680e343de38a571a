#include "basalt/recipes/feed.h"

#include <memory>
#include <utility>

#include "recipes/atomic_row_writes.h"
#include "recipes/fanout_job_queue.h"
#include "recipes/fanout_jobs.h"
#include "recipes/feed_context.h"
#include "recipes/feed_follows.h"
#include "recipes/feed_layout.h"
#include "recipes/feed_posts.h"
#include "recipes/high_follower_marks.h"
#include "recipes/home_walk.h"
#include "recipes/inbox_delivery.h"
#include "recipes/inbox_maintenance.h"
#include "recipes/reader_activity.h"
#include "recipes/recipe_format.h"
#include "recipes/table_setup.h"

namespace basalt::recipes {
namespace {

namespace fl = feed_layout;

// The Feed that Open makes: its parts, each a job of the feed's (feed_context.h), put together.
// Members are declared in the order the parts need each other.
class FeedImpl final : public Feed {
 public:
  FeedImpl(Connection& conn, FollowGraph& graph, FeedOptions options, std::unique_ptr<Table> posts,
           std::unique_ptr<Table> inbox)
      : options_(std::move(options)),
        posts_table_(std::move(posts)),
        inbox_table_(std::move(inbox)),
        context_{conn, graph, options_, *posts_table_, *inbox_table_},
        atomic_(conn),
        marks_(context_),
        activity_(context_),
        maintenance_(context_),
        delivery_(context_, maintenance_),
        jobs_(context_, delivery_, activity_, atomic_),
        posts_(context_, marks_, delivery_, jobs_, atomic_),
        follows_(context_, marks_, activity_, delivery_, maintenance_) {}

  Result<std::string> Post(std::string_view author, std::string_view text) override {
    return posts_.PostAt(author, text, SystemWallMillis());
  }
  Result<std::string> PostAt(std::string_view author, std::string_view text,
                             int64_t timestamp_ms) override {
    return posts_.PostAt(author, text, timestamp_ms);
  }
  Result<PostView> GetPost(std::string_view post_id) override { return posts_.GetPost(post_id); }
  Status DeletePost(std::string_view requester, std::string_view post_id) override {
    return posts_.DeletePost(requester, post_id);
  }
  Result<PostPage> UserTimeline(std::string_view author, int32_t page_size,
                                std::string_view cursor) override {
    return posts_.UserTimeline(author, page_size, cursor);
  }
  Result<PostPage> HomeTimeline(std::string_view user, int32_t page_size,
                                std::string_view cursor) override {
    return HomeWalk(context_, marks_, activity_, user).Page(page_size, cursor);
  }
  Status Follow(std::string_view follower, std::string_view followed) override {
    return follows_.Follow(follower, followed);
  }
  Status Unfollow(std::string_view follower, std::string_view followed) override {
    return follows_.Unfollow(follower, followed);
  }
  Result<int64_t> PendingJobs() override {
    BASALT_ASSIGN_OR_RETURN(Backlog backlog, jobs_.Backlog());
    return backlog.jobs;
  }
  Result<Backlog> FanoutBacklog() override { return jobs_.Backlog(); }
  const FeedOptions& options() const override { return options_; }
  FollowGraph& graph() override { return context_.graph; }

  FanoutJobs& jobs() { return jobs_; }

 private:
  const FeedOptions options_;
  const std::unique_ptr<Table> posts_table_;
  const std::unique_ptr<Table> inbox_table_;
  const FeedContext context_;
  AtomicRowWrites atomic_;
  HighFollowerMarks marks_;
  ReaderActivity activity_;
  InboxMaintenance maintenance_;
  InboxDelivery delivery_;
  FanoutJobQueue jobs_;
  FeedPosts posts_;
  FeedFollows follows_;
};

}  // namespace

FanoutJobs* FanoutJobsOf(Feed& feed) {
  auto* impl = dynamic_cast<FeedImpl*>(&feed);
  return impl == nullptr ? nullptr : &impl->jobs();
}

Result<std::unique_ptr<Feed>> Feed::Open(Connection& conn, FollowGraph& graph,
                                         FeedOptions options) {
  if (options.inbox_cap < 1) return Status::InvalidArgument("feed: inbox_cap must be >= 1");
  if (options.inbox_trim_every < 1) {
    return Status::InvalidArgument("feed: inbox_trim_every must be >= 1");
  }
  if (options.backfill_posts < 0) return Status::InvalidArgument("feed: backfill_posts < 0");
  if (options.deliver_in_post_max_followers < 0) {
    return Status::InvalidArgument("feed: deliver_in_post_max_followers < 0");
  }
  if (options.post_lease_ms < 0) return Status::InvalidArgument("feed: post_lease_ms < 0");
  if (options.follower_count_refresh_ms < 0) {
    return Status::InvalidArgument("feed: follower_count_refresh_ms < 0");
  }
  if (options.inactive_after_ms < 0) {
    return Status::InvalidArgument("feed: inactive_after_ms < 0");
  }
  TableName posts_name(options.name_space, options.table_prefix + "_posts");
  TableName inbox_name(options.name_space, options.table_prefix + "_inbox");
  BASALT_RETURN_IF_ERROR(EnsureTable(conn.admin(), posts_name,
                                     {std::string(fl::kPostFamily), std::string(fl::kJobFamily)},
                                     options.posts_compression));
  BASALT_RETURN_IF_ERROR(EnsureTable(conn.admin(), inbox_name, {std::string(fl::kInboxFamily)},
                                     options.inbox_compression));
  BASALT_ASSIGN_OR_RETURN(auto posts, conn.GetTable(posts_name));
  BASALT_ASSIGN_OR_RETURN(auto inbox, conn.GetTable(inbox_name));
  BASALT_RETURN_IF_ERROR(CheckRecipeFormat(*posts, fl::Format()));
  return std::unique_ptr<Feed>(
      new FeedImpl(conn, graph, std::move(options), std::move(posts), std::move(inbox)));
}

}  // namespace basalt::recipes
