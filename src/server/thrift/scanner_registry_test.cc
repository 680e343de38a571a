#include "server/thrift/scanner_registry.h"

#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace basalt::server {
namespace {

// A scanner with no rows that says when it is destroyed: the registry closes a scanner by
// dropping it.
class CountedScanner : public ResultScanner {
 public:
  explicit CountedScanner(int* destroyed) : destroyed_(destroyed) {}
  ~CountedScanner() override { ++*destroyed_; }
  bool Next(RowResult* /*out*/) override { return false; }
  Status status() const override { return Status::OK(); }
  void Close() override {}

 private:
  int* destroyed_;
};

class ScannerRegistryTest : public ::testing::Test {
 protected:
  Result<int32_t> Open(ScannerRegistry& registry, const std::string& client) {
    return registry.Add(client, nullptr, std::make_unique<CountedScanner>(&destroyed_));
  }

  // Opens one and fails the test unless it was admitted.
  int32_t MustOpen(ScannerRegistry& registry, const std::string& client) {
    Result<int32_t> id = Open(registry, client);
    EXPECT_TRUE(id.ok()) << id.status().ToString();
    return id.ok() ? *id : -1;
  }

  // Later Finds see a later clock than earlier ones.
  static void Tick() { std::this_thread::sleep_for(std::chrono::milliseconds(1)); }

  int destroyed_ = 0;
};

constexpr auto kHour = std::chrono::hours(1);

TEST_F(ScannerRegistryTest, IdsArePositiveUniqueAndNotCounted) {
  ScannerRegistry registry(kHour);
  std::vector<int32_t> ids;
  for (int i = 0; i < 1000; ++i) ids.push_back(MustOpen(registry, "10.0.0.1"));
  EXPECT_EQ(std::set<int32_t>(ids.begin(), ids.end()).size(), ids.size());
  int consecutive = 0;
  for (size_t i = 0; i < ids.size(); ++i) {
    EXPECT_GT(ids[i], 0);
    if (i > 0 && ids[i] == ids[i - 1] + 1) ++consecutive;
  }
  EXPECT_EQ(consecutive, 0);
}

TEST_F(ScannerRegistryTest, AScannerIsFoundAndClosedOnlyByItsClient) {
  ScannerRegistry registry(kHour);
  int32_t id = MustOpen(registry, "10.0.0.1");
  EXPECT_EQ(registry.Find(id, "10.0.0.2"), nullptr);
  EXPECT_FALSE(registry.Remove(id, "10.0.0.2"));
  EXPECT_EQ(registry.Find(id, ""), nullptr);
  EXPECT_EQ(destroyed_, 0);
  EXPECT_NE(registry.Find(id, "10.0.0.1"), nullptr);
  EXPECT_TRUE(registry.Remove(id, "10.0.0.1"));
  EXPECT_EQ(destroyed_, 1);
  EXPECT_EQ(registry.Find(id, "10.0.0.1"), nullptr);
  EXPECT_FALSE(registry.Remove(id, "10.0.0.1"));
}

TEST_F(ScannerRegistryTest, TheCapPerClientComesFirst) {
  ScannerRegistry registry(kHour, /*max_scanners=*/10, /*max_scanners_per_client=*/2);
  MustOpen(registry, "a");
  MustOpen(registry, "a");
  Result<int32_t> refused = Open(registry, "a");
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(refused.status().IsBusy());
  EXPECT_NE(refused.status().message().find("for client a (at most 2 per client)"),
            std::string::npos)
      << refused.status().ToString();
  EXPECT_EQ(destroyed_, 1);  // the refused scanner is closed
  EXPECT_EQ(registry.held_by("a"), 2u);
}

// A full server: the client holding the most gives its idlest scanner to one that holds none or
// two fewer, until the holdings are even.
TEST_F(ScannerRegistryTest, AFullServerSharesItsScannersOut) {
  ScannerRegistry registry(kHour, /*max_scanners=*/4);
  std::vector<int32_t> a;
  for (int i = 0; i < 4; ++i) a.push_back(MustOpen(registry, "a"));
  Tick();
  // a[2] is the idlest once the others are used.
  for (int32_t id : {a[0], a[1], a[3]}) ASSERT_NE(registry.Find(id, "a"), nullptr);
  int32_t b1 = MustOpen(registry, "b");
  EXPECT_EQ(registry.Find(a[2], "a"), nullptr);
  EXPECT_EQ(destroyed_, 1);
  EXPECT_EQ(registry.size(), 4u);
  MustOpen(registry, "b");  // b holds 1, a 3: two more
  EXPECT_EQ(registry.held_by("a"), 2u);
  EXPECT_EQ(registry.held_by("b"), 2u);
  // Even: neither may take from the other.
  for (const char* client : {"a", "b"}) {
    Result<int32_t> refused = Open(registry, client);
    ASSERT_FALSE(refused.ok()) << client;
    EXPECT_TRUE(refused.status().IsBusy());
    EXPECT_NE(refused.status().message().find("too many open scanners on this server (at most 4)"),
              std::string::npos)
        << refused.status().ToString();
  }
  // A third client that holds none takes the idlest of the clients holding the most.
  Tick();
  ASSERT_NE(registry.Find(b1, "b"), nullptr);
  MustOpen(registry, "c");
  EXPECT_EQ(registry.held_by("a"), 1u);
  EXPECT_EQ(registry.held_by("b"), 2u);
  EXPECT_EQ(registry.held_by("c"), 1u);
  EXPECT_NE(registry.Find(b1, "b"), nullptr);
  // One fewer than the most is not enough to take one.
  EXPECT_FALSE(Open(registry, "c").ok());
  EXPECT_FALSE(Open(registry, "a").ok());
  EXPECT_EQ(registry.size(), 4u);
}

TEST_F(ScannerRegistryTest, AScannerClosedToMakeRoomFinishesTheCallUsingIt) {
  ScannerRegistry registry(kHour, /*max_scanners=*/1);
  int32_t id = MustOpen(registry, "a");
  {
    ScannerRegistry::Lease lease(registry.Find(id, "a"));
    MustOpen(registry, "b");  // closes a's scanner, which the lease still holds
    EXPECT_EQ(destroyed_, 0);
    RowResult row;
    EXPECT_FALSE(lease.scanner().Next(&row));
  }
  EXPECT_EQ(destroyed_, 1);
  EXPECT_EQ(registry.Find(id, "a"), nullptr);
  EXPECT_EQ(registry.held_by("a"), 0u);
}

TEST_F(ScannerRegistryTest, IdleScannersExpireAndGiveTheirPlaceBack) {
  ScannerRegistry registry(std::chrono::milliseconds(20), /*max_scanners=*/2,
                           /*max_scanners_per_client=*/2);
  int32_t first = MustOpen(registry, "a");
  MustOpen(registry, "a");
  EXPECT_FALSE(Open(registry, "a").ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  registry.ExpireIdle();
  EXPECT_EQ(registry.size(), 0u);
  EXPECT_EQ(registry.held_by("a"), 0u);
  EXPECT_EQ(registry.Find(first, "a"), nullptr);
  MustOpen(registry, "a");
  MustOpen(registry, "a");
}

}  // namespace
}  // namespace basalt::server
