// Model-based paging test: a reader walks a table page by page (paging.h) — forward, reversed,
// plain and salted, page sizes 1..20, random bounds, prefixes and limits — while rows are
// inserted and deleted between pages, before, at and after the cursor. A std::set holds the
// rows; every page must be exactly the model's next rows after the cursor at the time of the
// read, and at the end of the walk every row that existed for the whole walk must have been
// returned, none twice.
//
// Column paging inside one wide row gets the same treatment (ReadColumnPage, columns written and
// deleted between pages).
//
// The threaded variant has a writer thread inserting and deleting while the reader pages; it
// checks what can be checked without knowing when each write landed: no repeats, strictly
// ordered keys, and every row that existed before the walk and was never deleted returned.
//
// Seeds are fixed (replayable); each failure names its seed.

#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "basalt/basalt.h"
#include "support/test_store.h"

namespace basalt {
namespace {

using testing::StoreTest;

constexpr int kKeySpace = 400;

std::string Key(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "k%03d", i);
  return buf;
}

// The key index of a row written by the test ("k123" or "k123m").
int IndexOf(const std::string& row) {
  return std::stoi(row.substr(1, 3));
}

// What a Scan covers, as the model reads it (docs/data-model.md, "Scans").
struct Range {
  Scan scan;

  bool Contains(const std::string& row) const {
    const std::string& start = scan.start_row();
    const std::string& stop = scan.stop_row();
    if (!scan.row_prefix().empty() && row.compare(0, scan.row_prefix().size(), scan.row_prefix()))
      return false;
    if (!scan.reversed()) {
      if (!start.empty() && (scan.start_inclusive() ? row < start : row <= start)) return false;
      if (!stop.empty() && (scan.stop_inclusive() ? row > stop : row >= stop)) return false;
    } else {
      if (!start.empty() && (scan.start_inclusive() ? row > start : row >= start)) return false;
      if (!stop.empty() && (scan.stop_inclusive() ? row < stop : row <= stop)) return false;
    }
    return true;
  }
};

// The model's rows of `range` strictly after `last` in scan order, at most `n`.
std::vector<std::string> NextRows(const std::set<std::string>& model, const Range& range,
                                  const std::optional<std::string>& last, size_t n) {
  std::vector<std::string> out;
  auto take = [&](const std::string& row) {
    if (out.size() >= n) return false;
    if (range.Contains(row)) out.push_back(row);
    return true;
  };
  if (!range.scan.reversed()) {
    auto it = last ? model.upper_bound(*last) : model.begin();
    for (; it != model.end() && take(*it); ++it) {
    }
  } else {
    auto it = last ? std::make_reverse_iterator(model.lower_bound(*last)) : model.rbegin();
    for (; it != model.rend() && take(*it); ++it) {
    }
  }
  return out;
}

Scan RandomScan(std::mt19937& rng, bool reversed) {
  Scan scan;
  scan.SetReversed(reversed);
  switch (rng() % 4) {
    case 0:
      break;
    case 1:
      scan.SetRowPrefix("k" + std::to_string(rng() % 4));  // k0.., k1.., k2.., k3..
      break;
    case 2:
    case 3: {
      int a = static_cast<int>(rng() % kKeySpace);
      int b = static_cast<int>(rng() % kKeySpace);
      if (a > b) std::swap(a, b);
      // For a reversed scan the start row is the larger key.
      std::string low = Key(a) + (rng() % 2 ? "m" : "");
      std::string high = Key(b);
      bool start_inclusive = rng() % 2;
      bool stop_inclusive = rng() % 2;
      if (!reversed) {
        scan.WithStartRow(low, start_inclusive).WithStopRow(high, stop_inclusive);
      } else {
        scan.WithStartRow(high, start_inclusive).WithStopRow(low, stop_inclusive);
      }
      break;
    }
  }
  if (rng() % 4 == 0) scan.SetLimit(1 + rng() % 120);
  return scan;
}

class PagingModelTest : public StoreTest {
 protected:
  // The table under test: plain, or salted over "t" with `buckets_`.
  Table& table() {
    Table& base = store().table(name_);
    if (buckets_ == 0) return base;
    salted_.emplace(*SaltedTable::Wrap(base, buckets_));
    return *salted_;
  }

  void Write(std::set<std::string>* model, const std::string& row, bool insert,
             std::set<std::string>* stable) {
    if (insert) {
      ASSERT_TRUE(table().Put(Put(row).Add("f", "q", "v")).ok());
      model->insert(row);
    } else {
      ASSERT_TRUE(table().Delete(Delete(row)).ok());
      model->erase(row);
      stable->erase(row);
    }
  }

  void Walk(uint32_t seed, bool reversed, int buckets) {
    std::mt19937 rng(seed);
    buckets_ = buckets;
    name_ = "t" + std::to_string(seed);
    store().CreateTable(name_, {"f"});
    std::set<std::string> model;
    for (int i = 0; i < kKeySpace; ++i) {
      if (rng() % 5 < 2) {
        ASSERT_TRUE(table().Put(Put(Key(i)).Add("f", "q", "v")).ok());
        model.insert(Key(i));
      }
    }
    const Range range{RandomScan(rng, reversed)};
    const uint64_t limit = range.scan.limit() > 0 ? range.scan.limit() : UINT64_MAX;
    std::set<std::string> stable;  // in range for the whole walk so far
    for (const auto& row : model) {
      if (range.Contains(row)) stable.insert(row);
    }
    std::set<std::string> returned;
    std::optional<std::string> last;
    std::string cursor;
    const int step = reversed ? -1 : 1;  // "after the cursor" in key indexes
    for (int pages = 0;; ++pages) {
      ASSERT_LT(pages, 2000) << "the walk does not end";
      if (pages % 7 == 6) store().Reopen();
      size_t page_size = 1 + rng() % 20;
      auto page = ReadPage(table(), range.scan, static_cast<int32_t>(page_size), cursor);
      ASSERT_TRUE(page.ok()) << page.status().ToString();
      const uint64_t left = limit - returned.size();
      const size_t want = std::min<uint64_t>(page_size, left);
      std::vector<std::string> expected = NextRows(model, range, last, want + 1);
      bool more = expected.size() > want;
      if (more) expected.pop_back();
      if (left <= page_size) more = false;  // this page reaches the scan's limit
      std::vector<std::string> got;
      for (const auto& r : page->rows) got.push_back(r.row());
      ASSERT_EQ(got, expected) << "page " << pages << " after " << last.value_or("(start)");
      ASSERT_EQ(!page->cursor.empty(), more) << "page " << pages;
      for (const auto& row : got) ASSERT_TRUE(returned.insert(row).second) << "repeat " << row;
      if (!got.empty()) last = got.back();
      cursor = page->cursor;
      if (cursor.empty()) break;

      // Writes between pages, concentrated around the cursor.
      const int at = IndexOf(*last);
      for (int ops = rng() % 7; ops > 0; --ops) {
        bool insert = rng() % 2;
        std::string row;
        switch (rng() % 6) {
          case 0:  // at the cursor: delete its row, or write it again behind the cursor
            row = *last;
            break;
          case 1:  // just after the cursor
            row = Key(std::clamp(at + step * static_cast<int>(1 + rng() % 3), 0, kKeySpace - 1));
            break;
          case 2:  // just before the cursor
            row = Key(std::clamp(at - step * static_cast<int>(1 + rng() % 3), 0, kKeySpace - 1));
            break;
          case 3:  // between the cursor's row and its neighbour
            row = *last + "m";
            break;
          case 4: {  // the next row the walk would return
            auto next = NextRows(model, range, last, 1);
            if (next.empty()) continue;
            row = next[0];
            insert = false;
            break;
          }
          default:
            row = Key(static_cast<int>(rng() % kKeySpace));
            break;
        }
        ASSERT_NO_FATAL_FAILURE(Write(&model, row, insert, &stable));
      }
    }
    ASSERT_LE(returned.size(), limit);
    if (returned.size() < limit) {
      for (const auto& row : stable) {
        EXPECT_TRUE(returned.count(row)) << "skipped " << row;
      }
    }
  }

  std::string name_;
  int buckets_ = 0;
  std::optional<SaltedTable> salted_;
};

TEST_P(PagingModelTest, PagesMatchTheModelWhileRowsChangeBetweenPages) {
  const int bucket_choices[] = {1, 2, 5, 16};
  for (uint32_t i = 0; i < 24; ++i) {
    const uint32_t seed = 1000 + i * 31 + static_cast<uint32_t>(GetParam());
    const bool reversed = i % 2;
    const int buckets = i % 4 < 2 ? 0 : bucket_choices[(i / 4) % 4];
    SCOPED_TRACE("seed " + std::to_string(seed) + (reversed ? " reversed" : " forward") +
                 (buckets ? " salted " + std::to_string(buckets) : " plain"));
    ASSERT_NO_FATAL_FAILURE(Walk(seed, reversed, buckets));
    salted_.reset();
  }
}

// The columns of one wide row, paged while columns are written and deleted around the cursor.
TEST_P(PagingModelTest, ColumnPagesMatchTheModelWhileColumnsChange) {
  for (uint32_t i = 0; i < 12; ++i) {
    const uint32_t seed = 5000 + i * 17 + static_cast<uint32_t>(GetParam());
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    const std::string name = "c" + std::to_string(seed);
    store().CreateTable(name, {"f", "g"});
    std::set<std::string> model;  // qualifiers of row "w" in family "f"
    Put wide("w");
    for (int q = 0; q < kKeySpace; ++q) {
      if (rng() % 5 < 2) {
        wide.Add("f", Key(q), "v");
        model.insert(Key(q));
      }
    }
    wide.Add("g", "x", "v");
    ASSERT_TRUE(store().table(name).Put(wide).ok());
    std::set<std::string> stable = model;
    std::set<std::string> returned;
    std::optional<std::string> last;
    std::string cursor;
    const Get get = Get("w").AddFamily("f");
    const Range all{Scan()};
    for (int pages = 0;; ++pages) {
      ASSERT_LT(pages, 2000);
      if (pages % 7 == 6) store().Reopen();
      Table& t = store().table(name);
      const size_t page_size = 1 + rng() % 20;
      auto page = ReadColumnPage(t, get, static_cast<int32_t>(page_size), cursor);
      ASSERT_TRUE(page.ok()) << page.status().ToString();
      std::vector<std::string> expected = NextRows(model, all, last, page_size + 1);
      const bool more = expected.size() > page_size;
      if (more) expected.pop_back();
      std::vector<std::string> got;
      for (const Cell& c : page->row.cells()) got.push_back(c.qualifier);
      ASSERT_EQ(got, expected) << "page " << pages;
      ASSERT_EQ(!page->cursor.empty(), more);
      for (const auto& q : got) ASSERT_TRUE(returned.insert(q).second) << "repeat " << q;
      if (!got.empty()) last = got.back();
      cursor = page->cursor;
      if (cursor.empty()) break;
      const int at = IndexOf(*last);
      for (int ops = rng() % 7; ops > 0; --ops) {
        std::string q;
        switch (rng() % 4) {
          case 0:
            q = *last;
            break;
          case 1:
            q = Key(std::clamp(at + static_cast<int>(rng() % 7) - 3, 0, kKeySpace - 1));
            break;
          case 2:
            q = *last + "m";
            break;
          default:
            q = Key(static_cast<int>(rng() % kKeySpace));
            break;
        }
        if (rng() % 2) {
          ASSERT_TRUE(t.Put(Put("w").Add("f", q, "v")).ok());
          model.insert(q);
        } else {
          ASSERT_TRUE(t.Delete(Delete("w").AddColumns("f", q)).ok());
          model.erase(q);
          stable.erase(q);
        }
      }
    }
    for (const auto& q : stable) EXPECT_TRUE(returned.count(q)) << "skipped " << q;
  }
}

// A writer thread inserts and deletes odd keys (and keys between them) while the reader walks;
// even keys are written before and never touched, so every walk must return all of those in its
// range.
TEST_P(PagingModelTest, ConcurrentWriterNeverCausesRepeatsOrSkipsOfStableRows) {
  Table& base = store().CreateTable("t", {"f"});
  for (int i = 0; i < kKeySpace; i += 2) ASSERT_TRUE(base.Put(Put(Key(i)).Add("f", "q", "v")).ok());
  auto salted = SaltedTable::Wrap(store().CreateTable("s", {"f"}), 8);
  ASSERT_TRUE(salted.ok());
  for (int i = 0; i < kKeySpace; i += 2) {
    ASSERT_TRUE(salted->Put(Put(Key(i)).Add("f", "q", "v")).ok());
  }

  std::atomic<bool> stop{false};
  std::atomic<int> writes{0};
  std::thread writer([&] {
    std::mt19937 rng(7);
    while (!stop.load()) {
      std::string row = Key(static_cast<int>(rng() % (kKeySpace / 2)) * 2 + 1);
      if (rng() % 3 == 0) row = Key(static_cast<int>(rng() % kKeySpace)) + "m";
      Table& t = rng() % 2 ? base : static_cast<Table&>(*salted);
      Status s = rng() % 2 ? t.Put(Put(row).Add("f", "q", "v")) : t.Delete(Delete(row));
      EXPECT_TRUE(s.ok()) << s.ToString();
      if (!s.ok()) break;
      writes.fetch_add(1);
    }
  });

  std::mt19937 rng(static_cast<uint32_t>(GetParam()) + 99);
  for (int walk = 0; walk < 24; ++walk) {
    const bool reversed = walk % 2;
    Table& t = walk % 4 < 2 ? base : static_cast<Table&>(*salted);
    Range range{RandomScan(rng, reversed)};
    range.scan.SetLimit(0);
    SCOPED_TRACE("walk " + std::to_string(walk));
    std::vector<std::string> seen;
    std::string cursor;
    do {
      auto page = ReadPage(t, range.scan, static_cast<int32_t>(1 + rng() % 20), cursor);
      ASSERT_TRUE(page.ok()) << page.status().ToString();
      for (const auto& r : page->rows) {
        if (!seen.empty()) {
          ASSERT_TRUE(reversed ? r.row() < seen.back() : r.row() > seen.back())
              << r.row() << " after " << seen.back();
        }
        ASSERT_TRUE(range.Contains(r.row())) << r.row();
        seen.push_back(r.row());
      }
      cursor = page->cursor;
    } while (!cursor.empty());
    std::set<std::string> got(seen.begin(), seen.end());
    for (int i = 0; i < kKeySpace; i += 2) {
      if (range.Contains(Key(i))) {
        EXPECT_TRUE(got.count(Key(i))) << "skipped " << Key(i);
      }
    }
  }
  stop.store(true);
  writer.join();
  EXPECT_GT(writes.load(), 0);
}

BASALT_INSTANTIATE_STORE_TEST(PagingModelTest);

}  // namespace
}  // namespace basalt
