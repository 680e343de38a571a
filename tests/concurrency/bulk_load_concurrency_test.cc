// Bulk loads under concurrent readers and writers, through the public API: a reader sees all of
// a load (every row, both families) or none of it, and Puts made while loads run are all kept.
// Embedded kinds only: Thrift2 has no bulk load. Runs under ThreadSanitizer too.

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "support/test_store.h"

namespace basalt::testing {
namespace {

class BulkLoadConcurrencyTest : public StoreTest {};

TEST_P(BulkLoadConcurrencyTest, ReadersSeeWholeLoadsAndConcurrentPutsSurvive) {
  BASALT_SKIP_IF_REMOTE(GetParam(), "no bulk load");
  Table& t = store().CreateTable("t", {"f", "g"});
  constexpr int kLoads = 12;
  constexpr int kRowsPerLoad = 150;
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  std::atomic<int> puts_done{0};

  // Puts interleaved with the loaded rows' keys ("L...-p"), each to both families.
  std::thread writer([&] {
    for (int i = 0; !stop.load(); ++i) {
      char row[32];
      std::snprintf(row, sizeof(row), "L%03d-%04d-p", i % kLoads, i % kRowsPerLoad);
      std::string key = std::string(row) + std::to_string(i);
      if (!t.Put(Put(key).Add("f", "q", "put").Add("g", "q", "put")).ok()) ++failures;
      puts_done.store(i + 1);
    }
  });
  // Every loaded row must show both families, and whole loads only.
  std::thread reader([&] {
    while (!stop.load()) {
      auto scanner = t.GetScanner(Scan().SetRowPrefix("L"));
      if (!scanner.ok()) {
        ++failures;
        return;
      }
      RowResult r;
      int loaded_rows = 0;
      while ((*scanner)->Next(&r)) {
        if (r.size() != 2) ++failures;
        if (r.row().find("-p") == std::string::npos) ++loaded_rows;
      }
      if (!(*scanner)->status().ok()) ++failures;
      if (loaded_rows % kRowsPerLoad != 0) ++failures;
    }
  });

  for (int load = 0; load < kLoads; ++load) {
    auto loader = store().admin().NewBulkLoader(TableName("default", "t"));
    ASSERT_OK(loader);
    for (int i = 0; i < kRowsPerLoad; ++i) {
      char row[32];
      std::snprintf(row, sizeof(row), "L%03d-%04d", load, i);
      ASSERT_OK((*loader)->Add(row, "g", "q", "loaded"));
      ASSERT_OK((*loader)->Add(row, "f", "q", "loaded"));
    }
    ASSERT_OK((*loader)->Finish());
  }
  while (puts_done.load() < 200) std::this_thread::yield();
  stop.store(true);
  writer.join();
  reader.join();
  EXPECT_EQ(failures.load(), 0);

  int loaded = 0, put = 0;
  for (const RowResult& r : ScanAll(t)) {
    ASSERT_EQ(r.size(), 2u) << r.row();
    (r.row().find("-p") == std::string::npos ? loaded : put)++;
  }
  EXPECT_EQ(loaded, kLoads * kRowsPerLoad);
  EXPECT_EQ(put, puts_done.load());
}

BASALT_INSTANTIATE_STORE_TEST(BulkLoadConcurrencyTest);

}  // namespace
}  // namespace basalt::testing
