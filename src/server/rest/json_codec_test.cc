#include "server/rest/json_codec.h"

#include <gtest/gtest.h>

#include "server/rest/cell_set.h"

namespace basalt::server::rest {
namespace {

// The JSON, pinned byte for byte: sorted keys (the CellSet keeps its order), bytes in base64.
// tests/gateways/ compares each resource with HBase's own answer.
TEST(JsonCodecTest, OutputIsPinned) {
  EXPECT_EQ(ToJson(VersionModel{"0.0.3", "none", "Linux", "basalt/0.1.0", "none", "basalt-0.1.0"}),
            R"({"JVM":"none","Jersey":"none","OS":"Linux","REST":"0.0.3","Server":"basalt/0.1.0",)"
            R"("Version":"basalt-0.1.0"})");
  EXPECT_EQ(ToJson(ClusterVersionModel{"basalt-0.1.0"}), R"({"Version":"basalt-0.1.0"})");
  EXPECT_EQ(ToJson(TableListModel{{"a", "ns:b"}}), R"({"table":[{"name":"a"},{"name":"ns:b"}]})");
  EXPECT_EQ(ToJson(NamespacesModel{{"default"}}), R"({"Namespace":["default"]})");
  EXPECT_EQ(ToJson(NamespacePropertiesModel{}), R"({"properties":null})");
  EXPECT_EQ(
      ToJson(TableSchemaModel{.name = "t",
                              .attributes = {{"IS_META", "false"}, {"DURABILITY", "SYNC_WAL"}},
                              .columns = {{.name = "cf", .attributes = {{"VERSIONS", "1"}}}}}),
      R"({"ColumnSchema":[{"VERSIONS":"1","name":"cf"}],"DURABILITY":"SYNC_WAL",)"
      R"("IS_META":"false","name":"t"})");
  EXPECT_EQ(
      ToJson(TableInfoModel{
          .name = "t",
          .regions =
              {{.id = 0, .start_key = "", .end_key = "m", .location = "h:1", .name = "t,,0"}}}),
      R"({"Region":[{"endKey":"bQ==","id":0,"location":"h:1","name":"t,,0","startKey":""}],)"
      R"("name":"t"})");
  ClusterStatusModel status;
  status.live_nodes.push_back({.name = "h:1", .start_code = 5, .regions = {{"t,,0", 1}}});
  status.regions = 1;
  status.average_load = 1;
  EXPECT_EQ(ToJson(status),
            R"({"DeadNodes":[],"LiveNodes":[{"Region":[{"currentCompactedKVs":0,)"
            R"("memStoreSizeMB":0,"name":"dCwsMA==","readRequestsCount":0,"rootIndexSizeKB":0,)"
            R"("storefileIndexSizeKB":0,"storefileSizeMB":0,"storefiles":0,"stores":1,)"
            R"("totalCompactingKVs":0,"totalStaticBloomSizeKB":0,"totalStaticIndexSizeKB":0,)"
            R"("writeRequestsCount":0}],"heapSizeMB":0,"maxHeapSizeMB":0,"name":"h:1",)"
            R"("requests":0,"startCode":5}],"averageLoad":1.0,"regions":1,"requests":0})");
  std::vector<RowResult> rows;
  rows.emplace_back(
      "r", std::vector<Cell>{
               {.row = "r", .family = "cf", .qualifier = "a", .timestamp = 7, .value = "v"}});
  EXPECT_EQ(CellSetJson(rows),
            R"({"Row":[{"key":"cg==","Cell":[{"column":"Y2Y6YQ==","timestamp":7,"$":"dg=="}]}]})");
}

TEST(JsonCodecTest, BodiesFillTheModels) {
  TableSchemaModel schema;
  ASSERT_TRUE(
      FromJson(R"({"name":"t","ColumnSchema":[{"name":"cf","VERSIONS":3,"IN_MEMORY":true}]})",
               &schema)
          .ok());
  ASSERT_EQ(schema.columns.size(), 1u);
  EXPECT_EQ(schema.columns[0].attributes,
            (std::map<std::string, std::string>{{"IN_MEMORY", "true"}, {"VERSIONS", "3"}}));
  ScannerModel scanner;
  ASSERT_TRUE(
      FromJson(R"({"startRow":"YQ==","column":["Y2Y="],"batch":5,"reversed":true})", &scanner)
          .ok());
  EXPECT_EQ(scanner.start_row, "a");
  EXPECT_EQ(scanner.columns, std::vector<std::string>{"cf"});
  EXPECT_EQ(scanner.batch, 5);
  EXPECT_EQ(scanner.reversed, true);
  ScannerModel bad;
  EXPECT_TRUE(FromJson(R"({"batch":"five"})", &bad).IsInvalidArgument());
  // HBase's model takes a string of digits too.
  ASSERT_TRUE(FromJson(R"({"batch":"5"})", &scanner).ok());
  EXPECT_EQ(scanner.batch, 5);
  NamespacePropertiesModel props;
  EXPECT_TRUE(FromJson(R"({"properties":{"k":1}})", &props).IsInvalidArgument());
}

}  // namespace
}  // namespace basalt::server::rest
