// Bulk load (Admin::NewBulkLoader) against batched Puts of the same cells, side by side in one
// run.
//
// The cells: --cells rows "row%012d" in order, one cell each (f:q) with a value of --value-bytes
// pseudo-random bytes, the same on every side. Each side loads them into a fresh table of a
// fresh store under --dir and is timed from its first cell until the data is durable:
//
//   bulk         BulkLoader::Add of every cell, then Finish (table files written, synced and
//                ingested)
//   puts         Table::Put(std::vector<Put>) of --batch single-cell Puts at a time (the
//                fastest put path: one engine write per batch), table default durability
//                (SYNC_WAL: each batch is durable when it returns)
//   puts-skipwal the same batches with SKIP_WAL, then Admin::Flush so that the data is on disk
//                at the end, as the bulk load's is
//
// The sides take turns in each of --rounds rounds; the report gives each side's median rate
// (cells/s) and the median of the rounds' ratios (bulk / side). After the first round each store
// is checked to hold every cell (a full scan, untimed).
//
// Usage: basalt_bulk_load_bench [--cells N] [--value-bytes B] [--batch B] [--rounds R]
//                               [--dir DIR] [--markdown FILE] [--json FILE]

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "basalt/basalt.h"
#include "harness.h"
#include "workloads.h"

namespace {

using basalt::bench::Check;
using Clock = std::chrono::steady_clock;

struct Config {
  int64_t cells = 2'000'000;
  size_t value_bytes = 100;
  size_t batch = 1000;
  int rounds = 3;
  std::string dir = "/tmp/basalt-bulk-load-bench";
};

std::unique_ptr<basalt::Connection> FreshStore(const Config& c, const std::string& side) {
  const std::string path = c.dir + "/" + side;
  std::filesystem::remove_all(path);
  auto conn = basalt::Connection::Open(path);
  Check(conn.status(), "opening the store");
  basalt::TableDescriptor desc(basalt::TableName("default", "t"));
  desc.AddFamily(basalt::FamilyDescriptor("f"));
  Check((*conn)->admin().CreateTable(desc), "creating the table");
  return std::move(*conn);
}

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double LoadBulk(const Config& c, basalt::Connection& conn) {
  basalt::bench::CellSource src(c.value_bytes);
  const auto start = Clock::now();
  auto loader = conn.admin().NewBulkLoader(basalt::TableName("default", "t"));
  Check(loader.status(), "NewBulkLoader");
  for (int64_t i = 0; i < c.cells; ++i) {
    Check((*loader)->Add(src.Row(i), "f", "q", src.Value(i)), "BulkLoader::Add");
  }
  Check((*loader)->Finish().status(), "BulkLoader::Finish");
  return SecondsSince(start);
}

double LoadPuts(const Config& c, basalt::Connection& conn, basalt::Durability durability) {
  basalt::bench::CellSource src(c.value_bytes);
  auto table = conn.GetTable("t");
  Check(table.status(), "GetTable");
  std::vector<basalt::Put> puts;
  puts.reserve(c.batch);
  const auto start = Clock::now();
  for (int64_t i = 0; i < c.cells;) {
    puts.clear();
    for (size_t k = 0; k < c.batch && i < c.cells; ++k, ++i) {
      puts.emplace_back(src.Row(i)).Add("f", "q", src.Value(i)).SetDurability(durability);
    }
    Check((*table)->Put(puts), "Table::Put");
  }
  if (durability == basalt::Durability::kSkipWal) {
    Check(conn.admin().Flush(basalt::TableName("default", "t")), "Flush");
  }
  return SecondsSince(start);
}

void CheckLoaded(const Config& c, basalt::Connection& conn, const char* side) {
  auto table = conn.GetTable("t");
  Check(table.status(), "GetTable");
  auto scanner = (*table)->GetScanner(basalt::Scan());
  Check(scanner.status(), "GetScanner");
  basalt::bench::CellSource src(c.value_bytes);
  basalt::RowResult row;
  int64_t n = 0;
  while ((*scanner)->Next(&row)) {
    if (row.row() != src.Row(n) || row.size() != 1 || row.cells()[0].value != src.Value(n)) {
      std::fprintf(stderr, "%s: row %lld is not the cell loaded\n", side,
                   static_cast<long long>(n));
      std::exit(1);
    }
    ++n;
  }
  Check((*scanner)->status(), "scan");
  if (n != c.cells) {
    std::fprintf(stderr, "%s: %lld rows, expected %lld\n", side, static_cast<long long>(n),
                 static_cast<long long>(c.cells));
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Config c;
  basalt::bench::Harness harness("basalt_bulk_load_bench",
                                 "Table files ingested against batched Puts of the same cells");
  harness.app()
      .add_option("--cells", c.cells, "cells loaded by each side")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  harness.app()
      .add_option("--value-bytes", c.value_bytes, "bytes of each value")
      ->capture_default_str();
  harness.app()
      .add_option("--batch", c.batch, "Puts per call")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  harness.app().add_option("--dir", c.dir, "where the stores go")->capture_default_str();
  harness.AddRounds(&c.rounds, 3);
  if (int rc = harness.Parse(argc, argv); rc >= 0) return rc;
  std::filesystem::create_directories(c.dir);
  struct Side {
    const char* name;
    std::vector<double> rates;
    std::vector<double> ratios;  // bulk / this side
  };
  std::vector<Side> sides = {{"bulk", {}, {}}, {"puts", {}, {}}, {"puts-skipwal", {}, {}}};
  std::printf("%lld cells of %zu bytes, Put batches of %zu, %d rounds\n",
              static_cast<long long>(c.cells), c.value_bytes, c.batch, c.rounds);
  for (int round = 0; round < c.rounds; ++round) {
    double seconds[3];
    for (size_t s = 0; s < sides.size(); ++s) {
      auto conn = FreshStore(c, sides[s].name);
      if (s == 0) {
        seconds[s] = LoadBulk(c, *conn);
      } else {
        seconds[s] = LoadPuts(
            c, *conn, s == 1 ? basalt::Durability::kUseDefault : basalt::Durability::kSkipWal);
      }
      if (round == 0) CheckLoaded(c, *conn, sides[s].name);
      Check(conn->Close(), "Close");
      conn.reset();
      std::filesystem::remove_all(c.dir + "/" + sides[s].name);
      sides[s].rates.push_back(static_cast<double>(c.cells) / seconds[s]);
      std::printf("round %d  %-13s %8.2f s  %12.0f cells/s\n", round + 1, sides[s].name, seconds[s],
                  sides[s].rates.back());
      std::fflush(stdout);
    }
    for (size_t s = 0; s < sides.size(); ++s) sides[s].ratios.push_back(seconds[s] / seconds[0]);
  }

  basalt::bench::Table table;
  table.columns = {"side", "cells/s (median)", "cells/s (min-max)",
                   "bulk load / side (median of rounds)"};
  table.right_aligned = {false, true, true, true};
  for (const Side& s : sides) {
    const basalt::bench::Spread rate = basalt::bench::Summarise(s.rates);
    table.AddRow({s.name, basalt::bench::Fixed(rate.median, 0),
                  basalt::bench::Fixed(rate.min, 0) + "-" + basalt::bench::Fixed(rate.max, 0),
                  basalt::bench::Fixed(basalt::bench::Median(s.ratios), 2) + "x"});
  }
  std::printf("\n");
  harness.Emit(table);
  return harness.Finish();
}
