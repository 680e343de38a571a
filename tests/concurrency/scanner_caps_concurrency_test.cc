// The servers' scanner registries under many threads opening, using, closing and expiring
// scanners at once against their caps (server/client_quota.h; the REST registry keeps its own
// counts, with the admin's reserve): the caps hold at every moment, every unit taken is given
// back, and (under TSan) there is no race.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "basalt/connection.h"
#include "server/rest/scanners.h"
#include "server/thrift/scanner_registry.h"
#include "support/test_store.h"

namespace basalt::testing {
namespace {

constexpr size_t kTotal = 12;
constexpr size_t kPerClient = 5;

class ScannerCapsConcurrencyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto conn = Connection::Open("mem:");
    ASSERT_OK(conn);
    conn_ = std::move(*conn);
    TableDescriptor desc(TableName("default", "t"));
    desc.AddFamily(FamilyDescriptor("f"));
    ASSERT_OK(conn_->admin().CreateTable(desc));
  }
  void TearDown() override { EXPECT_OK(conn_->Close()); }

  std::unique_ptr<Table> OpenTable() {
    auto table = conn_->GetTable(TableName("default", "t"));
    EXPECT_OK(table);
    return std::move(*table);
  }

  std::unique_ptr<Connection> conn_;
};

TEST_F(ScannerCapsConcurrencyTest, Thrift2CapsHoldUnderConcurrentOpenCloseAndExpiry) {
  server::ScannerRegistry registry(std::chrono::milliseconds(2), kTotal, kPerClient);
  std::atomic<bool> stop{false};
  std::atomic<int> granted{0};
  std::atomic<int> refused{0};
  std::thread reaper([&] {
    while (!stop.load()) {
      registry.ExpireIdle();
      EXPECT_LE(registry.size(), kTotal);
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      const std::string client = "10.0.0." + std::to_string(t % 3);
      for (int i = 0; i < 200; ++i) {
        auto table = OpenTable();
        auto scanner = table->GetScanner(Scan());
        ASSERT_OK(scanner);
        Result<int32_t> id = registry.Add(client, std::move(table), std::move(*scanner));
        if (!id.ok()) {
          EXPECT_TRUE(id.status().IsBusy()) << id.status().ToString();
          refused.fetch_add(1);
          continue;
        }
        granted.fetch_add(1);
        if (auto entry = registry.Find(*id, client)) {
          server::ScannerRegistry::Lease lease(std::move(entry));
          RowResult row;
          EXPECT_FALSE(lease.scanner().Next(&row));
        }
        if (i % 2 == 0) registry.Remove(*id, client);  // the others expire
      }
    });
  }
  for (auto& thread : threads) thread.join();
  stop.store(true);
  reaper.join();
  registry.ExpireAll();
  EXPECT_EQ(registry.size(), 0u);
  EXPECT_GT(granted.load(), 0);
  // Every unit came back: a full round of adds fits again.
  for (size_t i = 0; i < kTotal; ++i) {
    auto table = OpenTable();
    auto scanner = table->GetScanner(Scan());
    ASSERT_OK(scanner);
    ASSERT_OK(
        registry.Add("10.0.1." + std::to_string(i % 3), std::move(table), std::move(*scanner)));
  }
}

TEST_F(ScannerCapsConcurrencyTest, RestCapsHoldUnderConcurrentOpenCloseAndExpiry) {
  server::rest::ScannerRegistry registry(std::chrono::seconds(0), kTotal, kPerClient);
  std::atomic<bool> stop{false};
  std::thread reaper([&] {
    while (!stop.load()) {
      registry.Expire();
      EXPECT_LE(registry.size(), static_cast<int64_t>(kTotal));
      std::this_thread::yield();
    }
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      // One thread holds the admin token; the others share three addresses.
      const server::rest::ScannerOwner owner{.admin = t == 5,
                                             .address = "10.0.0." + std::to_string(t % 3)};
      for (int i = 0; i < 200; ++i) {
        auto table = OpenTable();
        auto scanner = table->GetScanner(Scan());
        ASSERT_OK(scanner);
        auto rest_scanner = std::make_shared<server::rest::RestScanner>(
            std::move(table), std::move(*scanner), /*batch=*/10);
        Result<std::string> id = registry.Add(owner, "t", std::move(rest_scanner));
        if (!id.ok()) {
          EXPECT_TRUE(id.status().IsBusy()) << id.status().ToString();
          continue;
        }
        if (auto found = registry.Find(*id, owner, "t")) {
          auto chunk = found->NextChunk(10, 0);
          EXPECT_OK(chunk);
        }
        if (i % 2 == 0) registry.Remove(*id, owner, "t");
      }
    });
  }
  for (auto& thread : threads) thread.join();
  stop.store(true);
  reaper.join();
  registry.Clear();
  EXPECT_EQ(registry.size(), 0);
  // Every place came back: the anonymous places and then the admin's reserve fit again.
  const size_t reserve = server::rest::ScannerRegistry::AdminReserve(kTotal);
  for (size_t i = 0; i < kTotal; ++i) {
    auto table = OpenTable();
    auto scanner = table->GetScanner(Scan());
    ASSERT_OK(scanner);
    const server::rest::ScannerOwner owner{.admin = i >= kTotal - reserve,
                                           .address = "10.0.1." + std::to_string(i % 3)};
    ASSERT_OK(registry.Add(owner, "t",
                           std::make_shared<server::rest::RestScanner>(
                               std::move(table), std::move(*scanner), /*batch=*/10)));
  }
}

}  // namespace
}  // namespace basalt::testing
