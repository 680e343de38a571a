// Bad input gets a clear error and changes nothing.

#include <gtest/gtest.h>

#include "support/test_store.h"

namespace basalt::testing {
namespace {

using Strings = std::vector<std::string>;

class BadInputTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    store().CreateTable("t", {"f", "g"});
    ASSERT_OK(t().Put(Put("r").Add("f", "q", 1, "original")));
  }

  Table& t() { return store().table("t"); }

  // The table's whole content: proves that a failed call changed nothing.
  Strings Content() {
    Strings out;
    for (const auto& r : ScanAll(t(), Scan().ReadAllVersions())) {
      for (const auto& c : r.cells()) out.push_back(r.row() + "/" + Describe(c));
    }
    return out;
  }

  const Strings kOriginal{"r/f:q@1=original"};
};

TEST_P(BadInputTest, RowKeyLongerThan32767BytesIsRejected) {
  const std::string long_row(kMaxRowKeyLength + 1, 'x');
  EXPECT_TRUE(t().Put(Put(long_row).Add("f", "q", "v")).IsInvalidArgument());
  EXPECT_TRUE(t().Delete(Delete(long_row)).IsInvalidArgument());
  EXPECT_TRUE(t().Get(Get(long_row)).status().IsInvalidArgument());
  EXPECT_TRUE(
      t().Increment(Increment(long_row).AddColumn("f", "n", 1)).status().IsInvalidArgument());
  // The limit itself is fine.
  const std::string max_row(kMaxRowKeyLength, 'y');
  EXPECT_OK(t().Put(Put(max_row).Add("f", "q", 1, "v")));
  auto got = t().Get(Get(max_row));
  ASSERT_OK(got);
  EXPECT_EQ(got->cells().size(), 1u);
}

TEST_P(BadInputTest, EmptyRowKeyIsRejectedWhereHBaseRejectsIt) {
  EXPECT_TRUE(t().Put(Put("").Add("f", "q", "v")).IsInvalidArgument());
  EXPECT_TRUE(t().Delete(Delete("")).IsInvalidArgument());
  EXPECT_TRUE(t().Increment(Increment("").AddColumn("f", "n", 1)).status().IsInvalidArgument());
  EXPECT_TRUE(t().Append(Append("").Add("f", "s", "x")).status().IsInvalidArgument());
  EXPECT_TRUE(
      t().CheckAndMutate(CheckAndMutate("").IfNotExists("f", "q").Then(Put("").Add("f", "q", "v")))
          .status()
          .IsInvalidArgument());
  EXPECT_TRUE(t().Get(Get("")).status().IsInvalidArgument());
  EXPECT_EQ(Content(), kOriginal);
}

TEST_P(BadInputTest, UnknownFamilyFailsTheWholePut) {
  Status s = t().Put(Put("r").Add("f", "a", "1").Add("nope", "b", "2").Add("g", "c", "3"));
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  EXPECT_NE(s.message().find("nope"), std::string::npos) << s.ToString();
  EXPECT_TRUE(t().Delete(Delete("r").AddFamily("nope")).IsNotFound());
  EXPECT_TRUE(t().Get(Get("r").AddFamily("nope")).status().IsNotFound());
  EXPECT_EQ(Content(), kOriginal);
}

// The engine and HBase (NoSuchColumnFamilyException) say that the family, not the table, is
// missing; a basalt server's Thrift2 answer carries the class (NotFound) alone.
TEST_P(BadInputTest, UnknownFamilyIsNoSuchFamilyOnTheEngineAndOnHBase) {
  if (store().kind() == StoreKind::kThrift) {
    GTEST_SKIP() << "basalt's Thrift2 server sends the class (NotFound), not the sub-code";
  }
  Status put = t().Put(Put("r").Add("nope", "b", "2"));
  EXPECT_TRUE(put.IsNoSuchFamily()) << put.ToString();
  EXPECT_TRUE(put.IsNotFound()) << put.ToString();
  Status get = t().Get(Get("r").AddFamily("nope")).status();
  EXPECT_TRUE(get.IsNoSuchFamily()) << get.ToString();
  Status del = t().Delete(Delete("r").AddFamily("nope"));
  EXPECT_TRUE(del.IsNoSuchFamily()) << del.ToString();
  // Other bad arguments are not.
  Status empty_row = t().Get(Get("")).status();
  EXPECT_TRUE(empty_row.IsInvalidArgument());
  EXPECT_FALSE(empty_row.IsNoSuchFamily());
}

TEST_P(BadInputTest, UnknownTableIsNotFound) {
  auto missing = store().conn().GetTable("missing");
  EXPECT_TRUE(missing.status().IsNotFound()) << missing.status().ToString();
  EXPECT_TRUE(store().admin().DescribeTable(TableName("default", "missing")).status().IsNotFound());
  EXPECT_TRUE(store().admin().DisableTable(TableName("default", "missing")).IsNotFound());
}

TEST_P(BadInputTest, InvalidNamesAreRejected) {
  EXPECT_FALSE(TableName::Parse("bad/name").ok());
  EXPECT_FALSE(TableName::Parse("").ok());
  EXPECT_FALSE(TableName::Parse("ns:").ok());
  TableDescriptor bad_family(TableName("default", "u"));
  bad_family.AddFamily(FamilyDescriptor("bad:family"));
  EXPECT_TRUE(store().admin().CreateTable(bad_family).IsInvalidArgument());
  TableDescriptor no_family(TableName("default", "u"));
  EXPECT_TRUE(store().admin().CreateTable(no_family).IsInvalidArgument());
  EXPECT_TRUE(store().admin().CreateNamespace({"bad ns", {}}).IsInvalidArgument());
  auto tables = store().admin().ListTables();
  ASSERT_OK(tables);
  EXPECT_EQ(tables->size(), 1u);
}

TEST_P(BadInputTest, ValueOverTheDefaultLimitIsRejected) {
  const std::string big(10 * 1024 * 1024 + 1, 'v');
  Status s = t().Put(Put("r").Add("f", "q", "small").Add("f", "big", big));
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_TRUE(t().Append(Append("r").Add("f", "q", big)).status().IsInvalidArgument());
  EXPECT_EQ(Content(), kOriginal);
}

TEST(BadInputLimitTest, ValueLimitIsConfigurable) {
  ConnectionOptions options;
  options.in_memory = true;
  options.max_value_bytes = 16;
  auto conn = Connection::Open("mem:", options);
  ASSERT_OK(conn);
  TableDescriptor desc(TableName("default", "t"));
  desc.AddFamily(FamilyDescriptor("f"));
  ASSERT_OK((*conn)->admin().CreateTable(desc));
  auto t = (*conn)->GetTable("t");
  ASSERT_OK(t);
  EXPECT_OK((*t)->Put(Put("r").Add("f", "q", std::string(16, 'x'))));
  EXPECT_TRUE((*t)->Put(Put("r").Add("f", "q", std::string(17, 'x'))).IsInvalidArgument());
  // An Append that would grow the value past the limit fails too.
  EXPECT_TRUE((*t)->Append(Append("r").Add("f", "q", "y")).status().IsInvalidArgument());
  auto got = (*t)->Get(Get("r"));
  ASSERT_OK(got);
  EXPECT_EQ(got->cells()[0].value, std::string(16, 'x'));
}

TEST_P(BadInputTest, WritesAndReadsOnADisabledTableFailAndChangeNothing) {
  ASSERT_OK(store().admin().DisableTable(TableName("default", "t")));
  EXPECT_TRUE(t().Put(Put("r").Add("f", "q", "new")).IsFailedPrecondition());
  EXPECT_TRUE(t().Delete(Delete("r")).IsFailedPrecondition());
  EXPECT_TRUE(t().Increment(Increment("r").AddColumn("f", "n", 1)).status().IsFailedPrecondition());
  EXPECT_TRUE(t().Get(Get("r")).status().IsFailedPrecondition());
  EXPECT_TRUE(t().GetScanner(Scan()).status().IsFailedPrecondition());
  ASSERT_OK(store().admin().EnableTable(TableName("default", "t")));
  EXPECT_EQ(Content(), kOriginal);
}

TEST_P(BadInputTest, BadReadParametersAreRejected) {
  EXPECT_TRUE(t().Get(Get("r").ReadVersions(0)).status().IsInvalidArgument());
  EXPECT_TRUE(t().Get(Get("r").SetTimeRange(10, 5)).status().IsInvalidArgument());
  EXPECT_TRUE(t().GetScanner(Scan().ReadVersions(-1)).status().IsInvalidArgument());
}

TEST_P(BadInputTest, NegativeTimestampsAreRejected) {
  EXPECT_TRUE(t().Put(Put("r").Add("f", "q", -5, "v")).IsInvalidArgument());
  EXPECT_EQ(Content(), kOriginal);
}

TEST_P(BadInputTest, AdminMisusesFailWithTheRightCode) {
  const TableName name("default", "t");
  EXPECT_TRUE(store().admin().DeleteTable(name).IsFailedPrecondition());  // still enabled
  EXPECT_TRUE(store().admin().TruncateTable(name).IsFailedPrecondition());
  EXPECT_TRUE(store()
                  .admin()
                  .CreateTable(TableDescriptor(name).AddFamily(FamilyDescriptor("f")))
                  .IsAlreadyExists());
  ASSERT_OK(store().admin().DeleteFamily(name, "g"));
  EXPECT_TRUE(store().admin().DeleteFamily(name, "f").IsFailedPrecondition());  // the last one
  EXPECT_TRUE(store().admin().DeleteNamespace("default").IsFailedPrecondition() ||
              store().admin().DeleteNamespace("default").IsInvalidArgument());
  ASSERT_OK(store().admin().CreateNamespace({"ns", {}}));
  ASSERT_OK(store().admin().CreateTable(
      TableDescriptor(TableName("ns", "x")).AddFamily(FamilyDescriptor("f"))));
  EXPECT_TRUE(store().admin().DeleteNamespace("ns").IsFailedPrecondition());
  EXPECT_TRUE(
      store()
          .admin()
          .CreateTable(TableDescriptor(TableName("nons", "x")).AddFamily(FamilyDescriptor("f")))
          .IsNotFound());
  // Split keys: duplicates and empty keys are rejected; order does not matter (HBase sorts).
  auto split_table = [&](const std::string& name, std::vector<std::string> splits) {
    return store().admin().CreateTable(
        TableDescriptor(TableName("default", name)).AddFamily(FamilyDescriptor("f")), splits);
  };
  EXPECT_TRUE(split_table("s1", {"a", "b", "a"}).IsInvalidArgument());
  EXPECT_TRUE(split_table("s2", {"a", ""}).IsInvalidArgument());
  ASSERT_OK(split_table("s3", {"m", "c"}));
  auto info = store().admin().DescribeTable(TableName("default", "s3"));
  ASSERT_OK(info);
  EXPECT_EQ(info->split_keys, (Strings{"c", "m"}));
  EXPECT_EQ(Content(), kOriginal);
}

}  // namespace

BASALT_INSTANTIATE_STORE_TEST(BadInputTest);

}  // namespace basalt::testing
