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

TEST_P(AdminTest, SchemaAndDataSurviveCloseAndReopen) {
  ASSERT_OK(store().admin().CreateNamespace({"app", {{"owner", "ops"}}}));
  TableDescriptor desc(TableName("app", "events"));
  FamilyDescriptor e("e");
  e.max_versions = 4;
  e.min_versions = 1;
  e.ttl_seconds = 86400;
  e.keep_deleted_cells = KeepDeletedCells::kTtl;
  e.compression = Compression::kNone;
  e.bloom_filter = BloomFilter::kRowCol;
  e.block_size = 8192;
  desc.AddFamily(e).AddFamily(FamilyDescriptor("meta"));
  desc.durability = Durability::kAsyncWal;
  ASSERT_OK(store().admin().CreateTable(desc, {"k", "t"}));
  Table& t = store().table("app:events");
  const int64_t now = 1'800'000'000'000;  // within the TTL for years to come
  ASSERT_OK(t.Put(Put("row").Add("e", "q", now, "v").Add("meta", "m", now, "w")));
  store().CreateTable("other", {"f"});
  ASSERT_OK(store().admin().DisableTable(TableName("default", "other")));
  auto before = store().admin().DescribeTable(desc.name);
  ASSERT_OK(before);

  store().Reopen();

  auto after = store().admin().DescribeTable(desc.name);
  ASSERT_OK(after);
  EXPECT_EQ(after->descriptor, before->descriptor);
  EXPECT_EQ(after->split_keys, (std::vector<std::string>{"k", "t"}));
  EXPECT_TRUE(after->enabled);
  auto ns = store().admin().GetNamespace("app");
  ASSERT_OK(ns);
  EXPECT_EQ(ns->configuration.at("owner"), "ops");
  auto other_enabled = store().admin().IsTableEnabled(TableName("default", "other"));
  ASSERT_OK(other_enabled);
  EXPECT_FALSE(*other_enabled);
  auto row = store().table("app:events").Get(Get("row"));
  ASSERT_OK(row);
  EXPECT_EQ(Describe(*row),
            (std::vector<std::string>{"e:q@1800000000000=v", "meta:m@1800000000000=w"}));
}

TEST_P(AdminTest, NamespacesAreCreatedListedAndDropped) {
  ASSERT_OK(store().admin().CreateNamespace({"a", {}}));
  auto list = store().admin().ListNamespaces();
  ASSERT_OK(list);
  std::vector<std::string> names;
  for (const auto& ns : *list) names.push_back(ns.name);
  EXPECT_EQ(names, (std::vector<std::string>{"a", "default", "hbase"}));
  EXPECT_TRUE(store().admin().CreateNamespace({"a", {}}).IsAlreadyExists());
  ASSERT_OK(store().admin().DeleteNamespace("a"));
  EXPECT_TRUE(store().admin().GetNamespace("a").status().IsNotFound());
  EXPECT_FALSE(store().admin().DeleteNamespace("hbase").ok());
  EXPECT_FALSE(store().admin().DeleteNamespace("default").ok());
}

TEST_P(AdminTest, AlterAddsModifiesAndDeletesFamilies) {
  Table& t = store().CreateTable("t", {"a", "b"});
  ASSERT_OK(t.Put(Put("r").Add("a", "x", 1, "1").Add("b", "y", 1, "2")));
  const TableName name("default", "t");
  ASSERT_OK(store().admin().AddFamily(name, FamilyDescriptor("c")));
  ASSERT_OK(store().table("t").Put(Put("r").Add("c", "z", 1, "3")));
  FamilyDescriptor a("a");
  a.max_versions = 7;
  ASSERT_OK(store().admin().ModifyFamily(name, a));
  ASSERT_OK(store().admin().DeleteFamily(name, "b"));
  store().Reopen();
  auto info = store().admin().DescribeTable(name);
  ASSERT_OK(info);
  ASSERT_EQ(info->descriptor.families.size(), 2u);
  EXPECT_EQ(info->descriptor.families[0].max_versions, 7);
  EXPECT_EQ(info->descriptor.families[1].name, "c");
  auto row = store().table("t").Get(Get("r"));
  ASSERT_OK(row);
  EXPECT_EQ(Describe(*row), (std::vector<std::string>{"a:x@1=1", "c:z@1=3"}));
  // A family added again under a deleted name starts empty.
  ASSERT_OK(store().admin().AddFamily(name, FamilyDescriptor("b")));
  auto b = store().table("t").Get(Get("r").AddFamily("b"));
  ASSERT_OK(b);
  EXPECT_TRUE(b->empty());
}

TEST_P(AdminTest, TruncateEmptiesTheTableAndKeepsSchemaAndSplits) {
  TableDescriptor desc(TableName("default", "t"));
  desc.AddFamily(FamilyDescriptor("f"));
  Table& t = store().CreateTable(desc, {"m"});
  ASSERT_OK(t.Put(Put("r").Add("f", "q", "v")));
  const TableName name("default", "t");
  ASSERT_OK(store().admin().DisableTable(name));
  ASSERT_OK(store().admin().TruncateTable(name));
  // Enabled again, as HBase's truncate leaves it: the next read works.
  auto enabled = store().admin().IsTableEnabled(name);
  ASSERT_OK(enabled);
  EXPECT_TRUE(*enabled);
  EXPECT_TRUE(ScanRows(store().table("t")).empty());
  store().Reopen();
  EXPECT_TRUE(ScanRows(store().table("t")).empty());
  auto info = store().admin().DescribeTable(name);
  ASSERT_OK(info);
  EXPECT_EQ(info->split_keys, (std::vector<std::string>{"m"}));
}

// HBase's cluster id: a real id of the store, not a constant, and it survives a reopen. The
// thrift kinds read it through Thrift2's getClusterId.
TEST_P(AdminTest, ClusterIdIsTheStoresOwnAndSurvivesAReopen) {
  auto id = store().admin().ClusterId();
  ASSERT_OK(id);
  EXPECT_GE(id->size(), 16u) << *id;
  EXPECT_NE(*id, "basalt");
  store().Reopen();
  auto again = store().admin().ClusterId();
  ASSERT_OK(again);
  EXPECT_EQ(*again, *id);
}

// Attributes basalt does not act on (HBase's IN_MEMORY, REPLICATION_SCOPE, ...) are kept and
// read back on every backend and across a reopen, and a changed family replaces them. HBase
// reads back every attribute its family descriptor holds, its defaults too: there a family
// reads back as HBase's defaults with the given attributes over them (docs/data-model.md).
TEST_P(AdminTest, FamilyAttributesAreKeptAndReadBack) {
  using Attributes = std::map<std::string, std::string>;
  const auto read_back = [&](const Attributes& given) {
    if (!store().IsRealHBase()) return given;
    Attributes out = {{"BLOCKCACHE", "true"},
                      {"DATA_BLOCK_ENCODING", "NONE"},
                      {"INDEX_BLOCK_ENCODING", "NONE"},
                      {"IN_MEMORY", "false"},
                      {"REPLICATION_SCOPE", "0"}};
    for (const auto& [key, value] : given) out[key] = value;
    return out;
  };
  TableDescriptor desc(TableName("default", "attrs"));
  FamilyDescriptor family("f");
  family.attributes = {
      {"IN_MEMORY", "true"}, {"REPLICATION_SCOPE", "1"}, {"DATA_BLOCK_ENCODING", "FAST_DIFF"}};
  desc.AddFamily(family).AddFamily(FamilyDescriptor("g"));
  ASSERT_OK(store().admin().CreateTable(desc));
  store().Reopen();
  auto info = store().admin().DescribeTable(TableName("default", "attrs"));
  ASSERT_OK(info);
  EXPECT_EQ(info->descriptor.FindFamily("f")->attributes, read_back(family.attributes));
  EXPECT_EQ(info->descriptor.FindFamily("g")->attributes, read_back({}));
  family.attributes = {{"IN_MEMORY", "false"}};
  ASSERT_OK(store().admin().ModifyFamily(TableName("default", "attrs"), family));
  info = store().admin().DescribeTable(TableName("default", "attrs"));
  ASSERT_OK(info);
  EXPECT_EQ(info->descriptor.FindFamily("f")->attributes, read_back(family.attributes));
  // Names are HBase's: upper case; a setting of its own is not an attribute.
  FamilyDescriptor bad("h");
  bad.attributes = {{"in_memory", "true"}};
  EXPECT_TRUE(store().admin().AddFamily(TableName("default", "attrs"), bad).IsInvalidArgument());
  bad.attributes = {{"VERSIONS", "3"}};
  EXPECT_TRUE(store().admin().AddFamily(TableName("default", "attrs"), bad).IsInvalidArgument());
}

TEST_P(AdminTest, DroppedTableIsGoneAndItsNameReusable) {
  Table& t = store().CreateTable("t", {"f"});
  ASSERT_OK(t.Put(Put("r").Add("f", "q", "v")));
  const TableName name("default", "t");
  ASSERT_OK(store().admin().DisableTable(name));
  ASSERT_OK(store().admin().DeleteTable(name));
  auto exists = store().admin().TableExists(name);
  ASSERT_OK(exists);
  EXPECT_FALSE(*exists);
  store().Reopen();
  Table& again = store().CreateTable("t", {"f"});
  EXPECT_TRUE(ScanRows(again).empty());
}

}  // namespace

BASALT_INSTANTIATE_STORE_TEST(AdminTest);

}  // namespace basalt::testing
