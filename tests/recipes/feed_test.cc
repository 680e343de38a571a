// Feed (recipes/feed.h) and its fan-out workers (recipes/fanout_worker.h), on every store kind.

#include "basalt/recipes/feed.h"

#include <gtest/gtest.h>

#include <chrono>
#include <climits>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "basalt/base64.h"
#include "basalt/keys.h"
#include "basalt/recipes/fanout_worker.h"
#include "basalt/recipes/follow_graph.h"
#include "recipes/feed_layout.h"
#include "recipes/recipe_store.h"
#include "support/test_store.h"

namespace basalt::recipes {
namespace {

using ::basalt::testing::RecipeTest;

class FeedTest : public RecipeTest {
 protected:
  void OpenFeed(FeedOptions options = {}) {
    options_ = options;
    feed_.reset();
    graph_.reset();
    FollowGraphOptions graph_options;
    graph_options.presplit_regions = testing::kPresplitRegions;
    auto graph = FollowGraph::Open(conn(), graph_options);
    ASSERT_OK(graph);
    graph_ = std::move(*graph);
    auto feed = Feed::Open(conn(), *graph_, options);
    ASSERT_OK(feed);
    feed_ = std::move(*feed);
  }
  void SetUp() override {
    RecipeTest::SetUp();
    OpenFeed();
  }
  void TearDown() override {
    feed_.reset();
    graph_.reset();
    RecipeTest::TearDown();
  }
  // `options` with every post taking a fan-out job: for the tests of the jobs' workings, which
  // a post delivered in its own write (deliver_in_post_max_followers) would not take.
  static FeedOptions WithJobs(FeedOptions options = {}) {
    options.deliver_in_post_max_followers = 0;
    return options;
  }
  // Closes and reopens the store (kReopen), then the graph and the feed.
  void Reopen() {
    feed_.reset();
    graph_.reset();
    store().Reopen();
    OpenFeed(options_);
  }

  // Runs the jobs to the end with a worker pool.
  void DrainJobs() {
    FanoutWorkerPool pool(*feed_, {.threads = 2, .chunk_size = 3});
    pool.Start();
    ASSERT_OK(pool.Drain(std::chrono::seconds(20)));
    pool.Stop();
    ASSERT_OK(pool.last_error());
  }

  // Every post of a home-timeline walk with `page_size`.
  std::vector<PostView> HomeWalk(const std::string& user, int32_t page_size = 4) {
    std::vector<PostView> all;
    std::string cursor;
    for (int pages = 0; pages < 10000; ++pages) {
      auto page = feed_->HomeTimeline(user, page_size, cursor);
      EXPECT_OK(page);
      if (!page.ok()) break;
      if (!page->cursor.empty()) {
        EXPECT_EQ(page->posts.size(), static_cast<size_t>(page_size));
      }
      for (auto& p : page->posts) all.push_back(std::move(p));
      cursor = page->cursor;
      if (cursor.empty()) break;
    }
    return all;
  }
  std::vector<std::string> HomeIds(const std::string& user, int32_t page_size = 4) {
    std::vector<std::string> ids;
    for (const auto& p : HomeWalk(user, page_size)) ids.push_back(p.id);
    return ids;
  }

  // Posts after the clock has moved on, so that posts of different authors made by one test
  // have distinct times (within one millisecond they are ordered by post id, not by author).
  std::string MustPost(const std::string& author, const std::string& text) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    auto id = feed_->Post(author, text);
    EXPECT_OK(id);
    return id.ok() ? *id : "";
  }

  FeedOptions options_;
  std::unique_ptr<FollowGraph> graph_;
  std::unique_ptr<Feed> feed_;
};

TEST_P(FeedTest, PostIsReadBackWithItsAuthorTextAndTime) {
  auto before = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count();
  std::string id = MustPost("alice", "hello world");
  auto post = feed_->GetPost(id);
  ASSERT_OK(post);
  EXPECT_EQ(post->id, id);
  EXPECT_EQ(post->author, "alice");
  EXPECT_EQ(post->text, "hello world");
  EXPECT_GE(post->timestamp_ms, before);
  // The id is author + reversed time + sequence, built with KeyBuilder.
  KeyParser parser(id);
  std::string author;
  int64_t ts = 0;
  uint32_t seq = 0;
  ASSERT_OK(parser.ReadBytes(&author));
  ASSERT_OK(parser.ReadReverseTimestamp(&ts));
  ASSERT_OK(parser.ReadUint32(&seq, KeyOrder::kDescending));
  ASSERT_OK(parser.Finish());
  EXPECT_EQ(author, "alice");
  EXPECT_EQ(ts, post->timestamp_ms);
}

// Imports and the demo data post at times of their own: timelines order by those times, and
// the fan-out delivers as for Post.
TEST_P(FeedTest, PostAtUsesTheGivenTimeForOrderAndFanOut) {
  ASSERT_OK(feed_->Follow("bob", "alice"));
  const int64_t day = 24 * 3600 * 1000;
  const int64_t base = 1'700'000'000'000;
  auto newer = feed_->PostAt("alice", "two days ago", base - 2 * day);
  auto older = feed_->PostAt("alice", "three days ago", base - 3 * day);
  ASSERT_OK(newer);
  ASSERT_OK(older);
  auto post = feed_->GetPost(*older);
  ASSERT_OK(post);
  EXPECT_EQ(post->timestamp_ms, base - 3 * day);
  std::string now = MustPost("alice", "now");
  DrainJobs();
  EXPECT_EQ(HomeIds("bob"), (std::vector<std::string>{now, *newer, *older}));
  EXPECT_TRUE(feed_->PostAt("alice", "x", -1).status().IsInvalidArgument());
}

TEST_P(FeedTest, PostRejectsEmptyAuthorAndTooLongText) {
  EXPECT_TRUE(feed_->Post("", "x").status().IsInvalidArgument());
  EXPECT_TRUE(feed_->Post("alice", std::string(1001, 'x')).status().IsInvalidArgument());
  EXPECT_OK(feed_->Post("alice", std::string(1000, 'x')));
}

TEST_P(FeedTest, PostsInOneMillisecondGetDistinctIds) {
  std::set<std::string> ids;
  for (int i = 0; i < 200; ++i) {
    auto id = feed_->Post("alice", "p");
    ASSERT_OK(id);
    ids.insert(*id);
  }
  EXPECT_EQ(ids.size(), 200u);
}

TEST_P(FeedTest, GetPostOfUnknownOrMalformedIdFails) {
  std::string id = MustPost("alice", "x");
  EXPECT_TRUE(feed_->GetPost("not an id").status().IsInvalidArgument());
  ASSERT_OK(feed_->DeletePost("alice", id));
  EXPECT_TRUE(feed_->GetPost(id).status().IsNotFound());
}

TEST_P(FeedTest, OnlyTheAuthorMayDeleteAPost) {
  std::string id = MustPost("alice", "mine");
  Status s = feed_->DeletePost("mallory", id);
  EXPECT_TRUE(s.IsFailedPrecondition()) << s.ToString();
  EXPECT_OK(feed_->GetPost(id));
  EXPECT_OK(feed_->DeletePost("alice", id));
  EXPECT_TRUE(feed_->DeletePost("alice", id).IsNotFound());
}

TEST_P(FeedTest, UserTimelineIsNewestFirstInPagesWithoutRepeats) {
  std::vector<std::string> ids;
  for (int i = 0; i < 23; ++i) ids.push_back(MustPost("alice", "post " + std::to_string(i)));
  MustPost("alicia", "another author");  // a neighbouring key must not leak in
  std::vector<std::string> walked;
  std::string cursor;
  do {
    auto page = feed_->UserTimeline("alice", 5, cursor);
    ASSERT_OK(page);
    for (const auto& p : page->posts) {
      EXPECT_EQ(p.author, "alice");
      walked.push_back(p.id);
    }
    cursor = page->cursor;
  } while (!cursor.empty());
  // Newest first: reversed time, then sequence, which is the order of the ids.
  std::vector<std::string> expected = ids;
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(walked, expected);
  auto first = feed_->GetPost(walked.front());
  auto last = feed_->GetPost(walked.back());
  ASSERT_OK(first);
  ASSERT_OK(last);
  EXPECT_GE(first->timestamp_ms, last->timestamp_ms);
}

TEST_P(FeedTest, HomeTimelineHoldsFollowedPostsAfterFanOut) {
  OpenFeed(WithJobs());
  ASSERT_OK(feed_->Follow("bob", "alice"));
  ASSERT_OK(feed_->Follow("bob", "carol"));
  ASSERT_OK(feed_->Follow("dave", "alice"));
  std::string a1 = MustPost("alice", "a1");
  std::string c1 = MustPost("carol", "c1");
  std::string a2 = MustPost("alice", "a2");
  std::string e1 = MustPost("eve", "not followed");
  auto pending = feed_->PendingJobs();
  ASSERT_OK(pending);
  EXPECT_EQ(*pending, 4);
  auto backlog = feed_->FanoutBacklog();
  ASSERT_OK(backlog);
  EXPECT_EQ(backlog->jobs, 4);
  const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  EXPECT_GT(backlog->oldest_job_ms, now_ms - 60'000);
  EXPECT_LE(backlog->oldest_job_ms, now_ms + 1'000);
  DrainJobs();
  backlog = feed_->FanoutBacklog();
  ASSERT_OK(backlog);
  EXPECT_EQ(backlog->jobs, 0);
  EXPECT_EQ(backlog->oldest_job_ms, 0);
  auto walked = HomeWalk("bob", 2);
  ASSERT_EQ(walked.size(), 3u);
  EXPECT_EQ(walked[0].id, a2);
  EXPECT_EQ(walked[0].text, "a2");
  EXPECT_EQ(walked[1].id, c1);
  EXPECT_EQ(walked[2].id, a1);
  EXPECT_EQ(HomeIds("dave"), (std::vector<std::string>{a2, a1}));
  EXPECT_EQ(HomeIds("eve"), (std::vector<std::string>{e1}));  // her own post only
}

TEST_P(FeedTest, HomeTimelineHoldsTheReadersOwnPostsAtOnce) {
  FeedOptions options;
  options.deliver_in_post_max_followers = 0;  // every post takes a fan-out job
  options.fanout_threshold = 1;  // star (two followers) is not fanned out, alice (one) is
  OpenFeed(options);
  ASSERT_OK(feed_->Follow("bob", "alice"));
  for (std::string f : {"f1", "f2"}) ASSERT_OK(feed_->Follow(f, "star"));
  std::string a1 = MustPost("alice", "a1");
  std::string b1 = MustPost("bob", "b1");
  std::string s1 = MustPost("star", "s1");
  // Before any worker ran: each author's own post is there, bob's followee's is not yet.
  EXPECT_EQ(HomeIds("bob"), (std::vector<std::string>{b1}));
  EXPECT_EQ(HomeIds("alice"), (std::vector<std::string>{a1}));
  EXPECT_EQ(HomeIds("star"), (std::vector<std::string>{s1}));
  DrainJobs();
  EXPECT_EQ(HomeIds("bob", 1), (std::vector<std::string>{b1, a1}));
  EXPECT_EQ(HomeIds("alice"), (std::vector<std::string>{a1}));  // followed by bob, not by alice
  EXPECT_EQ(HomeIds("star"), (std::vector<std::string>{s1}));
  EXPECT_EQ(HomeIds("f1"), (std::vector<std::string>{s1}));
  // A deleted own post leaves the author's home timeline at once.
  ASSERT_OK(feed_->DeletePost("bob", b1));
  ASSERT_OK(feed_->DeletePost("star", s1));
  EXPECT_EQ(HomeIds("bob"), (std::vector<std::string>{a1}));
  EXPECT_TRUE(HomeIds("star").empty());
  EXPECT_TRUE(HomeIds("f1").empty());
}

// Moves every queued job row of the feed's posts table to the row `row_of` names for it.
void MoveJobRows(Table& posts, const std::function<std::string(const RowResult&)>& row_of) {
  auto scanner = posts.GetScanner(Scan().SetRowPrefix(feed_layout::JobRowsPrefix()));
  ASSERT_OK(scanner);
  std::vector<RowResult> jobs;
  RowResult job;
  while ((*scanner)->Next(&job)) jobs.push_back(job);
  ASSERT_OK((*scanner)->status());
  for (const RowResult& j : jobs) {
    basalt::Put moved(row_of(j));
    for (const Cell& c : j.cells()) moved.Add(c.family, c.qualifier, c.value);
    ASSERT_OK(posts.Put(moved));
    ASSERT_OK(posts.Delete(basalt::Delete(j.row())));
  }
}

// A pool's workers look for jobs from its low-water mark on, which passes every job queued
// before it once they are done; a job that becomes visible behind the mark (queued by a clock
// behind this one, or written late) is found by the full look that comes every
// kFullLookEveryMs.
TEST_P(FeedTest, JobQueuedBehindTheLowWaterMarkIsFoundByAFullLook) {
  if (GetParam() != testing::StoreKind::kMem) {
    GTEST_SKIP() << "store-independent and waits for a full look: run on one store";
  }
  namespace fl = feed_layout;
  ASSERT_OK(feed_->Follow("bob", "alice"));
  FanoutWorkerPool pool(*feed_, {.threads = 1});
  pool.Start();
  const std::string first = MustPost("alice", "one");
  ASSERT_OK(pool.Drain(std::chrono::seconds(20)));
  pool.Stop();
  const std::string late = MustPost("alice", "late");
  auto posts = conn().GetTable(TableName("default", "feed_posts"));
  ASSERT_OK(posts);
  MoveJobRows(**posts, [](const RowResult& job) {
    return fl::JobRow(1, std::string(*job.Value("j", "p")), fl::kFanoutJob);
  });
  pool.Start();
  ASSERT_OK(pool.Drain(std::chrono::seconds(30)));
  pool.Stop();
  ASSERT_OK(pool.last_error());
  EXPECT_EQ(HomeIds("bob"), (std::vector<std::string>{late, first}));
}

// Post compares the threshold with a copy of the follower count up to
// follower_count_refresh_ms old: an author who crossed it meanwhile is marked (and no longer
// fanned out) only once the copy is that old.
TEST_P(FeedTest, TheThresholdIsCheckedAgainstAFollowerCountAtMostTheRefreshTimeOld) {
  namespace fl = feed_layout;
  for (int64_t refresh_ms : {int64_t{60000}, int64_t{0}}) {
    SCOPED_TRACE("follower_count_refresh_ms " + std::to_string(refresh_ms));
    FeedOptions options;
    options.fanout_threshold = 1;
    options.follower_count_refresh_ms = refresh_ms;
    OpenFeed(options);
    const std::string author = "author" + std::to_string(refresh_ms);
    ASSERT_OK(feed_->Follow("f1", author));
    MustPost(author, "one follower");
    ASSERT_OK(feed_->Follow("f2", author));
    MustPost(author, "two followers");
    auto posts = conn().GetTable(TableName("default", "feed_posts"));
    ASSERT_OK(posts);
    auto marked = (*posts)->Exists(Get(fl::MarkRow(author)));
    ASSERT_OK(marked);
    EXPECT_EQ(*marked, refresh_ms == 0);
  }
  FeedOptions bad;
  bad.follower_count_refresh_ms = -1;
  EXPECT_TRUE(Feed::Open(conn(), *graph_, bad).status().IsInvalidArgument());
}

TEST_P(FeedTest, HomeCursorIsRejectedWhenMalformed) {
  EXPECT_TRUE(feed_->HomeTimeline("bob", 0).status().IsInvalidArgument());
  EXPECT_TRUE(feed_->HomeTimeline("bob", 5, "!!").status().IsInvalidArgument());
  EXPECT_TRUE(feed_->HomeTimeline("bob", 5, "AAAA").status().IsInvalidArgument());
}

TEST_P(FeedTest, OwnPostsAreCappedInTheInboxAndTheWalkGoesOnPastThem) {
  FeedOptions options;
  options.inbox_cap = 4;
  options.inbox_trim_every = 1;
  OpenFeed(options);
  std::vector<std::string> ids;
  for (int i = 0; i < 10; ++i) ids.push_back(MustPost("alice", std::to_string(i)));
  auto inbox = conn().GetTable("feed_inbox");
  ASSERT_OK(inbox);
  auto row = (*inbox)->Get(Get(KeyBuilder().AddBytes("alice").Build()));
  ASSERT_OK(row);
  EXPECT_EQ(row->size(), 4u);
  std::vector<std::string> expected(ids.rbegin(), ids.rend());
  for (int32_t page_size : {1, 3, 4, 5, 20}) {
    EXPECT_EQ(HomeIds("alice", page_size), expected) << "page size " << page_size;
  }
}

// Posts older than bob's bound when they are delivered (here: each batch of 30 is older than
// the one before, and drained after it) land past the bound: entries the usual trim (which reads
// only up to the bound) never sees. It removes the entry it delivers when it trims; one trim in
// Feed::kWholeTrimEvery reads the whole inbox and removes the rest. Without those, about half of
// the 570 would stay.
TEST_P(FeedTest, EntriesDeliveredPastTheBoundDoNotPileUp) {
  FeedOptions options;
  options.inbox_cap = 5;
  options.inbox_trim_every = 2;
  OpenFeed(options);
  ASSERT_OK(feed_->Follow("bob", "alice"));
  const int64_t base = 1'700'000'000'000;
  std::vector<std::string> expected;  // newest first
  for (int batch = 0; batch < 20; ++batch) {
    for (int i = 0; i < 30; ++i) {
      const int n = batch * 30 + i;
      auto id = feed_->PostAt("alice", std::to_string(n), base - n);
      ASSERT_OK(id);
      expected.push_back(*id);
    }
    DrainJobs();
  }
  auto inbox = conn().GetTable("feed_inbox");
  ASSERT_OK(inbox);
  auto row = (*inbox)->Get(Get(KeyBuilder().AddBytes("bob").Build()));
  ASSERT_OK(row);
  // More than 200 would take a run of 400 deliveries without a whole trim: odds of e^-12.
  EXPECT_LE(row->size(), 205u);
  EXPECT_EQ(HomeIds("bob", 50), expected);
}

TEST_P(FeedTest, InboxIsCappedOnWriteAndHomeTimelineGoesOnPastTheCap) {
  FeedOptions options;
  options.inbox_cap = 5;
  options.inbox_trim_every = 1;
  OpenFeed(options);
  ASSERT_OK(feed_->Follow("bob", "alice"));
  ASSERT_OK(feed_->Follow("bob", "carol"));
  std::vector<std::string> ids;
  for (int i = 0; i < 12; ++i)
    ids.push_back(MustPost(i % 3 ? "alice" : "carol", std::to_string(i)));
  DrainJobs();
  // Only the newest five are kept: the inbox row has five columns.
  auto inbox = conn().GetTable("feed_inbox");
  ASSERT_OK(inbox);
  auto row = (*inbox)->Get(Get(KeyBuilder().AddBytes("bob").Build()));
  ASSERT_OK(row);
  EXPECT_EQ(row->size(), 5u);
  // The walk goes on with the followees' own timelines, whatever the page size: every post,
  // newest first, once.
  std::vector<std::string> expected(ids.rbegin(), ids.rend());
  for (int32_t page_size : {1, 2, 4, 5, 6, 20}) {
    EXPECT_EQ(HomeIds("bob", page_size), expected) << "page size " << page_size;
  }
  // A walk that is past the inbox sees neither the posts that arrive meanwhile (ahead of it)
  // nor an unfollowed author's posts, and still sees the rest.
  auto first = feed_->HomeTimeline("bob", 7);
  ASSERT_OK(first);
  ASSERT_EQ(first->posts.size(), 7u);
  MustPost("alice", "new");
  DrainJobs();
  ASSERT_OK(feed_->Unfollow("bob", "carol"));
  std::vector<std::string> rest;
  std::string cursor = first->cursor;
  while (!cursor.empty()) {
    auto page = feed_->HomeTimeline("bob", 2, cursor);
    ASSERT_OK(page);
    for (const auto& p : page->posts) rest.push_back(p.id);
    cursor = page->cursor;
  }
  std::vector<std::string> alice_rest;
  for (size_t i = 7; i < expected.size(); ++i) {
    auto post = feed_->GetPost(expected[i]);
    ASSERT_OK(post);
    if (post->author == "alice") alice_rest.push_back(expected[i]);
  }
  EXPECT_EQ(rest, alice_rest);
}

// By default a delivery trims its inbox on about one delivery in 16: the inbox may hold more
// than the cap for a while; the home timeline holds every post either way.
TEST_P(FeedTest, TrimsAreAmortisedAndTheHomeTimelineHoldsEveryPost) {
  FeedOptions options;
  options.inbox_cap = 5;
  options.inbox_trim_every = 4;
  OpenFeed(options);
  ASSERT_OK(feed_->Follow("bob", "alice"));
  std::vector<std::string> ids;
  for (int i = 0; i < 300; ++i) ids.push_back(MustPost("alice", std::to_string(i)));
  DrainJobs();
  auto inbox = conn().GetTable("feed_inbox");
  ASSERT_OK(inbox);
  auto row = (*inbox)->Get(Get(KeyBuilder().AddBytes("bob").Build()));
  ASSERT_OK(row);
  // Jobs drain oldest first, so deliveries land before the bound, where any trim removes them.
  // No trim in 200 deliveries in a row has odds of (3/4)^200.
  EXPECT_GE(row->size(), 5u);
  EXPECT_LT(row->size(), 205u);
  std::vector<std::string> expected(ids.rbegin(), ids.rend());
  EXPECT_EQ(HomeIds("bob", 7), expected);
  options.inbox_trim_every = 0;
  EXPECT_TRUE(Feed::Open(conn(), *graph_, options).status().IsInvalidArgument());
}

// A follow copies backfill_posts posts; the followed user's older ones come from their own
// timeline once the walk gets there, and no other followee's post is skipped meanwhile.
TEST_P(FeedTest, PartialBackfillIsCompletedFromTheFolloweesTimeline) {
  FeedOptions options;
  options.backfill_posts = 2;
  OpenFeed(options);
  ASSERT_OK(feed_->Follow("bob", "carol"));
  std::vector<std::string> ids;
  for (int i = 0; i < 9; ++i) ids.push_back(MustPost(i % 2 ? "alice" : "carol", std::to_string(i)));
  DrainJobs();
  ASSERT_OK(feed_->Follow("bob", "alice"));
  std::vector<std::string> expected(ids.rbegin(), ids.rend());
  EXPECT_EQ(HomeIds("bob", 3), expected);
  options.backfill_posts = 0;
  OpenFeed(options);
  ASSERT_OK(feed_->Follow("dave", "alice"));
  std::vector<std::string> alice;
  for (const auto& id : expected) {
    if (feed_->GetPost(id)->author == "alice") alice.push_back(id);
  }
  EXPECT_EQ(HomeIds("dave", 2), alice);
}

// With more marked authors than a home read asks about edge by edge, the read takes the whole
// following list to find the followed ones; past the inbox the walk still reads every
// followee's own timeline.
TEST_P(FeedTest, WalkGoesPastTheInboxWhenManyAuthorsAreMarked) {
  FeedOptions options;
  options.fanout_threshold = 0;  // an author with a follower is marked when they post
  options.follower_count_refresh_ms = 0;
  options.backfill_posts = 1;
  OpenFeed(options);
  // carol posts before anyone follows her, so she is not marked; bob's backfill takes her newest
  // post and leaves the inbox a bound before the others.
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) ids.push_back(MustPost("carol", "c" + std::to_string(i)));
  ASSERT_OK(feed_->Follow("bob", "carol"));
  for (int i = 0; i < 70; ++i) {
    const std::string star = "star" + std::to_string(i);
    ASSERT_OK(feed_->Follow("bob", star));
    ids.push_back(MustPost(star, "s"));
  }
  DrainJobs();
  std::vector<std::string> expected(ids.rbegin(), ids.rend());
  EXPECT_EQ(HomeIds("bob", 5), expected);
}

// A post whose delivery comes after the inbox was trimmed past its time (an import's old post
// here) lands past the inbox's bound: the walk reads it from its author's timeline, in its place.
TEST_P(FeedTest, ALateDeliveryPastTheBoundIsServedInItsPlace) {
  FeedOptions options;
  options.inbox_cap = 3;
  options.inbox_trim_every = 1;
  OpenFeed(options);
  ASSERT_OK(feed_->Follow("bob", "alice"));
  ASSERT_OK(feed_->Follow("bob", "carol"));
  const int64_t base = 1'700'000'000'000;
  std::vector<std::string> ids;
  for (int i = 0; i < 6; ++i) {
    auto id = feed_->PostAt(i % 2 ? "alice" : "carol", std::to_string(i), base + i * 1000);
    ASSERT_OK(id);
    ids.push_back(*id);
  }
  DrainJobs();
  auto old = feed_->PostAt("alice", "old", base + 500);
  ASSERT_OK(old);
  DrainJobs();
  std::vector<std::string> expected = {ids[5], ids[4], ids[3], ids[2], ids[1], *old, ids[0]};
  EXPECT_EQ(HomeIds("bob", 2), expected);
}

// Cursors of earlier versions (BE64 posts returned + the last timeline key) still go on.
TEST_P(FeedTest, AnOldFormatCursorGoesOn) {
  ASSERT_OK(feed_->Follow("bob", "alice"));
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i) ids.push_back(MustPost("alice", std::to_string(i)));
  DrainJobs();
  auto third = feed_->GetPost(ids[2]);
  ASSERT_OK(third);
  const std::string old_cursor =
      Base64UrlEncode(KeyBuilder().AddUint64(2).Build() +
                      KeyBuilder().AddReverseTimestamp(third->timestamp_ms).Build() + ids[2]);
  auto page = feed_->HomeTimeline("bob", 10, old_cursor);
  ASSERT_OK(page);
  ASSERT_EQ(page->posts.size(), 2u);
  EXPECT_EQ(page->posts[0].id, ids[1]);
  EXPECT_EQ(page->posts[1].id, ids[0]);
  // A cursor of neither format is refused.
  EXPECT_TRUE(
      feed_->HomeTimeline("bob", 5, Base64UrlEncode("x" + ids[2])).status().IsInvalidArgument());
  EXPECT_TRUE(feed_->HomeTimeline("bob", 5, Base64UrlEncode("p")).status().IsInvalidArgument());
}

// A reader who has not read for inactive_after_ms is skipped by fan-out; their next read
// rebuilds the inbox from the followees' timelines, and they are delivered to again after it.
TEST_P(FeedTest, InactiveReaderIsSkippedAndRebuiltOnTheirNextRead) {
  FeedOptions options;
  options.deliver_in_post_max_followers = 0;  // every post takes a fan-out job
  options.inactive_after_ms = 1000;
  options.inbox_cap = 4;
  OpenFeed(options);
  ASSERT_OK(feed_->Follow("bob", "alice"));  // bob's activity clock starts here
  ASSERT_OK(feed_->Follow("carol", "alice"));
  std::string before = MustPost("alice", "before");
  FanoutStats stats;
  auto run = [&] {
    while (true) {
      auto ran = FanoutWorkerPool::RunOnce(*feed_, {.chunk_size = 10}, "w", INT_MAX, &stats);
      ASSERT_OK(ran);
      if (!*ran) break;
    }
  };
  run();
  EXPECT_EQ(stats.inbox_writes, 2);
  EXPECT_EQ(stats.skipped_inactive, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  ASSERT_OK(feed_->HomeTimeline("carol", 1));  // carol reads: active again
  std::vector<std::string> ids = {before};
  for (int i = 0; i < 6; ++i) ids.push_back(MustPost("alice", std::to_string(i)));
  stats = {};
  run();
  EXPECT_EQ(stats.skipped_inactive, 6);  // bob, for each post
  EXPECT_EQ(stats.inbox_writes, 6);      // carol
  auto inbox = conn().GetTable("feed_inbox");
  ASSERT_OK(inbox);
  auto row = (*inbox)->Get(Get(KeyBuilder().AddBytes("bob").Build()));
  ASSERT_OK(row);
  EXPECT_EQ(row->size(), 1u);  // the post from before only
  // bob's first read rebuilds his inbox (the newest inbox_cap posts) and serves them all.
  std::vector<std::string> expected(ids.rbegin(), ids.rend());
  EXPECT_EQ(HomeIds("bob", 3), expected);
  row = (*inbox)->Get(Get(KeyBuilder().AddBytes("bob").Build()));
  ASSERT_OK(row);
  EXPECT_EQ(row->size(), 5u);  // the four rebuilt and the one from before
  stats = {};
  std::string after = MustPost("alice", "after");
  run();
  EXPECT_EQ(stats.skipped_inactive, 0);
  EXPECT_EQ(stats.inbox_writes, 2);
  EXPECT_EQ(HomeIds("bob", 3).front(), after);
  options.inactive_after_ms = -1;
  EXPECT_TRUE(Feed::Open(conn(), *graph_, options).status().IsInvalidArgument());
}

// With inactive_after_ms = 0 every reader is delivered to, however long ago they read.
TEST_P(FeedTest, InactivityTrackingCanBeTurnedOff) {
  FeedOptions options;
  options.deliver_in_post_max_followers = 0;  // every post takes a fan-out job
  options.inactive_after_ms = 0;
  OpenFeed(options);
  ASSERT_OK(feed_->Follow("bob", "alice"));
  ASSERT_OK(feed_->HomeTimeline("bob", 1));
  MustPost("alice", "x");
  FanoutStats stats;
  auto ran = FanoutWorkerPool::RunOnce(*feed_, {}, "w", INT_MAX, &stats);
  ASSERT_OK(ran);
  EXPECT_EQ(stats.inbox_writes, 1);
  EXPECT_EQ(stats.skipped_inactive, 0);
  // No reader row was written: a Get of it finds nothing.
  auto inbox = conn().GetTable("feed_inbox");
  ASSERT_OK(inbox);
  auto reader = (*inbox)->Get(Get(KeyBuilder().AddBytes("bob").AddUint8(1).Build()));
  ASSERT_OK(reader);
  EXPECT_TRUE(reader->empty());
}

// Which authors are high-follower comes from a copy of the marks: a mark written by another
// Feed (another process) is seen once the copy is older than marks_refresh_ms.
TEST_P(FeedTest, AMarkWrittenElsewhereIsSeenWithinTheRefreshTime) {
  FeedOptions options;
  options.fanout_threshold = 1;
  options.marks_refresh_ms = 300;
  OpenFeed(options);
  auto other = Feed::Open(conn(), *graph_, options);
  ASSERT_OK(other);
  for (std::string f : {"f1", "f2"}) ASSERT_OK(feed_->Follow(f, "star"));
  EXPECT_EQ(HomeIds("f1", 5), std::vector<std::string>{});  // the copy: no marks yet
  auto post = (*other)->Post("star", "now high");           // marks star, no fan-out
  ASSERT_OK(post);
  auto pending = feed_->PendingJobs();
  ASSERT_OK(pending);
  EXPECT_EQ(*pending, 0);
  // (Until the copy is 300 ms old, f1's home may lack the post: not checked, a slow machine
  // may take that long between two lines.)
  std::this_thread::sleep_for(std::chrono::milliseconds(350));
  EXPECT_EQ(HomeIds("f1", 5), std::vector<std::string>{*post});
  // The Feed that writes a mark sees it at once.
  ASSERT_OK(feed_->Follow("f1", "star2"));
  ASSERT_OK(feed_->Follow("f2", "star2"));
  auto post2 = feed_->Post("star2", "also high");
  ASSERT_OK(post2);
  EXPECT_EQ(HomeIds("f1", 5), (std::vector<std::string>{*post2, *post}));
}

TEST_P(FeedTest, HighFollowerAuthorIsNotFannedOutButMergedAtReadTime) {
  FeedOptions options;
  options.deliver_in_post_max_followers = 0;  // every post takes a fan-out job
  options.fanout_threshold = 2;
  OpenFeed(options);
  for (std::string f : {"f1", "f2", "f3"}) ASSERT_OK(feed_->Follow(f, "star"));
  ASSERT_OK(feed_->Follow("f1", "small"));
  std::string s1 = MustPost("star", "s1");
  std::string m1 = MustPost("small", "m1");
  std::string s2 = MustPost("star", "s2");
  auto pending = feed_->PendingJobs();
  ASSERT_OK(pending);
  EXPECT_EQ(*pending, 1);  // only small's post has a fan-out job
  DrainJobs();
  EXPECT_EQ(HomeIds("f1", 1), (std::vector<std::string>{s2, m1, s1}));
  EXPECT_EQ(HomeIds("f2", 1), (std::vector<std::string>{s2, s1}));
  // A late follower of a high-follower author sees their posts at once.
  ASSERT_OK(feed_->Follow("f4", "star"));
  EXPECT_EQ(HomeIds("f4"), (std::vector<std::string>{s2, s1}));
  ASSERT_OK(feed_->Unfollow("f2", "star"));
  EXPECT_TRUE(HomeIds("f2").empty());
  // Deleting a post that was never fanned out needs no retract job.
  ASSERT_OK(feed_->DeletePost("star", s1));
  pending = feed_->PendingJobs();
  ASSERT_OK(pending);
  EXPECT_EQ(*pending, 0);
  EXPECT_EQ(HomeIds("f1"), (std::vector<std::string>{s2, m1}));
}

TEST_P(FeedTest, HomeWalkNeitherRepeatsNorSkipsWhilePostsArriveAndGo) {
  FeedOptions options;
  options.fanout_threshold = 1;  // star (two followers) is merged at read time
  OpenFeed(options);
  ASSERT_OK(feed_->Follow("bob", "alice"));
  ASSERT_OK(feed_->Follow("bob", "star"));
  ASSERT_OK(feed_->Follow("carol", "star"));
  std::vector<std::string> ids;  // oldest first
  for (int i = 0; i < 10; ++i) ids.push_back(MustPost(i % 2 ? "star" : "alice", std::to_string(i)));
  DrainJobs();
  std::vector<std::string> expected(ids.rbegin(), ids.rend());  // newest first
  auto first = feed_->HomeTimeline("bob", 3);
  ASSERT_OK(first);
  ASSERT_EQ(first->posts.size(), 3u);
  ASSERT_FALSE(first->cursor.empty());
  // Between pages: newer posts from both sources (ahead of the cursor, so not returned) and the
  // deletion of a post not read yet (so not returned either).
  MustPost("alice", "new a");
  MustPost("star", "new s");
  DrainJobs();
  ASSERT_OK(feed_->DeletePost("star", expected[4]));
  std::vector<std::string> walked;
  for (const auto& p : first->posts) walked.push_back(p.id);
  std::string cursor = first->cursor;
  while (!cursor.empty()) {
    auto page = feed_->HomeTimeline("bob", 3, cursor);
    ASSERT_OK(page);
    for (const auto& p : page->posts) walked.push_back(p.id);
    cursor = page->cursor;
  }
  expected.erase(expected.begin() + 4);
  EXPECT_EQ(walked, expected);
}

TEST_P(FeedTest, FollowBackfillsAndUnfollowRemovesTheFolloweesPosts) {
  std::string a1 = MustPost("alice", "a1");
  std::string a2 = MustPost("alice", "a2");
  std::string c1 = MustPost("carol", "c1");
  DrainJobs();
  ASSERT_OK(feed_->Follow("bob", "alice"));
  ASSERT_OK(feed_->Follow("bob", "carol"));
  EXPECT_EQ(HomeIds("bob"), (std::vector<std::string>{c1, a2, a1}));
  ASSERT_OK(feed_->Unfollow("bob", "alice"));
  EXPECT_EQ(HomeIds("bob"), (std::vector<std::string>{c1}));
  // Removed from the inbox itself, not only hidden: one column is left.
  auto inbox = conn().GetTable("feed_inbox");
  ASSERT_OK(inbox);
  auto row = (*inbox)->Get(Get(KeyBuilder().AddBytes("bob").Build()));
  ASSERT_OK(row);
  EXPECT_EQ(row->size(), 1u);
}

TEST_P(FeedTest, AnEntryDeliveredAfterItsUnfollowStaysHidden) {
  ASSERT_OK(feed_->Follow("bob", "alice"));
  ASSERT_OK(feed_->Follow("bob", "carol"));
  std::string a1 = MustPost("alice", "a1");
  std::string c1 = MustPost("carol", "c1");
  DrainJobs();
  auto inbox = conn().GetTable("feed_inbox");
  ASSERT_OK(inbox);
  const std::string bob_inbox = KeyBuilder().AddBytes("bob").Build();
  auto delivered = (*inbox)->Get(Get(bob_inbox));
  ASSERT_OK(delivered);
  ASSERT_EQ(delivered->size(), 2u);
  ASSERT_OK(feed_->Unfollow("bob", "alice"));
  EXPECT_EQ(HomeIds("bob"), (std::vector<std::string>{c1}));
  // A fan-out page that listed bob among alice's followers before the unfollow writes its
  // entries after the unfollow's clean-up.
  Put late(bob_inbox);
  for (const Cell& c : delivered->cells()) late.Add(c.family, c.qualifier, "");
  ASSERT_OK((*inbox)->Put(late));
  for (int32_t page_size : {1, 20}) {
    EXPECT_EQ(HomeIds("bob", page_size), (std::vector<std::string>{c1})) << page_size;
  }
  // Following again shows alice's posts again.
  ASSERT_OK(feed_->Follow("bob", "alice"));
  EXPECT_EQ(HomeIds("bob"), (std::vector<std::string>{c1, a1}));
}

TEST_P(FeedTest, DeletedPostDisappearsFromEveryHomeTimeline) {
  for (std::string f : {"f1", "f2", "f3"}) ASSERT_OK(feed_->Follow(f, "alice"));
  std::string keep = MustPost("alice", "keep");
  std::string gone = MustPost("alice", "gone");
  DrainJobs();
  EXPECT_EQ(HomeIds("f1"), (std::vector<std::string>{gone, keep}));
  ASSERT_OK(feed_->DeletePost("alice", gone));
  // At once, before the retract job ran (filtered when hydrated)...
  for (std::string f : {"f1", "f2", "f3"}) EXPECT_EQ(HomeIds(f), (std::vector<std::string>{keep}));
  DrainJobs();
  // ...and after it, removed from the inboxes.
  auto inbox = conn().GetTable("feed_inbox");
  ASSERT_OK(inbox);
  for (std::string f : {"f1", "f2", "f3"}) {
    EXPECT_EQ(HomeIds(f), (std::vector<std::string>{keep}));
    auto row = (*inbox)->Get(Get(KeyBuilder().AddBytes(f).Build()));
    ASSERT_OK(row);
    EXPECT_EQ(row->size(), 1u) << f;
  }
}

// A post deleted before its fan-out ran takes its fan-out job with it: only the retract job is
// left, and no follower's inbox ever holds the post.
TEST_P(FeedTest, APostDeletedBeforeItsFanOutTakesTheJobWithIt) {
  OpenFeed(WithJobs());
  for (std::string f : {"f1", "f2", "f3"}) ASSERT_OK(feed_->Follow(f, "alice"));
  const std::string gone = MustPost("alice", "gone");
  auto pending = feed_->PendingJobs();
  ASSERT_OK(pending);
  EXPECT_EQ(*pending, 1);
  ASSERT_OK(feed_->DeletePost("alice", gone));
  pending = feed_->PendingJobs();
  ASSERT_OK(pending);
  EXPECT_EQ(*pending, 1);  // the retract job
  FanoutStats stats;
  auto ran = FanoutWorkerPool::RunOnce(*feed_, {}, "w", 100, &stats);
  ASSERT_OK(ran);
  EXPECT_TRUE(*ran);
  EXPECT_EQ(stats.jobs_finished, 1);
  pending = feed_->PendingJobs();
  ASSERT_OK(pending);
  EXPECT_EQ(*pending, 0);
  auto inbox = conn().GetTable("feed_inbox");
  ASSERT_OK(inbox);
  for (std::string f : {"f1", "f2", "f3"}) {
    auto row = (*inbox)->Get(Get(KeyBuilder().AddBytes(f).Build()));
    ASSERT_OK(row);
    EXPECT_TRUE(row->empty()) << f;
  }
}

// A job that was not written with its post (here: its post row removed behind the feed's back,
// as a crash between the single-row writes of a post without cross-row atomicity leaves it, or
// a lease replaced by a worker that stopped) reads the post first and delivers nothing.
TEST_P(FeedTest, AJobNotWrittenWithItsPostIsDroppedWhenItsPostIsMissing) {
  OpenFeed(WithJobs());
  namespace fl = feed_layout;
  for (std::string f : {"f1", "f2"}) ASSERT_OK(feed_->Follow(f, "alice"));
  const std::string id = MustPost("alice", "vanishing");
  auto posts = conn().GetTable(TableName("default", "feed_posts"));
  ASSERT_OK(posts);
  ASSERT_OK((*posts)->Delete(basalt::Delete(fl::PostRow(id))));
  auto scanner = (*posts)->GetScanner(Scan().SetRowPrefix(fl::JobRowsPrefix()));
  ASSERT_OK(scanner);
  RowResult job;
  ASSERT_TRUE((*scanner)->Next(&job));
  ASSERT_OK((*posts)->Put(basalt::Put(job.row()).Add("j", "l", std::string(fl::kUnclaimedLease))));
  FanoutStats stats;
  auto ran = FanoutWorkerPool::RunOnce(*feed_, {}, "w", 100, &stats);
  ASSERT_OK(ran);
  EXPECT_TRUE(*ran);
  EXPECT_EQ(stats.inbox_writes, 0);
  EXPECT_EQ(stats.jobs_finished, 1);
  auto inbox = conn().GetTable("feed_inbox");
  ASSERT_OK(inbox);
  for (std::string f : {"f1", "f2"}) {
    auto row = (*inbox)->Get(Get(fl::InboxRow(f)));
    ASSERT_OK(row);
    EXPECT_TRUE(row->empty()) << f;
  }
}

TEST_P(FeedTest, AbandonedJobIsTakenOverAfterRestartAndDeliversEachFollowerOnce) {
  OpenFeed(WithJobs());
  std::vector<std::string> followers;
  for (int i = 0; i < 25; ++i) {
    followers.push_back("fan" + std::to_string(100 + i));
    ASSERT_OK(feed_->Follow(followers.back(), "alice"));
  }
  std::string id = MustPost("alice", "big news");
  // A worker claims the job, delivers two pages of 5 followers, then "crashes".
  FanoutWorkerOptions crashed{.threads = 1, .chunk_size = 5, .lease_ms = 300};
  FanoutStats first;
  auto ran = FanoutWorkerPool::RunOnce(*feed_, crashed, "crashed-worker", 2, &first);
  ASSERT_OK(ran);
  EXPECT_TRUE(*ran);
  EXPECT_EQ(first.inbox_writes, 10);
  EXPECT_EQ(first.jobs_finished, 0);
  // Its lease still holds: another worker cannot take the job yet.
  auto early = FanoutWorkerPool::RunOnce(*feed_, crashed, "other-worker", 1);
  ASSERT_OK(early);
  EXPECT_FALSE(*early);

  Reopen();
  auto pending = feed_->PendingJobs();
  ASSERT_OK(pending);
  EXPECT_EQ(*pending, 1);
  FanoutWorkerPool pool(*feed_, {.threads = 2, .chunk_size = 5});
  pool.Start();
  ASSERT_OK(pool.Drain(std::chrono::seconds(20)));
  pool.Stop();
  // Resumed after the recorded cursor: only the 15 remaining followers were written.
  EXPECT_EQ(pool.stats().inbox_writes, 15);
  EXPECT_EQ(pool.stats().jobs_finished, 1);
  for (const auto& f : followers) EXPECT_EQ(HomeIds(f), (std::vector<std::string>{id})) << f;
}

TEST_P(FeedTest, StoppedPoolLeavesProgressThatAnotherPoolFinishes) {
  for (int i = 0; i < 12; ++i) ASSERT_OK(feed_->Follow("fan" + std::to_string(i), "alice"));
  std::vector<std::string> ids;
  for (int i = 0; i < 6; ++i) ids.push_back(MustPost("alice", std::to_string(i)));
  {
    FanoutWorkerPool pool(*feed_, {.threads = 1, .chunk_size = 2, .lease_ms = 200});
    pool.Start();
    pool.Stop();
  }
  Reopen();
  FanoutWorkerPool pool(*feed_, {.threads = 2, .chunk_size = 2});
  pool.Start();
  ASSERT_OK(pool.Drain(std::chrono::seconds(20)));
  pool.Stop();
  std::vector<std::string> expected(ids.rbegin(), ids.rend());
  for (int i = 0; i < 12; ++i) EXPECT_EQ(HomeIds("fan" + std::to_string(i)), expected);
}

TEST_P(FeedTest, DrainAnswersAtOnceWhenNothingIsPendingAndBusyWhenNoWorkerRuns) {
  OpenFeed(WithJobs());
  ASSERT_OK(feed_->Follow("bob", "alice"));
  FanoutWorkerPool idle(*feed_, {.threads = 1});
  EXPECT_OK(idle.Drain(std::chrono::seconds(0)));  // no job: no worker needed
  MustPost("alice", "a1");
  Status busy = idle.Drain(std::chrono::milliseconds(50));  // never started
  EXPECT_TRUE(busy.IsBusy()) << busy.ToString();
  EXPECT_NE(busy.message().find("1 jobs left"), std::string::npos) << busy.message();
  idle.Start();
  ASSERT_OK(idle.Drain(std::chrono::seconds(20)));
  idle.Stop();
  EXPECT_EQ(HomeIds("bob").size(), 1u);
}

// A Connection that runs a hook once, before the next MutateRows, to force an interleaving.
class HookedConnection : public Connection {
 public:
  explicit HookedConnection(Connection& inner) : inner_(inner) {}

  using Connection::GetTable;
  Admin& admin() override { return inner_.admin(); }
  Result<std::unique_ptr<Table>> GetTable(const TableName& name) override {
    return inner_.GetTable(name);
  }
  Result<bool> MutateRows(const MultiRowMutation& m) override {
    if (before_mutate_rows) {
      std::function<void()> once = std::move(before_mutate_rows);
      before_mutate_rows = nullptr;
      once();
    }
    return inner_.MutateRows(m);
  }
  std::string target() const override { return inner_.target(); }
  Status Close() override { return Status::OK(); }

  std::function<void()> before_mutate_rows;

 private:
  Connection& inner_;
};

TEST_P(FeedTest, APostOfAnAuthorWithFewFollowersIsDeliveredInItsOwnWrite) {
  for (std::string f : {"bob", "carol"}) ASSERT_OK(feed_->Follow(f, "alice"));
  const std::string id = MustPost("alice", "hello");
  auto pending = feed_->PendingJobs();
  ASSERT_OK(pending);
  if (testing::IsRemote(GetParam())) {
    // No atomic multi-row write over Thrift2: the post takes a fan-out job.
    EXPECT_EQ(*pending, 1);
    DrainJobs();
  } else {
    // No job: the followers have it as soon as Post returns, before any worker runs.
    EXPECT_EQ(*pending, 0);
  }
  for (std::string f : {"bob", "carol", "alice"}) {
    EXPECT_EQ(HomeIds(f), std::vector<std::string>{id}) << f;
  }
}

TEST_P(FeedTest, AnAuthorWithMoreFollowersThanTheLimitTakesAFanOutJob) {
  FeedOptions options;
  options.deliver_in_post_max_followers = 2;
  OpenFeed(options);
  for (std::string f : {"f1", "f2"}) ASSERT_OK(feed_->Follow(f, "few"));
  for (std::string f : {"f1", "f2", "f3"}) ASSERT_OK(feed_->Follow(f, "more"));
  const std::string few = MustPost("few", "two followers");
  auto pending = feed_->PendingJobs();
  ASSERT_OK(pending);
  EXPECT_EQ(*pending, testing::IsRemote(GetParam()) ? 1 : 0);
  const std::string more = MustPost("more", "three followers");
  auto after = feed_->PendingJobs();
  ASSERT_OK(after);
  EXPECT_EQ(*after, *pending + 1);
  DrainJobs();
  EXPECT_EQ(HomeIds("f1"), (std::vector<std::string>{more, few}));
  EXPECT_EQ(HomeIds("f2"), (std::vector<std::string>{more, few}));
  EXPECT_EQ(HomeIds("f3"), std::vector<std::string>{more});
}

// A post delivered in its own write is in its followers' inboxes without a job row to say so:
// its p:o mark makes DeletePost queue the retract job all the same.
TEST_P(FeedTest, APostDeliveredInItsOwnWriteIsRetractedFromEveryInboxWhenDeleted) {
  namespace fl = feed_layout;
  for (std::string f : {"bob", "carol"}) ASSERT_OK(feed_->Follow(f, "alice"));
  const std::string id = MustPost("alice", "regretted");
  DrainJobs();
  ASSERT_OK(feed_->DeletePost("alice", id));
  auto pending = feed_->PendingJobs();
  ASSERT_OK(pending);
  EXPECT_EQ(*pending, 1) << "no retract job";
  DrainJobs();
  auto inbox = conn().GetTable(TableName("default", "feed_inbox"));
  ASSERT_OK(inbox);
  for (std::string f : {"bob", "carol", "alice"}) {
    auto row = (*inbox)->Get(basalt::Get(fl::InboxRow(f)).AddFamily(std::string(fl::kInboxFamily)));
    ASSERT_OK(row);
    EXPECT_TRUE(row->empty()) << "the deleted post is still in " << f << "'s inbox";
    EXPECT_TRUE(HomeIds(f).empty()) << f;
  }
}

// Post reads the followers, then writes: a follow in between, whose backfill ran before the
// post was written, is delivered to by Post's second read of the followers (or, over Thrift2,
// by the job, which reads them after the post is written).
TEST_P(FeedTest, AFollowBetweenThePostsReadOfFollowersAndItsWriteIsDeliveredTo) {
  ASSERT_OK(feed_->Follow("bob", "alice"));
  HookedConnection hooked(conn());
  auto posting = Feed::Open(hooked, *graph_, options_);
  ASSERT_OK(posting);
  bool followed = false;
  hooked.before_mutate_rows = [&] {
    EXPECT_OK(feed_->Follow("dave", "alice"));
    followed = true;
  };
  auto id = (*posting)->Post("alice", "just now");
  ASSERT_OK(id);
  ASSERT_TRUE(followed) << "Post made no MutateRows";
  if (!testing::IsRemote(GetParam())) {
    auto pending = feed_->PendingJobs();
    ASSERT_OK(pending);
    EXPECT_EQ(*pending, 0);
    EXPECT_EQ(HomeIds("dave"), std::vector<std::string>{*id}) << "before any worker ran";
  }
  DrainJobs();
  EXPECT_EQ(HomeIds("dave"), std::vector<std::string>{*id});
  EXPECT_EQ(HomeIds("bob"), std::vector<std::string>{*id});
}

BASALT_INSTANTIATE_STORE_TEST(FeedTest);

}  // namespace
}  // namespace basalt::recipes
