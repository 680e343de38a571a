#include "server/rest/protobuf_codec.h"

#include <gtest/gtest.h>

#include <cstring>

#include "support/protobuf_wire.h"

namespace basalt::server::rest {
namespace {

using test::wire::Double;
using test::wire::Int;
using test::wire::Len;

TEST(ProtobufCodecTest, CellSetIsRowsOfKeyAndCells) {
  std::vector<RowResult> rows;
  rows.emplace_back("r1", std::vector<Cell>{{.row = "r1",
                                             .family = "cf",
                                             .qualifier = "q",
                                             .timestamp = 5,
                                             .value = std::string("v\0w", 3)}});
  rows.emplace_back("empty", std::vector<Cell>{});
  std::string cell = Len(2, "cf:q") + Int(3, 5) + Len(4, std::string("v\0w", 3));
  EXPECT_EQ(ToProtobuf(rows), Len(1, Len(1, "r1") + Len(2, cell)));
}

TEST(ProtobufCodecTest, CellSetReadsKeysColumnsTimestampsAndData) {
  std::string body = Len(1, Len(1, "r1") + Len(2, Len(2, "cf:a") + Int(3, 7) + Len(4, "x")) +
                                Len(2, Len(4, "y"))) +
                     Len(1, Len(1, "") + Len(2, Len(2, "cf:b")));
  std::vector<RowModel> rows;
  ASSERT_TRUE(FromProtobuf(body, &rows).ok());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].key, "r1");
  ASSERT_EQ(rows[0].cells.size(), 2u);
  EXPECT_EQ(rows[0].cells[0].column, "cf:a");
  EXPECT_EQ(rows[0].cells[0].timestamp, 7);
  EXPECT_EQ(rows[0].cells[0].value, "x");
  EXPECT_EQ(rows[0].cells[1].column, std::nullopt);
  EXPECT_EQ(rows[0].cells[1].timestamp, std::nullopt);
  EXPECT_EQ(rows[0].cells[1].value, "y");
  // An empty key is the path's row.
  EXPECT_EQ(rows[1].key, std::nullopt);
}

TEST(ProtobufCodecTest, BadBytesAreInvalidArgument) {
  std::vector<RowModel> rows;
  EXPECT_TRUE(FromProtobuf("\xff\xff\xff", &rows).IsInvalidArgument());
  // A Row without its required key.
  EXPECT_TRUE(FromProtobuf(Len(1, Len(2, Len(4, "x"))), &rows).IsInvalidArgument());
  EXPECT_TRUE(FromProtobuf(Len(1, Len(1, "r") + Len(2, Int(3, -1))), &rows).IsInvalidArgument());
  ScannerModel scanner;
  EXPECT_TRUE(FromProtobuf(std::string("\x0a\x05", 2), &scanner).IsInvalidArgument());
  TableSchemaModel schema;
  EXPECT_TRUE(FromProtobuf(Len(3, Len(2, Len(1, "k"))), &schema).IsInvalidArgument());
}

TEST(ProtobufCodecTest, ScannerReadsEveryField) {
  std::string body = Len(1, "a") + Len(2, "z") + Len(3, "cf") + Len(3, "cf:q") + Int(4, 10) +
                     Int(5, 100) + Int(6, 200) + Int(7, 3) +
                     Len(8, "{\"type\":\"KeyOnlyFilter\"}") + Int(9, 50) + Len(10, "secret") +
                     Int(11, 1) + Int(12, 7);
  ScannerModel m;
  ASSERT_TRUE(FromProtobuf(body, &m).ok());
  EXPECT_EQ(m.start_row, "a");
  EXPECT_EQ(m.end_row, "z");
  EXPECT_EQ(m.columns, (std::vector<std::string>{"cf", "cf:q"}));
  EXPECT_EQ(m.batch, 10);
  EXPECT_EQ(m.start_time, 100);
  EXPECT_EQ(m.end_time, 200);
  EXPECT_EQ(m.max_versions, 3);
  EXPECT_EQ(m.filter, "{\"type\":\"KeyOnlyFilter\"}");
  EXPECT_EQ(m.caching, 50);
  EXPECT_EQ(m.limit, 7);
  ScannerModel empty;
  ASSERT_TRUE(FromProtobuf("", &empty).ok());
  EXPECT_EQ(empty.start_row, std::nullopt);
  EXPECT_EQ(empty.batch, std::nullopt);
}

TEST(ProtobufCodecTest, TableSchemaBothWays) {
  TableSchemaModel m{
      .name = "ns:t",
      .attributes = {{"IS_META", "false"}},
      .columns = {
          {.name = "cf",
           .attributes = {{"COMPRESSION", "NONE"}, {"TTL", "FOREVER"}, {"VERSIONS", "3"}}}}};
  std::string attr = Len(1, "IS_META") + Len(2, "false");
  std::string column = Len(1, "cf") + Len(2, Len(1, "COMPRESSION") + Len(2, "NONE")) +
                       Len(2, Len(1, "TTL") + Len(2, "FOREVER")) +
                       Len(2, Len(1, "VERSIONS") + Len(2, "3")) + Int(4, 3) + Len(5, "NONE");
  EXPECT_EQ(ToProtobuf(m), Len(1, "ns:t") + Len(2, attr) + Len(3, column));

  // ttl, maxVersions and compression are the attributes; inMemory and readOnly the table's.
  std::string body = Len(1, "t") +
                     Len(3, Len(1, "cf") + Int(3, 60) + Int(4, 2) + Len(5, "SNAPPY") +
                                Len(2, Len(1, "BLOCKCACHE") + Len(2, "false"))) +
                     Int(4, 1) + Int(5, 0);
  TableSchemaModel parsed;
  ASSERT_TRUE(FromProtobuf(body, &parsed).ok());
  EXPECT_EQ(parsed.name, "t");
  EXPECT_EQ(parsed.attributes.at("IN_MEMORY"), "true");
  EXPECT_EQ(parsed.attributes.at("READONLY"), "false");
  ASSERT_EQ(parsed.columns.size(), 1u);
  EXPECT_EQ(parsed.columns[0].name, "cf");
  EXPECT_EQ(
      parsed.columns[0].attributes,
      (std::map<std::string, std::string>{
          {"BLOCKCACHE", "false"}, {"COMPRESSION", "SNAPPY"}, {"TTL", "60"}, {"VERSIONS", "2"}}));
}

TEST(ProtobufCodecTest, ListsVersionAndNamespaceProperties) {
  EXPECT_EQ(ToProtobuf(TableListModel{{"a", "ns:b"}}), Len(1, "a") + Len(1, "ns:b"));
  EXPECT_EQ(ToProtobuf(NamespacesModel{{"default", "hbase"}}), Len(1, "default") + Len(1, "hbase"));
  EXPECT_EQ(ToProtobuf(VersionModel{"0.0.3", "none", "Linux", "basalt", "none", "b-1"}),
            Len(1, "0.0.3") + Len(2, "none") + Len(3, "Linux") + Len(4, "basalt") + Len(5, "none") +
                Len(6, "b-1"));
  NamespacePropertiesModel props{.name = "ns", .properties = {{"k1", "v1"}, {"k2", "v2"}}};
  std::string wire = Len(1, Len(1, "k1") + Len(2, "v1")) + Len(1, Len(1, "k2") + Len(2, "v2"));
  EXPECT_EQ(ToProtobuf(props), wire);
  NamespacePropertiesModel parsed;
  ASSERT_TRUE(FromProtobuf(wire, &parsed).ok());
  EXPECT_EQ(parsed.properties, props.properties);
}

TEST(ProtobufCodecTest, TableInfoAndClusterStatus) {
  TableInfoModel info{
      .name = "t",
      .regions = {{.id = 1, .start_key = "a", .end_key = "", .location = "h:1", .name = "t,a,1"}}};
  EXPECT_EQ(ToProtobuf(info), Len(1, "t") + Len(2, Len(1, "t,a,1") + Len(2, "a") + Len(3, "") +
                                                       Int(4, 1) + Len(5, "h:1")));

  ClusterStatusModel status;
  status.live_nodes.push_back({.name = "h:1", .start_code = 9, .regions = {{"t,,0", 2}}});
  status.regions = 1;
  status.average_load = 1.0;
  std::string region = Len(1, "t,,0") + Int(2, 2) + Int(3, 0) + Int(4, 0) + Int(5, 0) + Int(6, 0) +
                       Int(7, 0) + Int(8, 0) + Int(9, 0) + Int(10, 0) + Int(11, 0) + Int(12, 0) +
                       Int(13, 0);
  std::string node = Len(1, "h:1") + Int(2, 9) + Int(3, 0) + Int(4, 0) + Int(5, 0) + Len(6, region);
  EXPECT_EQ(ToProtobuf(status), Len(1, node) + Int(3, 1) + Int(4, 0) + Double(5, 1.0));
}

}  // namespace
}  // namespace basalt::server::rest
