#include "hbase_proto/schema_codec.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace basalt::hbase_proto {
namespace {

namespace pb = ::hbase::pb;

std::map<std::string, std::string> AttributesOf(const pb::ColumnFamilySchema& f) {
  std::map<std::string, std::string> out;
  for (const auto& pair : f.attributes()) out[pair.first()] = pair.second();
  return out;
}

// A family as HBase 2.6's Java client sends ColumnFamilyDescriptorBuilder.of("cf") with some
// settings changed: every default of DEFAULT_VALUES rides along.
pb::ColumnFamilySchema JavaFamily(const std::map<std::string, std::string>& changed) {
  std::map<std::string, std::string> values = {
      {"BLOOMFILTER", "ROW"},          {"REPLICATION_SCOPE", "0"},     {"VERSIONS", "1"},
      {"MIN_VERSIONS", "0"},           {"COMPRESSION", "NONE"},        {"TTL", "2147483647"},
      {"BLOCKSIZE", "65536"},          {"IN_MEMORY", "false"},         {"BLOCKCACHE", "true"},
      {"KEEP_DELETED_CELLS", "FALSE"}, {"DATA_BLOCK_ENCODING", "NONE"}};
  for (const auto& [k, v] : changed) values[k] = v;
  pb::ColumnFamilySchema f;
  f.set_name("cf");
  for (const auto& [k, v] : values) {
    auto* pair = f.add_attributes();
    pair->set_first(k);
    pair->set_second(v);
  }
  return f;
}

TEST(SchemaCodecTest, TableNameDefaultNamespaceIsTheSameText) {
  pb::TableName wire;
  EncodeTableName(TableName("default", "t1"), &wire);
  EXPECT_EQ(wire.namespace_(), "default");
  EXPECT_EQ(wire.qualifier(), "t1");
  auto back = DecodeTableName(wire);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, TableName("default", "t1"));
  EXPECT_EQ(back->ToString(), "t1");

  wire.set_namespace_("ns1");
  EXPECT_EQ(DecodeTableName(wire)->ToString(), "ns1:t1");
  wire.set_qualifier("-bad");
  EXPECT_TRUE(DecodeTableName(wire).status().IsInvalidArgument());
  wire.set_qualifier("t1");
  wire.set_namespace_("bad ns");
  EXPECT_TRUE(DecodeTableName(wire).status().IsInvalidArgument());
}

TEST(SchemaCodecTest, JavaFamilyDecodesToSettingsAndKeptAttributes) {
  auto f = DecodeFamily(JavaFamily({{"VERSIONS", "5"},
                                    {"MIN_VERSIONS", "2"},
                                    {"TTL", "86400"},
                                    {"COMPRESSION", "SNAPPY"},
                                    {"BLOOMFILTER", "ROWCOL"},
                                    {"KEEP_DELETED_CELLS", "TTL"},
                                    {"BLOCKSIZE", "4096"},
                                    {"IN_MEMORY", "true"}}));
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ(f->name, "cf");
  EXPECT_EQ(f->max_versions, 5);
  EXPECT_EQ(f->min_versions, 2);
  EXPECT_EQ(f->ttl_seconds, 86400);
  EXPECT_EQ(f->compression, Compression::kSnappy);
  EXPECT_EQ(f->bloom_filter, BloomFilter::kRowCol);
  EXPECT_EQ(f->keep_deleted_cells, KeepDeletedCells::kTtl);
  EXPECT_EQ(f->block_size, 4096);
  EXPECT_EQ(f->attributes, (std::map<std::string, std::string>{{"BLOCKCACHE", "true"},
                                                               {"DATA_BLOCK_ENCODING", "NONE"},
                                                               {"IN_MEMORY", "true"},
                                                               {"REPLICATION_SCOPE", "0"}}));
}

TEST(SchemaCodecTest, FamilyRoundTripsAndEncodesJavasNames) {
  FamilyDescriptor f("cf");
  f.max_versions = 3;
  f.ttl_seconds = 60;
  f.compression = Compression::kZstd;
  f.bloom_filter = BloomFilter::kNone;
  f.attributes["IN_MEMORY"] = "true";
  pb::ColumnFamilySchema wire;
  EncodeFamily(f, &wire);
  EXPECT_EQ(wire.name(), "cf");
  EXPECT_EQ(AttributesOf(wire), (std::map<std::string, std::string>{{"BLOCKSIZE", "65536"},
                                                                    {"BLOOMFILTER", "NONE"},
                                                                    {"COMPRESSION", "ZSTD"},
                                                                    {"IN_MEMORY", "true"},
                                                                    {"KEEP_DELETED_CELLS", "FALSE"},
                                                                    {"MIN_VERSIONS", "0"},
                                                                    {"TTL", "60"},
                                                                    {"VERSIONS", "3"}}));
  auto back = DecodeFamily(wire);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, f);
}

TEST(SchemaCodecTest, ForeverTtlIsAccepted) {
  auto f = DecodeFamily(JavaFamily({{"TTL", "FOREVER"}}));
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->ttl_seconds, kForeverTtl);
}

TEST(SchemaCodecTest, BadFamilyValuesNameTheAttribute) {
  for (const auto& [key, value] :
       std::map<std::string, std::string>{{"VERSIONS", "many"},
                                          {"MIN_VERSIONS", "1x"},
                                          {"TTL", ""},
                                          {"BLOCKSIZE", "99999999999"},
                                          {"COMPRESSION", "LZMA"},
                                          {"BLOOMFILTER", "ROWPREFIX_FIXED_LENGTH"},
                                          {"KEEP_DELETED_CELLS", "MAYBE"}}) {
    auto f = DecodeFamily(JavaFamily({{key, value}}));
    ASSERT_TRUE(f.status().IsInvalidArgument()) << key;
    EXPECT_NE(f.status().message().find(key), std::string::npos) << f.status().ToString();
  }
  // Validate(): settings out of range, and names no basalt attribute may have.
  EXPECT_TRUE(DecodeFamily(JavaFamily({{"VERSIONS", "0"}})).status().IsInvalidArgument());
  EXPECT_TRUE(DecodeFamily(JavaFamily({{"lowercase", "x"}})).status().IsInvalidArgument());
  pb::ColumnFamilySchema nameless = JavaFamily({});
  nameless.set_name("");
  EXPECT_TRUE(DecodeFamily(nameless).status().IsInvalidArgument());
}

TEST(SchemaCodecTest, TableRoundTripsWithDurability) {
  TableDescriptor t(TableName("ns", "t"));
  t.durability = Durability::kFsyncWal;
  t.AddFamily(FamilyDescriptor("a")).AddFamily(FamilyDescriptor("b"));
  pb::TableSchema wire;
  EncodeTable(t, &wire);
  ASSERT_EQ(wire.attributes_size(), 1);
  EXPECT_EQ(wire.attributes(0).first(), "DURABILITY");
  EXPECT_EQ(wire.attributes(0).second(), "FSYNC_WAL");
  ASSERT_EQ(wire.column_families_size(), 2);
  auto back = DecodeTable(wire);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, t);
}

pb::TableSchema JavaTable() {
  pb::TableSchema wire;
  wire.mutable_table_name()->set_namespace_("default");
  wire.mutable_table_name()->set_qualifier("t");
  *wire.add_column_families() = JavaFamily({});
  return wire;
}

void AddTableAttribute(pb::TableSchema* wire, const std::string& key, const std::string& value) {
  auto* pair = wire->add_attributes();
  pair->set_first(key);
  pair->set_second(value);
}

TEST(SchemaCodecTest, TableAttributesBasaltHasNoSettingForAreDroppedOrRefused) {
  pb::TableSchema wire = JavaTable();
  AddTableAttribute(&wire, "MAX_FILESIZE", "1073741824");
  AddTableAttribute(&wire, "READONLY", "false");
  auto* conf = wire.add_configuration();
  conf->set_name("hbase.hstore.blockingStoreFiles");
  conf->set_value("20");
  auto t = DecodeTable(wire);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->durability, Durability::kUseDefault);
  ASSERT_EQ(t->families.size(), 1u);

  pb::TableSchema read_only = JavaTable();
  AddTableAttribute(&read_only, "READONLY", "TRUE");
  auto refused = DecodeTable(read_only);
  ASSERT_TRUE(refused.status().IsInvalidArgument());
  EXPECT_NE(refused.status().message().find("READONLY"), std::string::npos);

  pb::TableSchema coprocessor = JavaTable();
  AddTableAttribute(&coprocessor, "COPROCESSOR$1", "|org.example.Observer|1073741823|");
  EXPECT_TRUE(DecodeTable(coprocessor).status().IsInvalidArgument());

  pb::TableSchema durability = JavaTable();
  AddTableAttribute(&durability, "DURABILITY", "SOMETIMES");
  auto bad = DecodeTable(durability);
  ASSERT_TRUE(bad.status().IsInvalidArgument());
  EXPECT_NE(bad.status().message().find("DURABILITY"), std::string::npos);
}

TEST(SchemaCodecTest, TableWithoutNameOrFamiliesIsRefused) {
  pb::TableSchema nameless = JavaTable();
  nameless.clear_table_name();
  EXPECT_TRUE(DecodeTable(nameless).status().IsInvalidArgument());
  pb::TableSchema empty = JavaTable();
  empty.clear_column_families();
  EXPECT_TRUE(DecodeTable(empty).status().IsInvalidArgument());
}

TEST(SchemaCodecTest, NamespaceRoundTrips) {
  NamespaceDescriptor ns{"ns1", {{"hbase.namespace.quota.maxtables", "10"}}};
  pb::NamespaceDescriptor wire;
  EncodeNamespace(ns, &wire);
  EXPECT_EQ(wire.name(), "ns1");
  ASSERT_EQ(wire.configuration_size(), 1);
  auto back = DecodeNamespace(wire);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, ns);
  wire.set_name("no:colons");
  EXPECT_TRUE(DecodeNamespace(wire).status().IsInvalidArgument());
}

}  // namespace
}  // namespace basalt::hbase_proto
