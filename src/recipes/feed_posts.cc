#include "recipes/feed_posts.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "basalt/multi_row_mutation.h"
#include "basalt/paging.h"
#include "recipes/feed_layout.h"

namespace basalt::recipes {
namespace {

namespace fl = feed_layout;

// The author and the time come from the post id; the text is taken out of `row`, the rest of the
// row stays.
Result<PostView> TakePostView(RowResult& row, std::string_view post_id) {
  BASALT_ASSIGN_OR_RETURN(fl::PostId id, fl::DecodePostId(post_id));
  for (Cell& cell : row.mutable_cells()) {
    if (cell.family == fl::kPostFamily && cell.qualifier == "t") {
      return PostView{std::string(post_id), std::move(id.author), id.timestamp_ms,
                      std::move(cell.value)};
    }
  }
  return Status::Corruption("feed: post row without text");
}

}  // namespace

FeedPosts::FeedPosts(const FeedContext& feed, HighFollowerMarks& marks, InboxDelivery& delivery,
                     FanoutJobQueue& jobs, AtomicRowWrites& atomic)
    : feed_(feed),
      marks_(marks),
      delivery_(delivery),
      jobs_(jobs),
      atomic_(atomic),
      sequence_(static_cast<uint32_t>(std::random_device{}())) {}

Result<std::string> FeedPosts::PostAt(std::string_view author, std::string_view text,
                                      int64_t timestamp_ms) {
  if (author.empty()) return Status::InvalidArgument("feed: empty author");
  if (timestamp_ms < 0) return Status::InvalidArgument("feed: negative post time");
  if (text.size() > feed_.options.max_text_bytes) {
    return Status::InvalidArgument("feed: post text longer than " +
                                   std::to_string(feed_.options.max_text_bytes) + " bytes");
  }
  BASALT_ASSIGN_OR_RETURN(bool merged, MergedAtReadTime(author));
  fl::PostId id{std::string(author), timestamp_ms, sequence_.fetch_add(1)};
  std::string post_id = fl::EncodePostId(id);
  std::string own_key = fl::TimelineKey(post_id, id.timestamp_ms);
  basalt::Put own_entry =
      basalt::Put(fl::InboxRow(author)).Add(std::string(fl::kInboxFamily), own_key, "");
  basalt::Put row(fl::PostRow(post_id), id.timestamp_ms);
  row.Add(std::string(fl::kPostFamily), "t", std::string(text));
  NewPost post{std::string(author), std::move(post_id), std::move(own_key), std::move(row),
               std::move(own_entry)};
  if (merged) {
    BASALT_RETURN_IF_ERROR(WriteUnfannedOut(post));
  } else {
    BASALT_ASSIGN_OR_RETURN(bool delivered, WriteWithDeliveries(post));
    if (!delivered) BASALT_RETURN_IF_ERROR(WriteWithFanoutJob(post));
  }
  return std::move(post.id);
}

Result<bool> FeedPosts::MergedAtReadTime(std::string_view author) {
  // The copy of the marks, not the mark row: a mark newer than the copy only means that this
  // post is fanned out (when the count is back under the threshold) as well as merged at read
  // time, which the merge deduplicates; above the threshold the mark is written again.
  BASALT_ASSIGN_OR_RETURN(auto marks, marks_.Marked());
  if (marks->contains(std::string(author))) return true;
  BASALT_ASSIGN_OR_RETURN(int64_t followers, marks_.RecentFollowerCount(author));
  return followers > feed_.options.fanout_threshold;
}

Status FeedPosts::WriteUnfannedOut(const NewPost& post) {
  // The mark first: it is sticky and right on its own (the author is above the threshold).
  BASALT_RETURN_IF_ERROR(marks_.Mark(post.author));
  BASALT_RETURN_IF_ERROR(feed_.inbox.Put(post.own_entry));
  BASALT_RETURN_IF_ERROR(feed_.posts.Put(post.row));
  return TrimOwnInbox(post);
}

Result<bool> FeedPosts::WriteWithDeliveries(const NewPost& post) {
  // Never past fanout_threshold: an author above it is a high-follower author, whose posts are
  // not delivered, once the follower count Post goes by catches up. One below the int32 range,
  // for the page of one more.
  const int64_t limit = std::min<int64_t>(feed_.options.deliver_in_post_max_followers,
                                          std::numeric_limits<int32_t>::max() - 1);
  const int32_t max_followers =
      static_cast<int32_t>(std::clamp<int64_t>(feed_.options.fanout_threshold, 0, limit));
  if (max_followers == 0 || !atomic_.supported()) return false;
  // One more than the most it delivers to, so that the page says whether there are more.
  BASALT_ASSIGN_OR_RETURN(UserPage followers,
                          feed_.graph.Followers(post.author, max_followers + 1));
  if (followers.users.size() > static_cast<size_t>(max_followers) || !followers.cursor.empty()) {
    return false;
  }
  // Inactive readers are skipped, as fan-out skips them: their next read rebuilds their inbox.
  int64_t skipped = 0;
  BASALT_ASSIGN_OR_RETURN(std::vector<std::string> readers,
                          jobs_.ActiveReaders(followers.users, &skipped));
  // The mark says that the post is in other inboxes, so that DeletePost retracts it; it names no
  // job row, there being none.
  basalt::Put row = post.row;
  row.Add(std::string(fl::kPostFamily), "o", std::string(fl::kDeliveredInPostMark));
  MultiRowMutation m;
  m.Add(feed_.posts.name(), std::move(row)).Add(feed_.inbox.name(), post.own_entry);
  delivery_.AddTo(m, readers, {post.own_key});
  Result<bool> written = atomic_.Apply(m);
  if (written.status().IsNotSupported()) return false;
  if (!written.ok()) return written.status();
  // No conditions: true once written. From here on the post is delivered to the followers
  // read above; an error below leaves it so (and unacknowledged).
  BASALT_RETURN_IF_ERROR(DeliverToLateFollowers(post, followers.users, max_followers));
  readers.push_back(post.author);
  BASALT_RETURN_IF_ERROR(delivery_.Delivered(readers, {post.own_key}));
  return true;
}

Status FeedPosts::DeliverToLateFollowers(const NewPost& post,
                                         const std::vector<std::string>& delivered,
                                         int32_t max_followers) {
  // A follow whose edge was written after the first read and whose backfill scanned the
  // author's posts before the write above would miss the post: a fan-out job reads followers
  // after its post is written, and so does this. A follow written after this read backfills
  // the post, which was written before it.
  BASALT_ASSIGN_OR_RETURN(UserPage now, feed_.graph.Followers(post.author, max_followers + 1));
  if (now.users.size() > static_cast<size_t>(max_followers) || !now.cursor.empty()) {
    // More followers came meanwhile than one write delivers to: a fan-out job delivers to all
    // of them (a delivery repeated is one entry). Written after its post, under the lease of a
    // job not written with it, so its worker reads the post before each page and stops once
    // DeletePost has deleted it.
    const std::string job_row = fl::JobRow(SystemWallMillis(), post.id, fl::kFanoutJob);
    return feed_.posts.Put(
        FanoutJobQueue::JobPut(job_row, post.author, post.id, fl::kUnclaimedLease));
  }
  const std::set<std::string> before(delivered.begin(), delivered.end());
  std::vector<std::string> late;
  for (std::string& user : now.users) {
    if (!before.contains(user)) late.push_back(std::move(user));
  }
  if (late.empty()) return Status::OK();
  int64_t skipped = 0;
  BASALT_ASSIGN_OR_RETURN(std::vector<std::string> readers, jobs_.ActiveReaders(late, &skipped));
  return delivery_.Deliver(readers, {post.own_key});
}

Status FeedPosts::WriteWithFanoutJob(NewPost& post) {
  // Queued at the wall clock, not at the post's time (an import may post in the past): the
  // workers take the queue in order and do not read behind it (fanout_worker.h).
  const int64_t queued_ms = SystemWallMillis();
  const std::string job_row = fl::JobRow(queued_ms, post.id, fl::kFanoutJob);
  // p:o marks a post that was fanned out (only those need a retract job when deleted) and names
  // its job row, which DeletePost deletes.
  post.row.Add(std::string(fl::kPostFamily), "o", fl::FanoutQueuedMark(queued_ms));
  auto job = [&](std::string_view lease) {
    return FanoutJobQueue::JobPut(job_row, post.author, post.id, lease);
  };
  // Where the store writes several rows atomically, the post and its job, handed to the workers
  // at once, are one write: no worker can see the job without the post, which its lease says.
  MultiRowMutation m;
  m.Add(feed_.posts.name(), post.row)
      .Add(feed_.posts.name(), job(fl::kUnclaimedLeaseWithPost))
      .Add(feed_.inbox.name(), post.own_entry);
  Result<bool> written = atomic_.Apply(m);
  if (!written.ok() && !written.status().IsNotSupported()) return written.status();
  if (written.ok() && *written) return TrimOwnInbox(post);  // no conditions: true once written
  // Otherwise three single-row writes, correct without a cross-row atomic batch (HBase over
  // Thrift2) and whatever point a crash stops them at (docs/recipes.md, "Post without cross-row
  // atomicity"):
  //  1. the job row, under a lease held by this call, so no worker takes it while the post row
  //     is not written yet (a worker drops a job whose post is missing: never written, or
  //     deleted), and the author's own inbox entry;
  //  2. the post row;
  //  3. the job handed to the workers (lease "0|"). If this call's lease ran out meanwhile, a
  //     worker may have dropped the job before step 2: write it again (delivery is idempotent).
  // A crash after 1 leaves a job that is dropped once the lease expires (no post, none
  // acknowledged); after 2, a job that delivers the post once the lease expires.
  const std::string poster_lease =
      std::to_string(SystemWallMillis() + feed_.options.post_lease_ms) + "|post";
  BASALT_RETURN_IF_ERROR(feed_.posts.Put(job(poster_lease)));
  BASALT_RETURN_IF_ERROR(feed_.inbox.Put(post.own_entry));
  BASALT_RETURN_IF_ERROR(feed_.posts.Put(post.row));
  BASALT_ASSIGN_OR_RETURN(bool handed_over, jobs_.HandOver(job_row, poster_lease));
  if (!handed_over) BASALT_RETURN_IF_ERROR(feed_.posts.Put(job(fl::kUnclaimedLease)));
  return TrimOwnInbox(post);
}

Status FeedPosts::TrimOwnInbox(const NewPost& post) {
  return delivery_.Delivered({post.author}, {post.own_key});
}

Result<PostView> FeedPosts::GetPost(std::string_view post_id) {
  if (!fl::DecodePostId(post_id).ok()) return Status::InvalidArgument("feed: not a post id");
  BASALT_ASSIGN_OR_RETURN(
      RowResult row,
      feed_.posts.Get(basalt::Get(fl::PostRow(post_id)).AddFamily(std::string(fl::kPostFamily))));
  if (row.empty()) return Status::NotFound("feed: no such post");
  return TakePostView(row, post_id);
}

Status FeedPosts::DeletePost(std::string_view requester, std::string_view post_id) {
  if (!fl::DecodePostId(post_id).ok()) return Status::InvalidArgument("feed: not a post id");
  BASALT_ASSIGN_OR_RETURN(
      RowResult row,
      feed_.posts.Get(basalt::Get(fl::PostRow(post_id)).AddFamily(std::string(fl::kPostFamily))));
  if (row.empty()) return Status::NotFound("feed: no such post");
  BASALT_ASSIGN_OR_RETURN(PostView post, TakePostView(row, post_id));
  if (post.author != requester) {
    return Status::FailedPrecondition("feed: only the author of a post may delete it");
  }
  std::vector<Mutation> batch;
  // The fan-out job first, if it may still run: its worker, trusting a job written with its
  // post, delivers pages only while the job row holds the lease it knows
  // (FanoutJobs::DeliverJobPage).
  const std::optional<std::string_view> fanned_out = row.Value(fl::kPostFamily, "o");
  if (const auto queued_ms = fl::DecodeFanoutQueuedMark(fanned_out.value_or(""))) {
    batch.emplace_back(basalt::Delete(fl::JobRow(*queued_ms, post_id, fl::kFanoutJob))
                           .AddFamily(std::string(fl::kJobFamily)));
  }
  batch.emplace_back(basalt::Delete(fl::PostRow(post_id)));
  // The author's own entry after the post: if this stops in between, reads skip the entry.
  const basalt::Delete own_entry =
      basalt::Delete(fl::InboxRow(post.author))
          .AddColumns(std::string(fl::kInboxFamily), fl::TimelineKey(post_id, post.timestamp_ms));
  // A post without p:o was never delivered (its author was a high-follower author): it is in no
  // other inbox. Any p:o, a job's queued time or kDeliveredInPostMark, takes a retract job.
  if (!fanned_out) {
    BASALT_RETURN_IF_ERROR(feed_.posts.Batch(batch).status());
    return feed_.inbox.Delete(own_entry);
  }
  batch.emplace_back(
      FanoutJobQueue::JobPut(fl::JobRow(SystemWallMillis(), post_id, fl::kRetractJob), post.author,
                             post_id, fl::kUnclaimedLease));
  BASALT_RETURN_IF_ERROR(feed_.posts.Batch(batch).status());
  return feed_.inbox.Delete(own_entry);
}

Result<PostPage> FeedPosts::UserTimeline(std::string_view author, int32_t page_size,
                                         std::string_view cursor) {
  Scan scan =
      Scan().SetRowPrefix(fl::AuthorPostsPrefix(author)).AddFamily(std::string(fl::kPostFamily));
  BASALT_ASSIGN_OR_RETURN(Page page, ReadPage(feed_.posts, scan, page_size, cursor));
  PostPage out;
  out.cursor = std::move(page.cursor);
  for (RowResult& row : page.rows) {
    std::string_view post_id = std::string_view(row.row()).substr(1);
    BASALT_ASSIGN_OR_RETURN(PostView view, TakePostView(row, post_id));
    out.posts.push_back(std::move(view));
  }
  return out;
}

}  // namespace basalt::recipes
