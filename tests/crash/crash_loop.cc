// basalt_crash_loop: acknowledged writes survive SIGKILL of `basalt serve` (docs/reliability.md).
//
// Starts `basalt serve` on a data directory, and writer threads that use it through the thrift://
// backend (public API only): Puts, RowMutations, Increments of a few hot counters, linked-list
// nodes (linked_list.h), and through the recipes follows and posts, with a FanoutWorkerPool
// delivering the posts. Every operation whose call returned OK is recorded as acknowledged; one
// that failed (the server died under it) is unknown: it may or may not have been applied. At a
// random moment of each cycle the server is SIGKILLed and restarted on the same directory and
// port; the writers are parked and the driver checks that
//   - every acknowledged Put is there, and no Put is there in part;
//   - every counter is >= its acknowledged increments and <= acknowledged + unknown ones;
//   - no RowMutations row is half applied, and none is older than its last acknowledged write;
//   - every acknowledged follow is there, and follow/follower counts equal the edges (after
//     FollowGraph::Repair of the users of unknown follows, the recipe's documented recovery);
//   - once the fan-out drains, every acknowledged post exists, no job is left, and every post
//     (acknowledged or not) is in the home timeline of every user whose follow of its author was
//     acknowledged before it was posted (within the inbox cap);
//   - the linked list has no UNDEFINED node and no unexpected UNREFERENCED one.
// Then the writers resume. The exit status is 0 only when nothing was lost.
//
//   basalt_crash_loop [--cycles N] [--seconds S] [--seed N] [--data DIR] [--writers N]
//                     [--basalt PATH] [--durability sync_wal|skip_wal]

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "basalt/basalt.h"
#include "basalt/recipes/fanout_worker.h"
#include "basalt/recipes/feed.h"
#include "basalt/recipes/follow_graph.h"
#include "linked_list.h"
#include "server_process.h"

namespace basalt::crash {
namespace {

constexpr int kRowsPerWriter = 8;  // RowMutations rows each writer rewrites
constexpr int kCounters = 4;       // hot counters every writer increments
constexpr int kAuthors = 6;
constexpr int kReaders = 12;
constexpr int32_t kInboxCap = 400;

struct Flags {
  int cycles = 5;
  double seconds = 60;
  uint64_t seed = std::random_device{}();
  std::string data;
  int writers = 4;
  std::string basalt = BASALT_BINARY;
  // SYNC_WAL is the promise under test. SKIP_WAL is there to show that the checks catch losses:
  // a run with it must report some.
  Durability durability = Durability::kSyncWal;
};

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string PutRow(int writer, size_t seq) {
  char buf[40];
  std::snprintf(buf, sizeof(buf), "p%02d-%09zu", writer, seq);
  return buf;
}
std::string PutValue(const std::string& row, std::string_view column) {
  return row + "/" + std::string(column);
}
std::string MutationRowKey(int writer, int k) {
  return "m" + std::to_string(writer) + "-" + std::to_string(k);
}
std::string CounterRow(int c) {
  return "hot-" + std::to_string(c);
}
std::string Author(int a) {
  return "author" + std::to_string(a);
}
std::string Reader(int r) {
  return "reader" + std::to_string(r);
}

// Parks the writers while the server is down and while the driver verifies.
class Gate {
 public:
  // Called by a writer before each operation; blocks while the gate is closed.
  void Pass() {
    if (!closed_.load()) return;
    std::unique_lock<std::mutex> l(mu_);
    ++parked_;
    cv_.notify_all();
    cv_.wait(l, [&] { return !closed_.load(); });
    --parked_;
  }
  void Close() { closed_ = true; }
  // Waits until `writers` threads are parked (or have exited).
  void WaitParked(int writers, const std::atomic<int>& exited) {
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait_for(l, std::chrono::hours(1), [&] { return parked_ + exited.load() >= writers; });
  }
  void Open() {
    std::lock_guard<std::mutex> l(mu_);
    closed_ = false;
    cv_.notify_all();
  }
  bool closed() const { return closed_.load(); }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::atomic<bool> closed_{false};
  int parked_ = 0;
};

enum : uint8_t { kAcked = 1, kUnknown = 2 };

struct PostRecord {
  std::string id;
  int author = 0;
};

// What one writer did. Written by its thread only; read by the driver while the writer is
// parked (the gate's mutex orders the two).
struct WriterLog {
  std::vector<uint8_t> puts;  // by sequence number: kAcked or kUnknown
  size_t puts_checked = 0;    // puts before this index were verified in an earlier cycle
  std::array<int64_t, kRowsPerWriter> row_acked{};      // last acknowledged generation
  std::array<int64_t, kRowsPerWriter> row_attempted{};  // last generation written at all
  std::vector<PostRecord> acked_posts;
  int64_t unknown_posts = 0;
  std::unique_ptr<ChainWriter> chain;
  int64_t acked = 0;
  int64_t unknown = 0;
};

struct Totals {
  int64_t acknowledged = 0;
  int64_t unknown = 0;
  int64_t checked = 0;
  int64_t losses = 0;  // acknowledged operations not found, and broken invariants
  int64_t repairs = 0;
  ListCounts list;
};

class CrashLoop {
 public:
  explicit CrashLoop(Flags flags) : flags_(std::move(flags)), rng_(flags_.seed) {}

  int Run();

 private:
  Status Setup();
  Status OpenClients();
  Status Restart();
  void WriterMain(int w);
  void OneOperation(int w, std::mt19937_64& rng);
  Status Verify(bool final_pass);
  Status VerifyPuts(bool final_pass);
  Status VerifyRows();
  Status VerifyCounters();
  Status VerifyFollows();
  Status VerifyFeed();
  Status VerifyList();
  void Loss(const std::string& what);
  void Report(const char* label);

  Flags flags_;
  std::mt19937_64 rng_;
  std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<Connection> conn_;
  std::unique_ptr<Table> puts_, rows_, counters_, list_;
  std::unique_ptr<recipes::FollowGraph> graph_;
  std::unique_ptr<recipes::Feed> feed_;
  std::unique_ptr<recipes::FanoutWorkerPool> workers_;

  Gate gate_;
  std::atomic<bool> stop_{false};
  std::atomic<int> exited_{0};
  std::vector<WriterLog> logs_;
  std::array<std::atomic<int64_t>, kCounters> counter_acked_{};
  std::array<std::atomic<int64_t>, kCounters> counter_unknown_{};
  std::mutex follows_mu_;
  std::map<std::pair<int, int>, int64_t> follows_acked_;  // (reader, author) -> ack time (ms)
  std::set<std::pair<int, int>> follows_unknown_;         // guarded by follows_mu_
  int64_t follows_acked_ops_ = 0;                         // guarded by follows_mu_
  Totals totals_;
  int cycle_ = 0;
};

void CrashLoop::Loss(const std::string& what) {
  ++totals_.losses;
  std::fprintf(stderr, "LOSS (cycle %d): %s\n", cycle_, what.c_str());
}

Status CrashLoop::Setup() {
  BASALT_ASSIGN_OR_RETURN(auto conn, Connection::Open(server_->target()));
  Admin& admin = conn->admin();
  auto create = [&](const std::string& name, std::vector<std::string> families) -> Status {
    TableDescriptor desc{TableName("default", name)};
    for (auto& f : families) desc.AddFamily(FamilyDescriptor(f));
    Status s = admin.CreateTable(desc);
    return s.IsAlreadyExists() ? Status::OK() : s;
  };
  BASALT_RETURN_IF_ERROR(create("crash_puts", {"f", "g"}));
  BASALT_RETURN_IF_ERROR(create("crash_rows", {"f"}));
  BASALT_RETURN_IF_ERROR(create("crash_counters", {"f"}));
  BASALT_RETURN_IF_ERROR(create("crash_list", {kListFamily}));
  return conn->Close();
}

// Kills nothing: REQUIRES the server to be dead and the writers parked. Drops every client of
// the dead server (a pooled socket to it would fail one call each), restarts the server and
// opens fresh clients and fan-out workers on it.
Status CrashLoop::Restart() {
  if (workers_) workers_->Stop();
  workers_.reset();
  feed_.reset();
  graph_.reset();
  puts_.reset();
  rows_.reset();
  counters_.reset();
  list_.reset();
  if (conn_) conn_->Close().PermitUncheckedError();
  conn_.reset();
  BASALT_RETURN_IF_ERROR(server_->Start());
  BASALT_RETURN_IF_ERROR(OpenClients());
  workers_->Start();
  return Status::OK();
}

Status CrashLoop::OpenClients() {
  BASALT_ASSIGN_OR_RETURN(conn_, Connection::Open(server_->target()));
  BASALT_ASSIGN_OR_RETURN(puts_, conn_->GetTable("crash_puts"));
  BASALT_ASSIGN_OR_RETURN(rows_, conn_->GetTable("crash_rows"));
  BASALT_ASSIGN_OR_RETURN(counters_, conn_->GetTable("crash_counters"));
  BASALT_ASSIGN_OR_RETURN(list_, conn_->GetTable("crash_list"));
  BASALT_ASSIGN_OR_RETURN(graph_, recipes::FollowGraph::Open(*conn_));
  recipes::FeedOptions feed_options;
  feed_options.inbox_cap = kInboxCap;
  // Short leases, so that after a restart the jobs of interrupted posts and workers are taken
  // over within seconds.
  feed_options.post_lease_ms = 1000;
  BASALT_ASSIGN_OR_RETURN(feed_, recipes::Feed::Open(*conn_, *graph_, feed_options));
  workers_ = std::make_unique<recipes::FanoutWorkerPool>(
      *feed_, recipes::FanoutWorkerOptions{.threads = 4, .chunk_size = 50, .lease_ms = 2000});
  return Status::OK();
}

void CrashLoop::OneOperation(int w, std::mt19937_64& rng) {
  WriterLog& log = logs_[w];
  const int pick = static_cast<int>(rng() % 100);
  bool ok = false;
  if (pick < 30) {
    const size_t seq = log.puts.size();
    const std::string row = PutRow(w, seq);
    Status s = puts_->Put(basalt::Put(row)
                              .Add("f", "a", PutValue(row, "a"))
                              .Add("f", "b", PutValue(row, "b"))
                              .Add("g", "c", PutValue(row, "c"))
                              .SetDurability(flags_.durability));
    ok = s.ok();
    log.puts.push_back(ok ? kAcked : kUnknown);
  } else if (pick < 45) {
    const int k = static_cast<int>(rng() % kRowsPerWriter);
    const int64_t gen = ++log.row_attempted[k];
    const std::string row = MutationRowKey(w, k);
    const std::string v = std::to_string(gen);
    RowMutations rm(row);
    rm.Add(basalt::Put(row).Add("f", "c0", v).Add("f", "c1", v).SetDurability(flags_.durability));
    rm.Add(basalt::Put(row).Add("f", "c2", v).Add("f", "c3", v).SetDurability(flags_.durability));
    ok = rows_->MutateRow(rm).ok();
    if (ok) log.row_acked[k] = gen;
  } else if (pick < 60) {
    const int c = static_cast<int>(rng() % kCounters);
    ok = counters_->IncrementColumnValue(CounterRow(c), "f", "n", 1, flags_.durability).ok();
    (ok ? counter_acked_ : counter_unknown_)[c].fetch_add(1);
  } else if (pick < 92) {
    ok = log.chain->AppendNode(*list_).ok();
  } else if (pick < 96) {
    const int a = static_cast<int>(rng() % kAuthors);
    auto id = feed_->Post(Author(a), "post by writer " + std::to_string(w));
    ok = id.ok();
    if (ok) {
      log.acked_posts.push_back({*id, a});
    } else {
      ++log.unknown_posts;
    }
  } else {
    const int r = static_cast<int>(rng() % kReaders);
    const int a = static_cast<int>(rng() % kAuthors);
    ok = feed_->Follow(Reader(r), Author(a)).ok();
    const int64_t at = NowMs();
    std::lock_guard<std::mutex> l(follows_mu_);
    if (ok) {
      follows_acked_.emplace(std::make_pair(r, a), at);  // keeps the first acknowledgement
      ++follows_acked_ops_;
    } else {
      follows_unknown_.emplace(r, a);
    }
  }
  ++(ok ? log.acked : log.unknown);
  // The server is down: do not spin on connection errors until the gate closes.
  if (!ok) std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

void CrashLoop::WriterMain(int w) {
  std::mt19937_64 rng(flags_.seed * 1000003 + static_cast<uint64_t>(w));
  while (!stop_.load()) {
    gate_.Pass();
    if (stop_.load()) break;
    OneOperation(w, rng);
  }
  exited_.fetch_add(1);
}

Status CrashLoop::VerifyPuts(bool final_pass) {
  // Each cycle: the puts made since the last check, one multi-Get per 500. The final pass scans
  // the whole table instead, so that a later recovery losing an earlier cycle's put shows too.
  if (final_pass) {
    std::vector<std::vector<uint8_t>> seen(logs_.size());
    for (size_t w = 0; w < logs_.size(); ++w) seen[w].assign(logs_[w].puts.size(), 0);
    BASALT_ASSIGN_OR_RETURN(auto scanner, puts_->GetScanner(Scan().SetCaching(1000)));
    RowResult row;
    while (scanner->Next(&row)) {
      int w = 0;
      size_t seq = 0;
      if (std::sscanf(row.row().c_str(), "p%d-%zu", &w, &seq) != 2 || w < 0 ||
          w >= static_cast<int>(logs_.size()) || seq >= logs_[w].puts.size()) {
        Loss("a put row nobody wrote: " + row.row());
        continue;
      }
      seen[w][seq] = 1;
      if (row.cells().size() != 3) Loss("put " + row.row() + " is there in part");
    }
    BASALT_RETURN_IF_ERROR(scanner->status());
    for (size_t w = 0; w < logs_.size(); ++w) {
      for (size_t seq = 0; seq < logs_[w].puts.size(); ++seq) {
        if (logs_[w].puts[seq] != kAcked) continue;
        ++totals_.checked;
        if (!seen[w][seq]) Loss("acknowledged put " + PutRow(static_cast<int>(w), seq) + " lost");
      }
    }
    return Status::OK();
  }
  for (size_t w = 0; w < logs_.size(); ++w) {
    WriterLog& log = logs_[w];
    for (size_t from = log.puts_checked; from < log.puts.size(); from += 500) {
      const size_t to = std::min(log.puts.size(), from + 500);
      std::vector<basalt::Get> gets;
      for (size_t seq = from; seq < to; ++seq) gets.emplace_back(PutRow(static_cast<int>(w), seq));
      BASALT_ASSIGN_OR_RETURN(auto results, puts_->Get(gets));
      for (size_t seq = from; seq < to; ++seq) {
        const RowResult& r = results[seq - from];
        const std::string row = PutRow(static_cast<int>(w), seq);
        if (log.puts[seq] == kAcked) ++totals_.checked;
        if (r.empty()) {
          if (log.puts[seq] == kAcked) Loss("acknowledged put " + row + " lost");
          continue;
        }
        bool whole = r.cells().size() == 3 && r.Value("f", "a") == PutValue(row, "a") &&
                     r.Value("f", "b") == PutValue(row, "b") &&
                     r.Value("g", "c") == PutValue(row, "c");
        if (!whole) Loss("put " + row + " is there in part or with wrong values");
      }
    }
    log.puts_checked = log.puts.size();
  }
  return Status::OK();
}

Status CrashLoop::VerifyRows() {
  std::vector<basalt::Get> gets;
  for (size_t w = 0; w < logs_.size(); ++w) {
    for (int k = 0; k < kRowsPerWriter; ++k)
      gets.emplace_back(MutationRowKey(static_cast<int>(w), k));
  }
  BASALT_ASSIGN_OR_RETURN(auto results, rows_->Get(gets));
  for (size_t w = 0; w < logs_.size(); ++w) {
    for (int k = 0; k < kRowsPerWriter; ++k) {
      const RowResult& r = results[w * kRowsPerWriter + k];
      const WriterLog& log = logs_[w];
      const std::string row = MutationRowKey(static_cast<int>(w), k);
      if (log.row_acked[k] > 0) ++totals_.checked;
      if (r.empty()) {
        if (log.row_acked[k] > 0) Loss("acknowledged RowMutations on " + row + " lost");
        continue;
      }
      std::set<std::string> values;
      for (const Cell& c : r.cells()) values.insert(c.value);
      if (r.cells().size() != 4 || values.size() != 1) {
        Loss("RowMutations row " + row + " is half applied");
        continue;
      }
      const int64_t gen = std::stoll(*values.begin());
      if (gen < log.row_acked[k] || gen > log.row_attempted[k]) {
        Loss("RowMutations row " + row + " holds generation " + std::to_string(gen) +
             ", acknowledged " + std::to_string(log.row_acked[k]) + ", attempted " +
             std::to_string(log.row_attempted[k]));
      }
    }
  }
  return Status::OK();
}

Status CrashLoop::VerifyCounters() {
  for (int c = 0; c < kCounters; ++c) {
    BASALT_ASSIGN_OR_RETURN(RowResult r,
                            counters_->Get(basalt::Get(CounterRow(c)).AddColumn("f", "n")));
    int64_t value = 0;
    if (!r.empty()) {
      BASALT_ASSIGN_OR_RETURN(value, DecodeCounter(r.cells()[0].value));
    }
    const int64_t acked = counter_acked_[c].load();
    const int64_t unknown = counter_unknown_[c].load();
    totals_.checked += acked;
    if (value < acked) {
      Loss("counter " + CounterRow(c) + " = " + std::to_string(value) + " < " +
           std::to_string(acked) + " acknowledged increments");
    }
    if (value > acked + unknown) {
      Loss("counter " + CounterRow(c) + " = " + std::to_string(value) + " > " +
           std::to_string(acked) + " acknowledged + " + std::to_string(unknown) + " unknown");
    }
  }
  return Status::OK();
}

// Every page of a FollowGraph list.
template <class Fn>
Result<std::set<std::string>> AllPages(Fn&& page_fn) {
  std::set<std::string> all;
  std::string cursor;
  do {
    BASALT_ASSIGN_OR_RETURN(recipes::UserPage page, page_fn(cursor));
    all.insert(page.users.begin(), page.users.end());
    cursor = page.cursor;
  } while (!cursor.empty());
  return all;
}

Status CrashLoop::VerifyFollows() {
  std::lock_guard<std::mutex> l(follows_mu_);
  // A Follow that failed half-way may leave the reverse edge or a count behind the record; the
  // recipe's contract is that Repair of both users brings them in line.
  for (const auto& [r, a] : follows_unknown_) {
    BASALT_ASSIGN_OR_RETURN(int64_t fixed_r, graph_->Repair(Reader(r)));
    BASALT_ASSIGN_OR_RETURN(int64_t fixed_a, graph_->Repair(Author(a)));
    totals_.repairs += fixed_r + fixed_a;
  }
  follows_unknown_.clear();
  std::map<std::string, std::set<std::string>> following, followers;
  for (int r = 0; r < kReaders; ++r) {
    BASALT_ASSIGN_OR_RETURN(following[Reader(r)], AllPages([&](const std::string& c) {
                              return graph_->Following(Reader(r), 100, c);
                            }));
  }
  for (int a = 0; a < kAuthors; ++a) {
    BASALT_ASSIGN_OR_RETURN(followers[Author(a)], AllPages([&](const std::string& c) {
                              return graph_->Followers(Author(a), 100, c);
                            }));
  }
  for (const auto& [edge, at] : follows_acked_) {
    ++totals_.checked;
    if (!following[Reader(edge.first)].contains(Author(edge.second))) {
      Loss("acknowledged follow " + Reader(edge.first) + " -> " + Author(edge.second) + " lost");
    }
  }
  for (const auto& [reader, authors] : following) {
    for (const auto& a : authors) {
      if (!followers[a].contains(reader))
        Loss("follow " + reader + " -> " + a + " has no reverse edge");
    }
    BASALT_ASSIGN_OR_RETURN(int64_t n, graph_->FollowingCount(reader));
    if (n != static_cast<int64_t>(authors.size())) {
      Loss("FollowingCount(" + reader + ") = " + std::to_string(n) + ", edges " +
           std::to_string(authors.size()));
    }
  }
  for (const auto& [author, readers] : followers) {
    for (const auto& r : readers) {
      if (!following[r].contains(author))
        Loss("reverse edge " + author + " <- " + r + " has no follow");
    }
    BASALT_ASSIGN_OR_RETURN(int64_t n, graph_->FollowerCount(author));
    if (n != static_cast<int64_t>(readers.size())) {
      Loss("FollowerCount(" + author + ") = " + std::to_string(n) + ", edges " +
           std::to_string(readers.size()));
    }
  }
  return Status::OK();
}

Status CrashLoop::VerifyFeed() {
  BASALT_ASSIGN_OR_RETURN(int64_t pending, feed_->PendingJobs());
  if (pending != 0) Loss(std::to_string(pending) + " fan-out jobs left after the drain");

  // Every post there is, acknowledged or not, by author.
  std::map<std::string, std::pair<int, int64_t>> posts;  // id -> (author, time ms)
  for (int a = 0; a < kAuthors; ++a) {
    std::string cursor;
    do {
      BASALT_ASSIGN_OR_RETURN(recipes::PostPage page, feed_->UserTimeline(Author(a), 500, cursor));
      for (const auto& p : page.posts) posts[p.id] = {a, p.timestamp_ms};
      cursor = page.cursor;
    } while (!cursor.empty());
  }
  for (const WriterLog& log : logs_) {
    for (const PostRecord& p : log.acked_posts) {
      ++totals_.checked;
      if (!posts.contains(p.id)) Loss("acknowledged post by " + Author(p.author) + " lost");
    }
  }
  std::lock_guard<std::mutex> l(follows_mu_);
  for (int r = 0; r < kReaders; ++r) {
    std::set<std::string> home;
    std::string cursor;
    do {
      BASALT_ASSIGN_OR_RETURN(recipes::PostPage page, feed_->HomeTimeline(Reader(r), 200, cursor));
      for (const auto& p : page.posts) home.insert(p.id);
      cursor = page.cursor;
    } while (!cursor.empty());
    for (const auto& [id, author_time] : posts) {
      auto edge = follows_acked_.find({r, author_time.first});
      // Delivery is promised to followers whose follow was acknowledged before the post; past
      // the inbox's kInboxCap entries the walk reads the followees' own timelines, so every
      // such post is on it.
      if (edge == follows_acked_.end() || edge->second >= author_time.second) continue;
      if (!home.contains(id)) {
        Loss("post of " + Author(author_time.first) + " at " + std::to_string(author_time.second) +
             " missing from " + Reader(r) + "'s home timeline");
      }
    }
  }
  return Status::OK();
}

Status CrashLoop::VerifyList() {
  std::set<std::string> heads, unknown;
  for (const WriterLog& log : logs_) {
    heads.insert(log.chain->head());
    unknown.insert(log.chain->unknown().begin(), log.chain->unknown().end());
  }
  BASALT_ASSIGN_OR_RETURN(totals_.list, VerifyLinkedList(*list_, heads, unknown));
  for (const WriterLog& log : logs_) totals_.checked += log.chain->acknowledged();
  const ListCounts& c = totals_.list;
  if (c.undefined != 0 || c.unexpected_unreferenced != 0) {
    std::string examples;
    for (const auto& e : c.examples) examples += " " + e;
    Loss("linked list: " + std::to_string(c.undefined) + " undefined, " +
         std::to_string(c.unexpected_unreferenced) + " unexpected unreferenced:" + examples);
  }
  return Status::OK();
}

Status CrashLoop::Verify(bool final_pass) {
  // A read that fails (it should not: the server is up) is retried; losses found before it stay
  // counted.
  Status s;
  for (int attempt = 0; attempt < 5; ++attempt) {
    const Totals before = totals_;
    std::string timing;
    auto timed = [&](const char* what, auto&& check) {
      if (!s.ok()) return;
      const auto start = std::chrono::steady_clock::now();
      s = check();
      char buf[64];
      std::snprintf(
          buf, sizeof(buf), " %s %.1fs", what,
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      timing += buf;
    };
    s = Status::OK();
    timed("puts", [&] { return VerifyPuts(final_pass); });
    timed("rows", [&] { return VerifyRows(); });
    timed("counters", [&] { return VerifyCounters(); });
    timed("follows", [&] { return VerifyFollows(); });
    // Interrupted posts and jobs are taken over once their leases expire.
    int64_t backlog = 0;
    timed("drain", [&] {
      BASALT_ASSIGN_OR_RETURN(backlog, feed_->PendingJobs());
      return workers_->Drain(std::chrono::seconds(240));
    });
    timing += " (" + std::to_string(backlog) + " fan-out jobs)";
    timed("feed", [&] { return VerifyFeed(); });
    timed("list", [&] { return VerifyList(); });
    if (s.ok()) {
      std::printf("  verified in%s\n", timing.c_str());
      return s;
    }
    std::fprintf(stderr, "verification read failed (%s); retrying\n", s.ToString().c_str());
    const int64_t losses = totals_.losses;
    totals_ = before;
    totals_.losses = losses;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return s;
}

void CrashLoop::Report(const char* label) {
  Totals& t = totals_;
  t.acknowledged = 0;
  t.unknown = 0;
  for (const WriterLog& log : logs_) {
    t.acknowledged += log.acked;
    t.unknown += log.unknown;
  }
  std::printf(
      "%s cycle %d: acknowledged %lld, unknown %lld, checked %lld, losses %lld | linked list: "
      "referenced %lld, unreferenced %lld, undefined %lld | follow repairs %lld\n",
      label, cycle_, static_cast<long long>(t.acknowledged), static_cast<long long>(t.unknown),
      static_cast<long long>(t.checked), static_cast<long long>(t.losses),
      static_cast<long long>(t.list.referenced), static_cast<long long>(t.list.unreferenced),
      static_cast<long long>(t.list.undefined), static_cast<long long>(t.repairs));
  std::fflush(stdout);
}

int CrashLoop::Run() {
  std::string data = flags_.data;
  std::filesystem::path scratch;
  if (data.empty()) {
    scratch = std::filesystem::temp_directory_path() /
              ("basalt-crash-loop-" + std::to_string(getpid()) + "-" + std::to_string(flags_.seed));
    std::filesystem::remove_all(scratch);
    std::filesystem::create_directories(scratch);
    data = (scratch / "data").string();
  }
  const std::string log_path = data + ".server.log";
  std::printf("crash loop: seed %llu, %d cycles, ~%.0f s, data %s, server log %s\n",
              static_cast<unsigned long long>(flags_.seed), flags_.cycles, flags_.seconds,
              data.c_str(), log_path.c_str());
  std::fflush(stdout);
  server_ = std::make_unique<ServerProcess>(flags_.basalt, data, log_path);
  auto fail = [&](const Status& s) {
    std::fprintf(stderr, "crash loop: %s\n", s.ToString().c_str());
    return 2;
  };
  Status s = server_->Start();
  if (s.ok()) s = Setup();
  if (s.ok()) s = OpenClients();
  if (!s.ok()) return fail(s);

  logs_.resize(flags_.writers);
  for (int w = 0; w < flags_.writers; ++w) {
    logs_[w].chain = std::make_unique<ChainWriter>(flags_.seed * 7919 + w, flags_.durability);
  }
  workers_->Start();
  std::vector<std::thread> writers;
  for (int w = 0; w < flags_.writers; ++w) writers.emplace_back([this, w] { WriterMain(w); });

  const auto started = std::chrono::steady_clock::now();
  const double per_cycle = flags_.seconds / std::max(1, flags_.cycles);
  for (cycle_ = 1; cycle_ <= flags_.cycles && s.ok(); ++cycle_) {
    // Write for a random part of the cycle's share of the time (verification takes the rest),
    // then kill the server while the writers are in full flow.
    std::uniform_real_distribution<double> run(0.2 * per_cycle, 0.6 * per_cycle);
    std::this_thread::sleep_for(std::chrono::duration<double>(run(rng_)));
    s = server_->Kill();
    if (!s.ok()) break;
    gate_.Close();
    gate_.WaitParked(flags_.writers, exited_);
    s = Restart();
    if (!s.ok()) break;
    s = Verify(/*final_pass=*/false);
    if (!s.ok()) break;
    Report("after");
    gate_.Open();
  }
  stop_ = true;
  gate_.Open();
  for (auto& t : writers) t.join();
  if (s.ok()) {
    // One more kill with everything quiet, then the whole store is checked once more.
    --cycle_;
    s = server_->Kill();
    if (s.ok()) s = Restart();
    if (s.ok()) s = Verify(/*final_pass=*/true);
  }
  if (workers_) workers_->Stop();
  if (!s.ok()) return fail(s);
  Report("final");
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf(
      "crash loop: %d cycles in %.1f s; %lld operations acknowledged, %lld unknown, %lld checks "
      "of acknowledged operations, %lld losses; linked list referenced %lld, unreferenced %lld, "
      "undefined %lld\n",
      cycle_, elapsed, static_cast<long long>(totals_.acknowledged),
      static_cast<long long>(totals_.unknown), static_cast<long long>(totals_.checked),
      static_cast<long long>(totals_.losses), static_cast<long long>(totals_.list.referenced),
      static_cast<long long>(totals_.list.unreferenced),
      static_cast<long long>(totals_.list.undefined));
  feed_.reset();
  graph_.reset();
  puts_.reset();
  rows_.reset();
  counters_.reset();
  list_.reset();
  if (conn_) conn_->Close().PermitUncheckedError();
  server_->Stop().PermitUncheckedError();
  if (!scratch.empty() && totals_.losses == 0) std::filesystem::remove_all(scratch);
  return totals_.losses == 0 ? 0 : 1;
}

int Usage(const char* message) {
  std::fprintf(stderr,
               "%s\nusage: basalt_crash_loop [--cycles N] [--seconds S] [--seed N] [--data DIR] "
               "[--writers N] [--basalt PATH] [--durability sync_wal|skip_wal]\n",
               message);
  return 2;
}

}  // namespace
}  // namespace basalt::crash

int main(int argc, char** argv) {
  using basalt::crash::Usage;
  basalt::crash::Flags flags;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (i + 1 >= argc) return Usage(("missing value after " + arg).c_str());
    std::string value = argv[++i];
    char* end = nullptr;
    if (arg == "--cycles") {
      flags.cycles = static_cast<int>(std::strtol(value.c_str(), &end, 10));
    } else if (arg == "--seconds") {
      flags.seconds = std::strtod(value.c_str(), &end);
    } else if (arg == "--seed") {
      flags.seed = std::strtoull(value.c_str(), &end, 10);
    } else if (arg == "--writers") {
      flags.writers = static_cast<int>(std::strtol(value.c_str(), &end, 10));
    } else if (arg == "--data") {
      flags.data = value;
    } else if (arg == "--basalt") {
      flags.basalt = value;
    } else if (arg == "--durability") {
      if (value == "sync_wal") {
        flags.durability = basalt::Durability::kSyncWal;
      } else if (value == "skip_wal") {
        flags.durability = basalt::Durability::kSkipWal;
      } else {
        return Usage(("--durability is sync_wal or skip_wal, not " + value).c_str());
      }
    } else {
      return Usage(("unknown flag " + arg).c_str());
    }
    if (end != nullptr && (*end != '\0' || value.empty())) {
      return Usage(("bad value for " + arg + ": " + value).c_str());
    }
  }
  if (flags.cycles < 1 || flags.seconds <= 0 || flags.writers < 1) {
    return Usage("--cycles, --seconds and --writers must be positive");
  }
  // A write to a server that died must fail, not kill the driver.
  signal(SIGPIPE, SIG_IGN);
  return basalt::crash::CrashLoop(std::move(flags)).Run();
}
