#include "server/hbase_rpc/region_directory.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

namespace basalt::server::hbase_rpc {
namespace {

TEST(RegionDirectoryTest, NameIsHBasesFormWithTheMd5OfItsPrefix) {
  RegionDirectory regions(1700000000000);
  Region region = regions.Regions(TableName("default", "t1"), {}).at(0);
  EXPECT_EQ(region.id, 1700000000000u);
  // md5("t1,,1700000000000"), as HBase's RegionInfo.encodeRegionName writes it.
  EXPECT_EQ(region.name, "t1,,1700000000000.43ae7364b4a555b93267937f9bc49ec1.")
      << "recompute with: printf 't1,,1700000000000' | md5sum";
  EXPECT_EQ(regions.Regions(TableName("ns", "t1"), {}).at(0).name.substr(0, 6), "ns:t1,");
}

TEST(RegionDirectoryTest, RenewedTableAnswersOnlyToItsNewName) {
  RegionDirectory regions(1000);
  const TableName table("default", "t");
  const Region old_region = regions.Regions(table, {}).at(0);
  ASSERT_EQ(regions.Resolve(old_region.name), table);
  regions.Renew(table);
  EXPECT_EQ(regions.Resolve(old_region.name), std::nullopt);
  const Region renewed = regions.Regions(table, {}).at(0);
  EXPECT_GT(renewed.id, old_region.id);
  EXPECT_EQ(regions.Resolve(old_region.name), std::nullopt);
  EXPECT_EQ(regions.Resolve(renewed.name), table);
}

TEST(RegionDirectoryTest, ForgottenTableComesBackUnderANewName) {
  RegionDirectory regions(1000);
  const TableName table("default", "t");
  const Region old_region = regions.Regions(table, {}).at(0);
  regions.Forget(table);
  EXPECT_EQ(regions.Resolve(old_region.name), std::nullopt);
  EXPECT_NE(regions.Regions(table, {}).at(0).name, old_region.name);
}

TEST(RegionDirectoryTest, SplitKeysBoundTheRegionsAndEachNameResolves) {
  RegionDirectory regions(1000);
  const TableName table("default", "t");
  std::vector<Region> shown = regions.Regions(table, {"g", "p"});
  ASSERT_EQ(shown.size(), 3u);
  EXPECT_EQ(shown[0].start_key, "");
  EXPECT_EQ(shown[0].end_key, "g");
  EXPECT_EQ(shown[1].start_key, "g");
  EXPECT_EQ(shown[2].end_key, "");
  EXPECT_EQ(shown[1].name.substr(0, 9), "t,g,1000.");
  for (const Region& region : shown) EXPECT_EQ(regions.Resolve(region.name), table);
  // A name meta never showed is no region, however well formed.
  EXPECT_EQ(regions.Resolve("t,x,1000.00000000000000000000000000000000."), std::nullopt);
}

TEST(RegionDirectoryTest, GarbageNamesNoRegion) {
  RegionDirectory regions(1000);
  for (std::string_view name : {"", ",", "t", "t,,", "bad name,,1000.x.", "hbase:meta,,1"}) {
    EXPECT_EQ(regions.Resolve(name), std::nullopt) << name;
  }
}

TEST(RegionDirectoryTest, ConcurrentRenewsGiveDistinctIds) {
  RegionDirectory regions(1000);
  std::vector<std::thread> threads;
  std::vector<std::vector<uint64_t>> ids(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        const TableName table("default", "t" + std::to_string(t));
        regions.Renew(table);
        ids[t].push_back(regions.Regions(table, {}).at(0).id);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  std::set<uint64_t> all;
  for (const auto& list : ids) all.insert(list.begin(), list.end());
  EXPECT_EQ(all.size(), 800u);
}

}  // namespace
}  // namespace basalt::server::hbase_rpc
