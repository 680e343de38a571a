// Data operations through the public API, on every store configuration.

#include <gtest/gtest.h>

#include "support/test_store.h"

namespace basalt::testing {
namespace {

class DataTest : public StoreTest {};

TEST_P(DataTest, PutThenGetReturnsTheCell) {
  Table& t = store().CreateTable("t", {"f"});
  ASSERT_OK(t.Put(Put("r1").Add("f", "q", 5, "v")));
  store().Reopen();
  auto r = store().table("t").Get(Get("r1"));
  ASSERT_OK(r);
  EXPECT_EQ(Describe(*r), (std::vector<std::string>{"f:q@5=v"}));
}

}  // namespace

BASALT_INSTANTIATE_STORE_TEST(DataTest);

}  // namespace basalt::testing
