// Feed posts survive kill -9 on the embedded store, on both delivery paths.
//
// A child process posts through a Feed on an embedded store, with fan-out workers running, and
// reports through a pipe the id of each post Post acknowledged. The parent kills it with SIGKILL
// at a random moment, reopens the store and checks:
//   - a post delivered in its own write (its author has at most deliver_in_post_max_followers
//     followers) is in every follower's inbox at once, before any worker has run;
//   - once a fresh worker pool has drained the jobs the child left (their leases run out), every
//     post there is, acknowledged or not, is in the inbox of every follower of its author and of
//     no one else, and on each follower's home timeline exactly once; every acknowledged post is
//     there; no job is left.
// Several rounds run on the same directory, so recovery also follows a recovery. A second test
// turns deliveries in the post's write off: every post then takes a fan-out job.

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "basalt/basalt.h"
#include "basalt/recipes/fanout_worker.h"
#include "basalt/recipes/feed.h"
#include "basalt/recipes/follow_graph.h"
#include "child_process.h"
#include "support/test_store.h"

namespace basalt::crash {
namespace {

using testing::TempDir;

constexpr int kRounds = 3;
// Author a is followed by readers 0 .. kFollowers[a] - 1.
constexpr int kFollowers[] = {1, 3, 6, 10};
constexpr int kAuthors = static_cast<int>(std::size(kFollowers));
constexpr int kReaders = 10;
// Authors 0 and 1 are delivered in the post's write, 2 and 3 by fan-out jobs.
constexpr int32_t kInPostMaxFollowers = 3;

std::string Author(int a) {
  return "author" + std::to_string(a);
}
std::string Reader(int r) {
  return "reader" + std::to_string(r);
}

recipes::FeedOptions Options(int32_t in_post_max_followers) {
  recipes::FeedOptions o;
  o.deliver_in_post_max_followers = in_post_max_followers;
  // Inboxes that keep every post, so that an inbox read shows every delivery.
  o.inbox_cap = 1000000;
  // An interrupted post's job is taken over soon after the crash.
  o.post_lease_ms = 200;
  return o;
}

recipes::FanoutWorkerOptions WorkerOptions() {
  return {.threads = 2, .chunk_size = 4, .lease_ms = 500};
}

// The parts of a feed on an open store.
struct OpenFeed {
  std::unique_ptr<Connection> conn;
  std::unique_ptr<recipes::FollowGraph> graph;
  std::unique_ptr<recipes::Feed> feed;
};

Result<OpenFeed> Open(const std::string& dir, int32_t in_post_max_followers) {
  OpenFeed f;
  BASALT_ASSIGN_OR_RETURN(f.conn, Connection::Open(dir));
  BASALT_ASSIGN_OR_RETURN(f.graph, recipes::FollowGraph::Open(*f.conn));
  BASALT_ASSIGN_OR_RETURN(f.feed,
                          recipes::Feed::Open(*f.conn, *f.graph, Options(in_post_max_followers)));
  return f;
}

// The child: posts round-robin over the authors until killed, workers fanning out meanwhile,
// and writes each acknowledged post id to the pipe as a 4-byte length and the id. Args: the
// store's directory, deliver_in_post_max_followers, the round, the pipe's write end.
[[noreturn]] void PosterChild(const std::vector<std::string>& args) {
  if (args.size() != 4) _exit(2);
  auto opened = Open(args[0], std::atoi(args[1].c_str()));
  if (!opened.ok()) {
    std::fprintf(stderr, "child: %s\n", opened.status().ToString().c_str());
    _exit(3);
  }
  const int fd = std::atoi(args[3].c_str());
  recipes::FanoutWorkerPool workers(*opened->feed, WorkerOptions());
  workers.Start();
  for (uint64_t i = 0;; ++i) {
    auto id = opened->feed->Post(Author(static_cast<int>(i % kAuthors)),
                                 "round " + args[2] + " post " + std::to_string(i));
    if (!id.ok()) {
      std::fprintf(stderr, "child: %s\n", id.status().ToString().c_str());
      _exit(4);
    }
    const uint32_t size = static_cast<uint32_t>(id->size());
    std::string message(reinterpret_cast<const char*>(&size), sizeof(size));
    message += *id;
    if (write(fd, message.data(), message.size()) != static_cast<ssize_t>(message.size())) {
      _exit(5);
    }
  }
}

const bool kPosterRegistered = RegisterChildRole("feed-poster", &PosterChild);

// Runs the poster for `run_ms` after its first acknowledgement (or 30 s without one), kills it,
// and returns the ids it acknowledged.
std::vector<std::string> RunAndKill(const std::string& dir, int32_t in_post_max_followers,
                                    int round, int run_ms) {
  const std::string written = RunUntilKilled(
      "feed-poster", {dir, std::to_string(in_post_max_followers), std::to_string(round)}, run_ms);
  std::vector<std::string> acked;
  size_t at = 0;
  uint32_t size = 0;
  while (written.size() - at >= sizeof(size)) {
    std::memcpy(&size, written.data() + at, sizeof(size));
    if (written.size() - at - sizeof(size) < size) break;  // cut off by the kill
    acked.push_back(written.substr(at + sizeof(size), size));
    at += sizeof(size) + size;
  }
  return acked;
}

// The post ids in `user`'s inbox (public layout, docs/recipes.md: one column per entry, its
// qualifier the reverse timestamp of the post's time and the post id).
std::multiset<std::string> InboxIds(Connection& conn, const std::string& user) {
  std::multiset<std::string> ids;
  auto inbox = conn.GetTable(TableName("default", "feed_inbox"));
  EXPECT_OK(inbox);
  if (!inbox.ok()) return ids;
  auto row = (*inbox)->Get(Get(KeyBuilder().AddBytes(user).Build()).AddFamily("i"));
  EXPECT_OK(row);
  if (!row.ok()) return ids;
  for (const Cell& c : row->cells()) ids.insert(c.qualifier.substr(sizeof(int64_t)));
  return ids;
}

// Every post there is, by author.
std::map<std::string, int> AllPosts(recipes::Feed& feed) {
  std::map<std::string, int> posts;
  for (int a = 0; a < kAuthors; ++a) {
    std::string cursor;
    do {
      auto page = feed.UserTimeline(Author(a), 500, cursor);
      EXPECT_OK(page);
      if (!page.ok()) return posts;
      for (const auto& p : page->posts) posts[p.id] = a;
      cursor = page->cursor;
    } while (!cursor.empty());
  }
  return posts;
}

void Verify(const std::string& dir, int32_t in_post_max_followers,
            const std::vector<std::string>& acked) {
  auto opened = Open(dir, in_post_max_followers);
  ASSERT_OK(opened);
  recipes::Feed& feed = *opened->feed;
  const std::map<std::string, int> posts = AllPosts(feed);
  for (const std::string& id : acked) {
    ASSERT_TRUE(posts.contains(id)) << "an acknowledged post is lost";
  }
  // Before any worker runs: a post delivered in its own write is in every follower's inbox.
  std::vector<std::multiset<std::string>> inboxes;
  for (int r = 0; r < kReaders; ++r) inboxes.push_back(InboxIds(*opened->conn, Reader(r)));
  for (const auto& [id, author] : posts) {
    if (kFollowers[author] > in_post_max_followers) continue;
    for (int r = 0; r < kFollowers[author]; ++r) {
      EXPECT_EQ(inboxes[r].count(id), 1u)
          << "a post of " << Author(author) << " delivered in its own write is missing from "
          << Reader(r) << "'s inbox before the fan-out ran";
    }
  }
  // The jobs left behind are taken over once their leases run out.
  recipes::FanoutWorkerPool workers(feed, WorkerOptions());
  workers.Start();
  ASSERT_OK(workers.Drain(std::chrono::seconds(60)));
  workers.Stop();
  ASSERT_OK(workers.last_error());
  auto pending = feed.PendingJobs();
  ASSERT_OK(pending);
  EXPECT_EQ(*pending, 0) << "a job was left behind";
  for (int r = 0; r < kReaders; ++r) {
    SCOPED_TRACE(Reader(r));
    std::multiset<std::string> expected;
    for (const auto& [id, author] : posts) {
      if (r < kFollowers[author]) expected.insert(id);
    }
    EXPECT_EQ(InboxIds(*opened->conn, Reader(r)), expected);
    std::multiset<std::string> home;
    std::string cursor;
    do {
      auto page = feed.HomeTimeline(Reader(r), 500, cursor);
      ASSERT_OK(page);
      for (const auto& p : page->posts) home.insert(p.id);
      cursor = page->cursor;
    } while (!cursor.empty());
    EXPECT_EQ(home, expected) << "a home timeline lacks a post or repeats one";
  }
  ASSERT_OK(opened->conn->Close());
}

void RunRounds(int32_t in_post_max_followers) {
  TempDir dir;
  {
    auto opened = Open(dir.path(), in_post_max_followers);
    ASSERT_OK(opened);
    for (int a = 0; a < kAuthors; ++a) {
      for (int r = 0; r < kFollowers[a]; ++r) {
        ASSERT_OK(opened->feed->Follow(Reader(r), Author(a)));
      }
    }
    ASSERT_OK(opened->conn->Close());
  }
  std::mt19937 rng(std::random_device{}());
  std::vector<std::string> acked;
  for (int round = 0; round < kRounds; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const std::vector<std::string> more =
        RunAndKill(dir.path(), in_post_max_followers, round, 150 + static_cast<int>(rng() % 350));
    EXPECT_FALSE(more.empty()) << "the poster acknowledged nothing";
    acked.insert(acked.end(), more.begin(), more.end());
    // Every earlier round's posts too: recovery must not lose what an earlier recovery kept.
    Verify(dir.path(), in_post_max_followers, acked);
    if (::testing::Test::HasFatalFailure()) return;
  }
  ::testing::Test::RecordProperty("acknowledged_posts", static_cast<int>(acked.size()));
}

TEST(FeedKill9Test, EveryAcknowledgedPostIsDeliveredOnceOnBothPathsAfterKillNine) {
  RunRounds(kInPostMaxFollowers);
}

TEST(FeedKill9Test, EveryAcknowledgedPostIsDeliveredOnceByJobsAloneAfterKillNine) {
  RunRounds(0);
}

}  // namespace
}  // namespace basalt::crash
