#include "server/client_quota.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace basalt::server {
namespace {

TEST(ClientQuotaTest, OneClientCannotTakeMoreThanItsShare) {
  ClientQuota quota("scanners", /*max_total=*/10, /*max_per_client=*/3);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(quota.Acquire("10.0.0.1").ok());
  Status refused = quota.Acquire("10.0.0.1");
  EXPECT_TRUE(refused.IsBusy());
  EXPECT_NE(refused.message().find("for client 10.0.0.1 (at most 3 per client)"), std::string::npos)
      << refused.ToString();
  // Another client is not affected.
  EXPECT_TRUE(quota.Acquire("10.0.0.2").ok());
  EXPECT_EQ(quota.held_by("10.0.0.1"), 3u);
  EXPECT_EQ(quota.total(), 4u);
  // A release makes room again.
  quota.Release("10.0.0.1");
  EXPECT_TRUE(quota.Acquire("10.0.0.1").ok());
}

TEST(ClientQuotaTest, TheTotalCapBindsAcrossClients) {
  ClientQuota quota("connections", /*max_total=*/4, /*max_per_client=*/3);
  ASSERT_TRUE(quota.Acquire("a").ok());
  ASSERT_TRUE(quota.Acquire("b").ok());
  ASSERT_TRUE(quota.Acquire("c").ok());
  ASSERT_TRUE(quota.Acquire("d").ok());
  Status refused = quota.Acquire("e");
  EXPECT_TRUE(refused.IsBusy());
  EXPECT_NE(refused.message().find("on this server (at most 4)"), std::string::npos);
  quota.Release("a");
  EXPECT_TRUE(quota.Acquire("e").ok());
  EXPECT_EQ(quota.held_by("a"), 0u);
}

TEST(ClientQuotaTest, ZeroMeansNoCap) {
  ClientQuota quota("scanners", 0, 0);
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(quota.Acquire("a").ok());
  EXPECT_EQ(quota.total(), 1000u);
}

TEST(ClientQuotaTest, ConcurrentAcquiresNeverExceedTheCaps) {
  ClientQuota quota("scanners", /*max_total=*/50, /*max_per_client=*/20);
  std::vector<std::thread> threads;
  std::atomic<int> granted{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      std::string client = "client" + std::to_string(t % 4);
      for (int i = 0; i < 100; ++i) {
        if (quota.Acquire(client).ok()) granted.fetch_add(1);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(granted.load(), 50);
  EXPECT_EQ(quota.total(), 50u);
  for (int c = 0; c < 4; ++c) EXPECT_LE(quota.held_by("client" + std::to_string(c)), 20u);
}

}  // namespace
}  // namespace basalt::server
