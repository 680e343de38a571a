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

// GetInto gives what Get gives, through one RowResult reused from read to read: rows of other
// shapes and sizes, a row that is not there, rows a filter thins or drops, and a failed read
// each leave exactly their own result.
TEST_P(DataTest, GetIntoThroughOneReusedResultGivesWhatGetGives) {
  Table& t = store().CreateTable("t", {"f", "g"});
  ASSERT_OK(t.Put(Put("wide")
                      .Add("f", "a", 5, std::string(3000, 'a'))
                      .Add("f", "b", 5, "bb")
                      .Add("g", "c", 5, "cc")));
  ASSERT_OK(t.Put(Put("narrow").Add("f", "a", 6, "x")));
  ASSERT_OK(t.Put(Put("huge").Add("f", "h", 7, std::string(100 << 10, 'h'))));
  store().Reopen();
  Table& table = store().table("t");
  const FilterPtr not_bb =
      std::make_shared<ValueFilter>(CompareOp::kNotEqual, ByteComparator::Binary("bb"));
  const std::vector<Get> reads = {
      Get("wide"),
      Get("narrow"),
      Get("wide").AddColumn("f", "b"),
      Get("absent"),
      Get("huge"),
      Get("narrow"),
      Get("narrow").AddFamily("g"),
      Get("wide").SetFilter(not_bb),
      Get("wide").SetFilter(std::make_shared<PrefixFilter>("n")),
      Get("wide").ReadVersions(3),
  };
  RowResult reused;
  for (size_t i = 0; i < reads.size(); ++i) {
    auto expected = table.Get(reads[i]);
    ASSERT_OK(expected.status());
    ASSERT_OK(table.GetInto(reads[i], &reused));
    EXPECT_EQ(reused, *expected) << "read " << i;
  }
  EXPECT_EQ(reused.size(), 3u);
  Status failed = table.GetInto(Get("wide").AddFamily("no_such_family"), &reused);
  EXPECT_TRUE(failed.IsNotFound()) << failed.ToString();
  EXPECT_TRUE(reused.empty());
  EXPECT_EQ(reused.row(), "");
}

}  // namespace

BASALT_INSTANTIATE_STORE_TEST(DataTest);

}  // namespace basalt::testing
