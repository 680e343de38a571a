#include "server/rest/scanners.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

#include "basalt/connection.h"
#include "basalt/mutation.h"
#include "basalt/scan.h"
#include "basalt/schema.h"

namespace basalt::server::rest {
namespace {

using std::chrono::seconds;

// A scanner the registry holds; its reads are not used here.
std::shared_ptr<RestScanner> Idle() {
  return std::make_shared<RestScanner>(nullptr, nullptr, 10);
}

ScannerOwner From(std::string address) {
  return {.admin = false, .address = std::move(address)};
}
const ScannerOwner kAdmin{.admin = true, .address = "10.9.9.9"};

TEST(ScannerIdTest, IdsAreOneHundredTwentyEightRandomBitsInHex) {
  std::set<std::string> ids;
  std::vector<std::set<char>> digits(32);
  for (int i = 0; i < 2000; ++i) {
    Result<std::string> id = NewScannerId();
    ASSERT_TRUE(id.ok()) << id.status().ToString();
    ASSERT_EQ(id->size(), 32u) << *id;
    for (size_t d = 0; d < id->size(); ++d) {
      char c = (*id)[d];
      ASSERT_TRUE((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) << *id;
      digits[d].insert(c);
    }
    ids.insert(*std::move(id));
  }
  EXPECT_EQ(ids.size(), 2000u);
  // A counter, a clock or a narrow seed leaves some digits all but fixed; 2000 draws of a
  // uniform hex digit miss one of its 16 values with a probability of about 16 * e^-125.
  for (size_t d = 0; d < digits.size(); ++d) EXPECT_EQ(digits[d].size(), 16u) << "digit " << d;
}

TEST(RestScannerRegistryTest, AScannerIsFoundOnlyOnItsTableByWhoOpenedIt) {
  ScannerRegistry registry(seconds(60), 100, 10);
  auto scanner = Idle();
  Result<std::string> id = registry.Add(From("10.0.0.1"), "t", scanner);
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  EXPECT_EQ(registry.Find(*id, From("10.0.0.1"), "t"), scanner);
  EXPECT_EQ(registry.Find(*id, From("10.0.0.1"), "other"), nullptr);
  EXPECT_EQ(registry.Find(*id, From("10.0.0.2"), "t"), nullptr);
  // The /64 of an IPv6 address counts one share, but a scanner is its exact address's.
  EXPECT_EQ(registry.Find(*id, From("::ffff:10.0.0.1"), "t"), nullptr);
  EXPECT_EQ(registry.Find(*id, kAdmin, "t"), nullptr);
  EXPECT_FALSE(registry.Remove(*id, From("10.0.0.2"), "t"));
  EXPECT_FALSE(registry.Remove(*id, From("10.0.0.1"), "other"));
  EXPECT_FALSE(registry.Remove(*id, kAdmin, "t"));
  EXPECT_EQ(registry.size(), 1);
  EXPECT_TRUE(registry.Remove(*id, From("10.0.0.1"), "t"));
  EXPECT_EQ(registry.Find(*id, From("10.0.0.1"), "t"), nullptr);
  EXPECT_EQ(registry.size(), 0);
}

TEST(RestScannerRegistryTest, AnAdminScannerNeedsTheTokenFromAnyAddress) {
  ScannerRegistry registry(seconds(60), 100, 10);
  auto scanner = Idle();
  Result<std::string> id = registry.Add(kAdmin, "app:social_users", scanner);
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  EXPECT_EQ(registry.Find(*id, {.admin = true, .address = "10.1.1.1"}, "app:social_users"),
            scanner);
  EXPECT_EQ(registry.Find(*id, From("10.9.9.9"), "app:social_users"), nullptr);
  EXPECT_EQ(registry.Find(*id, From("10.9.9.9"), "t"), nullptr);
  EXPECT_FALSE(registry.Remove(*id, From("10.9.9.9"), "app:social_users"));
  EXPECT_TRUE(registry.Remove(*id, kAdmin, "app:social_users"));
}

TEST(RestScannerRegistryTest, OneClientCannotTakeMoreThanItsShare) {
  ScannerRegistry registry(seconds(60), 100, 3);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(registry.Add(From("10.0.0.1"), "t", Idle()).ok());
  Result<std::string> refused = registry.Add(From("10.0.0.1"), "t", Idle());
  ASSERT_TRUE(refused.status().IsBusy()) << refused.status().ToString();
  EXPECT_NE(refused.status().message().find("for client 10.0.0.1 (at most 3 per client)"),
            std::string::npos)
      << refused.status().ToString();
  EXPECT_TRUE(registry.Add(From("10.0.0.2"), "t", Idle()).ok());
  // The admin's scanners have no per-client share.
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(registry.Add(kAdmin, "t", Idle()).ok());
}

TEST(RestScannerRegistryTest, ATenthOfTheTotalIsKeptForTheAdmin) {
  EXPECT_EQ(ScannerRegistry::AdminReserve(10000), 1000u);
  EXPECT_EQ(ScannerRegistry::AdminReserve(5), 1u);
  EXPECT_EQ(ScannerRegistry::AdminReserve(0), 0u);
  ScannerRegistry registry(seconds(60), 20, 0);
  for (int i = 0; i < 18; ++i) {
    ASSERT_TRUE(registry.Add(From("10.0.0." + std::to_string(i)), "t", Idle()).ok()) << i;
  }
  Result<std::string> refused = registry.Add(From("10.0.1.1"), "t", Idle());
  ASSERT_TRUE(refused.status().IsBusy());
  EXPECT_NE(refused.status().message().find(
                "on this server (at most 20, 2 of them kept for the admin token)"),
            std::string::npos)
      << refused.status().ToString();
  ASSERT_TRUE(registry.Add(kAdmin, "t", Idle()).ok());
  ASSERT_TRUE(registry.Add(kAdmin, "t", Idle()).ok());
  refused = registry.Add(kAdmin, "t", Idle());
  ASSERT_TRUE(refused.status().IsBusy());
  EXPECT_NE(refused.status().message().find("on this server (at most 20)"), std::string::npos)
      << refused.status().ToString();
}

TEST(RestScannerRegistryTest, AnIpv6ClientsShareIsItsSlashSixtyFour) {
  EXPECT_EQ(ClientShareKey("10.1.2.3"), "10.1.2.3");
  EXPECT_EQ(ClientShareKey("::ffff:10.1.2.3"), "10.1.2.3");
  EXPECT_EQ(ClientShareKey("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
  EXPECT_EQ(ClientShareKey("2001:db8:1:2:bbbb:cccc:dddd:eeee"), "2001:db8:1:2::/64");
  EXPECT_EQ(ClientShareKey("::1"), "::/64");
  EXPECT_EQ(ClientShareKey("not an address"), "not an address");

  ScannerRegistry registry(seconds(60), 100, 2);
  ASSERT_TRUE(registry.Add(From("2001:db8:1:2::1"), "t", Idle()).ok());
  ASSERT_TRUE(registry.Add(From("2001:db8:1:2::2"), "t", Idle()).ok());
  Result<std::string> refused = registry.Add(From("2001:db8:1:2:ffff::3"), "t", Idle());
  ASSERT_TRUE(refused.status().IsBusy());
  EXPECT_NE(refused.status().message().find("for client 2001:db8:1:2::/64 (at most 2"),
            std::string::npos)
      << refused.status().ToString();
  EXPECT_TRUE(registry.Add(From("2001:db8:1:3::1"), "t", Idle()).ok());
}

TEST(RestScannerRegistryTest, AnIdleScannerExpiresAndGivesItsPlaceBack) {
  // An idle timeout of 0 s: any scanner not used within the same instant is idle.
  ScannerRegistry registry(seconds(0), 100, 1);
  Result<std::string> id = registry.Add(From("10.0.0.1"), "t", Idle());
  ASSERT_TRUE(id.ok());
  ASSERT_TRUE(registry.Add(From("10.0.0.1"), "t", Idle()).status().IsBusy());
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  registry.Expire();
  EXPECT_EQ(registry.size(), 0);
  EXPECT_EQ(registry.Find(*id, From("10.0.0.1"), "t"), nullptr);
  EXPECT_TRUE(registry.Add(From("10.0.0.1"), "t", Idle()).ok());
}

TEST(RestScannerRegistryTest, ConcurrentAddsAndRemovesNeverPassTheCaps) {
  constexpr size_t kMax = 50, kPerClient = 8;
  ScannerRegistry registry(seconds(60), kMax, kPerClient);
  std::atomic<int> anonymous_held{0}, admin_held{0}, over{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      ScannerOwner owner = t == 0 ? kAdmin : From("10.0.0." + std::to_string(t % 4));
      std::vector<std::string> mine;
      for (int i = 0; i < 400; ++i) {
        // The counts go down before a remove and up after an add, so they never exceed what
        // the registry holds.
        std::atomic<int>& held_count = owner.admin ? admin_held : anonymous_held;
        if (i % 3 == 2 && !mine.empty()) {
          --held_count;
          if (!registry.Remove(mine.back(), owner, "t")) ++over;
          mine.pop_back();
          continue;
        }
        Result<std::string> id = registry.Add(owner, "t", Idle());
        if (!id.ok()) continue;
        mine.push_back(*id);
        int held = ++held_count;
        if (!owner.admin && held > static_cast<int>(kMax - ScannerRegistry::AdminReserve(kMax))) {
          ++over;
        }
        if (registry.size() > static_cast<int64_t>(kMax)) ++over;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(over.load(), 0);
  EXPECT_LE(registry.size(), static_cast<int64_t>(kMax));
  EXPECT_EQ(registry.size(), anonymous_held.load() + admin_held.load());
  // Six anonymous threads on four addresses: at most kPerClient each.
  EXPECT_LE(anonymous_held.load(), static_cast<int>(4 * kPerClient));
  registry.Clear();
  EXPECT_EQ(registry.size(), 0);
}

TEST(ResultBudgetTest, RefusesOnceTheBytesPassTheBudget) {
  ResultBudget budget("ask for less", 100);
  EXPECT_TRUE(budget.Take(60).ok());
  EXPECT_TRUE(budget.Take(40).ok());
  Status refused = budget.Take(1);
  EXPECT_TRUE(refused.IsInvalidArgument());
  EXPECT_EQ(refused.message(), "the rows asked for take more than 100 bytes; ask for less");
  ResultBudget mib("x");
  Status big = mib.Take(kMaxResultBytes + 1);
  EXPECT_NE(big.message().find("more than 16 MiB"), std::string::npos) << big.ToString();
}

class RestScannerChunkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto conn = Connection::Open("mem:");
    ASSERT_TRUE(conn.ok()) << conn.status().ToString();
    conn_ = std::move(*conn);
    TableDescriptor desc(TableName("default", "t"));
    desc.AddFamily(FamilyDescriptor("f"));
    ASSERT_TRUE(conn_->admin().CreateTable(desc).ok());
    auto table = conn_->GetTable(TableName("default", "t"));
    ASSERT_TRUE(table.ok());
    for (int i = 0; i < 5; ++i) {
      Put put("r" + std::to_string(i));
      put.Add("f", "q", kLatestTimestamp, std::string(1000, 'v'));
      ASSERT_TRUE((*table)->Put(put).ok());
    }
  }

  // The cell counts of every chunk of a scan of the table, batch 100, chunks of at most
  // `max_bytes`.
  std::vector<size_t> Chunks(size_t max_bytes) {
    auto table = conn_->GetTable(TableName("default", "t"));
    EXPECT_TRUE(table.ok());
    auto scanner = (*table)->GetScanner(Scan());
    EXPECT_TRUE(scanner.ok());
    RestScanner rest(std::move(*table), std::move(*scanner), 100, max_bytes);
    std::vector<size_t> sizes;
    while (true) {
      auto chunk = rest.NextChunk(0, 0);
      EXPECT_TRUE(chunk.ok());
      if (!chunk.ok() || chunk->empty()) break;
      size_t cells = 0;
      for (const RowResult& row : *chunk) cells += row.size();
      sizes.push_back(cells);
    }
    return sizes;
  }

  std::unique_ptr<Connection> conn_;
};

TEST_F(RestScannerChunkTest, AChunkEndsBeforeTheCellThatWouldPassTheByteCap) {
  // Each cell is 1004 bytes (row, family, qualifier, value).
  EXPECT_EQ(Chunks(2500), (std::vector<size_t>{2, 2, 1}));
  EXPECT_EQ(Chunks(kMaxResultBytes), (std::vector<size_t>{5}));
  // A cell larger than the cap still goes out, alone.
  EXPECT_EQ(Chunks(10), (std::vector<size_t>{1, 1, 1, 1, 1}));
}

}  // namespace
}  // namespace basalt::server::rest
