// The caps on column families (docs/data-model.md, "Families"): at most kMaxFamiliesPerTable in
// a table, whether it is created with them or they are added one by one, and at most
// ConnectionOptions::max_store_families in all the tables of a store. A refused change leaves
// nothing behind.

#include <gtest/gtest.h>

#include <string>

#include "support/test_store.h"

namespace basalt::testing {
namespace {

TableDescriptor WithFamilies(const std::string& table, size_t families) {
  TableDescriptor desc(TableName("default", table));
  for (size_t i = 0; i < families; ++i) desc.AddFamily(FamilyDescriptor("f" + std::to_string(i)));
  return desc;
}

bool HasTable(Admin& admin, const std::string& table) {
  auto exists = admin.TableExists(TableName("default", table));
  EXPECT_TRUE(exists.ok()) << exists.status().ToString();
  return exists.ok() && *exists;
}

class FamilyCapsTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    // An HBase cluster has no such cap.
    if (store().kind() == StoreKind::kThriftTarget) GTEST_SKIP() << "a basalt cap";
  }
};

TEST_P(FamilyCapsTest, TableWithTheMostFamiliesIsCreatedAndSurvivesAReopen) {
  Table& t = store().CreateTable(WithFamilies("t", kMaxFamiliesPerTable));
  const std::string last = "f" + std::to_string(kMaxFamiliesPerTable - 1);
  ASSERT_OK(t.Put(Put("r").Add("f0", "q", 1, "first").Add(last, "q", 1, "last")));
  store().Reopen();
  auto info = store().admin().DescribeTable(TableName("default", "t"));
  ASSERT_OK(info);
  EXPECT_EQ(info->descriptor.families.size(), kMaxFamiliesPerTable);
  auto row = store().table("t").Get(Get("r"));
  ASSERT_OK(row);
  EXPECT_EQ(Describe(*row), (std::vector<std::string>{"f0:q@1=first", last + ":q@1=last"}));
}

TEST_P(FamilyCapsTest, TableWithOneFamilyTooManyIsRefusedAndLeavesNothing) {
  Status s = store().admin().CreateTable(WithFamilies("t", kMaxFamiliesPerTable + 1), {});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("at most " + std::to_string(kMaxFamiliesPerTable)), std::string::npos)
      << s.ToString();
  EXPECT_NE(s.message().find(std::to_string(kMaxFamiliesPerTable + 1)), std::string::npos)
      << s.ToString();
  EXPECT_FALSE(HasTable(store().admin(), "t"));
  store().Reopen();
  EXPECT_FALSE(HasTable(store().admin(), "t"));
  // The name is free, and the store takes a full table after the refused one.
  Table& t = store().CreateTable(WithFamilies("t", kMaxFamiliesPerTable));
  EXPECT_TRUE(ScanRows(t).empty());
}

TEST_P(FamilyCapsTest, AlterCannotAddAFamilyPastTheCap) {
  store().CreateTable(WithFamilies("t", kMaxFamiliesPerTable - 1));
  const TableName name("default", "t");
  ASSERT_OK(store().admin().AddFamily(name, FamilyDescriptor("last")));
  Status s = store().admin().AddFamily(name, FamilyDescriptor("one_too_many"));
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("at most " + std::to_string(kMaxFamiliesPerTable)), std::string::npos)
      << s.ToString();
  store().Reopen();
  auto info = store().admin().DescribeTable(name);
  ASSERT_OK(info);
  EXPECT_EQ(info->descriptor.families.size(), kMaxFamiliesPerTable);
  EXPECT_EQ(info->descriptor.FindFamily("one_too_many"), nullptr);
  // Room made by a delete can be taken again.
  ASSERT_OK(store().admin().DeleteFamily(name, "last"));
  ASSERT_OK(store().admin().AddFamily(name, FamilyDescriptor("one_too_many")));
  ASSERT_OK(store().table("t").Put(Put("r").Add("one_too_many", "q", 1, "v")));
}

BASALT_INSTANTIATE_STORE_TEST(FamilyCapsTest);

// The store-wide cap is an embedded store's option.
TEST(StoreFamilyCapTest, TablesCannotTakeMoreFamiliesThanTheStoreAllows) {
  TempDir dir;
  ConnectionOptions options;
  options.max_store_families = 5;
  {
    auto conn = Connection::Open(dir.path(), options);
    ASSERT_OK(conn);
    Admin& admin = (*conn)->admin();
    ASSERT_OK(admin.CreateTable(WithFamilies("a", 3), {}));
    Status s = admin.CreateTable(WithFamilies("b", 3), {});
    EXPECT_TRUE(s.IsFailedPrecondition()) << s.ToString();
    EXPECT_NE(s.message().find("limit of 5"), std::string::npos) << s.ToString();
    EXPECT_FALSE(HasTable(admin, "b"));
    ASSERT_OK(admin.CreateTable(WithFamilies("b", 2), {}));
    s = admin.AddFamily(TableName("default", "a"), FamilyDescriptor("more"));
    EXPECT_TRUE(s.IsFailedPrecondition()) << s.ToString();
    // A dropped table's families no longer count.
    ASSERT_OK(admin.DisableTable(TableName("default", "b")));
    ASSERT_OK(admin.DeleteTable(TableName("default", "b")));
    ASSERT_OK(admin.AddFamily(TableName("default", "a"), FamilyDescriptor("more")));
    ASSERT_OK((*conn)->Close());
  }
  // A store holding more than a smaller cap opens and works; it only takes no more families.
  options.max_store_families = 2;
  auto conn = Connection::Open(dir.path(), options);
  ASSERT_OK(conn);
  auto info = (*conn)->admin().DescribeTable(TableName("default", "a"));
  ASSERT_OK(info);
  EXPECT_EQ(info->descriptor.families.size(), 4u);
  auto t = (*conn)->GetTable("a");
  ASSERT_OK(t);
  ASSERT_OK((*t)->Put(Put("r").Add("more", "q", 1, "v")));
  Status s = (*conn)->admin().CreateTable(WithFamilies("c", 1), {});
  EXPECT_TRUE(s.IsFailedPrecondition()) << s.ToString();
}

}  // namespace
}  // namespace basalt::testing
