#include "basalt/schema.h"

#include <gtest/gtest.h>

namespace basalt {
namespace {

TEST(SchemaTest, TableNameParsesNamespaceAndDefault) {
  auto t = TableName::Parse("users");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->ns, "default");
  EXPECT_EQ(t->qualifier, "users");
  EXPECT_EQ(t->ToString(), "users");
  auto n = TableName::Parse("app:events.v2");
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->ns, "app");
  EXPECT_EQ(n->qualifier, "events.v2");
  EXPECT_EQ(n->ToString(), "app:events.v2");
}

TEST(SchemaTest, InvalidNamesAreRejectedWithReason) {
  EXPECT_TRUE(TableName::Parse("").status().IsInvalidArgument());
  EXPECT_TRUE(TableName::Parse("-x").status().IsInvalidArgument());
  EXPECT_TRUE(TableName::Parse(".x").status().IsInvalidArgument());
  EXPECT_TRUE(TableName::Parse("a b").status().IsInvalidArgument());
  EXPECT_TRUE(TableName::Parse("ns-x:t").status().IsInvalidArgument());
  EXPECT_TRUE(TableName::Parse("ns:").status().IsInvalidArgument());
  EXPECT_TRUE(TableName::Parse(std::string(129, 'a')).status().IsInvalidArgument());
  EXPECT_NE(TableName::Parse("a/b").status().message().find("a/b"), std::string::npos);
  EXPECT_TRUE(ValidateFamilyName("info").ok());
  EXPECT_TRUE(ValidateFamilyName("a:b").IsInvalidArgument());
  EXPECT_TRUE(ValidateFamilyName(".meta").IsInvalidArgument());
  EXPECT_TRUE(ValidateFamilyName("").IsInvalidArgument());
  EXPECT_TRUE(ValidateFamilyName("tab\t").IsInvalidArgument());
}

TEST(SchemaTest, FamilyDescriptorValidatesSettings) {
  FamilyDescriptor f("f");
  EXPECT_TRUE(f.Validate().ok());
  EXPECT_EQ(f.max_versions, 1);  // HBase's default since 0.96
  f.max_versions = 0;
  EXPECT_TRUE(f.Validate().IsInvalidArgument());
  f.max_versions = 3;
  f.min_versions = 4;
  EXPECT_TRUE(f.Validate().IsInvalidArgument());
  f.min_versions = 1;
  f.ttl_seconds = 0;
  EXPECT_TRUE(f.Validate().IsInvalidArgument());
}

TEST(SchemaTest, TableDescriptorNeedsDistinctFamilies) {
  TableDescriptor d(TableName("default", "t"));
  EXPECT_TRUE(d.Validate().IsInvalidArgument());
  d.AddFamily(FamilyDescriptor("a")).AddFamily(FamilyDescriptor("a"));
  EXPECT_TRUE(d.Validate().IsInvalidArgument());
}

TEST(SchemaTest, EnumNamesParseCaseInsensitively) {
  EXPECT_EQ(*ParseCompression("zstd"), Compression::kZstd);
  EXPECT_EQ(*ParseBloomFilter("RowCol"), BloomFilter::kRowCol);
  EXPECT_EQ(*ParseKeepDeletedCells("ttl"), KeepDeletedCells::kTtl);
  EXPECT_TRUE(ParseCompression("lzo").status().IsInvalidArgument());
}

}  // namespace
}  // namespace basalt
