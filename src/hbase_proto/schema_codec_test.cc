#include "hbase_proto/schema_codec.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <string_view>

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
  std::map<std::string, std::string> values = {{"BLOOMFILTER", "ROW"},
                                               {"REPLICATION_SCOPE", "0"},
                                               {"VERSIONS", "1"},
                                               {"MIN_VERSIONS", "0"},
                                               {"COMPRESSION", "NONE"},
                                               {"TTL", "2147483647"},
                                               {"BLOCKSIZE", "65536"},
                                               {"IN_MEMORY", "false"},
                                               {"BLOCKCACHE", "true"},
                                               {"KEEP_DELETED_CELLS", "FALSE"},
                                               {"DATA_BLOCK_ENCODING", "NONE"},
                                               {"INDEX_BLOCK_ENCODING", "NONE"}};
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

// Bytes HBase 2.6.1's Java client (hbase-client 2.6.1-hadoop3, JDK 17) writes, in hex.
// ProtobufUtil.toTableSchema of TableDescriptorBuilder.newBuilder(TableName.valueOf("ns", "t"))
//     .setDurability(Durability.FSYNC_WAL)
//     .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder("cf").setMaxVersions(3)
//         .setTimeToLive(60).setCompressionType(SNAPPY).setBloomFilterType(ROWCOL)
//         .setKeepDeletedCells(KeepDeletedCells.TTL).setInMemory(true).setBlocksize(4096).build())
//     .setColumnFamily(ColumnFamilyDescriptorBuilder.of("d")).build()
constexpr char kJavaTwoFamilyTable[] =
    "0a070a026e7312017412100a0749535f4d455441120566616c736512170a0a4455524142494c495459120946"
    "53594e435f57414c1a87020a026366121c0a14494e4445585f424c4f434b5f454e434f44494e4712044e4f4e"
    "45120d0a0856455253494f4e5312013312190a124b4545505f44454c455445445f43454c4c53120354544c12"
    "1b0a13444154415f424c4f434b5f454e434f44494e4712044e4f4e4512090a0354544c1202363012110a0c4d"
    "494e5f56455253494f4e5312013012160a115245504c49434154494f4e5f53434f504512013012150a0b424c"
    "4f4f4d46494c5445521206524f57434f4c12110a09494e5f4d454d4f525912047472756512150a0b434f4d50"
    "52455353494f4e1206534e4150505912120a0a424c4f434b434143484512047472756512110a09424c4f434b"
    "53495a451204343039361a8d020a0164121c0a14494e4445585f424c4f434b5f454e434f44494e4712044e4f"
    "4e45120d0a0856455253494f4e53120131121b0a124b4545505f44454c455445445f43454c4c53120546414c"
    "5345121b0a13444154415f424c4f434b5f454e434f44494e4712044e4f4e4512110a0354544c120a32313437"
    "34383336343712110a0c4d494e5f56455253494f4e5312013012160a115245504c49434154494f4e5f53434f"
    "504512013012120a0b424c4f4f4d46494c5445521203524f5712120a09494e5f4d454d4f5259120566616c73"
    "6512130a0b434f4d5052455353494f4e12044e4f4e4512120a0a424c4f434b43414348451204747275651212"
    "0a09424c4f434b53495a4512053635353336";

// ProtobufUtil.toTableSchema of a table "t2" with ColumnFamilyDescriptorBuilder.of("cf").
constexpr char kJavaPlainTable[] =
    "0a0d0a0764656661756c741202743212100a0749535f4d455441120566616c73651a8e020a026366121c0a14"
    "494e4445585f424c4f434b5f454e434f44494e4712044e4f4e45120d0a0856455253494f4e53120131121b0a"
    "124b4545505f44454c455445445f43454c4c53120546414c5345121b0a13444154415f424c4f434b5f454e43"
    "4f44494e4712044e4f4e4512110a0354544c120a3231343734383336343712110a0c4d494e5f56455253494f"
    "4e5312013012160a115245504c49434154494f4e5f53434f504512013012120a0b424c4f4f4d46494c544552"
    "1203524f5712120a09494e5f4d454d4f5259120566616c736512130a0b434f4d5052455353494f4e12044e4f"
    "4e4512120a0a424c4f434b434143484512047472756512120a09424c4f434b53495a4512053635353336";

// ProtobufUtil.toProtoNamespaceDescriptor of NamespaceDescriptor.create("ns1")
//     .addConfiguration("k", "v").build()
constexpr char kJavaNamespace[] = "0a036e733112060a016b120176";

std::string FromHex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

std::string ToHex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

template <class Message>
Message ParsedHex(std::string_view hex) {
  Message message;
  EXPECT_TRUE(message.ParseFromString(FromHex(hex)));
  return message;
}

TEST(SchemaCodecTest, DecodesWhatJavaWrites) {
  auto t = DecodeTable(ParsedHex<pb::TableSchema>(kJavaTwoFamilyTable));
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->name, TableName("ns", "t"));
  EXPECT_EQ(t->durability, Durability::kFsyncWal);
  ASSERT_EQ(t->families.size(), 2u);
  const FamilyDescriptor& cf = t->families[0];
  EXPECT_EQ(cf.name, "cf");
  EXPECT_EQ(cf.max_versions, 3);
  EXPECT_EQ(cf.ttl_seconds, 60);
  EXPECT_EQ(cf.compression, Compression::kSnappy);
  EXPECT_EQ(cf.bloom_filter, BloomFilter::kRowCol);
  EXPECT_EQ(cf.keep_deleted_cells, KeepDeletedCells::kTtl);
  EXPECT_EQ(cf.block_size, 4096);
  EXPECT_EQ(cf.attributes.at("IN_MEMORY"), "true");
  EXPECT_EQ(cf.attributes.at("INDEX_BLOCK_ENCODING"), "NONE");
  // Java's defaults are basalt's.
  FamilyDescriptor d("d");
  d.attributes = t->families[1].attributes;
  EXPECT_EQ(t->families[1], d);
  EXPECT_EQ(d.attributes, (std::map<std::string, std::string>{{"BLOCKCACHE", "true"},
                                                              {"DATA_BLOCK_ENCODING", "NONE"},
                                                              {"INDEX_BLOCK_ENCODING", "NONE"},
                                                              {"IN_MEMORY", "false"},
                                                              {"REPLICATION_SCOPE", "0"}}));

  auto plain = DecodeTable(ParsedHex<pb::TableSchema>(kJavaPlainTable));
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  EXPECT_EQ(plain->name, TableName("default", "t2"));
  EXPECT_EQ(plain->durability, Durability::kUseDefault);

  auto ns = DecodeNamespace(ParsedHex<pb::NamespaceDescriptor>(kJavaNamespace));
  ASSERT_TRUE(ns.ok());
  EXPECT_EQ(*ns, (NamespaceDescriptor{"ns1", {{"k", "v"}}}));
}

// basalt's bytes for a table, which HBase 2.6.1's ProtobufUtil.toTableDescriptor reads back as
// ns:t, SKIP_WAL, family cf with VERSIONS 4, MIN_VERSIONS 1, TTL 90, COMPRESSION GZ, BLOOMFILTER
// NONE, KEEP_DELETED_CELLS TRUE, BLOCKSIZE 8192, IN_MEMORY true: a descriptor equal (equals, and
// TableDescriptor.COMPARATOR) to the one TableDescriptorBuilder makes of those settings (checked
// with hbase-client 2.6.1-hadoop3 on JDK 17).
TEST(SchemaCodecTest, EncodesWhatJavaReads) {
  TableDescriptor t(TableName("ns", "t"));
  t.durability = Durability::kSkipWal;
  FamilyDescriptor cf("cf");
  cf.max_versions = 4;
  cf.min_versions = 1;
  cf.ttl_seconds = 90;
  cf.compression = Compression::kGz;
  cf.bloom_filter = BloomFilter::kNone;
  cf.keep_deleted_cells = KeepDeletedCells::kTrue;
  cf.block_size = 8192;
  cf.attributes["IN_MEMORY"] = "true";
  t.AddFamily(cf);
  pb::TableSchema wire;
  EncodeTable(t, &wire);
  EXPECT_EQ(ToHex(wire.SerializeAsString()),
            "0a070a026e7312017412100a0749535f4d455441120566616c736512160a0a4455524142494c49545912"
            "08534b49505f57414c1a9b010a02636612110a09424c4f434b53495a4512043831393212130a0b424c4f"
            "4f4d46494c54455212044e4f4e4512110a0b434f4d5052455353494f4e1202475a12110a09494e5f4d45"
            "4d4f5259120474727565121a0a124b4545505f44454c455445445f43454c4c5312045452554512110a0c"
            "4d494e5f56455253494f4e5312013112090a0354544c12023930120d0a0856455253494f4e53120134");
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
                                                               {"INDEX_BLOCK_ENCODING", "NONE"},
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
  ASSERT_EQ(wire.attributes_size(), 2);
  EXPECT_EQ(wire.attributes(0).first(), "IS_META");
  EXPECT_EQ(wire.attributes(0).second(), "false");
  EXPECT_EQ(wire.attributes(1).first(), "DURABILITY");
  EXPECT_EQ(wire.attributes(1).second(), "FSYNC_WAL");
  t.durability = Durability::kUseDefault;
  wire.Clear();
  EncodeTable(t, &wire);
  EXPECT_EQ(wire.attributes_size(), 1) << "Java's absent DURABILITY is USE_DEFAULT";
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
