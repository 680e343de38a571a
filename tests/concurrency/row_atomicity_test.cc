// Row atomicity and read-modify-write under concurrency, through the public API. Runs in the
// normal suite and under ThreadSanitizer (scripts/test.sh).

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "support/test_store.h"

namespace basalt::testing {
namespace {

constexpr int kRowThreads = 4;

class RowAtomicityTest : public StoreTest {
 protected:
  // A thread that flushes and compacts `table` until `stop`, replacing the files that readers'
  // iterators pin.
  std::thread CompactUntil(const std::string& table, const std::atomic<bool>& stop) {
    return std::thread([this, table, &stop] {
      while (!stop.load()) {
        EXPECT_OK(store().Flush(TableName("default", table)));
        EXPECT_OK(store().MajorCompact(TableName("default", table)));
      }
    });
  }
};

TEST_P(RowAtomicityTest, ConcurrentIncrementsLoseNoUpdate) {
  Table& t = store().CreateTable("counters", {"c"});
  constexpr int kPerThread = 1000;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int i = 0; i < kRowThreads; ++i) {
    threads.emplace_back([&] {
      for (int n = 0; n < kPerThread; ++n) {
        // Two columns per Increment: both must move together.
        auto r = t.Increment(Increment("row").AddColumn("c", "a", 1).AddColumn("c", "b", 2));
        if (!r.ok()) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  auto r = t.Get(Get("row"));
  ASSERT_OK(r);
  EXPECT_EQ(*DecodeCounter(*r->Value("c", "a")), kRowThreads * kPerThread);
  EXPECT_EQ(*DecodeCounter(*r->Value("c", "b")), 2 * kRowThreads * kPerThread);
}

TEST_P(RowAtomicityTest, ConcurrentCheckAndMutateHasExactlyOneWinner) {
  Table& t = store().CreateTable("users", {"info"});
  constexpr int kRows = 200;
  std::vector<std::vector<int>> wins(kRowThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kRowThreads; ++i) {
    threads.emplace_back([&, i] {
      for (int row = 0; row < kRows; ++row) {
        std::string key = "user" + std::to_string(row);
        auto won = t.CheckAndMutate(CheckAndMutate(key)
                                        .IfNotExists("info", "owner")
                                        .Then(Put(key).Add("info", "owner", std::to_string(i))));
        if (won.ok() && *won) wins[i].push_back(row);
      }
    });
  }
  for (auto& th : threads) th.join();
  std::vector<int> winner(kRows, -1);
  for (int i = 0; i < kRowThreads; ++i) {
    for (int row : wins[i]) {
      EXPECT_EQ(winner[row], -1) << "two winners for row " << row;
      winner[row] = i;
    }
  }
  for (int row = 0; row < kRows; ++row) {
    ASSERT_NE(winner[row], -1) << "no winner for row " << row;
    auto r = t.Get(Get("user" + std::to_string(row)));
    ASSERT_OK(r);
    EXPECT_EQ(*r->Value("info", "owner"), std::to_string(winner[row]));
  }
}

// Every value a writer puts in one mutation is the same number, across two families; a reader
// that sees two different numbers in one row saw half a mutation.
void ExpectWholeRows(Table& t, std::atomic<bool>& stop, std::atomic<int>& torn,
                     std::atomic<int>& reads) {
  while (!stop.load()) {
    auto r = t.Get(Get("row"));
    if (!r.ok()) {
      ++torn;
      continue;
    }
    std::set<std::string> values;
    for (const auto& c : r->cells()) values.insert(c.value);
    if (values.size() > 1) ++torn;
    ++reads;
    auto scanner = t.GetScanner(Scan());
    if (!scanner.ok()) continue;
    RowResult row;
    while ((*scanner)->Next(&row)) {
      std::set<std::string> v;
      for (const auto& c : row.cells()) v.insert(c.value);
      if (v.size() > 1) ++torn;
    }
  }
}

TEST_P(RowAtomicityTest, ReadersNeverSeeHalfOfAMultiCellPutOrRowMutations) {
  Table& t = store().CreateTable("wide", {"a", "b"});
  ASSERT_OK(t.Put(Put("row").Add("a", "x", "0").Add("b", "y", "0")));
  std::atomic<bool> stop{false};
  std::atomic<int> torn{0};
  std::atomic<int> reads{0};
  std::vector<std::thread> readers;
  for (int i = 0; i < 2; ++i) {
    readers.emplace_back([&] { ExpectWholeRows(t, stop, torn, reads); });
  }
  for (int n = 1; n <= 1500; ++n) {
    std::string v = std::to_string(n);
    if (n % 3 == 0) {
      // Replace the row: delete everything, then write the new cells, atomically.
      RowMutations rm("row");
      rm.Add(Delete("row")).Add(Put("row").Add("a", "x", v).Add("b", "y", v).Add("a", "z", v));
      ASSERT_OK(t.MutateRow(rm));
    } else {
      ASSERT_OK(t.Put(Put("row").Add("a", "x", v).Add("b", "y", v).Add("a", "z", v)));
    }
  }
  stop = true;
  for (auto& th : readers) th.join();
  EXPECT_GT(reads.load(), 0);
  EXPECT_EQ(torn.load(), 0);
}

TEST_P(RowAtomicityTest, ConcurrentAppendsKeepEveryPiece) {
  Table& t = store().CreateTable("log", {"f"});
  constexpr int kPerThread = 200;
  std::vector<std::thread> threads;
  for (int i = 0; i < kRowThreads; ++i) {
    threads.emplace_back([&, i] {
      for (int n = 0; n < kPerThread; ++n) {
        ASSERT_OK(
            t.Append(Append("row").Add("f", "q", std::string(1, static_cast<char>('a' + i)))));
      }
    });
  }
  for (auto& th : threads) th.join();
  auto r = t.Get(Get("row"));
  ASSERT_OK(r);
  std::string value(*r->Value("f", "q"));
  EXPECT_EQ(value.size(), static_cast<size_t>(kRowThreads * kPerThread));
  for (int i = 0; i < kRowThreads; ++i) {
    EXPECT_EQ(std::count(value.begin(), value.end(), static_cast<char>('a' + i)), kPerThread);
  }
}

TEST_P(RowAtomicityTest, ScansAndGetsDuringWritesAndCompactionsSeeWholeRows) {
  Table& t = store().CreateTable("busy", {"a", "b"});
  std::atomic<bool> stop{false};
  std::atomic<int> torn{0};
  std::thread compactor = CompactUntil("busy", stop);
  auto whole = [](const RowResult& row) {
    std::set<std::string> v;
    for (const auto& c : row.cells()) v.insert(c.value);
    return v.size() <= 1;
  };
  std::thread reader([&] {
    while (!stop.load()) {
      for (const RowResult& row : ScanAll(t)) {
        if (!whole(row)) ++torn;
      }
    }
  });
  std::thread getter([&] {
    for (int n = 0; !stop.load(); ++n) {
      auto row = t.Get(Get("r" + std::to_string(n % 50)));
      if (!row.ok() || !whole(*row)) ++torn;
    }
  });
  for (int n = 0; n < 3000; ++n) {
    std::string row = "r" + std::to_string(n % 50);
    std::string v = std::to_string(n);
    if (n % 7 == 0) {
      ASSERT_OK(t.Delete(Delete(row)));
    } else {
      ASSERT_OK(t.Put(Put(row).Add("a", "x", v).Add("b", "y", v)));
    }
  }
  stop = true;
  compactor.join();
  reader.join();
  getter.join();
  EXPECT_EQ(torn.load(), 0);
}

// GetColumnValues reads every row through one pooled iterator while a writer raises each row's
// number and another thread flushes and compacts (which replaces the files the pool's iterators
// pin): a reader's successive calls never see a row's number go back, nor a value never written.
TEST_P(RowAtomicityTest, ColumnValuesDuringWritesAndCompactionsNeverGoBack) {
  Table& t = store().CreateTable("counts", {"a"});
  std::vector<std::string> rows;
  for (int i = 0; i < 50; ++i) rows.push_back("r" + std::to_string(i));
  std::atomic<bool> stop{false};
  std::atomic<int> wrong{0};
  std::thread compactor = CompactUntil("counts", stop);
  auto reader = [&] {
    std::vector<int64_t> seen(rows.size(), -1);
    while (!stop.load()) {
      auto values = t.GetColumnValues("a", "x", rows);
      if (!values.ok() || values->size() != rows.size()) {
        ++wrong;
        continue;
      }
      for (size_t i = 0; i < rows.size(); ++i) {
        if (!(*values)[i]) {
          if (seen[i] >= 0) ++wrong;  // a row never deleted went missing
          continue;
        }
        const int64_t n = std::stoll(*(*values)[i]);
        if (n < seen[i] || n % 50 != static_cast<int64_t>(i)) ++wrong;
        seen[i] = n;
      }
    }
  };
  std::thread reader1(reader), reader2(reader);
  for (int n = 0; n < 3000; ++n) {
    ASSERT_OK(t.Put(Put(rows[n % 50]).Add("a", "x", std::to_string(n))));
  }
  stop = true;
  compactor.join();
  reader1.join();
  reader2.join();
  EXPECT_EQ(wrong.load(), 0);
}

// Two counters that every writer keeps equal: a reader must never see them differ.
TEST_P(RowAtomicityTest, ReadersNeverSeeHalfOfAnIncrementBatchOrCheckAndMutate) {
  Table& t = store().CreateTable("pair", {"a", "b"});
  ASSERT_OK(t.Put(Put("row").Add("a", "x", EncodeCounter(0)).Add("b", "y", EncodeCounter(0))));
  std::atomic<bool> stop{false};
  std::atomic<int> torn{0};
  std::atomic<int> reads{0};
  std::thread reader([&] {
    while (!stop.load()) {
      auto r = t.Get(Get("row"));
      if (!r.ok() || r->cells().size() != 2) {
        ++torn;
        continue;
      }
      auto x = DecodeCounter(r->cells()[0].value);
      auto y = DecodeCounter(r->cells()[1].value);
      if (!x.ok() || !y.ok() || *x != *y) ++torn;
      ++reads;
    }
  });
  // Writes go on until the reader has read often enough to have met them: on a loaded machine
  // the 1,500 writes could finish before the reader thread first ran.
  for (int n = 1; n <= 1500 || reads.load() < 100; ++n) {
    switch (n % 3) {
      case 0:
        ASSERT_OK(t.Increment(Increment("row").AddColumn("a", "x", 1).AddColumn("b", "y", 1)));
        break;
      case 1: {
        std::vector<Mutation> batch;
        batch.emplace_back(Increment("row").AddColumn("a", "x", 2).AddColumn("b", "y", 2));
        batch.emplace_back(Put("other").Add("a", "x", "unrelated"));
        ASSERT_OK(t.Batch(batch));
        break;
      }
      default: {
        const std::string v = EncodeCounter(10 * n);
        auto applied = t.CheckAndMutate(CheckAndMutate("row")
                                            .IfNotExists("a", "never")
                                            .Then(RowMutations("row")
                                                      .Add(Put("row").Add("a", "x", v))
                                                      .Add(Put("row").Add("b", "y", v))));
        ASSERT_OK(applied);
        ASSERT_TRUE(*applied);
        break;
      }
    }
  }
  stop = true;
  reader.join();
  EXPECT_GT(reads.load(), 0);
  EXPECT_EQ(torn.load(), 0);
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(Stores, RowAtomicityTest,
                         ::testing::Values(StoreKind::kMem, StoreKind::kDisk, StoreKind::kThrift),
                         [](const auto& info) { return StoreKindName(info.param); });

}  // namespace basalt::testing
