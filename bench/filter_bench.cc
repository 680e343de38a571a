// Seeking filters against the same read written with explicit bounds, side by side in one run.
//
// A filter that can skip must not read what it skips: for each workload the report gives the
// storage keys the scan visited (ScanMetrics::keys_visited) next to the cells it returned, and
// the throughput of the filtered scan as a ratio to the explicit one (higher is better; 1.0x
// means the filter costs nothing over knowing the bounds up front).
//
//   prefix     PrefixFilter("u0421#") over 1,000,000 rows   vs  Scan::SetRowPrefix
//   fuzzy      FuzzyRowFilter "????#042" (any user, day 42) vs  one start/stop scan per user
//   colrange   ColumnRangeFilter [c0500, c0510) over 1,000 rows of 1,000 columns
//                                                           vs  Scan::AddColumn for the 10
//
// Usage: basalt_filter_bench [--dir DIR] [--rounds N] [--markdown FILE] [--json FILE]

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "basalt/basalt.h"
#include "harness.h"

namespace {

using basalt::bench::Check;
using basalt::bench::Median;

constexpr int kUsers = 1000;
constexpr int kDays = 1000;  // kUsers * kDays = 1,000,000 rows
constexpr int kWideRows = 1000;
constexpr int kWideColumns = 1000;

std::string UserDay(int user, int day) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "u%04d#%03d", user, day);
  return buf;
}

std::string Column(int c) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "c%04d", c);
  return buf;
}

// What one run of a workload read.
struct Cost {
  int64_t cells = 0;
  int64_t keys_visited = 0;
};

void Drain(basalt::Table& t, const basalt::Scan& scan, Cost* cost) {
  auto scanner = t.GetScanner(scan);
  Check(scanner.status(), "open scanner");
  basalt::RowResult r;
  while ((*scanner)->Next(&r)) cost->cells += static_cast<int64_t>(r.size());
  Check((*scanner)->status(), "scan");
  cost->keys_visited += (*scanner)->metrics().keys_visited;
}

struct Workload {
  std::string name;
  std::string what;
  basalt::Table* table;
  std::function<Cost()> filtered;
  std::function<Cost()> explicit_bounds;
};

}  // namespace

int main(int argc, char** argv) {
  std::string dir = "/tmp/basalt-filter-bench";
  int rounds = 5;
  basalt::bench::Harness harness("basalt_filter_bench",
                                 "Seeking filters against the same reads with explicit bounds");
  harness.app().add_option("--dir", dir, "where the store goes")->capture_default_str();
  harness.AddRounds(&rounds, 5);
  if (int rc = harness.Parse(argc, argv); rc >= 0) return rc;
  std::filesystem::remove_all(dir);
  auto conn = basalt::Connection::Open(dir);
  Check(conn.status(), "open");
  basalt::Admin& admin = (*conn)->admin();

  basalt::TableDescriptor tall(basalt::TableName("default", "tall"));
  tall.AddFamily(basalt::FamilyDescriptor("d"));
  Check(admin.CreateTable(tall), "create tall");
  basalt::TableDescriptor wide(basalt::TableName("default", "wide"));
  wide.AddFamily(basalt::FamilyDescriptor("d"));
  Check(admin.CreateTable(wide), "create wide");
  auto tall_table = (*conn)->GetTable("tall");
  auto wide_table = (*conn)->GetTable("wide");
  Check(tall_table.status(), "tall");
  Check(wide_table.status(), "wide");
  basalt::Table& t = **tall_table;
  basalt::Table& w = **wide_table;

  std::fprintf(stderr, "loading %d rows and %d x %d cells...\n", kUsers * kDays, kWideRows,
               kWideColumns);
  std::vector<basalt::Mutation> batch;
  auto flush = [&](basalt::Table& table) {
    if (batch.empty()) return;
    Check(table.Batch(batch).status(), "load");
    batch.clear();
  };
  for (int u = 0; u < kUsers; ++u) {
    for (int d = 0; d < kDays; ++d) {
      batch.emplace_back(basalt::Put(UserDay(u, d)).Add("d", "n", "12345678"));
    }
    flush(t);
  }
  for (int r = 0; r < kWideRows; ++r) {
    basalt::Put put(UserDay(r, 0));
    for (int c = 0; c < kWideColumns; ++c) put.Add("d", Column(c), "v");
    batch.emplace_back(std::move(put));
    if (batch.size() == 10) flush(w);
  }
  flush(w);
  for (const char* name : {"tall", "wide"}) {
    Check(admin.Flush(basalt::TableName("default", name)), "flush");
    Check(admin.MajorCompact(basalt::TableName("default", name)), "compact");
  }

  using basalt::Scan;
  std::vector<Workload> workloads;
  workloads.push_back(
      {"prefix", "PrefixFilter: 1,000 of 1,000,000 rows", &t,
       [&] {
         Cost c;
         Drain(t, Scan().SetFilter(std::make_shared<basalt::PrefixFilter>("u0421#")), &c);
         return c;
       },
       [&] {
         Cost c;
         Drain(t, Scan().SetRowPrefix("u0421#"), &c);
         return c;
       }});
  auto fuzzy =
      std::make_shared<basalt::FuzzyRowFilter>(std::vector<basalt::FuzzyRowFilter::FuzzyKey>{
          {"u0000#042", std::string("\0\1\1\1\1\0\0\0\0", 9)}});
  workloads.push_back({"fuzzy", "FuzzyRowFilter: day 42 of every user, 1,000 of 1,000,000 rows", &t,
                       [&] {
                         Cost c;
                         Drain(t, Scan().SetFilter(fuzzy), &c);
                         return c;
                       },
                       [&] {
                         Cost c;
                         for (int u = 0; u < kUsers; ++u) {
                           std::string row = UserDay(u, 42);
                           Drain(t, Scan().WithStartRow(row).WithStopRow(row, true), &c);
                         }
                         return c;
                       }});
  auto range = std::make_shared<basalt::ColumnRangeFilter>(Column(500), true, Column(510), false);
  workloads.push_back({"colrange", "ColumnRangeFilter: 10 of 1,000 columns in 1,000 rows", &w,
                       [&] {
                         Cost c;
                         Drain(w, Scan().SetFilter(range), &c);
                         return c;
                       },
                       [&] {
                         Cost c;
                         Scan s;
                         for (int col = 500; col < 510; ++col) s.AddColumn("d", Column(col));
                         Drain(w, s, &c);
                         return c;
                       }});

  basalt::bench::Table table;
  table.columns = {"workload",
                   "cells returned",
                   "keys visited (filter)",
                   "keys visited (explicit)",
                   "filter scans/s",
                   "explicit scans/s",
                   "ratio"};
  table.right_aligned = {false, true, true, true, true, true, true};
  for (const Workload& wl : workloads) {
    Cost f = wl.filtered();
    Cost e = wl.explicit_bounds();
    if (f.cells != e.cells) {
      std::fprintf(stderr, "%s: the filter returned %lld cells, the explicit read %lld\n",
                   wl.name.c_str(), static_cast<long long>(f.cells),
                   static_cast<long long>(e.cells));
      return 1;
    }
    std::vector<double> fr, er;
    for (int i = 0; i < rounds; ++i) {
      fr.push_back(basalt::bench::RatePerSecond(0.5, [&] {
        (void)wl.filtered();
        return int64_t{1};
      }));
      er.push_back(basalt::bench::RatePerSecond(0.5, [&] {
        (void)wl.explicit_bounds();
        return int64_t{1};
      }));
    }
    double fm = Median(fr), em = Median(er);
    std::printf(
        "%-9s cells %6lld  visited filter %8lld explicit %8lld  %9.1f vs %9.1f scans/s  "
        "ratio %.2fx\n",
        wl.name.c_str(), static_cast<long long>(f.cells), static_cast<long long>(f.keys_visited),
        static_cast<long long>(e.keys_visited), fm, em, fm / em);
    table.AddRow({wl.what, std::to_string(f.cells), std::to_string(f.keys_visited),
                  std::to_string(e.keys_visited), basalt::bench::Fixed(fm, 1),
                  basalt::bench::Fixed(em, 1), basalt::bench::Fixed(fm / em, 2) + "x"});
  }
  harness.Emit(table);
  return harness.Finish();
}
