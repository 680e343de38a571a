// The thrift:// backend's own behaviour: targets and options, the scan bounds it has to emulate,
// and where it differs from the embedded backend on purpose.

#include <optional>
#include <thread>

#include "server/thrift2/thrift2_server.h"
#include "support/test_store.h"

namespace basalt::testing {
namespace {

using Strings = std::vector<std::string>;

// An embedded store served over Thrift2, and a remote connection to it.
class RemoteBackendTest : public ::testing::Test {
 protected:
  void SetUp() override { Serve({}); }
  void TearDown() override { Shutdown(); }

  void Serve(server::Thrift2ServerOptions options, const std::string& query = "") {
    auto backing = Connection::Open("mem:");
    ASSERT_OK(backing);
    backing_ = std::move(*backing);
    options.bind_address = "127.0.0.1";
    options.port = 0;
    server_ = std::make_unique<server::Thrift2Server>(*backing_, options);
    ASSERT_OK(server_->Start());
    auto remote = Connection::Open(Target() + query);
    ASSERT_OK(remote);
    remote_ = std::move(*remote);
    TableDescriptor desc(TableName("default", "t"));
    desc.AddFamily(FamilyDescriptor("f"));
    ASSERT_OK(remote_->admin().CreateTable(desc));
    auto table = remote_->GetTable("t");
    ASSERT_OK(table);
    table_ = std::move(*table);
  }

  void Shutdown() {
    table_.reset();
    if (remote_) EXPECT_OK(remote_->Close());
    remote_.reset();
    if (server_) server_->Stop();
    server_.reset();
    if (backing_) EXPECT_OK(backing_->Close());
    backing_.reset();
  }

  std::string Target() const { return "thrift://127.0.0.1:" + std::to_string(server_->port()); }

  // Gets a row of 1,000 small cells until `total_bytes` of cells came back.
  void ReadWideRowUntil(int64_t total_bytes);

  std::unique_ptr<Connection> backing_;
  std::unique_ptr<server::Thrift2Server> server_;
  std::unique_ptr<Connection> remote_;
  std::unique_ptr<Table> table_;
};

// Thrift2 has only an inclusive startRow and an exclusive stopRow; every other combination of
// bounds, flags, prefixes, directions and limits is emulated by the client and must give exactly
// what the embedded store gives.
TEST_F(RemoteBackendTest, EveryScanBoundCombinationMatchesTheEmbeddedStore) {
  Strings rows = {"a", "b", "b\x00", "b\x00\x00", "ba", "bb", "c", "c\xff", "d"};
  rows[2] = std::string("b\0", 2);
  rows[3] = std::string("b\0\0", 3);
  rows[7] = "c\xff";
  std::vector<Mutation> puts;
  for (const auto& r : rows) puts.emplace_back(Put(r).Add("f", "q", "v"));
  ASSERT_OK(table_->Batch(puts));
  auto local_table = backing_->GetTable("t");
  ASSERT_OK(local_table);
  Table& local = **local_table;

  Strings keys = {"", "a", "b", std::string("b\0", 2), "bb", "c", "zz"};
  int checked = 0;
  for (bool reversed : {false, true}) {
    for (const auto& start : keys) {
      for (const auto& stop : keys) {
        for (bool start_inclusive : {true, false}) {
          for (bool stop_inclusive : {false, true}) {
            for (const std::string& prefix : {std::string(), std::string("b")}) {
              for (int64_t limit : {0, 1, 2}) {
                for (bool filtered : {false, true}) {
                  Scan scan;
                  scan.WithStartRow(start, start_inclusive)
                      .WithStopRow(stop, stop_inclusive)
                      .SetReversed(reversed)
                      .SetRowPrefix(prefix)
                      .SetLimit(limit)
                      .SetCaching(2);
                  // One cell per row: the filter keeps every row, but a filtered scan goes on past
                  // its first batch differently (remote_scanner.cc).
                  if (filtered) scan.SetFilter(std::make_shared<FirstKeyOnlyFilter>());
                  auto expected = local.GetScanner(scan);
                  ASSERT_OK(expected);
                  Strings want;
                  RowResult r;
                  while ((*expected)->Next(&r)) want.push_back(r.row());
                  ASSERT_OK((*expected)->status());
                  EXPECT_EQ(ScanRows(*table_, scan), want)
                      << "reversed=" << reversed << " start='" << start << "'"
                      << (start_inclusive ? "[" : "(") << " stop='" << stop << "'"
                      << (stop_inclusive ? "]" : ")") << " prefix='" << prefix
                      << "' limit=" << limit << " filtered=" << filtered;
                  ++checked;
                }
              }
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(checked, 2 * 7 * 7 * 2 * 2 * 2 * 3 * 2);
}

TEST_F(RemoteBackendTest, ScannerStreamsInBatchesOfTheScansCaching) {
  std::vector<Mutation> puts;
  for (int i = 0; i < 250; ++i) {
    char row[8];
    std::snprintf(row, sizeof row, "r%03d", i);
    puts.emplace_back(Put(row).Add("f", "q", "v"));
  }
  ASSERT_OK(table_->Batch(puts));
  for (int caching : {0, 1, 7, 1000}) {
    EXPECT_EQ(ScanRows(*table_, Scan().SetCaching(caching)).size(), 250u) << caching;
  }
  auto scanner = table_->GetScanner(Scan().SetCaching(10));
  ASSERT_OK(scanner);
  RowResult r;
  ASSERT_TRUE((*scanner)->Next(&r));
  (*scanner)->Close();
  EXPECT_FALSE((*scanner)->Next(&r));
  EXPECT_OK((*scanner)->status());
}

// Round trips are what a served call costs: a scan that fits in one batch is one
// getScannerResults, a multi-get one getMultiple, whatever they carry.
TEST_F(RemoteBackendTest, ASmallScanAMultiGetAndAGetAreOneCallEach) {
  std::vector<Mutation> puts;
  for (int i = 0; i < 30; ++i) puts.emplace_back(Put("r" + std::to_string(i)).Add("f", "q", "v"));
  ASSERT_OK(table_->Batch(puts));
  auto calls_of = [&](const std::function<void()>& op) {
    const uint64_t before = server_->calls();
    op();
    return server_->calls() - before;
  };
  EXPECT_EQ(calls_of([&] { EXPECT_EQ(ScanRows(*table_, Scan()).size(), 30u); }), 1u);
  EXPECT_EQ(calls_of([&] {
              EXPECT_EQ(ScanRows(*table_, Scan().SetRowPrefix("r1").SetReversed(true)).size(), 11u);
            }),
            1u);
  EXPECT_EQ(calls_of([&] { EXPECT_EQ(ScanRows(*table_, Scan().SetLimit(10)).size(), 10u); }), 1u);
  // The limit fills the batch exactly: nothing can follow, so no second call asks.
  EXPECT_EQ(
      calls_of([&] { EXPECT_EQ(ScanRows(*table_, Scan().SetLimit(5).SetCaching(5)).size(), 5u); }),
      1u);
  EXPECT_EQ(calls_of([&] {
              auto rows = table_->Get(std::vector<Get>{Get("r1"), Get("r2"), Get("nope")});
              ASSERT_OK(rows);
              EXPECT_EQ(rows->size(), 3u);
            }),
            1u);
  EXPECT_EQ(calls_of([&] { ASSERT_OK(table_->Get(Get("r1"))); }), 1u);
  // Past one batch: the first batch, then a server-side scanner for the rest (open, rows until an
  // empty batch, close).
  EXPECT_EQ(calls_of([&] { EXPECT_EQ(ScanRows(*table_, Scan().SetCaching(20)).size(), 30u); }),
            1u + 1u + 2u + 1u);
}

// A multi-get goes in calls of at most 1,000 Gets, in order: rows found and rows missing keep
// their places across the calls.
TEST_F(RemoteBackendTest, AMultiGetOfManyRowsIsSentInCallsOfAThousandGets) {
  std::vector<Mutation> puts;
  for (int i = 0; i < 2500; i += 2) {
    puts.emplace_back(Put("r" + std::to_string(i)).Add("f", "q", "v" + std::to_string(i)));
  }
  ASSERT_OK(table_->Batch(puts));
  std::vector<Get> gets;
  std::vector<std::string> rows;
  for (int i = 0; i < 2500; ++i) {
    gets.emplace_back("r" + std::to_string(i));
    rows.push_back("r" + std::to_string(i));
  }
  uint64_t before = server_->calls();
  auto got = table_->Get(gets);
  ASSERT_OK(got);
  EXPECT_EQ(server_->calls() - before, 3u);
  ASSERT_EQ(got->size(), 2500u);
  for (int i = 0; i < 2500; ++i) {
    SCOPED_TRACE(i);
    if (i % 2 == 0) {
      ASSERT_EQ((*got)[i].row(), "r" + std::to_string(i));
      EXPECT_EQ((*got)[i].Value("f", "q"), "v" + std::to_string(i));
    } else {
      EXPECT_TRUE((*got)[i].empty());
    }
  }
  before = server_->calls();
  auto values = table_->GetColumnValues("f", "q", rows);
  ASSERT_OK(values);
  EXPECT_EQ(server_->calls() - before, 3u);
  ASSERT_EQ(values->size(), 2500u);
  for (int i = 0; i < 2500; ++i) {
    EXPECT_EQ((*values)[i],
              i % 2 == 0 ? std::optional<std::string>("v" + std::to_string(i)) : std::nullopt)
        << i;
  }
  before = server_->calls();
  auto none = table_->Get(std::vector<Get>{});
  ASSERT_OK(none);
  EXPECT_TRUE(none->empty());
  EXPECT_EQ(server_->calls() - before, 0u);
}

// The server refuses a getMultiple whose rows pass 16 MiB ("ask for fewer rows per call"); the
// client sends such a multi-get again in halves, so its caller gets every row.
TEST_F(RemoteBackendTest, AMultiGetPastTheServersResultCapIsSplitInHalves) {
  constexpr int kRows = 24;  // of 1 MiB each
  const std::string value(1 << 20, 'v');
  std::vector<Get> gets;
  std::vector<std::string> rows;
  for (int i = 0; i < kRows; ++i) {
    const std::string row = "big" + std::to_string(100 + i);
    ASSERT_OK(table_->Put(Put(row).Add("f", "q", value + std::to_string(i))));
    gets.emplace_back(row);
    rows.push_back(row);
  }
  gets.emplace_back("missing");
  rows.push_back("missing");
  uint64_t before = server_->calls();
  auto got = table_->Get(gets);
  ASSERT_OK(got);
  // 25 Gets refused, then calls of 12 (half), 12 and the last 1.
  EXPECT_EQ(server_->calls() - before, 4u);
  ASSERT_EQ(got->size(), rows.size());
  for (int i = 0; i < kRows; ++i) {
    ASSERT_EQ((*got)[i].row(), rows[i]) << i;
    EXPECT_EQ((*got)[i].Value("f", "q"), value + std::to_string(i)) << i;
  }
  EXPECT_TRUE(got->back().empty());
  auto values = table_->GetColumnValues("f", "q", rows);
  ASSERT_OK(values);
  ASSERT_EQ(values->size(), rows.size());
  for (int i = 0; i < kRows; ++i) EXPECT_EQ((*values)[i], value + std::to_string(i)) << i;
  EXPECT_EQ(values->back(), std::nullopt);
}

// A batch checks its families against the descriptor read within the last second: the second
// batch in a row is one call, and a family added meanwhile is found by reading it again.
TEST_F(RemoteBackendTest, BatchesReuseARecentDescriptorAndSeeANewFamily) {
  auto calls_of = [&](const std::function<void()>& op) {
    const uint64_t before = server_->calls();
    op();
    return server_->calls() - before;
  };
  std::vector<Mutation> puts = {Put("a").Add("f", "q", "1"), Put("b").Add("f", "q", "2")};
  EXPECT_EQ(calls_of([&] { ASSERT_OK(table_->Batch(puts)); }), 2u);  // descriptor + putMultiple
  EXPECT_EQ(calls_of([&] { ASSERT_OK(table_->Batch(puts)); }), 1u);
  EXPECT_EQ(
      calls_of([&] { ASSERT_OK(table_->Put(std::vector<Put>{Put("c").Add("f", "q", "3")})); }), 1u);
  FamilyDescriptor g;
  g.name = "g";
  ASSERT_OK(remote_->admin().AddFamily(TableName("default", "t"), g));
  std::vector<Mutation> new_family = {Put("a").Add("g", "q", "1")};
  ASSERT_OK(table_->Batch(new_family));
  // An unknown family is still refused before anything is written, with the fresh descriptor.
  std::vector<Mutation> bad = {Put("x").Add("f", "q", "1"), Put("y").Add("nope", "q", "1")};
  Status s = table_->Batch(bad).status();
  EXPECT_TRUE(s.IsNoSuchFamily()) << s.ToString();
  auto x = table_->Get(Get("x"));
  ASSERT_OK(x);
  EXPECT_TRUE(x->empty());
}

// A scan with a limit and no caching asks for its whole limit at once (up to 1,000 rows): a page
// of a few hundred rows is one call, where a default batch of 100 rows took five.
TEST_F(RemoteBackendTest, ALimitedScanWithoutCachingIsOneCallUpToAThousandRows) {
  std::vector<Mutation> puts;
  for (int i = 0; i < 1500; ++i) {
    puts.emplace_back(Put("r" + std::to_string(10000 + i)).Add("f", "q", "v"));
  }
  ASSERT_OK(table_->Batch(puts));
  auto calls_of = [&](const std::function<void()>& op) {
    const uint64_t before = server_->calls();
    op();
    return server_->calls() - before;
  };
  EXPECT_EQ(calls_of([&] { EXPECT_EQ(ScanRows(*table_, Scan().SetLimit(501)).size(), 501u); }), 1u);
  EXPECT_EQ(calls_of([&] {
              EXPECT_EQ(ScanRows(*table_, Scan().SetLimit(501).SetReversed(true)).size(), 501u);
            }),
            1u);
  // The caller's caching still rules, and past 1,000 rows the scan goes on with a scanner (the
  // first batch, then open, rows until an empty batch, close).
  EXPECT_EQ(calls_of([&] {
              EXPECT_EQ(ScanRows(*table_, Scan().SetLimit(250).SetCaching(100)).size(), 250u);
            }),
            1u + 1u + 3u + 1u);
  EXPECT_EQ(calls_of([&] { EXPECT_EQ(ScanRows(*table_, Scan().SetLimit(1200)).size(), 1200u); }),
            1u + 1u + 2u + 1u);
  // Without a limit, 100 rows a call as before.
  EXPECT_EQ(calls_of([&] { EXPECT_EQ(ScanRows(*table_, Scan()).size(), 1500u); }),
            1u + 1u + 15u + 1u);
}

// A filter may keep state across rows; past the first batch the scan goes on from the start
// (dropping the rows returned) so that it sees the whole scan, as in process.
TEST_F(RemoteBackendTest, AStatefulFilterSeesTheWholeScanPastTheFirstBatch) {
  std::vector<Mutation> puts;
  for (int i = 10; i < 40; ++i) puts.emplace_back(Put("r" + std::to_string(i)).Add("f", "q", "v"));
  ASSERT_OK(table_->Batch(puts));
  for (bool reversed : {false, true}) {
    Scan scan =
        Scan().SetReversed(reversed).SetCaching(3).SetFilter(std::make_shared<PageFilter>(7));
    Strings want;
    for (int i = 0; i < 7; ++i) want.push_back("r" + std::to_string(reversed ? 39 - i : 10 + i));
    EXPECT_EQ(ScanRows(*table_, scan), want) << "reversed=" << reversed;
  }
}

TEST_F(RemoteBackendTest, FramedCompactTargetTalksToAFramedCompactServer) {
  Shutdown();
  server::Thrift2ServerOptions options;
  options.framed = true;
  options.compact = true;
  Serve(options, "?transport=framed&protocol=compact");
  ASSERT_OK(table_->Put(Put("r").Add("f", "q", "v")));
  auto got = table_->Get(Get("r"));
  ASSERT_OK(got);
  EXPECT_EQ(got->Value("f", "q"), "v");
  EXPECT_EQ(remote_->target(), Target() + "?transport=framed&protocol=compact");
  // A buffered client cannot talk to a framed server.
  auto mismatched = Connection::Open(Target() + "?timeout_ms=2000");
  EXPECT_TRUE(mismatched.status().IsIOError()) << mismatched.status().ToString();
}

// The server closes connections idle past its read timeout; the pool must not hand such a
// connection to the next call. With idle_ms above the server's timeout, the call after a pause
// meets a connection the server has closed: a read is sent again on a fresh connection, a call
// that must not run twice (an Increment) fails and its connection is dropped.
TEST_F(RemoteBackendTest, CallsAfterAPauseLongerThanTheServersReadTimeoutSucceed) {
  Shutdown();
  server::Thrift2ServerOptions options;
  options.read_timeout = std::chrono::milliseconds(200);
  Serve(options, "?idle_ms=100");
  ASSERT_OK(table_->Put(Put("r").Add("f", "q", "v")));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  auto got = table_->Get(Get("r"));
  ASSERT_OK(got);
  EXPECT_EQ(got->Value("f", "q"), "v");

  Shutdown();
  Serve(options, "?idle_ms=60000");
  ASSERT_OK(table_->Put(Put("r").Add("f", "q", "v")));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  Status read = table_->Get(Get("r")).status();
  EXPECT_TRUE(read.ok()) << "a read on a dead pooled connection is retried: " << read.ToString();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_TRUE(table_->Increment(Increment("n").AddColumn("f", "c", 1)).status().IsIOError())
      << "the stale connection was reused, and an Increment is not sent twice";
  auto counted = table_->Increment(Increment("n").AddColumn("f", "c", 1));
  ASSERT_OK(counted);  // the broken connection was dropped
  EXPECT_EQ(*DecodeCounter(*counted->Value("f", "c")), 1);
}

// A server that restarts leaves every pooled connection dead; reads go on without an error.
TEST_F(RemoteBackendTest, ReadsSurviveAServerRestartBehindAPooledConnection) {
  ASSERT_OK(table_->Put(Put("r").Add("f", "q", "v")));
  const int port = server_->port();
  server_->Stop();
  server::Thrift2ServerOptions options;
  options.bind_address = "127.0.0.1";
  options.port = port;
  server_ = std::make_unique<server::Thrift2Server>(*backing_, options);
  ASSERT_OK(server_->Start());
  auto got = table_->Get(Get("r"));
  ASSERT_OK(got);
  EXPECT_EQ(got->Value("f", "q"), "v");
  EXPECT_EQ(ScanRows(*table_), Strings{"r"});
}

TEST_F(RemoteBackendTest, MalformedTargetsAreInvalidArgumentAndNoServerIsIOError) {
  EXPECT_TRUE(Connection::Open("thrift://").status().IsInvalidArgument());
  EXPECT_TRUE(Connection::Open("thrift://host").status().IsInvalidArgument());
  EXPECT_TRUE(Connection::Open("thrift://host:0").status().IsInvalidArgument());
  EXPECT_TRUE(Connection::Open(Target() + "?transport=udp").status().IsInvalidArgument());
  EXPECT_TRUE(Connection::Open(Target() + "?colour=red").status().IsInvalidArgument());
  EXPECT_TRUE(Connection::Open(Target() + "?idle_ms=0").status().IsInvalidArgument());
  int port = server_->port();
  Shutdown();
  auto gone = Connection::Open("thrift://127.0.0.1:" + std::to_string(port));
  EXPECT_TRUE(gone.status().IsIOError()) << gone.status().ToString();
}

TEST_F(RemoteBackendTest, ErrorsKeepTheirClassAcrossTheWire) {
  EXPECT_TRUE(remote_->GetTable("nosuch").status().IsNotFound());
  EXPECT_TRUE(table_->Put(Put("r").Add("nofamily", "q", "v")).IsNotFound());
  TableDescriptor dup(TableName("default", "t"));
  dup.AddFamily(FamilyDescriptor("f"));
  EXPECT_TRUE(remote_->admin().CreateTable(dup).IsAlreadyExists());
  EXPECT_TRUE(remote_->admin().DeleteTable(TableName("default", "t")).IsFailedPrecondition());
}

// Differences from the embedded backend, pinned.
TEST_F(RemoteBackendTest, BatchIsNotAtomicAcrossRowsOverThrift) {
  ASSERT_OK(table_->Put(Put("b").Add("f", "n", "not a counter")));
  std::vector<Mutation> batch;
  batch.emplace_back(Put("a").Add("f", "q", "1"));
  batch.emplace_back(Increment("b").AddColumn("f", "n", 1));  // only the server can tell
  batch.emplace_back(Put("c").Add("f", "q", "3"));
  auto r = table_->Batch(batch);
  EXPECT_TRUE(r.status().IsInvalidArgument()) << r.status().ToString();
  // Applied one row at a time, in order, stopping at the first failure.
  EXPECT_EQ(ScanRows(*table_), (Strings{"a", "b"}));
}

TEST_F(RemoteBackendTest, BatchSendsARunOfPutsAsOnePutMultiple) {
  // basalt's server applies one putMultiple as one atomic batch: when the server rejects one Put
  // of a run (a value over its limit), none of the run is written. One call per Put would have
  // written "a".
  std::vector<Mutation> batch;
  batch.emplace_back(Put("a").Add("f", "q", "1"));
  batch.emplace_back(Put("b").Add("f", "q", std::string(11 << 20, 'x')));
  batch.emplace_back(Put("c").Add("f", "q", "3"));
  auto r = table_->Batch(batch);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(ScanRows(*table_), Strings{});
  // A good run goes through whole, Deletes too.
  batch.erase(batch.begin() + 1);
  ASSERT_OK(table_->Batch(batch));
  EXPECT_EQ(ScanRows(*table_), (Strings{"a", "c"}));
  std::vector<Mutation> deletes;
  deletes.emplace_back(Delete("a"));
  deletes.emplace_back(Delete("c"));
  ASSERT_OK(table_->Batch(deletes));
  EXPECT_EQ(ScanRows(*table_), Strings{});
}

TEST_F(RemoteBackendTest, WhatThrift2CannotExpressIsNotSupported) {
  EXPECT_TRUE(table_->GetScanner(Scan().SetRaw(true)).status().IsNotSupported());
  EXPECT_TRUE(table_->GetScanner(Scan().SetMaxResultsPerColumnFamily(1)).status().IsNotSupported());
  EXPECT_TRUE(table_->Increment(Increment("r").AddColumn("f", "n", 1).SetTimeRange({0, 10}))
                  .status()
                  .IsNotSupported());
  EXPECT_TRUE(
      table_
          ->CheckAndMutate(CheckAndMutate("r").IfNotExists("f", "q").SetTimeRange({0, 10}).Then(
              Put("r").Add("f", "q", "v")))
          .status()
          .IsNotSupported());
  EXPECT_TRUE(remote_->admin().Flush(TableName("default", "t")).IsNotSupported());
  EXPECT_TRUE(remote_->admin().MajorCompact(TableName("default", "t")).IsNotSupported());
}

TEST_F(RemoteBackendTest, ServerAssignsTimestampsWhenTheClientGivesNone) {
  int64_t before = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  ASSERT_OK(table_->Put(Put("r").Add("f", "q", "v")));
  auto got = table_->Get(Get("r"));
  ASSERT_OK(got);
  ASSERT_EQ(got->size(), 1u);
  EXPECT_GE(got->cells()[0].timestamp, before);
}

TEST_F(RemoteBackendTest, OneConnectionServesManyThreads) {
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      auto table = remote_->GetTable("t");
      if (!table.ok()) {
        ++failures;
        return;
      }
      for (int i = 0; i < 50; ++i) {
        std::string row = "t" + std::to_string(t) + "-" + std::to_string(i);
        if (!(*table)->Put(Put(row).Add("f", "q", row)).ok()) ++failures;
        auto got = (*table)->Get(Get(row));
        if (!got.ok() || got->Value("f", "q") != row) ++failures;
        if (!(*table)->IncrementColumnValue("counter", "f", "n", 1).ok()) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  auto total = table_->Get(Get("counter"));
  ASSERT_OK(total);
  EXPECT_EQ(DecodeCounter(*total->Value("f", "n")).value_or(-1), 200);
}

// The message-size limit bounds one answer, not what a pooled connection reads in its life: 24
// MiB of answers through one connection whose limit is 1 MiB. (The server's side of the same
// limit once dropped long-lived connections: server/thrift/message_transports.h.)
TEST_F(RemoteBackendTest, ALongLivedConnectionReadsManyTimesTheMessageLimit) {
  for (const char* query : {"?max_message_bytes=1048576",
                            "?max_message_bytes=1048576&transport=framed&protocol=compact"}) {
    SCOPED_TRACE(query);
    Shutdown();
    server::Thrift2ServerOptions options;
    options.framed = std::string_view(query).find("framed") != std::string_view::npos;
    options.compact = options.framed;
    Serve(options, query);
    ReadWideRowUntil(int64_t{24} << 20);
  }
}

void RemoteBackendTest::ReadWideRowUntil(int64_t total_bytes) {
  Put put("wide");
  for (int i = 0; i < 1000; ++i) put.Add("f", "q" + std::to_string(i), std::string(120, 'v'));
  ASSERT_OK(table_->Put(put));
  int64_t bytes = 0;
  int gets = 0;
  while (bytes < total_bytes) {
    auto row = table_->Get(Get("wide"));
    ASSERT_TRUE(row.ok()) << row.status().ToString() << " after " << gets << " gets, "
                          << (bytes >> 20) << " MiB";
    ASSERT_EQ(row->size(), 1000u);
    for (const Cell& cell : row->cells()) {
      bytes += static_cast<int64_t>(cell.row.size() + cell.family.size() + cell.qualifier.size() +
                                    cell.value.size());
    }
    ++gets;
  }
}

}  // namespace
}  // namespace basalt::testing
