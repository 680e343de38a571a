// One filter shared by many concurrent reads while writers change the rows: each read keeps its
// own filter state, so every read sees exactly what the filter keeps of its consistent view.
// Runs in the normal suite and under ThreadSanitizer (scripts/test.sh).

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "support/test_store.h"

namespace basalt::testing {
namespace {

class FilterConcurrencyTest : public StoreTest {};

TEST_P(FilterConcurrencyTest, SharedFilterKeepsPerReadStateUnderConcurrentWrites) {
  Table& t = store().CreateTable("t", {"a"});
  constexpr int kRows = 50;
  auto row_key = [](int i) { return "r" + std::to_string(100 + i); };
  for (int i = 0; i < kRows; ++i) {
    ASSERT_OK(t.Put(Put(row_key(i)).Add("a", "keep", "1").Add("a", "x", "0")));
  }
  // Stateful parts (PageFilter counts rows, ColumnPaginationFilter columns) shared by all reads.
  FilterPtr filter =
      FilterList::And({std::make_shared<ColumnPaginationFilter>(1, 0),
                       std::make_shared<SingleColumnValueFilter>("a", "keep", CompareOp::kEqual,
                                                                 ByteComparator::Binary("1"), true),
                       std::make_shared<PageFilter>(10)});
  std::atomic<bool> stop{false};
  std::atomic<int> bad{0};
  std::thread writer([&] {
    // Rewrites x (which sorts after keep) in every row; never touches keep.
    for (int round = 0; !stop.load() && round < 200; ++round) {
      for (int i = 0; i < kRows; ++i) {
        if (!t.Put(Put(row_key(i)).Add("a", "x", std::to_string(round))).ok()) ++bad;
      }
    }
  });
  std::vector<std::thread> readers;
  for (int r = 0; r < 3; ++r) {
    readers.emplace_back([&] {
      for (int n = 0; n < 100; ++n) {
        auto scanner = t.GetScanner(Scan().SetFilter(filter));
        if (!scanner.ok()) {
          ++bad;
          continue;
        }
        RowResult row;
        int rows = 0;
        while ((*scanner)->Next(&row)) {
          // One column per row (the first, "keep"), ten rows per scan.
          if (row.size() != 1 || row.cells()[0].qualifier != "keep") ++bad;
          ++rows;
        }
        if (!(*scanner)->status().ok() || rows != 10) ++bad;
        auto got = t.Get(Get(row_key(n % kRows)).SetFilter(filter));
        if (!got.ok() || got->size() != 1) ++bad;
      }
    });
  }
  for (auto& th : readers) th.join();
  stop = true;
  writer.join();
  EXPECT_EQ(bad.load(), 0);
}

BASALT_INSTANTIATE_STORE_TEST(FilterConcurrencyTest);

}  // namespace
}  // namespace basalt::testing
