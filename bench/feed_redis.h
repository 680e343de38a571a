// The `home-feed` microblog on Redis, as a Redis user writes it (the retwis layout): followers in
// a set per author, posts as strings, an inbox per user as a list of post ids, newest at the
// head, trimmed to the cap on every push. feed_bench.cc runs it beside basalt and raw RocksDB
// against a private redis-server (bench/feed_bench.sh starts one). Built only with hiredis
// (libhiredis-dev); a failed call ends the program with a message.
//
//   followers  F:<author>  SADD of the followers' numbers
//   posts      p:<n>       SET of the text (n counts posts from 0)
//   inboxes    i:<user>    LPUSH n, LTRIM 0 cap-1: the author's own, then one per follower,
//                          pipelined after one SMEMBERS of the author's followers
//   home       LRANGE i:<user> 0 19, then one MGET of those posts
//
// Thread safety: Post may be called from several threads (each uses its own connection);
// HomeRead from one thread at a time.

#ifndef BASALT_BENCH_FEED_REDIS_H_
#define BASALT_BENCH_FEED_REDIS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace basalt::bench {

class RedisFeed {
 public:
  // Connects `connections` (>= 1) clients to `address` (HOST:PORT) and empties the server
  // (FLUSHALL: point it only at a private one).
  RedisFeed(const std::string& address, int connections, int inbox_cap);
  ~RedisFeed();
  RedisFeed(const RedisFeed&) = delete;
  RedisFeed& operator=(const RedisFeed&) = delete;

  // The (follower, followed) edges, pipelined; not timed by the bench.
  void LoadFollows(const std::vector<std::pair<int, int>>& edges);

  // Post number `n` by `author` on connection `connection`: the post, the author's own inbox
  // entry, then every follower's. Returns the follower inbox entries written.
  int64_t Post(int connection, int64_t n, int author, const std::string& text);

  // `reader`'s first page of 20 hydrated posts; returns the posts on it.
  size_t HomeRead(int reader);

  // The server's `redis_version`.
  std::string Version();

 private:
  class Client;
  std::vector<std::unique_ptr<Client>> clients_;
  int inbox_cap_;
};

}  // namespace basalt::bench

#endif  // BASALT_BENCH_FEED_REDIS_H_
