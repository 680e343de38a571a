// Admin operations through the public API, on every store configuration.

#include <gtest/gtest.h>

#include "support/test_store.h"

namespace basalt::testing {
namespace {

class AdminTest : public StoreTest {};

TEST_P(AdminTest, CreatedTableIsListedAndDescribed) {
  store().CreateTable("t", {"b", "a"});
  store().Reopen();
  auto tables = store().admin().ListTables();
  ASSERT_OK(tables);
  ASSERT_EQ(tables->size(), 1u);
  EXPECT_EQ((*tables)[0].ToString(), "t");
  auto info = store().admin().DescribeTable(TableName("default", "t"));
  ASSERT_OK(info);
  ASSERT_EQ(info->descriptor.families.size(), 2u);
  EXPECT_EQ(info->descriptor.families[0].name, "a");
  EXPECT_TRUE(info->enabled);
}

}  // namespace

BASALT_INSTANTIATE_STORE_TEST(AdminTest);

}  // namespace basalt::testing
