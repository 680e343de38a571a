#include "server/rest/xml_codec.h"

#include <gtest/gtest.h>

namespace basalt::server::rest {
namespace {

constexpr char kDecl[] = R"(<?xml version="1.0" encoding="UTF-8" standalone="yes"?>)";

std::string Doc(const std::string& body) {
  return kDecl + body;
}

TEST(XmlCodecTest, CellSetHasHBasesShape) {
  std::vector<RowResult> rows;
  rows.emplace_back("row1", std::vector<Cell>{{.row = "row1",
                                               .family = "cf",
                                               .qualifier = "a",
                                               .timestamp = 1700000000000,
                                               .value = "value"}});
  rows.emplace_back("empty", std::vector<Cell>{});
  EXPECT_EQ(ToXml(rows), Doc(R"(<CellSet><Row key="cm93MQ=="><Cell column="Y2Y6YQ==" )"
                             R"(timestamp="1700000000000">dmFsdWU=</Cell></Row></CellSet>)"));
  EXPECT_EQ(ToXml(std::vector<RowResult>{}), Doc("<CellSet/>"));
}

TEST(XmlCodecTest, ResourcesHaveHBasesNames) {
  EXPECT_EQ(ToXml(VersionModel{"0.0.3", "none", "Linux", "basalt/0.1.0", "none", "basalt-0.1.0"}),
            Doc(R"(<Version REST="0.0.3" JVM="none" OS="Linux" Server="basalt/0.1.0" )"
                R"(Jersey="none" Version="basalt-0.1.0"/>)"));
  EXPECT_EQ(ToXml(ClusterVersionModel{"basalt-0.1.0"}),
            Doc(R"(<ClusterVersion Version="basalt-0.1.0"/>)"));
  EXPECT_EQ(ToXml(TableListModel{{"a", "ns:b"}}),
            Doc(R"(<TableList><table name="a"/><table name="ns:b"/></TableList>)"));
  EXPECT_EQ(ToXml(NamespacesModel{{"default", "hbase"}}),
            Doc("<Namespaces><Namespace>default</Namespace><Namespace>hbase</Namespace>"
                "</Namespaces>"));
  EXPECT_EQ(ToXml(NamespacePropertiesModel{.name = "ns", .properties = {{"k", "v"}}}),
            Doc("<NamespaceProperties><properties><entry><key>k</key><value>v</value></entry>"
                "</properties></NamespaceProperties>"));
  EXPECT_EQ(ToXml(NamespacePropertiesModel{}), Doc("<NamespaceProperties/>"));
  EXPECT_EQ(ToXml(TableSchemaModel{.name = "t",
                                   .attributes = {{"IS_META", "false"}},
                                   .columns = {{.name = "cf", .attributes = {{"VERSIONS", "1"}}}}}),
            Doc(R"(<TableSchema name="t" IS_META="false"><ColumnSchema name="cf" VERSIONS="1"/>)"
                "</TableSchema>"));
  EXPECT_EQ(
      ToXml(TableInfoModel{
          .name = "t",
          .regions =
              {{.id = 0, .start_key = "", .end_key = "m", .location = "h:8080", .name = "t,,0"}}}),
      Doc(R"(<TableInfo name="t"><Region endKey="bQ==" id="0" location="h:8080" )"
          R"(name="t,,0" startKey=""/></TableInfo>)"));
}

TEST(XmlCodecTest, ClusterStatusNestsNodesAndRegions) {
  ClusterStatusModel m;
  m.live_nodes.push_back({.name = "h:1", .start_code = 5, .regions = {{"t,,0", 1}}});
  m.regions = 1;
  m.average_load = 1;
  std::string xml = ToXml(m);
  EXPECT_TRUE(xml.starts_with(
      Doc(R"(<ClusterStatus regions="1" requests="0" averageLoad="1.0"><LiveNodes>)"
          R"(<Node name="h:1" startCode="5" requests="0" heapSizeMB="0" maxHeapSizeMB="0">)"
          R"(<Region name="dCwsMA==" stores="1" storefiles="0")")))
      << xml;
  EXPECT_TRUE(xml.ends_with("</Node></LiveNodes><DeadNodes/></ClusterStatus>")) << xml;
}

TEST(XmlCodecTest, TextIsEscapedAndNonXmlCharactersReplaced) {
  EXPECT_EQ(ToXml(NamespacesModel{{"a<b>&\"c\""}}),
            Doc("<Namespaces><Namespace>a&lt;b&gt;&amp;&quot;c&quot;</Namespace></Namespaces>"));
  // Bad UTF-8 and a control character become U+FFFD; tab and newline survive as references.
  EXPECT_EQ(ToXml(TableListModel{{std::string("x\xff\x01y\t\n")}}),
            Doc("<TableList><table name=\"x\xEF\xBF\xBD\xEF\xBF\xBDy&#9;&#10;\"/></TableList>"));
}

TEST(XmlCodecTest, CellSetIsRead) {
  std::vector<RowModel> rows;
  ASSERT_TRUE(FromXml(R"(<?xml version="1.0"?>
      <CellSet>
        <Row key="cm93MQ==">
          <Cell column="Y2Y6YQ==" timestamp="42">
            dmFs
            dWU=
          </Cell>
          <Cell><![CDATA[dg==]]></Cell>
        </Row>
        <Row><Cell column="Y2Y6Yg==">eA==</Cell></Row>
      </CellSet>)",
                      &rows)
                  .ok());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].key, "row1");
  ASSERT_EQ(rows[0].cells.size(), 2u);
  EXPECT_EQ(rows[0].cells[0].column, "cf:a");
  EXPECT_EQ(rows[0].cells[0].timestamp, 42);
  EXPECT_EQ(rows[0].cells[0].value, "value");
  EXPECT_EQ(rows[0].cells[1].column, std::nullopt);
  EXPECT_EQ(rows[0].cells[1].value, "v");
  EXPECT_EQ(rows[1].key, std::nullopt);
  EXPECT_EQ(rows[1].cells[0].value, "x");
}

TEST(XmlCodecTest, BadBodiesAreInvalidArgument) {
  std::vector<RowModel> rows;
  for (const char* bad : {"", "<CellSet>", "<CellSet></Cellset>", "not xml", "<Other/>",
                          R"(<CellSet><Row key="!!"/></CellSet>)",
                          R"(<CellSet><Row><Cell timestamp="-1">eA==</Cell></Row></CellSet>)",
                          R"(<CellSet><Row><Cell timestamp="x">eA==</Cell></Row></CellSet>)",
                          R"(<CellSet><Row><Cell>not base64</Cell></Row></CellSet>)"}) {
    rows.clear();
    Status s = FromXml(bad, &rows);
    EXPECT_TRUE(s.IsInvalidArgument()) << bad << ": " << s.ToString();
  }
}

TEST(XmlCodecTest, EntitiesAreNotExpanded) {
  // An external entity and an entity bomb: the DOCTYPE is skipped, so neither is defined and
  // the references stay as text.
  NamespacePropertiesModel props;
  ASSERT_TRUE(FromXml(R"(<?xml version="1.0"?>
      <!DOCTYPE NamespaceProperties [
        <!ENTITY xxe SYSTEM "file:///etc/passwd">
        <!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
      ]>
      <NamespaceProperties><properties>
        <entry><key>k</key><value>&xxe;&b;&amp;&#65;</value></entry>
      </properties></NamespaceProperties>)",
                      &props)
                  .ok());
  EXPECT_EQ(props.properties.at("k"), "&xxe;&b;&A");
}

TEST(XmlCodecTest, DeepDocumentsAreRefused) {
  std::string deep = "<CellSet>";
  for (int i = 0; i < 10000; ++i) deep += "<Row>";
  for (int i = 0; i < 10000; ++i) deep += "</Row>";
  deep += "</CellSet>";
  std::vector<RowModel> rows;
  Status s = FromXml(deep, &rows);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("nested"), std::string::npos) << s.ToString();
}

TEST(XmlCodecTest, ScannerReadsAttributesColumnsAndFilter) {
  ScannerModel m;
  ASSERT_TRUE(FromXml(R"(<Scanner startRow="YQ==" endRow="eg==" batch="10" caching="5"
                          startTime="1" endTime="9" maxVersions="2" limit="3"
                          includeStartRow="false" includeStopRow="true" cacheBlocks="true">
                          <column>Y2Y=</column><column>Y2Y6cQ==</column>
                          <filter>{"type":"KeyOnlyFilter"}</filter>
                          <labels>ignored</labels></Scanner>)",
                      &m)
                  .ok());
  EXPECT_EQ(m.start_row, "a");
  EXPECT_EQ(m.end_row, "z");
  EXPECT_EQ(m.batch, 10);
  EXPECT_EQ(m.caching, 5);
  EXPECT_EQ(m.start_time, 1);
  EXPECT_EQ(m.end_time, 9);
  EXPECT_EQ(m.max_versions, 2);
  EXPECT_EQ(m.limit, 3);
  EXPECT_EQ(m.include_start_row, false);
  EXPECT_EQ(m.include_stop_row, true);
  EXPECT_EQ(m.columns, (std::vector<std::string>{"cf", "cf:q"}));
  EXPECT_EQ(m.filter, R"({"type":"KeyOnlyFilter"})");
  ScannerModel bad;
  EXPECT_TRUE(FromXml(R"(<Scanner batch="ten"/>)", &bad).IsInvalidArgument());
  EXPECT_TRUE(FromXml(R"(<Scanner reversed="maybe"/>)", &bad).IsInvalidArgument());
}

TEST(XmlCodecTest, TableSchemaIsRead) {
  TableSchemaModel m;
  ASSERT_TRUE(FromXml(R"(<TableSchema name="t" IS_META="false">
                           <ColumnSchema name="cf" VERSIONS="3" TTL="FOREVER"/>
                           <ColumnSchema name="cg"/></TableSchema>)",
                      &m)
                  .ok());
  EXPECT_EQ(m.name, "t");
  EXPECT_EQ(m.attributes.at("IS_META"), "false");
  ASSERT_EQ(m.columns.size(), 2u);
  EXPECT_EQ(m.columns[0].name, "cf");
  EXPECT_EQ(m.columns[0].attributes,
            (std::map<std::string, std::string>{{"TTL", "FOREVER"}, {"VERSIONS", "3"}}));
  EXPECT_TRUE(m.columns[1].attributes.empty());
  TableSchemaModel nameless;
  EXPECT_TRUE(FromXml("<TableSchema><ColumnSchema/></TableSchema>", &nameless).IsInvalidArgument());
}

}  // namespace
}  // namespace basalt::server::rest
