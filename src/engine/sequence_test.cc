#include "engine/sequence.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>

namespace basalt::engine {
namespace {

TEST(SequenceTest, PersistsTheBlockEndBeforeHandingOutNumbers) {
  std::vector<uint64_t> persisted;
  SequenceAllocator seq(10, [&](uint64_t limit) {
    persisted.push_back(limit);
    return Status::OK();
  });
  auto first = seq.Next();
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(*first, 10u);
  ASSERT_EQ(persisted.size(), 1u);
  EXPECT_GT(persisted[0], 10u);
  EXPECT_EQ(*seq.Next(5), 11u);
  EXPECT_EQ(persisted.size(), 1u);
}

TEST(SequenceTest, ReopenAtPersistedLimitNeverReusesNumbers) {
  uint64_t limit = 0;
  uint64_t max_seen = 0;
  {
    SequenceAllocator seq(1, [&](uint64_t l) {
      limit = l;
      return Status::OK();
    });
    for (int i = 0; i < 1000; ++i) max_seen = std::max(max_seen, *seq.Next());
  }
  SequenceAllocator reopened(limit, [](uint64_t) { return Status::OK(); });
  EXPECT_GT(*reopened.Next(), max_seen);
}

TEST(SequenceTest, PersistFailureIsReported) {
  SequenceAllocator seq(1, [](uint64_t) { return Status::IOError("disk full"); });
  EXPECT_TRUE(seq.Next().status().IsIOError());
}

TEST(SequenceTest, ConcurrentCallersGetDistinctNumbers) {
  SequenceAllocator seq(1, [](uint64_t) { return Status::OK(); });
  std::vector<std::vector<uint64_t>> got(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20000; ++i) got[t].push_back(*seq.Next(3));
    });
  }
  for (auto& t : threads) t.join();
  std::set<uint64_t> all;
  for (auto& v : got) {
    for (uint64_t x : v) {
      EXPECT_TRUE(all.insert(x).second);
    }
  }
}

}  // namespace
}  // namespace basalt::engine
