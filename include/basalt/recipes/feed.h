// Feed: the microblog of the `home-feed` workload (docs/design/workloads.md) on the public table
// API only, so it runs unchanged on every backend. Posts, a user's own timeline, and home timelines
// served from per-user inboxes that a background worker pool (fanout_worker.h) fills ("fan-out on
// write"); authors with many followers are merged into home timelines at read time instead ("hybrid
// fan-out"), and so are the reader's own posts. docs/recipes.md, section "Microblog feeds",
// describes the tables byte by byte.
//
//   auto graph = FollowGraph::Open(conn);
//   auto feed = Feed::Open(conn, **graph);
//   FanoutWorkerPool workers(**feed);
//   workers.Start();
//   auto id = (*feed)->Post("alice", "hello");
//   auto page = (*feed)->HomeTimeline("bob", 20);          // newest first, hydrated
//   auto next = (*feed)->HomeTimeline("bob", 20, page->cursor);
//
// Consistency: where the store writes several rows atomically (the embedded store), a post of an
// author with few followers (FeedOptions::deliver_in_post_max_followers) is written with all its
// inbox entries in one Connection::MutateRows: it is in every follower's inbox once Post returns,
// and a crash leaves it delivered or absent. Any other post is written with its fan-out job: in
// one atomic write where the store has it; elsewhere (Thrift2) the job row first (under a lease
// of its own), then the post, then the job handed to the workers. Either way a crash at any
// point leaves either no post or a job that delivers it. Home timelines are then
// eventually complete: a post reaches an inbox when a worker delivers it (its author sees it at
// once: Post writes it into the author's own inbox before, or with, the post). They are always
// clean: a
// deleted post, and a post of an author the reader no longer follows, is dropped when the page is
// read, before the retract job or the unfollow clean-up has removed it from the inbox.
//
// Thread safety: all methods may be called concurrently.

#ifndef BASALT_RECIPES_FEED_H_
#define BASALT_RECIPES_FEED_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/connection.h"
#include "basalt/recipes/follow_graph.h"
#include "basalt/schema.h"
#include "basalt/status.h"

namespace basalt::recipes {

struct FeedOptions {
  // Tables are "<table_prefix>_posts" (posts, fan-out jobs, high-follower marks) and
  // "<table_prefix>_inbox" in `name_space`; created on Open when missing.
  std::string name_space = "default";
  std::string table_prefix = "feed";
  // Longest post text, bytes. Default: 1000.
  size_t max_text_bytes = 1000;
  // Entries an inbox keeps (the newest); older ones are trimmed as entries are written (see
  // inbox_trim_every). A home timeline goes on past them: once a walk is past the inbox, its
  // pages are merged from the followees' own timelines (HomeTimeline). Default: 1000 (as the
  // `home-feed` workload keeps). REQUIRES: >= 1.
  int32_t inbox_cap = 1000;
  // A trim reads the inbox past its first inbox_cap entries, so trimming on every delivery made
  // each delivery cost O(inbox_cap) reads once inboxes were full. A delivery trims its inbox back
  // to inbox_cap on about one delivery in this many instead (chosen by a hash of the inbox and
  // the entry, so the same delivery retried decides the same way): an inbox then holds about
  // inbox_cap + inbox_trim_every entries at most (more than inbox_cap + 10 x inbox_trim_every
  // has odds of e^-10). 1 trims on every delivery. Default: 16. REQUIRES: >= 1.
  int32_t inbox_trim_every = 16;
  // An author whose follower count is above this when they post is not fanned out: followers
  // read their posts at read time. The mark is sticky (see docs/recipes.md). Default: 10000.
  int64_t fanout_threshold = 10000;
  // A post whose author has at most this many followers (and at most fanout_threshold) is
  // delivered in its own write where the store writes several rows atomically (the embedded
  // store; not thrift://): the post row and its inbox entries, the author's own and each
  // active follower's, in one Connection::MutateRows, with no fan-out job; its followers see it
  // as soon as Post returns. Post reads up to this many + 1 followers to decide, and once more
  // after the write, to deliver to whoever followed in between. Any other post goes through a
  // fan-out job (docs/recipes.md, "Which way a post goes"). Default: 200, one page of the
  // fan-out workers' (FanoutWorkerOptions::chunk_size): the post's write is then never larger
  // than the write a worker makes for one page of any job. 0: every post takes a job.
  // REQUIRES: >= 0.
  int32_t deliver_in_post_max_followers = 200;
  // Which authors carry the high-follower mark is read (one scan of the mark rows, a handful)
  // at most this often, and at once after this Feed marks one; a home timeline intersects the
  // reader's followees with that copy instead of reading one mark per followee. A mark written
  // by another process is seen within this time: until then that author's newest posts, which
  // are no longer fanned out, are missing from home timelines. Marks are sticky, so a copy never
  // claims a mark that is not there. 0 reads the marks on every home timeline. Default: 1000.
  int64_t marks_refresh_ms = 1000;
  // Post compares its author's follower count with fanout_threshold as read at most this long
  // ago by this Feed (a copy per author, for at most 65,536 authors), not on every post. An
  // author who crossed the threshold meanwhile has their posts fanned out for up to this long
  // more: the same posts on the same timelines, at fan-out's cost. 0 reads the count on every
  // post. Default: 60 s. REQUIRES: >= 0.
  int64_t follower_count_refresh_ms = 60000;
  // Posts of the followed user copied into the follower's inbox by Follow. Default: 100.
  int32_t backfill_posts = 100;
  // How long Post keeps its new fan-out job to itself while it writes the post row. After a
  // crash in Post, the job waits this long before a worker delivers (or drops) it. Default: 30 s.
  int64_t post_lease_ms = 30000;
  // A reader whose last home-timeline read is older than this is inactive: fan-out skips their
  // inbox (one cell read per follower instead of a delivery), and their next home-timeline read
  // rebuilds the inbox from the followees' own timelines (at most inbox_cap posts) before
  // serving. A read records its time only when none is recorded or the recorded one is older
  // than 1/8 of this (one write per reader per few days by default, not one per page); a read
  // that finds it older than 3/4 of this rebuilds, so clocks of processes may disagree by up to
  // 1/4 of it. A reader who never read counts as active: from their first Follow they have this
  // long before fan-out skips them, and one with no record at all (who has neither read nor
  // followed through this Feed) is never skipped. 0: every reader is active (fan-out reads no
  // reader rows, reads write none). Default: 30 days. REQUIRES: >= 0.
  int64_t inactive_after_ms = int64_t{30} * 24 * 3600 * 1000;
  // Compression of the posts table's families and of the inbox table's, given when Open
  // creates them; existing tables keep their own (Admin::ModifyFamily changes it). Default: LZ4
  // for both (docs/recipes.md).
  Compression posts_compression = Compression::kLz4;
  Compression inbox_compression = Compression::kLz4;
};

// A hydrated post.
struct PostView {
  std::string id;  // opaque bytes: the post's id (see docs/recipes.md)
  std::string author;
  int64_t timestamp_ms = 0;
  std::string text;
  friend bool operator==(const PostView&, const PostView&) = default;
};

// A page of posts, newest first, and the cursor of the next page (empty when there is none).
struct PostPage {
  std::vector<PostView> posts;
  std::string cursor;
};

// An abstract interface, as the other recipes are: Open makes the one implementation, whose state
// (tables, caches of marks, follower counts and reader activity) stays in src/recipes/.
class Feed {
 public:
  // Opens (creating the tables if needed) a feed on `conn` and `graph`, which must outlive it.
  static Result<std::unique_ptr<Feed>> Open(Connection& conn, FollowGraph& graph,
                                            FeedOptions options = {});
  virtual ~Feed() = default;

  // Writes a post and (unless the author is a high-follower author) its deliveries or its
  // fan-out job, in the crash-safe order above, and returns the post id. An error may leave the
  // post written (and then delivered too: by its own write, to the followers it read, or by its
  // job, after post_lease_ms) or not written at all. The id is
  // KeyBuilder bytes(author) + ReverseTimestamp(now) + uint32 sequence, unique within a millisecond
  // for this Feed. InvalidArgument for an empty author or a text longer than max_text_bytes.
  virtual Result<std::string> Post(std::string_view author, std::string_view text) = 0;
  // Post at a time of the caller's (ms since the epoch, >= 0) instead of now: for imports and
  // demo data whose posts are older than the import. The post sorts into timelines by that
  // time; its fan-out works as Post's.
  virtual Result<std::string> PostAt(std::string_view author, std::string_view text,
                                     int64_t timestamp_ms) = 0;

  // The post; NotFound when there is none (never written or deleted), InvalidArgument for an
  // id that is not a post id.
  virtual Result<PostView> GetPost(std::string_view post_id) = 0;

  // Deletes the post and queues a retract job that removes it from followers' inboxes (home
  // timelines drop it at once anyway). NotFound when the post does not exist;
  // FailedPrecondition when `requester` is not its author.
  virtual Status DeletePost(std::string_view requester, std::string_view post_id) = 0;

  // `author`'s own posts, newest first, `page_size` at a time (a prefix scan paged by
  // ReadPage; the cursor is ReadPage's). InvalidArgument for page_size < 1 or a bad cursor.
  virtual Result<PostPage> UserTimeline(std::string_view author, int32_t page_size,
                                        std::string_view cursor = {}) = 0;

  // The posts of the users `user` follows and `user`'s own posts, newest first (by time, then
  // post id), all of them, `page_size` at a time, hydrated with one multi-Get. A walk starts in
  // the inbox, merged with the recent posts of the followed high-follower authors and of `user`;
  // where the inbox ends (its cap, or the bound it keeps, docs/recipes.md) the walk goes on with
  // a k-way merge of the followees' own timelines ("pulled" pages, which cost a scan per
  // followee). A walk never repeats or skips an entry that stays present (the cursor is the
  // phase and the last (time, post id) returned; cursors of earlier versions, without the
  // phase, go on in the inbox). A page may hold fewer than page_size posts only when it is the
  // last one; the last page may be empty. May first rebuild an inactive reader's inbox
  // (FeedOptions::inactive_after_ms). InvalidArgument for page_size < 1 or a malformed cursor.
  virtual Result<PostPage> HomeTimeline(std::string_view user, int32_t page_size,
                                        std::string_view cursor = {}) = 0;

  // graph.Follow, then copies the followed user's newest backfill_posts posts into the
  // follower's inbox (none for a high-follower author: merged at read time); when the followed
  // user has more, older ones are read from their timeline once a home walk gets there. Starts
  // the follower's activity clock if it has not started (inactive_after_ms).
  virtual Status Follow(std::string_view follower, std::string_view followed) = 0;
  // Marks the follower as one who has unfollowed (their home reads then check the authors of
  // their inbox entries, for a fan-out that delivers after this), graph.Unfollow, then removes
  // the followed user's posts from the follower's inbox. Unfollow a Feed's users through this,
  // not through the graph alone, which would leave the followee's posts in the inbox.
  virtual Status Unfollow(std::string_view follower, std::string_view followed) = 0;

  // Fan-out and retract jobs not finished yet.
  virtual Result<int64_t> PendingJobs() = 0;

  // The unfinished jobs and the time the oldest of them was last written (its row's newest
  // cell; ms since the epoch, 0 when there is none): now minus that is the fan-out's lag.
  struct Backlog {
    int64_t jobs = 0;
    int64_t oldest_job_ms = 0;
  };
  virtual Result<Backlog> FanoutBacklog() = 0;

  virtual const FeedOptions& options() const = 0;
  virtual FollowGraph& graph() = 0;
};

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_FEED_H_
