// The core operations through HBase's Thrift2 protocol against the same operations in process,
// side by side in one run, and what batching does over the wire.
//
// A Thrift2Server (the server `basalt serve` runs on port 9090) serves an embedded store on a
// loopback port; the "remote" side is basalt's thrift:// backend, the "embedded" side the same
// store called directly. Rounds alternate between the sides; the report gives medians and the
// ratio remote / embedded (higher is better; the wire, the protocol and the server's thread
// cost what the ratio lacks).
//
//   fillbatch100   100 one-cell rows per Table::Batch (putMultiple over Thrift2)
//   readrandom     a Get of a random one-cell row
//   scanprefix10   the 10 rows under a random prefix (one openScanner/getScannerRows/close)
//   getversions10  a Get of 10 versions of one cell
// Then batching: putMultiple with 1..1000 rows per call, and scans of 10,000 rows with
// caching (rows per getScannerRows) 1..1000, in rows/s.
//
// Usage: basalt_thrift_bench [--rounds N] [--seconds S] [--markdown FILE] [--json FILE]
//   [--only WORKLOAD]
// (--only runs one core workload and skips the batching tables: for profiling one call)

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "basalt/basalt.h"
#include "harness.h"
#include "server/thrift2/thrift2_server.h"

namespace {

using basalt::bench::Check;
using basalt::bench::Median;
using basalt::bench::RatePerSecond;

std::string Key(const char* prefix, int64_t i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s%08lld", prefix, static_cast<long long>(i));
  return buf;
}

int64_t Drain(basalt::Table& t, const basalt::Scan& scan) {
  auto scanner = t.GetScanner(scan);
  Check(scanner.status(), "scanner");
  basalt::RowResult r;
  int64_t rows = 0;
  while ((*scanner)->Next(&r)) ++rows;
  Check((*scanner)->status(), "scan");
  return rows;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 3;
  double seconds = 1.0;
  std::string only;
  basalt::bench::Harness harness("basalt_thrift_bench",
                                 "The core operations over Thrift2 against the same in process");
  harness.AddRounds(&rounds, 3);
  harness.AddSeconds(&seconds, 1.0);
  harness.app().add_option("--only", only, "run only this workload");
  if (int rc = harness.Parse(argc, argv); rc >= 0) return rc;
  std::string dir = "/tmp/basalt-thrift-bench";
  std::filesystem::remove_all(dir);
  auto embedded = basalt::Connection::Open(dir);
  Check(embedded.status(), "open");
  basalt::server::Thrift2ServerOptions options;
  options.bind_address = "127.0.0.1";
  options.port = 0;
  basalt::server::Thrift2Server server(**embedded, options);
  Check(server.Start(), "thrift2 server");
  auto remote = basalt::Connection::Open("thrift://127.0.0.1:" + std::to_string(server.port()));
  Check(remote.status(), "thrift:// connection");

  basalt::TableDescriptor desc(basalt::TableName("default", "t"));
  basalt::FamilyDescriptor f("f");
  f.max_versions = 10;
  desc.AddFamily(f);
  Check((*embedded)->admin().CreateTable(desc), "create");
  auto local_table = (*embedded)->GetTable("t");
  auto remote_table = (*remote)->GetTable("t");
  Check(local_table.status(), "table");
  Check(remote_table.status(), "remote table");

  // Data for the reads: 100,000 one-cell rows, 1,000 prefixes of 10 rows, a 10-version cell.
  constexpr int kRows = 100000;
  {
    std::vector<basalt::Mutation> batch;
    for (int i = 0; i < kRows; ++i) {
      batch.emplace_back(basalt::Put(Key("r", i)).Add("f", "q", std::string(100, 'v')));
      if (batch.size() == 1000) {
        Check((*local_table)->Batch(batch).status(), "load");
        batch.clear();
      }
    }
    for (int64_t ts = 1; ts <= 10; ++ts) {
      Check((*local_table)->Put(basalt::Put("versions").Add("f", "q", ts, "v")), "versions");
    }
  }
  std::mt19937 rng(7);
  int64_t next_write = 0;
  struct Workload {
    const char* name;
    std::function<int64_t(basalt::Table&)> op;
  };
  std::vector<Workload> workloads = {
      {"fillbatch100",
       [&](basalt::Table& t) {
         std::vector<basalt::Mutation> batch;
         for (int i = 0; i < 100; ++i) {
           batch.emplace_back(basalt::Put(Key("w", next_write++)).Add("f", "q", "value"));
         }
         Check(t.Batch(batch).status(), "batch");
         return int64_t{100};
       }},
      {"readrandom",
       [&](basalt::Table& t) {
         Check(t.Get(basalt::Get(Key("r", rng() % kRows))).status(), "get");
         return int64_t{1};
       }},
      {"scanprefix10",
       [&](basalt::Table& t) {
         std::string prefix = Key("r", (rng() % (kRows / 10)) * 10);
         prefix.pop_back();
         Drain(t, basalt::Scan().SetRowPrefix(prefix).SetCaching(10));
         return int64_t{1};
       }},
      {"getversions10",
       [&](basalt::Table& t) {
         Check(t.Get(basalt::Get("versions").ReadVersions(10)).status(), "versions");
         return int64_t{1};
       }},
  };

  if (!only.empty() && std::none_of(workloads.begin(), workloads.end(),
                                    [&](const Workload& w) { return only == w.name; })) {
    std::fprintf(stderr, "--only: no workload named %s\n", only.c_str());
    return 2;
  }
  basalt::bench::Table table;
  table.title = "core operations";
  table.columns = {"workload", "embedded ops/s", "Thrift2 ops/s", "ratio"};
  table.right_aligned = {false, true, true, true};
  for (const Workload& w : workloads) {
    if (!only.empty() && only != w.name) continue;
    std::vector<double> local, wire;
    for (int r = 0; r < rounds; ++r) {
      local.push_back(RatePerSecond(seconds, [&] { return w.op(**local_table); }));
      wire.push_back(RatePerSecond(seconds, [&] { return w.op(**remote_table); }));
    }
    double l = Median(local), rm = Median(wire);
    std::printf("%-14s embedded %10.0f  thrift2 %10.0f  ratio %.2fx\n", w.name, l, rm, rm / l);
    table.AddRow({w.name, basalt::bench::Fixed(l, 0), basalt::bench::Fixed(rm, 0),
                  basalt::bench::Fixed(rm / l, 2) + "x"});
  }
  std::printf("\n");
  harness.Emit(table);

  basalt::bench::Table batching;
  batching.title = "batching";
  batching.columns = {"rows per call", "putMultiple rows/s", "getScannerRows rows/s"};
  batching.right_aligned = {true, true, true};
  for (int per_call : {1, 10, 100, 1000}) {
    if (!only.empty()) break;
    double put_rate = RatePerSecond(seconds, [&] {
      std::vector<basalt::Mutation> batch;
      for (int i = 0; i < per_call; ++i) {
        batch.emplace_back(basalt::Put(Key("b", next_write++)).Add("f", "q", "value"));
      }
      Check((*remote_table)->Batch(batch).status(), "putMultiple");
      return static_cast<int64_t>(per_call);
    });
    double scan_rate = RatePerSecond(seconds, [&] {
      return Drain(**remote_table,
                   basalt::Scan().WithStartRow(Key("r", 0)).SetLimit(10000).SetCaching(per_call));
    });
    std::printf("batch %5d  putMultiple %10.0f rows/s  getScannerRows %10.0f rows/s\n", per_call,
                put_rate, scan_rate);
    batching.AddRow({std::to_string(per_call), basalt::bench::Fixed(put_rate, 0),
                     basalt::bench::Fixed(scan_rate, 0)});
  }
  if (only.empty()) {
    std::printf("\n");
    harness.Emit(batching);
  }
  remote_table->reset();
  Check((*remote)->Close(), "close remote");
  server.Stop();
  local_table->reset();
  Check((*embedded)->Close(), "close");
  return harness.Finish();
}
