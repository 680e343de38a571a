// Served: basalt over Thrift2 and Thrift1 and in process against a private Redis and a private
// PostgreSQL, on the same data, with closed-loop clients. bench/served_bench.py starts the
// servers and runs this program twice:
//
//   basalt_served_bench load --basalt DIR --redis HOST:PORT --pg CONNINFO --scale F --json FILE
//       generates the data sets (bench/workloads.h) and loads them into an embedded basalt store
//       in DIR, into Redis and into PostgreSQL; table "load": the data's sizes and each load's
//       seconds.
//   basalt_served_bench run --thrift HOST:PORT [--thrift1 HOST:PORT] --embedded DIR
//                           --redis HOST:PORT --pg CONNINFO --scale F [--clients 1,16,64,256]
//                           [--seconds S] [--rounds N] --json FILE
//                           [--second-thrift HOST:PORT --second-name NAME]
//       checks that every system answers alike, then measures each workload at each client
//       count, the systems taking turns (harness.h, AlternateTurns); table "served": throughput
//       (median round) and p50 / p99 / p99.9 (over every round's calls). In process runs 1 and
//       2 threads (at the first two counts): the machine's cores, not a client count. A second
//       server, when given, is one more system (the same store served with other flags).
//   basalt_served_bench calls --thrift HOST:PORT --scale F --op OP --ops N
//       makes N operations of OP through one Thrift2 client (the driver counts the calls).
//
// Workloads (one operation each):
//   get     a point get of a 100-byte value: Table::GetInto(Get(row).AddColumn("f", "q")) on
//           table `bench`; Thrift1 get(bench, row, "f:q"); Redis GET; PostgreSQL
//           SELECT v FROM kv WHERE k = $1.
//   latest  action-log's "latest 10 actions after skipping 20" for a Zipf-chosen user:
//           ActivityLog::Latest(user, 10, 20); Redis LRANGE a:<user> 20 29 on a list pushed
//           newest first; PostgreSQL SELECT id, name, stamp FROM actions WHERE userid = $1
//           ORDER BY stamp DESC LIMIT 10 OFFSET 20 with an index on (userid, stamp DESC).
//   home    home-feed's home timeline of 20 hydrated posts for a uniformly chosen user:
//           Feed::HomeTimeline(user, 20); Redis LRANGE i:<user> 0 19 then MGET of the posts;
//           PostgreSQL the inbox (userid, stamp DESC, post_id) joined to posts, LIMIT 20.
//   write   a 100-byte item for a uniformly chosen feed user: Table::Put of one cell (row
//           w<user>, f:q); Redis RPUSH w:<user> then LTRIM to the newest 1,000 (one pipelined
//           pair: a capped list); PostgreSQL INSERT INTO writes (userid, v), indexed on userid.
//           Each system checks its own reply; the items written are not compared.
//
// Clients: each client is one thread calling in a closed loop. The Thrift2 side shares one
// Connection (and one ActivityLog and Feed) among its threads, as an application would; the
// Connection's pool then holds one socket per concurrent call. Thrift1, Redis and PostgreSQL
// clients each own a connection (a pool of N connections, as an application would keep). A
// client, once made, lives for the whole run.

#include <hiredis/hiredis.h>
#include <libpq-fe.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TSocket.h>
#include <thrift/transport/TTransportException.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "basalt/basalt.h"
#include "basalt/recipes/activity_log.h"
#include "basalt/recipes/fanout_worker.h"
#include "basalt/recipes/feed.h"
#include "basalt/recipes/follow_graph.h"
#include "harness.h"
#include "thrift1/gen/Hbase.h"
#include "workloads.h"

namespace {

using basalt::bench::Check;
using basalt::bench::Die;
using basalt::bench::Fixed;
using basalt::bench::kActionName;
using basalt::bench::kActionTime0;
using Clock = std::chrono::steady_clock;

double Seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

constexpr int kFollows = 10;     // as feed_bench's default
constexpr int kInboxCap = 1000;  // basalt's FeedOptions::inbox_cap default
constexpr int64_t kPostTime0 = 1795392000000;
constexpr char kBenchTable[] = "bench";

struct Config {
  std::string mode;
  std::string basalt_dir, embedded_dir, thrift, thrift1, redis, pg;
  // A second basalt server to compare with the first (run only), and its name in the results.
  std::string second_thrift, second_name;
  double scale = 1.0;
  double seconds = 2.0;
  double warmup = 1.0;
  int rounds = 3;
  std::vector<int> clients = {1, 16, 64, 256};
  std::string op;  // calls: the workload
  int ops = 0;     // calls: how many operations
};

int PointRows(double scale) {
  return std::max(1000, static_cast<int>(std::lround(100000 * scale)));
}
std::string RowKey(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "row%08d", i);
  return buf;
}
// Every post's time: one second apart, in the order of FeedWorkload::authors.
int64_t PostTime(size_t i) {
  return kPostTime0 + static_cast<int64_t>(i) * 1000;
}
const std::string& PostText() {
  static const std::string text(100, 't');
  return text;
}
const std::string& PointValue() {
  static const std::string value(100, 'v');
  return value;
}

basalt::recipes::FeedOptions BenchFeedOptions() {
  basalt::recipes::FeedOptions options;
  // Pure fan-out on write, as the Redis and PostgreSQL schemas do it (see feed_bench.cc).
  options.fanout_threshold = INT64_MAX / 2;
  return options;
}

// The inboxes that pure fan-out on write leaves: each post goes to its author's followers and to
// the author (basalt's home timeline merges the reader's own posts in; here they are stored), the
// newest kInboxCap kept. inbox[user] holds post indexes, oldest first.
std::vector<std::vector<int>> Inboxes(const basalt::bench::FeedWorkload& w) {
  std::vector<std::vector<int>> followers(w.users);
  for (const auto& [follower, followed] : w.edges) followers[followed].push_back(follower);
  std::vector<std::vector<int>> inbox(w.users);
  for (size_t p = 0; p < w.authors.size(); ++p) {
    const int author = w.authors[p];
    inbox[author].push_back(static_cast<int>(p));
    for (int f : followers[author]) inbox[f].push_back(static_cast<int>(p));
  }
  for (auto& in : inbox) {
    if (in.size() > kInboxCap) in.erase(in.begin(), in.end() - kInboxCap);
  }
  return inbox;
}

// ---------------------------------------------------------------------------------------------
// Redis and PostgreSQL plumbing

std::pair<std::string, int> HostPort(const std::string& s) {
  const size_t colon = s.rfind(':');
  if (colon == std::string::npos) Die("expected HOST:PORT, got " + s);
  return {s.substr(0, colon), std::atoi(s.c_str() + colon + 1)};
}

redisContext* RedisConnect(const std::string& address) {
  auto [host, port] = HostPort(address);
  redisContext* c = redisConnect(host.c_str(), port);
  if (c == nullptr || c->err) Die("redis connect: " + std::string(c ? c->errstr : "no memory"));
  return c;
}

struct ReplyDeleter {
  void operator()(redisReply* r) const { freeReplyObject(r); }
};
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

Reply RedisCall(redisContext* c, const std::vector<std::string>& argv) {
  std::vector<const char*> args;
  std::vector<size_t> lens;
  for (const auto& a : argv) {
    args.push_back(a.data());
    lens.push_back(a.size());
  }
  auto* r = static_cast<redisReply*>(
      redisCommandArgv(c, static_cast<int>(args.size()), args.data(), lens.data()));
  if (r == nullptr) Die("redis: " + std::string(c->errstr));
  if (r->type == REDIS_REPLY_ERROR) Die("redis " + argv[0] + ": " + r->str);
  return Reply(r);
}

// Commands appended and their replies read 1,000 at a time.
class RedisPipeline {
 public:
  explicit RedisPipeline(redisContext* c) : c_(c) {}
  ~RedisPipeline() { Flush(); }
  void Append(const std::vector<std::string>& argv) {
    std::vector<const char*> args;
    std::vector<size_t> lens;
    for (const auto& a : argv) {
      args.push_back(a.data());
      lens.push_back(a.size());
    }
    if (redisAppendCommandArgv(c_, static_cast<int>(args.size()), args.data(), lens.data()) !=
        REDIS_OK) {
      Die("redis append");
    }
    if (++pending_ == 1000) Flush();
  }
  void Flush() {
    for (; pending_ > 0; --pending_) {
      void* reply = nullptr;
      if (redisGetReply(c_, &reply) != REDIS_OK) Die("redis: " + std::string(c_->errstr));
      Reply r(static_cast<redisReply*>(reply));
      if (r->type == REDIS_REPLY_ERROR) Die(std::string("redis load: ") + r->str);
    }
  }

 private:
  redisContext* c_;
  int pending_ = 0;
};

PGconn* PgConnect(const std::string& conninfo) {
  PGconn* c = PQconnectdb(conninfo.c_str());
  if (PQstatus(c) != CONNECTION_OK) Die("postgres connect: " + std::string(PQerrorMessage(c)));
  return c;
}

void PgExec(PGconn* c, const std::string& sql) {
  PGresult* r = PQexec(c, sql.c_str());
  const ExecStatusType st = PQresultStatus(r);
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
    const std::string msg = PQerrorMessage(c);
    PQclear(r);
    Die("postgres: " + sql + ": " + msg);
  }
  PQclear(r);
}

// COPY ... FROM STDIN in text format, rows handed over in 1 MiB chunks.
class PgCopy {
 public:
  PgCopy(PGconn* c, const std::string& copy_sql) : c_(c) {
    PGresult* r = PQexec(c, copy_sql.c_str());
    if (PQresultStatus(r) != PGRES_COPY_IN) Die("postgres: " + copy_sql + ": " + PQerrorMessage(c));
    PQclear(r);
  }
  std::string& buffer() { return buf_; }
  void MaybeSend() {
    if (buf_.size() >= (1 << 20)) Send();
  }
  void Finish() {
    Send();
    if (PQputCopyEnd(c_, nullptr) != 1) Die("postgres copy end");
    PGresult* r = PQgetResult(c_);
    if (PQresultStatus(r) != PGRES_COMMAND_OK)
      Die("postgres copy: " + std::string(PQerrorMessage(c_)));
    PQclear(r);
  }

 private:
  void Send() {
    if (!buf_.empty() && PQputCopyData(c_, buf_.data(), static_cast<int>(buf_.size())) != 1) {
      Die("postgres copy data: " + std::string(PQerrorMessage(c_)));
    }
    buf_.clear();
  }
  PGconn* c_;
  std::string buf_;
};

// ---------------------------------------------------------------------------------------------
// load

struct LoadTimes {
  std::map<std::string, double> seconds;  // "<system> <part>" -> seconds
};

void LoadBasalt(const Config& cfg, const basalt::bench::ActionLogWorkload& actions,
                const basalt::bench::FeedWorkload& feed_w, LoadTimes* times) {
  std::filesystem::remove_all(cfg.basalt_dir);
  auto conn = Check(basalt::Connection::Open(cfg.basalt_dir), "open basalt");

  auto t0 = Clock::now();
  basalt::TableDescriptor desc(basalt::TableName("default", kBenchTable));
  desc.AddFamily(basalt::FamilyDescriptor("f"));
  Check(conn->admin().CreateTable(desc), "create table bench");
  auto table = Check(conn->GetTable(kBenchTable), "table bench");
  std::vector<basalt::Mutation> batch;
  const int rows = PointRows(cfg.scale);
  for (int i = 0; i < rows; ++i) {
    batch.emplace_back(basalt::Put(RowKey(i)).Add("f", "q", PointValue()));
    if (batch.size() == 1000 || i + 1 == rows) {
      Check(table->Batch(batch).status(), "load point rows");
      batch.clear();
    }
  }
  times->seconds["basalt get"] = Seconds(Clock::now() - t0);

  // One Record per action, as an application records them (the recipe has no batch call).
  t0 = Clock::now();
  auto log = Check(basalt::recipes::ActivityLog::Open(*conn), "open activity log");
  for (size_t i = 0; i < actions.action_users.size(); ++i) {
    Check(log->Record(std::to_string(actions.action_users[i]), kActionName, "",
                      kActionTime0 + static_cast<int64_t>(i))
              .status(),
          "record");
    if (i % 500000 == 499999) {
      std::fprintf(stderr, "basalt: %zu actions recorded\n", i + 1);
    }
  }
  times->seconds["basalt latest"] = Seconds(Clock::now() - t0);

  t0 = Clock::now();
  auto graph = Check(basalt::recipes::FollowGraph::Open(*conn), "open follow graph");
  auto feed = Check(basalt::recipes::Feed::Open(*conn, *graph, BenchFeedOptions()), "open feed");
  for (const auto& [follower, followed] : feed_w.edges) {
    Check(
        graph->Follow(basalt::bench::FeedUserName(follower), basalt::bench::FeedUserName(followed)),
        "follow");
  }
  for (size_t p = 0; p < feed_w.authors.size(); ++p) {
    Check(feed->PostAt(basalt::bench::FeedUserName(feed_w.authors[p]), PostText(), PostTime(p))
              .status(),
          "post");
  }
  {
    basalt::recipes::FanoutWorkerPool pool(*feed, {.threads = 2});
    pool.Start();
    Check(pool.Drain(std::chrono::hours(2)), "fan-out drain");
    pool.Stop();
    Check(pool.last_error(), "fan-out worker");
  }
  times->seconds["basalt home"] = Seconds(Clock::now() - t0);
  feed.reset();
  graph.reset();
  log.reset();
  table.reset();
  t0 = Clock::now();
  Check(conn->Close(), "close basalt");  // flushes: the server then reads the data from files
  times->seconds["basalt close"] = Seconds(Clock::now() - t0);
}

void LoadRedis(const Config& cfg, const basalt::bench::ActionLogWorkload& actions,
               const basalt::bench::FeedWorkload& feed_w,
               const std::vector<std::vector<int>>& inbox, LoadTimes* times) {
  redisContext* c = RedisConnect(cfg.redis);
  RedisCall(c, {"FLUSHALL"});
  auto t0 = Clock::now();
  {
    RedisPipeline pipe(c);
    const int rows = PointRows(cfg.scale);
    for (int i = 0; i < rows; ++i) pipe.Append({"SET", "kv:" + RowKey(i), PointValue()});
  }
  times->seconds["redis get"] = Seconds(Clock::now() - t0);

  // A list per user, pushed in time order so the newest action is at the head; an element is
  // the whole action ("id:stamp:name"), so a page is one LRANGE.
  t0 = Clock::now();
  {
    RedisPipeline pipe(c);
    for (size_t i = 0; i < actions.action_users.size(); ++i) {
      pipe.Append({"LPUSH", "a:" + std::to_string(actions.action_users[i]),
                   std::to_string(i) + ":" +
                       std::to_string(kActionTime0 + static_cast<int64_t>(i)) + ":" + kActionName});
    }
  }
  times->seconds["redis latest"] = Seconds(Clock::now() - t0);

  // Posts as strings "p:<id>" = "author:stamp:text"; an inbox per user, a list of post ids
  // pushed in time order (newest at the head), the newest kInboxCap kept.
  t0 = Clock::now();
  {
    RedisPipeline pipe(c);
    for (size_t p = 0; p < feed_w.authors.size(); ++p) {
      pipe.Append({"SET", "p:" + std::to_string(p),
                   basalt::bench::FeedUserName(feed_w.authors[p]) + ":" +
                       std::to_string(PostTime(p)) + ":" + PostText()});
    }
    for (size_t u = 0; u < inbox.size(); ++u) {
      if (inbox[u].empty()) continue;
      std::vector<std::string> argv = {"LPUSH", "i:" + std::to_string(u)};
      for (int p : inbox[u]) argv.push_back(std::to_string(p));
      pipe.Append(argv);
    }
  }
  times->seconds["redis home"] = Seconds(Clock::now() - t0);
  redisFree(c);
}

void LoadPostgres(const Config& cfg, const basalt::bench::ActionLogWorkload& actions,
                  const basalt::bench::FeedWorkload& feed_w,
                  const std::vector<std::vector<int>>& inbox, LoadTimes* times) {
  PGconn* c = PgConnect(cfg.pg);
  PgExec(c, "SET client_min_messages = warning");
  PgExec(c, "DROP TABLE IF EXISTS kv, actions, posts, inbox, writes");
  // Bulk loads as an expert does them: COPY into a table without indexes, then the indexes.
  auto t0 = Clock::now();
  PgExec(c, "CREATE TABLE kv (k text PRIMARY KEY, v text NOT NULL)");
  {
    PgCopy copy(c, "COPY kv (k, v) FROM STDIN");
    const int rows = PointRows(cfg.scale);
    for (int i = 0; i < rows; ++i) {
      copy.buffer() += RowKey(i) + "\t" + PointValue() + "\n";
      copy.MaybeSend();
    }
    copy.Finish();
  }
  PgExec(c, "VACUUM ANALYZE kv");
  times->seconds["postgres get"] = Seconds(Clock::now() - t0);

  t0 = Clock::now();
  PgExec(c,
         "CREATE TABLE actions (id bigint NOT NULL, userid integer NOT NULL, name text NOT NULL,"
         " stamp bigint NOT NULL)");
  {
    PgCopy copy(c, "COPY actions (id, userid, name, stamp) FROM STDIN");
    for (size_t i = 0; i < actions.action_users.size(); ++i) {
      copy.buffer() += std::to_string(i) + "\t" + std::to_string(actions.action_users[i]) + "\t" +
                       kActionName + "\t" + std::to_string(kActionTime0 + static_cast<int64_t>(i)) +
                       "\n";
      copy.MaybeSend();
    }
    copy.Finish();
  }
  PgExec(c, "ALTER TABLE actions ADD PRIMARY KEY (id)");
  PgExec(c, "CREATE INDEX actions_user_stamp ON actions (userid, stamp DESC)");
  PgExec(c, "VACUUM ANALYZE actions");
  times->seconds["postgres latest"] = Seconds(Clock::now() - t0);

  t0 = Clock::now();
  PgExec(c,
         "CREATE TABLE posts (id bigint NOT NULL, author text NOT NULL, stamp bigint NOT NULL,"
         " body text NOT NULL)");
  PgExec(c,
         "CREATE TABLE inbox (userid integer NOT NULL, stamp bigint NOT NULL,"
         " post_id bigint NOT NULL)");
  {
    PgCopy copy(c, "COPY posts (id, author, stamp, body) FROM STDIN");
    for (size_t p = 0; p < feed_w.authors.size(); ++p) {
      copy.buffer() += std::to_string(p) + "\t" + basalt::bench::FeedUserName(feed_w.authors[p]) +
                       "\t" + std::to_string(PostTime(p)) + "\t" + PostText() + "\n";
      copy.MaybeSend();
    }
    copy.Finish();
  }
  {
    PgCopy copy(c, "COPY inbox (userid, stamp, post_id) FROM STDIN");
    for (size_t u = 0; u < inbox.size(); ++u) {
      for (int p : inbox[u]) {
        copy.buffer() += std::to_string(u) + "\t" + std::to_string(PostTime(p)) + "\t" +
                         std::to_string(p) + "\n";
        copy.MaybeSend();
      }
    }
    copy.Finish();
  }
  PgExec(c, "ALTER TABLE posts ADD PRIMARY KEY (id)");
  // (userid, stamp DESC, post_id): a page is an index-only scan of 20 entries.
  PgExec(c, "CREATE INDEX inbox_user_stamp ON inbox (userid, stamp DESC, post_id)");
  PgExec(c, "VACUUM ANALYZE posts");
  PgExec(c, "VACUUM ANALYZE inbox");
  times->seconds["postgres home"] = Seconds(Clock::now() - t0);
  // The write workload's table: empty until the run appends to it.
  PgExec(c, "CREATE TABLE writes (userid integer NOT NULL, v text NOT NULL)");
  PgExec(c, "CREATE INDEX writes_user ON writes (userid)");
  PQfinish(c);
}

// ---------------------------------------------------------------------------------------------
// run: clients

enum class Op { kGet, kLatest, kHome, kWrite };
constexpr Op kOps[] = {Op::kGet, Op::kLatest, Op::kHome, Op::kWrite};
const char* OpName(Op op) {
  switch (op) {
    case Op::kGet:
      return "get";
    case Op::kLatest:
      return "latest";
    case Op::kHome:
      return "home";
    case Op::kWrite:
      return "write";
  }
  return "?";
}

// The write workload's row in basalt: one per feed user, as Redis's list and PostgreSQL's
// rows are keyed by the user.
std::string WriteRow(int user) {
  return "w" + std::to_string(user);
}

// One client: one thread's handle on a system. Call returns the items the operation returned
// (1 for a get or a write); Stamps the times of the items, for the check that all systems
// answer alike (read workloads only).
class Client {
 public:
  virtual ~Client() = default;
  virtual int64_t Call(Op op, int arg) = 0;
  virtual std::vector<int64_t> Stamps(Op op, int arg) = 0;
};

class System {
 public:
  virtual ~System() = default;
  virtual std::string name() const = 0;
  // Whether the system takes part in `op`'s turns.
  virtual bool Serves(Op /*op*/) const { return true; }
  // The i-th client, made on first use and kept for the run.
  Client& client(int i) {
    while (static_cast<int>(clients_.size()) <= i) clients_.push_back(NewClient());
    return *clients_[i];
  }

 protected:
  virtual std::unique_ptr<Client> NewClient() = 0;

 private:
  std::vector<std::unique_ptr<Client>> clients_;
};

class BasaltSystem : public System {
 public:
  BasaltSystem(std::string name, const std::string& target) : name_(std::move(name)) {
    conn_ = Check(basalt::Connection::Open(target), "open " + target);
    log_ = Check(basalt::recipes::ActivityLog::Open(*conn_), "open activity log");
    graph_ = Check(basalt::recipes::FollowGraph::Open(*conn_), "open follow graph");
    feed_ = Check(basalt::recipes::Feed::Open(*conn_, *graph_, BenchFeedOptions()), "open feed");
  }
  ~BasaltSystem() override {
    feed_.reset();
    graph_.reset();
    log_.reset();
    Check(conn_->Close(), "close " + name_);
  }
  std::string name() const override { return name_; }

 private:
  class BasaltClient : public Client {
   public:
    explicit BasaltClient(BasaltSystem& s)
        : s_(s), table_(Check(s.conn_->GetTable(kBenchTable), "table bench")) {}
    int64_t Call(Op op, int arg) override {
      switch (op) {
        case Op::kGet:
          Check(table_->GetInto(basalt::Get(RowKey(arg)).AddColumn("f", "q"), &row_), "get");
          if (row_.size() != 1 || row_.cells()[0].value.size() != 100) Die("basalt get: no value");
          return 1;
        case Op::kLatest:
          return static_cast<int64_t>(
              Check(s_.log_->Latest(std::to_string(arg), 10, 20), "latest").size());
        case Op::kHome:
          return static_cast<int64_t>(
              Check(s_.feed_->HomeTimeline(basalt::bench::FeedUserName(arg), 20), "home")
                  .posts.size());
        case Op::kWrite:
          Check(table_->Put(basalt::Put(WriteRow(arg)).Add("f", "q", PointValue())), "put");
          return 1;
      }
      return 0;
    }
    std::vector<int64_t> Stamps(Op op, int arg) override {
      std::vector<int64_t> out;
      if (op == Op::kLatest) {
        for (const auto& e : Check(s_.log_->Latest(std::to_string(arg), 10, 20), "latest")) {
          out.push_back(e.id.time_ms);
        }
      } else if (op == Op::kHome) {
        for (const auto& p :
             Check(s_.feed_->HomeTimeline(basalt::bench::FeedUserName(arg), 20), "home").posts) {
          out.push_back(p.timestamp_ms);
        }
      } else {
        out.push_back(Call(op, arg));
      }
      return out;
    }

   private:
    BasaltSystem& s_;
    std::unique_ptr<basalt::Table> table_;
    basalt::RowResult row_;
  };

  std::unique_ptr<Client> NewClient() override { return std::make_unique<BasaltClient>(*this); }

  std::string name_;
  std::unique_ptr<basalt::Connection> conn_;
  std::unique_ptr<basalt::recipes::ActivityLog> log_;
  std::unique_ptr<basalt::recipes::FollowGraph> graph_;
  std::unique_ptr<basalt::recipes::Feed> feed_;
};

// The second field of "a:b:c".
int64_t SecondField(const char* s, size_t len) {
  const std::string_view v(s, len);
  const size_t a = v.find(':');
  return std::atoll(std::string(v.substr(a + 1, v.find(':', a + 1) - a - 1)).c_str());
}

// HBase's Thrift1 protocol (service Hbase, as happybase speaks it), point gets only: each client
// owns a socket (buffered, binary: basalt serve's default).
class Thrift1System : public System {
 public:
  explicit Thrift1System(std::string address) : address_(std::move(address)) {}
  std::string name() const override { return "basalt Thrift1"; }
  bool Serves(Op op) const override { return op == Op::kGet; }

 private:
  class Thrift1Client : public Client {
   public:
    explicit Thrift1Client(const std::string& address) {
      auto [host, port] = HostPort(address);
      auto socket = std::make_shared<apache::thrift::transport::TSocket>(host, port);
      transport_ = std::make_shared<apache::thrift::transport::TBufferedTransport>(socket);
      client_ = std::make_unique<basalt::thrift1::HbaseClient>(
          std::make_shared<apache::thrift::protocol::TBinaryProtocol>(transport_));
      Open();
    }
    ~Thrift1Client() override { transport_->close(); }
    int64_t Call(Op op, int arg) override {
      if (op != Op::kGet) Die("thrift1 serves only get here");
      for (int attempt = 0;; ++attempt) {
        try {
          client_->get(cells_, kBenchTable, RowKey(arg), "f:q", {});
          break;
        } catch (const apache::thrift::transport::TTransportException& e) {
          // The server closes a connection idle past its timeout, as happens to the clients
          // beyond the current count; a pooled client reopens it and calls again.
          if (attempt > 0) Die("thrift1 get: " + std::string(e.what()));
          transport_->close();
          Open();
        } catch (const std::exception& e) {
          Die("thrift1 get: " + std::string(e.what()));
        }
      }
      if (cells_.size() != 1 || cells_[0].value.size() != 100) Die("thrift1 get: no value");
      return 1;
    }
    std::vector<int64_t> Stamps(Op op, int arg) override { return {Call(op, arg)}; }

   private:
    void Open() {
      try {
        transport_->open();
      } catch (const std::exception& e) {
        Die("thrift1 connect: " + std::string(e.what()));
      }
    }

    std::shared_ptr<apache::thrift::transport::TTransport> transport_;
    std::unique_ptr<basalt::thrift1::HbaseClient> client_;
    std::vector<basalt::thrift1::TCell> cells_;
  };

  std::unique_ptr<Client> NewClient() override { return std::make_unique<Thrift1Client>(address_); }
  std::string address_;
};

class RedisSystem : public System {
 public:
  explicit RedisSystem(std::string address) : address_(std::move(address)) {}
  std::string name() const override { return "Redis"; }

 private:
  class RedisClient : public Client {
   public:
    explicit RedisClient(const std::string& address) : c_(RedisConnect(address)) {}
    ~RedisClient() override { redisFree(c_); }
    int64_t Call(Op op, int arg) override { return static_cast<int64_t>(Run(op, arg, nullptr)); }
    std::vector<int64_t> Stamps(Op op, int arg) override {
      std::vector<int64_t> out;
      const size_t n = Run(op, arg, &out);
      if (op == Op::kGet) out.push_back(static_cast<int64_t>(n));
      return out;
    }

   private:
    size_t Run(Op op, int arg, std::vector<int64_t>* stamps) {
      switch (op) {
        case Op::kGet: {
          Reply r(static_cast<redisReply*>(redisCommand(c_, "GET kv:%s", RowKey(arg).c_str())));
          if (r == nullptr || r->type != REDIS_REPLY_STRING || r->len != 100) Die("redis get");
          return 1;
        }
        case Op::kLatest: {
          Reply r(static_cast<redisReply*>(redisCommand(c_, "LRANGE a:%d 20 29", arg)));
          if (r == nullptr || r->type != REDIS_REPLY_ARRAY) Die("redis lrange");
          if (stamps != nullptr) {
            for (size_t i = 0; i < r->elements; ++i) {
              stamps->push_back(SecondField(r->element[i]->str, r->element[i]->len));
            }
          }
          return r->elements;
        }
        case Op::kHome: {
          Reply ids(static_cast<redisReply*>(redisCommand(c_, "LRANGE i:%d 0 19", arg)));
          if (ids == nullptr || ids->type != REDIS_REPLY_ARRAY) Die("redis lrange");
          if (ids->elements == 0) return 0;
          argv_.assign(1, "MGET");
          for (size_t i = 0; i < ids->elements; ++i) {
            argv_.push_back("p:" + std::string(ids->element[i]->str, ids->element[i]->len));
          }
          Reply posts = RedisCall(c_, argv_);
          size_t n = 0;
          for (size_t i = 0; i < posts->elements; ++i) {
            const redisReply* p = posts->element[i];
            if (p->type != REDIS_REPLY_STRING) continue;  // a deleted post: none here
            ++n;
            if (stamps != nullptr) stamps->push_back(SecondField(p->str, p->len));
          }
          return n;
        }
        case Op::kWrite: {
          // RPUSH and LTRIM sent together, their replies read after: one round trip.
          redisAppendCommand(c_, "RPUSH w:%d %b", arg, PointValue().data(), PointValue().size());
          redisAppendCommand(c_, "LTRIM w:%d -%d -1", arg, kInboxCap);
          void* pushed = nullptr;
          void* trimmed = nullptr;
          if (redisGetReply(c_, &pushed) != REDIS_OK || redisGetReply(c_, &trimmed) != REDIS_OK) {
            Die("redis write: " + std::string(c_->errstr));
          }
          Reply p(static_cast<redisReply*>(pushed)), t(static_cast<redisReply*>(trimmed));
          if (p->type != REDIS_REPLY_INTEGER || t->type != REDIS_REPLY_STATUS) Die("redis write");
          return 1;
        }
      }
      return 0;
    }

    redisContext* c_;
    std::vector<std::string> argv_;
  };

  std::unique_ptr<Client> NewClient() override { return std::make_unique<RedisClient>(address_); }
  std::string address_;
};

class PostgresSystem : public System {
 public:
  explicit PostgresSystem(std::string conninfo) : conninfo_(std::move(conninfo)) {}
  std::string name() const override { return "PostgreSQL"; }

 private:
  class PgClient : public Client {
   public:
    explicit PgClient(const std::string& conninfo) : c_(PgConnect(conninfo)) {
      Prepare("get", "SELECT v FROM kv WHERE k = $1");
      Prepare("latest",
              "SELECT id, name, stamp FROM actions WHERE userid = $1 "
              "ORDER BY stamp DESC LIMIT 10 OFFSET 20");
      Prepare("home",
              "SELECT p.id, p.author, p.stamp, p.body FROM inbox i JOIN posts p ON p.id = "
              "i.post_id WHERE i.userid = $1 ORDER BY i.stamp DESC LIMIT 20");
      Prepare("write", "INSERT INTO writes (userid, v) VALUES ($1, $2)", 2);
    }
    ~PgClient() override { PQfinish(c_); }
    int64_t Call(Op op, int arg) override { return Run(op, arg, nullptr); }
    std::vector<int64_t> Stamps(Op op, int arg) override {
      std::vector<int64_t> out;
      const int64_t n = Run(op, arg, &out);
      if (op == Op::kGet) out.push_back(n);
      return out;
    }

   private:
    void Prepare(const char* name, const char* sql, int params = 1) {
      PGresult* r = PQprepare(c_, name, sql, params, nullptr);
      if (PQresultStatus(r) != PGRES_COMMAND_OK) Die("prepare: " + std::string(PQerrorMessage(c_)));
      PQclear(r);
    }
    int64_t Run(Op op, int arg, std::vector<int64_t>* stamps) {
      const std::string param = op == Op::kGet ? RowKey(arg) : std::to_string(arg);
      const char* values[2] = {param.c_str(), PointValue().c_str()};
      PGresult* r =
          PQexecPrepared(c_, OpName(op), op == Op::kWrite ? 2 : 1, values, nullptr, nullptr, 0);
      if (PQresultStatus(r) != (op == Op::kWrite ? PGRES_COMMAND_OK : PGRES_TUPLES_OK)) {
        Die("postgres: " + std::string(PQerrorMessage(c_)));
      }
      if (op == Op::kWrite) {
        PQclear(r);
        return 1;
      }
      const int n = PQntuples(r);
      if (op == Op::kGet && (n != 1 || PQgetlength(r, 0, 0) != 100)) Die("postgres get");
      if (stamps != nullptr && op != Op::kGet) {
        // The stamp is column 2 of both queries.
        for (int i = 0; i < n; ++i) stamps->push_back(std::atoll(PQgetvalue(r, i, 2)));
      }
      PQclear(r);
      return n;
    }
    PGconn* c_;
  };

  std::unique_ptr<Client> NewClient() override { return std::make_unique<PgClient>(conninfo_); }
  std::string conninfo_;
};

// ---------------------------------------------------------------------------------------------
// run: measuring

struct Args {
  int point_rows = 0;
  int action_users = 0;
  int feed_users = 0;
  const basalt::bench::Zipf* zipf = nullptr;  // over action_users
  int Pick(Op op, std::mt19937_64& rng) const {
    switch (op) {
      case Op::kGet:
        return static_cast<int>(rng() % static_cast<uint64_t>(point_rows));
      case Op::kLatest:
        return (*zipf)(rng);
      case Op::kHome:
      case Op::kWrite:
        return static_cast<int>(rng() % static_cast<uint64_t>(feed_users));
    }
    return 0;
  }
};

Args MakeArgs(double scale, const basalt::bench::Zipf& zipf, int action_users) {
  return Args{.point_rows = PointRows(scale),
              .action_users = action_users,
              .feed_users = basalt::bench::MakeFeedWorkload(scale, kFollows).users,
              .zipf = &zipf};
}

int ActionUsers(double scale) {
  return std::max(1, static_cast<int>(std::lround(100000 * scale)));
}

struct Figures {
  std::vector<double> latencies_us;
  int64_t items = 0;
  int64_t ops = 0;
};

// `clients` threads call `op` in a closed loop for `seconds`; returns operations per second.
double Measure(System& system, Op op, int clients, double seconds, uint64_t seed, const Args& args,
               Figures* fig) {
  std::vector<Client*> handles;
  for (int i = 0; i < clients; ++i) handles.push_back(&system.client(i));
  std::vector<std::vector<double>> us(clients);
  std::vector<int64_t> items(clients, 0);
  for (auto& v : us) v.reserve(16384);
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  Clock::time_point start, deadline;
  std::vector<std::thread> threads;
  for (int t = 0; t < clients; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937_64 rng(seed * 1000 + static_cast<uint64_t>(t));
      ++ready;
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      for (;;) {
        const int arg = args.Pick(op, rng);
        const auto t0 = Clock::now();
        if (t0 >= deadline) break;
        items[t] += handles[t]->Call(op, arg);
        us[t].push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
      }
    });
  }
  while (ready.load() < clients) std::this_thread::yield();
  start = Clock::now();
  deadline =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  go.store(true, std::memory_order_release);
  for (auto& th : threads) th.join();
  const double elapsed = Seconds(Clock::now() - start);
  int64_t ops = 0;
  for (int t = 0; t < clients; ++t) {
    ops += static_cast<int64_t>(us[t].size());
    fig->items += items[t];
    fig->latencies_us.insert(fig->latencies_us.end(), us[t].begin(), us[t].end());
  }
  fig->ops += ops;
  return static_cast<double>(ops) / elapsed;
}

// Every system gives the same answers: the same item times for the same users.
void CheckAlike(const std::vector<System*>& systems, const Args& args) {
  std::mt19937_64 rng(7);
  for (Op op : {Op::kGet, Op::kLatest, Op::kHome}) {
    int64_t items = 0;
    System* first = nullptr;
    for (int i = 0; i < 200; ++i) {
      const int arg = args.Pick(op, rng);
      std::vector<int64_t> want;
      for (System* s : systems) {
        if (!s->Serves(op)) continue;
        if (first == nullptr || s == first) {
          first = s;
          want = s->client(0).Stamps(op, arg);
          items += static_cast<int64_t>(want.size());
        } else if (s->client(0).Stamps(op, arg) != want) {
          Die(std::string(OpName(op)) + ": " + s->name() + " and " + first->name() +
              " disagree on " + std::to_string(arg));
        }
      }
    }
    std::fprintf(stderr, "check %s: all systems agree (%lld items in 200 calls)\n", OpName(op),
                 static_cast<long long>(items));
  }
}

basalt::bench::Table Run(const Config& cfg) {
  const basalt::bench::Zipf zipf(ActionUsers(cfg.scale));
  const Args args = MakeArgs(cfg.scale, zipf, ActionUsers(cfg.scale));

  struct Entry {
    std::unique_ptr<System> system;
    bool in_process;
  };
  std::vector<Entry> entries;
  entries.push_back({std::make_unique<BasaltSystem>("basalt in process", cfg.embedded_dir), true});
  entries.push_back(
      {std::make_unique<BasaltSystem>("basalt Thrift2", "thrift://" + cfg.thrift), false});
  if (!cfg.second_thrift.empty()) {
    entries.push_back(
        {std::make_unique<BasaltSystem>(cfg.second_name, "thrift://" + cfg.second_thrift), false});
  }
  if (!cfg.thrift1.empty())
    entries.push_back({std::make_unique<Thrift1System>(cfg.thrift1), false});
  entries.push_back({std::make_unique<RedisSystem>(cfg.redis), false});
  entries.push_back({std::make_unique<PostgresSystem>(cfg.pg), false});
  std::vector<System*> systems;
  for (auto& e : entries) systems.push_back(e.system.get());
  CheckAlike(systems, args);

  // In process runs on the machine's cores, not over connections: 1 and 2 threads, once each.
  auto threads_for = [&](const Entry& e, size_t level) {
    const int n = cfg.clients[level];
    if (!e.in_process) return n;
    const int t = std::min(n, 2);
    return level > 0 && std::min(cfg.clients[level - 1], 2) == t ? 0 : t;
  };
  basalt::bench::Table table{
      .title = "served",
      .columns = {"system", "workload", "clients", "ops_per_s", "p50_us", "p99_us", "p999_us",
                  "items_per_op", "rounds_min", "rounds_max"},
      .right_aligned = {false, false, true, true, true, true, true, true, true, true},
      .rows = {}};
  for (Op op : kOps) {
    if (cfg.warmup > 0) {
      for (auto& e : entries) {
        if (!e.system->Serves(op)) continue;
        Figures ignored;
        Measure(*e.system, op, e.in_process ? 2 : cfg.clients.back(), cfg.warmup, 1, args,
                &ignored);
      }
    }
    for (size_t level = 0; level < cfg.clients.size(); ++level) {
      std::vector<std::pair<System*, int>> sides;  // system, threads
      for (auto& e : entries) {
        const int threads = threads_for(e, level);
        if (e.system->Serves(op) && threads > 0) sides.emplace_back(e.system.get(), threads);
      }
      std::vector<Figures> figs(sides.size());
      const auto rates = basalt::bench::AlternateTurns(
          static_cast<int>(sides.size()), cfg.rounds, [&](int side, int round) {
            const auto [system, threads] = sides[side];
            const double rate = Measure(*system, op, threads, cfg.seconds,
                                        100 + static_cast<uint64_t>(round), args, &figs[side]);
            std::fprintf(stderr, "round %d %-6s %-18s %3d clients: %9.0f ops/s\n", round + 1,
                         OpName(op), system->name().c_str(), threads, rate);
            return rate;
          });
      for (size_t s = 0; s < sides.size(); ++s) {
        const Figures& fig = figs[s];
        const basalt::bench::Spread spread = basalt::bench::Summarise(rates[s]);
        table.AddRow({sides[s].first->name(), OpName(op), std::to_string(sides[s].second),
                      Fixed(basalt::bench::Median(rates[s]), 1),
                      Fixed(basalt::bench::Percentile(fig.latencies_us, 0.50), 1),
                      Fixed(basalt::bench::Percentile(fig.latencies_us, 0.99), 1),
                      Fixed(basalt::bench::Percentile(fig.latencies_us, 0.999), 1),
                      Fixed(static_cast<double>(fig.items) /
                                static_cast<double>(std::max<int64_t>(1, fig.ops)),
                            2),
                      Fixed(spread.min, 1), Fixed(spread.max, 1)});
      }
    }
  }
  return table;
}

// Makes `cfg.ops` operations of `cfg.op` through one Thrift2 client, one at a time. The driver
// runs it through a proxy that counts the calls (bench/served_bench.py, CountCalls); with
// --ops 0 it counts what opening the connection and the recipes costs.
void Calls(const Config& cfg) {
  Op op = Op::kGet;
  for (Op o : kOps) {
    if (cfg.op == OpName(o)) op = o;
  }
  const basalt::bench::Zipf zipf(ActionUsers(cfg.scale));
  const Args args = MakeArgs(cfg.scale, zipf, ActionUsers(cfg.scale));
  BasaltSystem thrift("basalt Thrift2", "thrift://" + cfg.thrift);
  Client& client = thrift.client(0);
  std::mt19937_64 rng(9);
  for (int i = 0; i < cfg.ops; ++i) client.Call(op, args.Pick(op, rng));
}

basalt::bench::Table Load(const Config& cfg) {
  const auto t0 = Clock::now();
  const basalt::bench::ActionLogWorkload actions = basalt::bench::MakeActionLogWorkload(cfg.scale);
  const basalt::bench::FeedWorkload feed_w = basalt::bench::MakeFeedWorkload(cfg.scale, kFollows);
  const std::vector<std::vector<int>> inbox = Inboxes(feed_w);
  size_t inbox_entries = 0;
  for (const auto& in : inbox) inbox_entries += in.size();
  std::fprintf(stderr,
               "data: %d point rows; %d users, %zu actions; %d feed users, %zu follows, %zu posts, "
               "%zu inbox entries (generated in %.1f s)\n",
               PointRows(cfg.scale), actions.users, actions.action_users.size(), feed_w.users,
               feed_w.edges.size(), feed_w.authors.size(), inbox_entries,
               Seconds(Clock::now() - t0));
  LoadTimes times;
  for (const auto& [name, fn] : std::vector<std::pair<std::string, std::function<void()>>>{
           {"basalt", [&] { LoadBasalt(cfg, actions, feed_w, &times); }},
           {"Redis", [&] { LoadRedis(cfg, actions, feed_w, inbox, &times); }},
           {"PostgreSQL", [&] { LoadPostgres(cfg, actions, feed_w, inbox, &times); }}}) {
    const auto s = Clock::now();
    fn();
    std::fprintf(stderr, "%s loaded in %.1f s\n", name.c_str(), Seconds(Clock::now() - s));
  }
  basalt::bench::Table table{.title = "load",
                             .columns = {"point_rows", "users", "actions", "feed_users", "follows",
                                         "posts", "inbox_entries"},
                             .right_aligned = {},
                             .rows = {}};
  std::vector<std::string> row = {std::to_string(PointRows(cfg.scale)),
                                  std::to_string(actions.users),
                                  std::to_string(actions.action_users.size()),
                                  std::to_string(feed_w.users),
                                  std::to_string(feed_w.edges.size()),
                                  std::to_string(feed_w.authors.size()),
                                  std::to_string(inbox_entries)};
  for (const auto& [part, seconds] : times.seconds) {
    table.columns.push_back(part);
    row.push_back(Fixed(seconds, 2));
  }
  table.right_aligned.assign(table.columns.size(), true);
  table.AddRow(std::move(row));
  return table;
}

}  // namespace

int main(int argc, char** argv) {
  Config cfg;
  basalt::bench::Harness h("basalt_served_bench",
                           "basalt served over Thrift2 and Thrift1 against Redis and PostgreSQL "
                           "(driven by bench/served_bench.py)");
  CLI::App& app = h.app();
  app.add_option("mode", cfg.mode, "load, run or calls")
      ->required()
      ->check(CLI::IsMember({"load", "run", "calls"}));
  app.add_option("--basalt", cfg.basalt_dir, "load: the embedded store to create");
  app.add_option("--embedded", cfg.embedded_dir, "run: a copy of the loaded store, in process");
  app.add_option("--thrift", cfg.thrift, "run, calls: basalt serve's Thrift2 HOST:PORT");
  app.add_option("--thrift1", cfg.thrift1, "run: basalt serve's Thrift1 HOST:PORT (point gets)");
  auto* second = app.add_option("--second-thrift", cfg.second_thrift,
                                "run: a second server's Thrift2 HOST:PORT, one more system");
  second->needs(app.add_option("--second-name", cfg.second_name, "run: its name in the table"));
  app.add_option("--redis", cfg.redis, "Redis HOST:PORT");
  app.add_option("--pg", cfg.pg, "PostgreSQL conninfo");
  app.add_option("--scale", cfg.scale, "data set scale")->check(CLI::PositiveNumber);
  app.add_option("--clients", cfg.clients, "run: client counts, each measured (e.g. 1,16,64,256)")
      ->delimiter(',')
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--warmup", cfg.warmup, "run: seconds of warm-up per workload and system")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--op", cfg.op, "calls: the workload")
      ->check(CLI::IsMember({"get", "latest", "home", "write"}));
  app.add_option("--ops", cfg.ops, "calls: operations to make")->check(CLI::NonNegativeNumber);
  h.AddRounds(&cfg.rounds, 3);
  h.AddSeconds(&cfg.seconds, 2.0);
  if (int rc = h.Parse(argc, argv); rc >= 0) return rc;
  std::sort(cfg.clients.begin(), cfg.clients.end());
  cfg.clients.erase(std::unique(cfg.clients.begin(), cfg.clients.end()), cfg.clients.end());

  if (cfg.mode == "calls") {
    if (cfg.thrift.empty() || cfg.op.empty()) Die("calls needs --thrift and --op");
    Calls(cfg);
    return 0;
  }
  if (cfg.redis.empty() || cfg.pg.empty()) Die(cfg.mode + " needs --redis and --pg");
  if (cfg.mode == "load") {
    if (cfg.basalt_dir.empty()) Die("load needs --basalt");
    h.Emit(Load(cfg));
  } else {
    if (cfg.embedded_dir.empty() || cfg.thrift.empty()) Die("run needs --embedded and --thrift");
    h.Emit(Run(cfg));
  }
  return h.Finish();
}
