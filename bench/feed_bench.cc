// W2: the `home-feed` microblog (docs/design/workloads.md) on basalt's Feed recipe against the same
// workload written directly on RocksDB twice (raw keys) and on Redis, in one run, at each of
// `--shapes` (bench/feed_shapes.h: sparse, dense, celebrity; all three by default).
//
//   fan-out    posts are written from `--threads` threads; on the job sides with their jobs
//              (workers stopped), then `--threads` workers drain the jobs. Fan-out inbox
//              inserts/s are the followers' inbox entries (the author's own are not counted) over
//              the time from the first post to the last delivery; posts/s is the post phase
//   home       `--reads` first pages of 20 hydrated posts of random users: QPS, p50, p99; the
//              sides' reads run in turns, 50 reads each, on stores all open after their fan-out
//              (each store idle while the others write, and each flushed, its compactions done,
//              after its own writes); every side must show the same number
//              of posts, or the run fails
//
// basalt: FollowGraph (tall layout) + Feed + FanoutWorkerPool through the public API on an
// embedded store; follow edges one Follow each (one atomic MutateRows: both edges and both
// counters), and again into a second graph with FollowMany, `kImportBatch` edges a call.
//
// raw, job queue (the recipe's own design, copied): keys F<followed><follower> /
// f<follower><followed> (one WriteBatch per edge, and one per `kImportBatch` edges for the import
// figure; no counters; and once more with exact counters as a raw RocksDB user would keep them: a
// Get of the edge, then one WriteBatch of both edges and two uint64-add merge operands), P<post id>
// with the job J<post id> and the author's own inbox entry in the same WriteBatch (as Feed::Post
// writes them, so that both sides' home pages include the reader's own posts),
// I<user><reversed time><post id>; the same chunked fan-out with the same (amortised) trim to the
// inbox cap.
//
// raw, hand-written (what a RocksDB user writes for one machine, with no job queue): the same keys;
// a post is one WriteBatch of the post and all its inbox entries, the author's own included, after
// one prefix scan of its followers (crash-safe without a job: all or none), then the same trims.
//
// Both raw sides read a home page with one prefix seek (20 entries) plus a MultiGet of the 20
// posts; they have no hybrid merge and no read-time follow/delete checks, which basalt's home read
// does (see docs/benchmarks.md).
//
// Redis (--redis HOST:PORT; bench/feed_bench.sh starts a private one): bench/feed_redis.h, the
// fan-out as LPUSH + LTRIM per follower, pipelined; a home read as LRANGE 0 19 + MGET.
//
// --active F instead compares basalt with itself, in one run on three fresh stores with the
// same edges and posts: fan-out with inactive-reader tracking off, with every reader active, and
// with only a share F of readers active (the others' last read set 40 days back by writing their
// reader rows, docs/recipes.md); then the first home read of inactive readers (an inbox rebuild)
// against that of active ones.
//
// --follow-only stops basalt and the job-queue side after the follow phases.
//
// --url thrift://HOST:PORT runs the basalt side a second time, over thrift:// against that
// server, between the embedded run and the raw one; with --metrics http://HOST:PORT (the server's
// HTTP side) each phase of that run also states the Thrift2 calls it made per operation, read
// from the server's /metrics (bench/call_counter.h). The server must be fresh (no tables of a
// previous run) and this run its only Thrift2 client: scripts/recipes_over_thrift.sh starts one.
// The fan-out workers run in this process, over the same connection. One shape only.
//
// --active, --follow-only and --url run the sparse shape unless --shapes says otherwise.
//
// Usage: basalt_feed_bench [--dir DIR] [--scale F] [--shapes LIST] [--follows N] [--threads N]
//                          [--reads N] [--threshold N] [--redis HOST:PORT] [--active F]
//                          [--follow-only] [--markdown FILE] [--json FILE]
//                          [--url thrift://HOST:PORT [--metrics http://HOST:PORT]]

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "basalt/basalt.h"
#include "basalt/recipes/fanout_worker.h"
#include "basalt/recipes/feed.h"
#include "basalt/recipes/follow_graph.h"
#include "call_counter.h"
#include "feed_shapes.h"
#include "harness.h"
#include "raw_rocksdb.h"
#include "workloads.h"
#ifdef BASALT_FEED_BENCH_REDIS
#include "feed_redis.h"
#endif

namespace {

using Clock = std::chrono::steady_clock;

struct Config {
  std::string dir = "/tmp/basalt-feed-bench";
  double scale = 1.0;
  int follows = 10;
  int threads = 2;
  int reads = 20000;
  int64_t threshold = INT64_MAX / 2;  // default: pure fan-out on both sides
  double active = 0;                  // > 0: the inactive-reader comparison instead
  bool follow_only = false;
  std::string url;      // non-empty: basalt again over this thrift:// target
  std::string metrics;  // the server's HTTP side, for its Thrift2 call count
  std::string redis;    // non-empty: the Redis side against this HOST:PORT
  std::vector<std::string> shape_names = {"sparse", "dense", "celebrity"};
  std::vector<basalt::bench::FeedShape> shapes;
};

[[noreturn]] void Die(const std::string& msg) {
  std::fprintf(stderr, "feed_bench: %s\n", msg.c_str());
  std::exit(1);
}
void Check(const basalt::Status& s, const char* what) {
  if (!s.ok()) Die(std::string(what) + ": " + s.ToString());
}
void Check(const rocksdb::Status& s, const char* what) {
  if (!s.ok()) Die(std::string(what) + ": " + s.ToString());
}

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

std::string UserName(int i) {
  return basalt::bench::FeedUserName(i);
}

void PutBe(std::string* out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

struct Workload {
  int users = 0;
  std::vector<std::pair<int, int>> edges;  // (follower, followed)
  std::vector<int> authors;                // one per post
  std::vector<int> readers;                // one per home read
  int64_t fanout_inserts = 0;              // followers' inbox entries the posts make
};

Workload MakeWorkload(const Config& c, basalt::bench::FeedShape shape) {
  std::mt19937_64 rng(42);
  basalt::bench::FeedWorkload g =
      basalt::bench::MakeShapedFeedWorkload(shape, c.scale, c.follows, rng);
  Workload w;
  w.users = g.users;
  w.edges = std::move(g.edges);
  w.authors = std::move(g.authors);
  std::uniform_int_distribution<int> any(0, w.users - 1);
  for (int i = 0; i < c.reads; ++i) w.readers.push_back(any(rng));
  std::vector<int64_t> followers(w.users, 0);
  for (const auto& edge : w.edges) ++followers[edge.second];
  for (int author : w.authors) w.fanout_inserts += followers[author];
  return w;
}

// Runs post(thread, j) for every post j, from `threads` threads each taking the next post.
void PostAll(int threads, size_t posts, const std::function<void(int, size_t)>& post) {
  std::atomic<size_t> next{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      for (size_t j = next++; j < posts; j = next++) post(t, j);
    });
  }
  for (auto& worker : workers) worker.join();
}

// Edges per FollowMany call (and per raw WriteBatch) in the import figure.
constexpr size_t kImportBatch = 1000;

struct Figures {
  double edges_per_s = 0;
  double import_edges_per_s = 0;   // FollowMany / batched raw writes
  double counted_edges_per_s = 0;  // raw only: with exact counters (Get + merge operands)
  double posts_per_s = 0;
  double inbox_inserts = 0;        // followers' inbox entries, as the side counted them
  double inbox_inserts_per_s = 0;  // over the post phase and the drain
  double drain_inserts_per_s = 0;  // job sides: the workers' entries over the drain alone
  double read_qps = 0;
  double p50_us = 0;
  double p99_us = 0;
  double posts_per_page = 0;
  int64_t posts_shown = 0;  // on all home reads
  // Over thrift:// with --metrics: Thrift2 calls per operation of each phase; -1 otherwise.
  double follow_calls = -1;  // per Follow
  double import_calls = -1;  // per FollowMany of kImportBatch edges
  double post_calls = -1;    // per Post
  double job_calls = -1;     // fan-out: per job, idle polls and Drain's counts included
  double insert_calls = -1;  // fan-out: per inbox insert
  double read_calls = -1;    // per home read
};

void Latencies(std::vector<double> us, Figures* f) {
  std::sort(us.begin(), us.end());
  f->p50_us = us[us.size() / 2];
  f->p99_us = us[std::min(us.size() - 1, us.size() * 99 / 100)];
}

// Polls `done` every 50 ms until it holds, for at most 10 minutes.
void WaitUntil(const std::function<bool()>& done) {
  for (int i = 0; i < 12000 && !done(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

// Flushes every table of the embedded store and waits until no flush or compaction runs or is
// owed, so that a side's background work does not run into the next side's timed phases.
void Quiesce(basalt::Connection& conn) {
  auto tables = conn.admin().ListTables();
  Check(tables.status(), "listing tables");
  for (const auto& t : *tables) Check(conn.admin().Flush(t), "basalt flush");
  WaitUntil([&] {
    auto stats = conn.admin().GetStoreStats();
    Check(stats.status(), "basalt stats");
    uint64_t pending = 0;
    for (const auto& f : stats->families) pending += f.pending_compaction_bytes;
    return stats->running_flushes == 0 && stats->running_compactions == 0 && pending == 0;
  });
}

// The same for a raw store.
void Quiesce(rocksdb::DB* db) {
  basalt::bench::QuiesceRocksDb(*db);
}

// A fresh store at `c.dir`/`name` (or the server at `c.url` when `remote`) with a follow graph
// and a feed on it.
struct FeedStack {
  std::unique_ptr<basalt::Connection> conn;
  std::unique_ptr<basalt::recipes::FollowGraph> graph;
  std::unique_ptr<basalt::recipes::Feed> feed;
};

FeedStack OpenFeedStack(const Config& c, const std::string& name,
                        const basalt::recipes::FeedOptions& options, bool remote = false) {
  const std::string path = c.dir + "/" + name;
  // The remote side's name is the embedded side's, whose store is still open (the home reads
  // alternate between them): only the embedded side starts from an empty directory.
  if (!remote) std::filesystem::remove_all(path);
  std::filesystem::create_directories(c.dir);
  FeedStack stack;
  auto conn = basalt::Connection::Open(remote ? c.url : path);
  Check(conn.status(), "opening basalt");
  stack.conn = std::move(*conn);
  auto graph = basalt::recipes::FollowGraph::Open(*stack.conn);
  Check(graph.status(), "opening the follow graph");
  stack.graph = std::move(*graph);
  auto feed = basalt::recipes::Feed::Open(*stack.conn, *stack.graph, options);
  Check(feed.status(), "opening the feed");
  stack.feed = std::move(*feed);
  return stack;
}

// The calls the server answered since `*mark`, per `ops` operations (and `*mark` moved on);
// -1 when not counting.
double CallsPer(const basalt::bench::ThriftCallCounter& counter, int64_t* mark, double ops) {
  if (!counter.enabled()) return -1;
  const int64_t now = counter.Calls();
  const double per = static_cast<double>(now - *mark) / ops;
  *mark = now;
  return per;
}

// basalt embedded, or over thrift:// when `remote` (calls counted by `counter` if enabled).
// Leaves the stack open in `*open` for the home reads.
Figures RunBasalt(const Config& c, const Workload& w, bool remote,
                  const basalt::bench::ThriftCallCounter& counter, FeedStack* open) {
  basalt::recipes::FeedOptions options;
  options.fanout_threshold = c.threshold;
  FeedStack stack = OpenFeedStack(c, "basalt", options, remote);
  Figures f;

  int64_t mark = counter.Calls();
  auto t0 = Clock::now();
  for (const auto& [follower, followed] : w.edges) {
    Check(stack.graph->Follow(UserName(follower), UserName(followed)), "follow");
  }
  auto t1 = Clock::now();
  f.edges_per_s = w.edges.size() / Seconds(t0, t1);
  f.follow_calls = CallsPer(counter, &mark, static_cast<double>(w.edges.size()));
  {
    // The import: the same edges into a graph of their own, kImportBatch per call.
    basalt::recipes::FollowGraphOptions import_options;
    import_options.table_prefix = "import";
    auto import = basalt::recipes::FollowGraph::Open(*stack.conn, import_options);
    Check(import.status(), "opening the import graph");
    std::vector<std::pair<std::string, std::string>> batch;
    mark = counter.Calls();
    auto ti = Clock::now();
    for (size_t i = 0; i < w.edges.size(); i += kImportBatch) {
      batch.clear();
      for (size_t j = i; j < std::min(w.edges.size(), i + kImportBatch); ++j) {
        batch.emplace_back(UserName(w.edges[j].first), UserName(w.edges[j].second));
      }
      Check((*import)->FollowMany(batch), "follow many");
    }
    f.import_edges_per_s = w.edges.size() / Seconds(ti, Clock::now());
    f.import_calls = CallsPer(
        counter, &mark, static_cast<double>((w.edges.size() + kImportBatch - 1) / kImportBatch));
  }
  if (c.follow_only) {
    stack.feed.reset();
    stack.graph.reset();
    Check(stack.conn->Close(), "closing basalt");
    return f;
  }
  mark = counter.Calls();
  t1 = Clock::now();

  const std::string text(100, 't');
  PostAll(c.threads, w.authors.size(), [&](int, size_t j) {
    Check(stack.feed->Post(UserName(w.authors[j]), text).status(), "post");
  });
  auto t2 = Clock::now();
  f.posts_per_s = w.authors.size() / Seconds(t1, t2);
  const double post_s = Seconds(t1, t2);
  f.post_calls = CallsPer(counter, &mark, static_cast<double>(w.authors.size()));
  auto jobs = stack.feed->PendingJobs();  // every post's unless --threshold marks authors
  Check(jobs.status(), "pending jobs");
  mark = counter.Calls();
  t2 = Clock::now();

  basalt::recipes::FanoutWorkerPool pool(*stack.feed, {.threads = c.threads});
  pool.Start();
  Check(pool.Drain(std::chrono::hours(2)), "drain");
  auto t3 = Clock::now();
  pool.Stop();
  Check(pool.last_error(), "fan-out worker");
  // The workers' count leaves out entries a Post may deliver itself: the rate counts the entries
  // the workload makes (and the home reads check that every side shows the same pages).
  f.inbox_inserts = static_cast<double>(pool.stats().inbox_writes);
  f.inbox_inserts_per_s = static_cast<double>(w.fanout_inserts) / (post_s + Seconds(t2, t3));
  f.drain_inserts_per_s = f.inbox_inserts / Seconds(t2, t3);
  {
    const int64_t before = mark;
    f.job_calls = CallsPer(counter, &mark, static_cast<double>(*jobs));
    if (counter.enabled()) f.insert_calls = static_cast<double>(mark - before) / f.inbox_inserts;
  }

  if (!remote) Quiesce(*stack.conn);
  *open = std::move(stack);  // the home reads come later, with the other sides' (HomeReads)
  return f;
}

// ---- Inactive readers: basalt against itself ----

struct ActivityFigures {
  double fanout_s = 0;
  int64_t inbox_writes = 0;
  int64_t skipped = 0;
  double first_read_p50_us = 0;  // readers whose last read is old: an inbox rebuild, then a page
  double first_read_p99_us = 0;
  double active_read_p50_us = 0;  // readers who read lately: a page
  double posts_per_page = 0;      // on the inactive readers' first pages
};

// One store: edges, every reader's last read (now when active, 40 days back otherwise), posts
// with fan-out stopped, then the drain and the first pages. `tracking` false: inactive_after_ms
// = 0 (every reader delivered to, no reader rows read).
ActivityFigures RunActivity(const Config& c, const Workload& w, bool tracking,
                            const std::vector<bool>& active, const std::string& name) {
  basalt::recipes::FeedOptions options;
  options.fanout_threshold = c.threshold;
  if (!tracking) options.inactive_after_ms = 0;
  FeedStack stack = OpenFeedStack(c, name, options);
  for (const auto& [follower, followed] : w.edges) {
    Check(stack.graph->Follow(UserName(follower), UserName(followed)), "follow");
  }
  // The reader rows (docs/recipes.md, "Inactive readers"): i:r = BE64 last read, ms.
  auto inbox = stack.conn->GetTable("feed_inbox");
  Check(inbox.status(), "opening the inbox table");
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  const int64_t old = now - int64_t{40} * 24 * 3600 * 1000;
  std::vector<basalt::Put> reads;
  for (int u = 0; u < w.users; ++u) {
    reads.push_back(basalt::Put(basalt::KeyBuilder().AddBytes(UserName(u)).AddUint8(1).Build())
                        .Add("i", "r",
                             basalt::KeyBuilder()
                                 .AddUint64(static_cast<uint64_t>(active[u] ? now : old))
                                 .Build()));
  }
  Check((*inbox)->Put(reads), "reader rows");
  const std::string text(100, 't');
  for (int author : w.authors) Check(stack.feed->Post(UserName(author), text).status(), "post");

  ActivityFigures f;
  basalt::recipes::FanoutWorkerPool pool(*stack.feed, {.threads = c.threads});
  auto t0 = Clock::now();
  pool.Start();
  Check(pool.Drain(std::chrono::hours(2)), "drain");
  f.fanout_s = Seconds(t0, Clock::now());
  pool.Stop();
  Check(pool.last_error(), "fan-out worker");
  f.inbox_writes = pool.stats().inbox_writes;
  f.skipped = pool.stats().skipped_inactive;

  // First pages: up to --reads inactive readers (each rebuilds) and as many active ones.
  std::vector<double> inactive_us, active_us;
  int64_t shown = 0;
  for (int u = 0; u < w.users; ++u) {
    std::vector<double>& us = active[u] ? active_us : inactive_us;
    if (static_cast<int>(us.size()) >= c.reads) continue;
    auto a = Clock::now();
    auto page = stack.feed->HomeTimeline(UserName(u), 20);
    Check(page.status(), "home timeline");
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - a).count());
    if (!active[u]) shown += static_cast<int64_t>(page->posts.size());
  }
  Figures lat;
  if (!inactive_us.empty()) {
    Latencies(inactive_us, &lat);
    f.first_read_p50_us = lat.p50_us;
    f.first_read_p99_us = lat.p99_us;
    f.posts_per_page = static_cast<double>(shown) / inactive_us.size();
  }
  if (!active_us.empty()) {
    Latencies(active_us, &lat);
    f.active_read_p50_us = lat.p50_us;
  }
  stack.feed.reset();
  stack.graph.reset();
  Check(stack.conn->Close(), "closing basalt");
  return f;
}

std::string ActivityReport(const Config& c, const Workload& w) {
  std::mt19937_64 rng(7);
  std::bernoulli_distribution draw(c.active);
  std::vector<bool> some(w.users), all(w.users, true);
  int n_active = 0;
  for (int u = 0; u < w.users; ++u) n_active += (some[u] = draw(rng)) ? 1 : 0;
  std::printf("active readers: %d of %d\n", n_active, w.users);
  std::fflush(stdout);
  ActivityFigures off = RunActivity(c, w, false, all, "off");
  ActivityFigures on = RunActivity(c, w, true, all, "all");
  ActivityFigures part = RunActivity(c, w, true, some, "some");
  char buf[4096];
  std::snprintf(buf, sizeof(buf),
                "| figure | tracking off | all active | %.0f%% active | %.0f%% / all |\n"
                "| --- | ---: | ---: | ---: | ---: |\n"
                "| fan-out drain (s) | %.2f | %.2f | %.2f | %.2f |\n"
                "| inbox writes | %lld | %lld | %lld | %.2f |\n"
                "| deliveries skipped | %lld | %lld | %lld | |\n"
                "| first page of an active reader, p50 (us) | %.0f | %.0f | %.0f | |\n"
                "| first page of an inactive reader (rebuild), p50 (us) | | | %.0f | |\n"
                "| first page of an inactive reader (rebuild), p99 (us) | | | %.0f | |\n"
                "| posts on that page | | | %.1f | |\n",
                c.active * 100, c.active * 100, off.fanout_s, on.fanout_s, part.fanout_s,
                part.fanout_s / on.fanout_s, static_cast<long long>(off.inbox_writes),
                static_cast<long long>(on.inbox_writes), static_cast<long long>(part.inbox_writes),
                static_cast<double>(part.inbox_writes) / static_cast<double>(on.inbox_writes),
                static_cast<long long>(off.skipped), static_cast<long long>(on.skipped),
                static_cast<long long>(part.skipped), off.active_read_p50_us, on.active_read_p50_us,
                part.active_read_p50_us, part.first_read_p50_us, part.first_read_p99_us,
                part.posts_per_page);
  return buf;
}

// ---- The same workload on raw RocksDB ----

constexpr int kInboxCap = 1000;
// Trims are amortised as Feed's are by default (FeedOptions::inbox_trim_every): an inbox is
// trimmed on about one delivery in this many, chosen by a hash of the inbox and the entry.
constexpr uint64_t kTrimEvery = 16;

bool TrimDue(const std::string& user, const std::string& entry) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char ch : user + entry) h = (h ^ ch) * 1099511628211ull;
  return h % kTrimEvery == 0;
}
constexpr int kChunk = 200;

// Adds to `trim` the deletes that bring inbox `user` (4 bytes) back to kInboxCap entries.
void RawTrim(rocksdb::DB* db, const std::string& user, rocksdb::WriteBatch* trim) {
  std::unique_ptr<rocksdb::Iterator> in(db->NewIterator(rocksdb::ReadOptions()));
  const std::string ip = "I" + user;
  int n = 0;
  for (in->Seek(ip); in->Valid() && in->key().starts_with(ip); in->Next()) {
    if (++n > kInboxCap) Check(trim->Delete(in->key()), "raw trim");
  }
}

std::string UserKey(char tag, int user) {
  std::string k(1, tag);
  PutBe(&k, static_cast<uint32_t>(user), 4);
  return k;
}

// Adds 8-byte big-endian counters, as RocksDB's uint64add does (little-endian there): the
// counter a raw RocksDB user keeps without reading it on every write.
class CounterAdd : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice&, const rocksdb::Slice* existing, const rocksdb::Slice& value,
             std::string* new_value, rocksdb::Logger*) const override {
    auto decode = [](const rocksdb::Slice& s) {
      uint64_t v = 0;
      for (size_t i = 0; i < s.size() && i < 8; ++i) v = (v << 8) | static_cast<uint8_t>(s[i]);
      return v;
    };
    new_value->clear();
    PutBe(new_value, (existing != nullptr ? decode(*existing) : 0) + decode(value), 8);
    return true;
  }
  const char* Name() const override { return "feed_bench.CounterAdd"; }
};

// A raw side's post id: author (4 bytes), reversed time now (8), sequence (4), all big-endian.
std::string RawPostId(int author, uint32_t seq) {
  const int64_t ts = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
  std::string pid;
  PutBe(&pid, static_cast<uint32_t>(author), 4);
  PutBe(&pid, static_cast<uint64_t>(INT64_MAX - ts), 8);
  PutBe(&pid, seq, 4);
  return pid;
}

// Leaves the store open in `*open` for the home reads.
Figures RunRaw(const Config& c, const Workload& w, std::unique_ptr<rocksdb::DB>* open) {
  // One compression for all: the recipes give the graph's, the posts' and the inbox's tables the
  // same one by default.
  std::unique_ptr<rocksdb::DB> db = basalt::bench::OpenRawRocksDb(
      c.dir + "/raw", 256 << 20,
      basalt::bench::RocksCompression(basalt::recipes::FeedOptions{}.inbox_compression),
      std::make_shared<CounterAdd>());
  const rocksdb::WriteOptions wo;
  Figures f;
  auto t0 = Clock::now();
  for (const auto& [follower, followed] : w.edges) {
    rocksdb::WriteBatch b;
    std::string fwd = UserKey('f', follower), rev = UserKey('F', followed);
    PutBe(&fwd, static_cast<uint32_t>(followed), 4);
    PutBe(&rev, static_cast<uint32_t>(follower), 4);
    Check(b.Put(fwd, ""), "raw edge");
    Check(b.Put(rev, ""), "raw edge");
    Check(db->Write(wo, &b), "raw edge write");
  }
  auto t1 = Clock::now();
  f.edges_per_s = w.edges.size() / Seconds(t0, t1);
  {
    // The import: the same edges again under other tags, kImportBatch per WriteBatch.
    auto ti = Clock::now();
    for (size_t i = 0; i < w.edges.size(); i += kImportBatch) {
      rocksdb::WriteBatch b;
      for (size_t j = i; j < std::min(w.edges.size(), i + kImportBatch); ++j) {
        const auto& [follower, followed] = w.edges[j];
        std::string fwd = UserKey('g', follower), rev = UserKey('G', followed);
        PutBe(&fwd, static_cast<uint32_t>(followed), 4);
        PutBe(&rev, static_cast<uint32_t>(follower), 4);
        Check(b.Put(fwd, ""), "raw edge");
        Check(b.Put(rev, ""), "raw edge");
      }
      Check(db->Write(wo, &b), "raw import write");
    }
    f.import_edges_per_s = w.edges.size() / Seconds(ti, Clock::now());
  }
  {
    // With exact counters, as FollowGraph keeps them: skip an edge that exists (a Get), else one
    // WriteBatch of both edges and a +1 merge operand on each user's counter. Single-threaded:
    // concurrent writers would also need a lock per edge between the Get and the write.
    std::string one;
    PutBe(&one, 1, 8);
    std::string value;
    auto tc = Clock::now();
    for (const auto& [follower, followed] : w.edges) {
      std::string fwd = UserKey('h', follower), rev = UserKey('H', followed);
      PutBe(&fwd, static_cast<uint32_t>(followed), 4);
      PutBe(&rev, static_cast<uint32_t>(follower), 4);
      rocksdb::Status s = db->Get(rocksdb::ReadOptions(), fwd, &value);
      if (s.ok()) continue;
      if (!s.IsNotFound()) Check(s, "raw edge get");
      rocksdb::WriteBatch b;
      Check(b.Put(fwd, ""), "raw edge");
      Check(b.Put(rev, ""), "raw edge");
      Check(b.Merge(UserKey('c', follower), one), "raw counter");
      Check(b.Merge(UserKey('C', followed), one), "raw counter");
      Check(db->Write(wo, &b), "raw counted edge write");
    }
    f.counted_edges_per_s = w.edges.size() / Seconds(tc, Clock::now());
  }
  if (c.follow_only) return f;
  t1 = Clock::now();

  const std::string text(100, 't');
  std::atomic<uint32_t> seq{0};
  std::vector<std::string> jobs(w.authors.size());
  PostAll(c.threads, w.authors.size(), [&](int, size_t j) {
    const std::string pid = RawPostId(w.authors[j], seq++);
    // The post, its job, and (as Feed::Post does, so that a home page is one inbox read) the
    // post in its author's own inbox, trimmed when it is that inbox's turn.
    const std::string author_key = pid.substr(0, 4);
    const std::string entry = pid.substr(4, 8) + pid;
    rocksdb::WriteBatch b;
    Check(b.Put("P" + pid, text), "raw post");
    Check(b.Put("J" + pid, ""), "raw job");
    Check(b.Put("I" + author_key + entry, ""), "raw own inbox");
    Check(db->Write(wo, &b), "raw post write");
    if (TrimDue(author_key, entry)) {
      rocksdb::WriteBatch trim;
      RawTrim(db.get(), author_key, &trim);
      if (trim.Count() > 0) Check(db->Write(wo, &trim), "raw trim write");
    }
    jobs[j] = pid;
  });
  auto t2 = Clock::now();
  f.posts_per_s = w.authors.size() / Seconds(t1, t2);
  const double post_s = Seconds(t1, t2);

  std::atomic<size_t> next{0};
  std::atomic<int64_t> inserts{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < c.threads; ++t) {
    workers.emplace_back([&] {
      for (size_t j = next++; j < jobs.size(); j = next++) {
        const std::string& pid = jobs[j];
        const std::string entry = pid.substr(4, 8) + pid;  // reversed time + post id
        const std::string prefix = "F" + pid.substr(0, 4);
        std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions()));
        it->Seek(prefix);
        while (it->Valid() && it->key().starts_with(prefix)) {
          std::vector<std::string> users;
          for (; it->Valid() && it->key().starts_with(prefix) &&
                 static_cast<int>(users.size()) < kChunk;
               it->Next()) {
            users.push_back(it->key().ToString().substr(5, 4));
          }
          rocksdb::WriteBatch b;
          for (const auto& u : users) Check(b.Put("I" + u + entry, ""), "raw inbox");
          Check(db->Write(wo, &b), "raw inbox write");
          rocksdb::WriteBatch trim;
          for (const auto& u : users) {
            if (TrimDue(u, entry)) RawTrim(db.get(), u, &trim);
          }
          if (trim.Count() > 0) Check(db->Write(wo, &trim), "raw trim write");
          inserts += static_cast<int64_t>(users.size());
        }
        Check(db->Delete(wo, "J" + pid), "raw job delete");
      }
    });
  }
  for (auto& t : workers) t.join();
  auto t3 = Clock::now();
  f.inbox_inserts = static_cast<double>(inserts.load());
  if (inserts.load() != w.fanout_inserts) Die("the job-queue side delivered a wrong count");
  f.inbox_inserts_per_s = f.inbox_inserts / (post_s + Seconds(t2, t3));
  f.drain_inserts_per_s = f.inbox_inserts / Seconds(t2, t3);

  Quiesce(db.get());
  *open = std::move(db);  // the home reads come later, with basalt's (HomeReads)
  return f;
}

// The hand-written side: no job queue, a post and all its inbox entries in one WriteBatch. Its
// follow edges are the job-queue side's keys, written kImportBatch a batch and not timed (the
// follow figures are the job-queue side's). Leaves the store open in `*open`.
Figures RunHandWritten(const Config& c, const Workload& w, std::unique_ptr<rocksdb::DB>* open) {
  std::unique_ptr<rocksdb::DB> db = basalt::bench::OpenRawRocksDb(
      c.dir + "/hand", 256 << 20,
      basalt::bench::RocksCompression(basalt::recipes::FeedOptions{}.inbox_compression));
  const rocksdb::WriteOptions wo;
  for (size_t i = 0; i < w.edges.size(); i += kImportBatch) {
    rocksdb::WriteBatch b;
    for (size_t j = i; j < std::min(w.edges.size(), i + kImportBatch); ++j) {
      const auto& [follower, followed] = w.edges[j];
      std::string fwd = UserKey('f', follower), rev = UserKey('F', followed);
      PutBe(&fwd, static_cast<uint32_t>(followed), 4);
      PutBe(&rev, static_cast<uint32_t>(follower), 4);
      Check(b.Put(fwd, ""), "hand-written edge");
      Check(b.Put(rev, ""), "hand-written edge");
    }
    Check(db->Write(wo, &b), "hand-written edges write");
  }
  Figures f;
  const std::string text(100, 't');
  std::atomic<uint32_t> seq{0};
  std::atomic<int64_t> inserts{0};
  const auto t0 = Clock::now();
  PostAll(c.threads, w.authors.size(), [&](int, size_t j) {
    const std::string pid = RawPostId(w.authors[j], seq++);
    const std::string entry = pid.substr(4, 8) + pid;  // reversed time + post id
    std::vector<std::string> inboxes = {pid.substr(0, 4)};
    const std::string prefix = "F" + inboxes[0];
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions()));
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
      inboxes.push_back(it->key().ToString().substr(5, 4));
    }
    rocksdb::WriteBatch b;
    Check(b.Put("P" + pid, text), "hand-written post");
    for (const auto& u : inboxes) Check(b.Put("I" + u + entry, ""), "hand-written inbox");
    Check(db->Write(wo, &b), "hand-written post write");
    rocksdb::WriteBatch trim;
    for (const auto& u : inboxes) {
      if (TrimDue(u, entry)) RawTrim(db.get(), u, &trim);
    }
    if (trim.Count() > 0) Check(db->Write(wo, &trim), "hand-written trim write");
    inserts += static_cast<int64_t>(inboxes.size() - 1);
  });
  const double post_s = Seconds(t0, Clock::now());
  if (inserts.load() != w.fanout_inserts) Die("the hand-written side delivered a wrong count");
  f.posts_per_s = w.authors.size() / post_s;
  f.inbox_inserts = static_cast<double>(inserts.load());
  f.inbox_inserts_per_s = f.inbox_inserts / post_s;
  Quiesce(db.get());
  *open = std::move(db);
  return f;
}

#ifdef BASALT_FEED_BENCH_REDIS
// The Redis side (feed_redis.h) on `redis`, connected with --threads connections.
Figures RunRedis(const Config& c, const Workload& w, basalt::bench::RedisFeed* redis) {
  redis->LoadFollows(w.edges);
  Figures f;
  const std::string text(100, 't');
  std::atomic<int64_t> inserts{0};
  const auto t0 = Clock::now();
  PostAll(c.threads, w.authors.size(), [&](int thread, size_t j) {
    inserts += redis->Post(thread, static_cast<int64_t>(j), w.authors[j], text);
  });
  const double post_s = Seconds(t0, Clock::now());
  if (inserts.load() != w.fanout_inserts) Die("the Redis side delivered a wrong count");
  f.posts_per_s = w.authors.size() / post_s;
  f.inbox_inserts = static_cast<double>(inserts.load());
  f.inbox_inserts_per_s = f.inbox_inserts / post_s;
  return f;
}
#endif

// One side's home read of `reader`'s first page; returns the posts on it.
using HomeRead = std::function<size_t(int reader)>;

HomeRead BasaltHomeRead(FeedStack* stack) {
  return [stack](int reader) {
    auto page = stack->feed->HomeTimeline(UserName(reader), 20);
    Check(page.status(), "home timeline");
    return page->posts.size();
  };
}

// The inbox's first 20 keys with one prefix seek, then their posts with one MultiGet.
HomeRead RawHomeRead(rocksdb::DB* db) {
  return [db](int reader) {
    const std::string ip = UserKey('I', reader);
    std::vector<std::string> keys;
    std::unique_ptr<rocksdb::Iterator> in(db->NewIterator(rocksdb::ReadOptions()));
    for (in->Seek(ip); in->Valid() && in->key().starts_with(ip) && keys.size() < 20; in->Next()) {
      keys.push_back("P" + in->key().ToString().substr(13));
    }
    std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
    std::vector<std::string> values;
    size_t shown = 0;
    for (const auto& st : db->MultiGet(rocksdb::ReadOptions(), slices, &values)) shown += st.ok();
    return shown;
  };
}

// Reads per side per slice of HomeReads.
constexpr size_t kReadSlice = 50;

// Every side's home reads of `w.readers`, in alternating slices of kReadSlice reads: this
// machine's speed moves by a third within seconds, and in turns every side meets the same moves.
// The side that goes first rotates from slice to slice: on a loaded machine the side just after
// one that waits on a socket (Redis) runs with the scheduler's favour, the last ones without.
void HomeReads(const Workload& w, const std::vector<HomeRead>& sides,
               const std::vector<Figures*>& figures) {
  std::vector<std::vector<double>> us(sides.size());
  std::vector<double> seconds(sides.size(), 0);
  std::vector<int64_t> shown(sides.size(), 0);
  size_t slice = 0;
  for (size_t start = 0; start < w.readers.size(); start += kReadSlice, ++slice) {
    const size_t end = std::min(w.readers.size(), start + kReadSlice);
    for (size_t turn = 0; turn < sides.size(); ++turn) {
      const size_t s = (slice + turn) % sides.size();
      const auto t0 = Clock::now();
      for (size_t i = start; i < end; ++i) {
        const auto a = Clock::now();
        shown[s] += static_cast<int64_t>(sides[s](w.readers[i]));
        us[s].push_back(std::chrono::duration<double, std::micro>(Clock::now() - a).count());
      }
      seconds[s] += Seconds(t0, Clock::now());
    }
  }
  for (size_t s = 0; s < sides.size(); ++s) {
    figures[s]->read_qps = static_cast<double>(w.readers.size()) / seconds[s];
    figures[s]->posts_per_page = static_cast<double>(shown[s]) / w.readers.size();
    figures[s]->posts_shown = shown[s];
    Latencies(std::move(us[s]), figures[s]);
  }
}

// --follow-only: basalt against the job-queue side's follow phases.
std::string FollowTable(const Figures& b, const Figures& r) {
  char buf[1024];
  std::snprintf(buf, sizeof(buf),
                "| figure | basalt | raw RocksDB | ratio |\n| --- | ---: | ---: | ---: |\n"
                "| follow edges/s | %.0f | %.0f | %.2f |\n"
                "| follow edges/s, raw with counters | %.0f | %.0f | %.2f |\n"
                "| import edges/s (%zu a call) | %.0f | %.0f | %.2f |\n",
                b.edges_per_s, r.edges_per_s, b.edges_per_s / r.edges_per_s, b.edges_per_s,
                r.counted_edges_per_s, b.edges_per_s / r.counted_edges_per_s, kImportBatch,
                b.import_edges_per_s, r.import_edges_per_s,
                b.import_edges_per_s / r.import_edges_per_s);
  return buf;
}

// One shape's table: basalt (b), the job-queue side (r), the hand-written side (h) and Redis (d,
// when run), with the ratios to the hand-written side (the targets) and to the job-queue side.
basalt::bench::Table ShapeTable(const Figures& b, const Figures& r, const Figures& h,
                                const Figures* d) {
  using basalt::bench::Fixed;
  basalt::bench::Table t;
  t.columns = {"figure", "basalt Feed", "raw, job queue", "raw, hand-written"};
  if (d != nullptr) t.columns.push_back("Redis");
  t.columns.insert(t.columns.end(), {"basalt / hand-written", "basalt / job queue"});
  if (d != nullptr) t.columns.push_back("Redis / hand-written");
  t.right_aligned.assign(t.columns.size(), true);
  t.right_aligned[0] = false;
  // `get` of a side, or nothing for the sides the row is not measured on (a negative value).
  auto row = [&](const std::string& name, double (*get)(const Figures&), int digits,
                 bool hand = true, bool redis = true, bool ratios = true) {
    auto cell = [&](double v) { return v < 0 ? std::string() : Fixed(v, digits); };
    auto ratio = [&](double x, double y) {
      return !ratios || x < 0 || y <= 0 ? std::string() : Fixed(x / y, 2);
    };
    const double vb = get(b), vr = get(r), vh = hand ? get(h) : -1;
    const double vd = d != nullptr && redis ? get(*d) : -1;
    std::vector<std::string> cells = {name, cell(vb), cell(vr), cell(vh)};
    if (d != nullptr) cells.push_back(cell(vd));
    // The hand-written side's post phase is its fan-out too: no ratio of basalt's to it.
    cells.push_back(name.starts_with("posts/s") ? std::string() : ratio(vb, vh));
    cells.push_back(ratio(vb, vr));
    if (d != nullptr) cells.push_back(ratio(vd, vh));
    t.AddRow(std::move(cells));
  };
  row(
      "follow edges/s (raw: with exact counters)",
      [](const Figures& f) {
        return f.counted_edges_per_s > 0 ? f.counted_edges_per_s : f.edges_per_s;
      },
      0, false, false);
  row(
      "import edges/s (" + std::to_string(kImportBatch) + " a call)",
      [](const Figures& f) { return f.import_edges_per_s; }, 0, false, false);
  row(
      "posts/s (the post phase)", [](const Figures& f) { return f.posts_per_s; }, 0);
  row(
      "fan-out inbox inserts/s (first post to last delivery)",
      [](const Figures& f) { return f.inbox_inserts_per_s; }, 0);
  row(
      "fan-out drain alone, inserts/s", [](const Figures& f) { return f.drain_inserts_per_s; }, 0,
      false, false);
  row(
      "home reads/s (20 hydrated)", [](const Figures& f) { return f.read_qps; }, 0);
  row(
      "home read p50 (us)", [](const Figures& f) { return f.p50_us; }, 0);
  row(
      "home read p99 (us)", [](const Figures& f) { return f.p99_us; }, 0);
  row(
      "followers' inbox inserts (basalt: by the workers)",
      [](const Figures& f) { return f.inbox_inserts; }, 0, true, true, false);
  row(
      "posts per page", [](const Figures& f) { return f.posts_per_page; }, 1, true, true, false);
  return t;
}

// With --url: basalt embedded (b), over thrift:// (t) and raw (r), and the Thrift2 calls per
// operation of each phase of t (blank without --metrics).
std::string RemoteTable(const Config& c, const Figures& b, const Figures& t, const Figures& r) {
  std::string out =
      "| figure | basalt embedded | basalt thrift:// | raw RocksDB | embedded / raw | "
      "thrift:// / raw | Thrift2 calls/op |\n"
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  char buf[512];
  auto line = [&](const char* name, double eb, double tb, double rb, double calls,
                  const char* per = "") {
    std::string calls_text;
    if (calls >= 0) {
      std::snprintf(buf, sizeof(buf), "%.2f%s", calls, per);
      calls_text = buf;
    }
    std::snprintf(buf, sizeof(buf), "| %s | %.0f | %.0f | %.0f | %.2f | %.2f | %s |\n", name, eb,
                  tb, rb, eb / rb, tb / rb, calls_text.c_str());
    out += buf;
  };
  line("follow edges/s", b.edges_per_s, t.edges_per_s, r.edges_per_s, t.follow_calls, " a Follow");
  line("follow edges/s, raw with counters", b.edges_per_s, t.edges_per_s, r.counted_edges_per_s,
       -1);
  char import[64];
  std::snprintf(import, sizeof(import), "import edges/s (%zu a call)", kImportBatch);
  line(import, b.import_edges_per_s, t.import_edges_per_s, r.import_edges_per_s, t.import_calls,
       " a FollowMany");
  if (c.follow_only) return out;
  line("posts/s (post, job, own entry)", b.posts_per_s, t.posts_per_s, r.posts_per_s, t.post_calls,
       " a Post");
  line("fan-out inbox inserts/s", b.inbox_inserts_per_s, t.inbox_inserts_per_s,
       r.inbox_inserts_per_s, t.insert_calls, " an insert");
  if (t.job_calls >= 0) {
    std::snprintf(buf, sizeof(buf), "| fan-out, per post's job | | | | | | %.2f a job |\n",
                  t.job_calls);
    out += buf;
  }
  line("home reads/s (20 hydrated)", b.read_qps, t.read_qps, r.read_qps, t.read_calls, " a read");
  line("home read p50 (us)", b.p50_us, t.p50_us, r.p50_us, -1);
  line("home read p99 (us)", b.p99_us, t.p99_us, r.p99_us, -1);
  std::snprintf(buf, sizeof(buf), "| inbox inserts | %.0f | %.0f | %.0f | | | |\n", b.inbox_inserts,
                t.inbox_inserts, r.inbox_inserts);
  out += buf;
  std::snprintf(buf, sizeof(buf), "| posts per page | %.1f | %.1f | %.1f | | | |\n",
                b.posts_per_page, t.posts_per_page, r.posts_per_page);
  out += buf;
  return out;
}

// Returns -1 to go on, or the exit code.
int ParseArgs(int argc, char** argv, Config* c, basalt::bench::Harness* harness) {
  CLI::App& app = harness->app();
  app.add_option("--dir", c->dir, "where the stores go")->capture_default_str();
  app.add_option("--scale", c->scale, "scales users, edges and posts")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  CLI::Option* shapes =
      app.add_option("--shapes", c->shape_names, "follow graphs: sparse, dense, celebrity")
          ->delimiter(',')
          ->capture_default_str();
  app.add_option("--follows", c->follows, "follows per user (the sparse shape)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--threads", c->threads, "posting threads, and fan-out workers")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--reads", c->reads, "home reads")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--threshold", c->threshold, "followers above which basalt merges at read time");
  app.add_option("--redis", c->redis, "the Redis side against this HOST:PORT (flushed)");
  app.add_option("--active", c->active, "> 0: the inactive-reader comparison, this share active")
      ->check(CLI::Range(0.0, 1.0));
  app.add_flag("--follow-only", c->follow_only, "the follow phases only");
  app.add_option("--url", c->url, "basalt again over this thrift:// target");
  app.add_option("--metrics", c->metrics, "the server's HTTP side, for its Thrift2 call count");
  if (int rc = harness->Parse(argc, argv); rc >= 0) return rc;
  if (!c->url.empty() && c->active > 0) Die("--active runs embedded only");
  if (!c->metrics.empty() && c->url.empty()) Die("--metrics needs --url");
#ifndef BASALT_FEED_BENCH_REDIS
  if (!c->redis.empty()) Die("--redis: built without hiredis (install libhiredis-dev, rebuild)");
#endif
  if (shapes->count() == 0 && (!c->url.empty() || c->follow_only || c->active > 0)) {
    c->shape_names = {"sparse"};
  }
  for (const std::string& name : c->shape_names) {
    basalt::bench::FeedShape shape;
    if (!basalt::bench::ParseFeedShape(name, &shape)) {
      Die("--shapes: no shape '" + name + "' (sparse, dense, celebrity)");
    }
    c->shapes.push_back(shape);
  }
  if (c->shapes.empty()) Die("--shapes: none given");
  if (!c->url.empty() && c->shapes.size() > 1) {
    Die("--url runs one shape (its server must be fresh): give --shapes with one");
  }
  return -1;
}

// One shape: every side's phases, then their home reads in turns; prints the shape's tables.
void RunShape(const Config& c, basalt::bench::FeedShape shape, basalt::bench::Harness* harness) {
  std::filesystem::remove_all(c.dir);
  const Workload w = MakeWorkload(c, shape);
  char title[256];
  std::snprintf(title, sizeof(title),
                "\n%s: users %d, edges %zu, posts %zu, followers' inbox inserts %lld, home "
                "reads %zu\n\n",
                basalt::bench::FeedShapeName(shape), w.users, w.edges.size(), w.authors.size(),
                static_cast<long long>(w.fanout_inserts), w.readers.size());
  harness->Note(title);
  if (c.active > 0) {
    harness->EmitMarkdown(ActivityReport(c, w));
    return;
  }
#ifdef BASALT_FEED_BENCH_REDIS
  // Connected (and emptied) first, so that a wrong --redis fails before the other sides run.
  std::unique_ptr<basalt::bench::RedisFeed> redis;
  if (!c.redis.empty() && !c.follow_only) {
    redis = std::make_unique<basalt::bench::RedisFeed>(c.redis, c.threads, kInboxCap);
  }
#endif
  const basalt::bench::ThriftCallCounter no_counter("");
  const basalt::bench::ThriftCallCounter counter(c.metrics);
  FeedStack embedded, remote;
  std::unique_ptr<rocksdb::DB> raw, hand;
  Figures b = RunBasalt(c, w, false, no_counter, &embedded);
  Figures t;
  if (!c.url.empty()) {
    std::printf("basalt embedded done; now over %s\n", c.url.c_str());
    std::fflush(stdout);
    t = RunBasalt(c, w, true, counter, &remote);
  }
  Figures r = RunRaw(c, w, &raw);
  Figures h, d;
  bool with_redis = false;
  std::string mismatch;
  if (!c.follow_only) {
    h = RunHandWritten(c, w, &hand);
    std::vector<HomeRead> sides = {BasaltHomeRead(&embedded), RawHomeRead(raw.get()),
                                   RawHomeRead(hand.get())};
    std::vector<Figures*> figures = {&b, &r, &h};
    std::vector<std::string> names = {"basalt", "job queue", "hand-written"};
#ifdef BASALT_FEED_BENCH_REDIS
    if (redis != nullptr) {
      d = RunRedis(c, w, redis.get());
      with_redis = true;
      basalt::bench::RedisFeed* rp = redis.get();
      sides.push_back([rp](int reader) { return rp->HomeRead(reader); });
      figures.push_back(&d);
      names.push_back("Redis");
    }
#endif
    if (!c.url.empty()) {
      sides.push_back(BasaltHomeRead(&remote));
      figures.push_back(&t);
      names.push_back("basalt over thrift://");
    }
    // Only the thrift:// side calls the server.
    int64_t mark = counter.Calls();
    HomeReads(w, sides, figures);
    t.read_calls = CallsPer(counter, &mark, static_cast<double>(w.readers.size()));
    for (size_t s = 1; s < figures.size(); ++s) {
      if (figures[s]->posts_shown != figures[0]->posts_shown) {
        mismatch += " " + names[s] + " showed " + std::to_string(figures[s]->posts_shown) +
                    " posts where basalt showed " + std::to_string(figures[0]->posts_shown) + ";";
      }
    }
  }
  for (FeedStack* stack : {&embedded, &remote}) {
    stack->feed.reset();
    stack->graph.reset();
    if (stack->conn != nullptr) Check(stack->conn->Close(), "closing basalt");
  }
  raw.reset();
  hand.reset();
  if (c.follow_only) {
    harness->EmitMarkdown(FollowTable(b, r));
  } else {
    basalt::bench::Table table = ShapeTable(b, r, h, with_redis ? &d : nullptr);
    table.title = basalt::bench::FeedShapeName(shape);
    harness->Emit(table);
  }
  if (!c.url.empty()) harness->EmitMarkdown(RemoteTable(c, b, t, r));
  if (!mismatch.empty()) Die("the sides' home pages differ:" + mismatch);
}

}  // namespace

int main(int argc, char** argv) {
  Config c;
  basalt::bench::Harness harness(
      "basalt_feed_bench",
      "The home feed with fan-out, basalt's recipes against raw RocksDB (two designs) and Redis");
  if (int rc = ParseArgs(argc, argv, &c, &harness); rc >= 0) return rc;
  for (basalt::bench::FeedShape shape : c.shapes) RunShape(c, shape, &harness);
  std::filesystem::remove_all(c.dir);
  return harness.Finish();
}
