#include "shell/formatter.h"

#include <gtest/gtest.h>

#include <sstream>

namespace basalt::shell {
namespace {

Cell MakeCell(std::string row, std::string family, std::string qualifier, int64_t ts,
              std::string value, CellType type = CellType::kPut) {
  return Cell{std::move(row), std::move(family), std::move(qualifier), ts, type, std::move(value)};
}

TEST(ShellFormatterTest, CellsPrintBinaryBytesAsHBaseDoes) {
  Cell c = MakeCell("r", "f", std::string("q\x00", 2), 10, "a\xff\\b");
  EXPECT_EQ(FormatColumn(c), "f:q\\x00");
  EXPECT_EQ(FormatCell(c), "timestamp=10, value=a\\xFF\\x5Cb");
  Cell marker = MakeCell("r", "f", "q", 20, "", CellType::kDeleteColumn);
  EXPECT_EQ(FormatCell(marker), "timestamp=20, type=DeleteColumn, value=");
}

TEST(ShellFormatterTest, GetPrintsColumnAndCellTable) {
  std::ostringstream out;
  PrintGetResult(
      out, RowResult("r1", {MakeCell("r1", "f", "a", 5, "x"), MakeCell("r1", "g", "b", 6, "y")}));
  EXPECT_EQ(out.str(),
            "COLUMN                        CELL\n"
            " f:a                           timestamp=5, value=x\n"
            " g:b                           timestamp=6, value=y\n"
            "1 row(s)\n");
  std::ostringstream empty;
  PrintGetResult(empty, RowResult());
  EXPECT_EQ(empty.str(), "COLUMN                        CELL\n0 row(s)\n");
}

TEST(ShellFormatterTest, ScanPrintsARowPerCell) {
  std::ostringstream out;
  PrintScanHeader(out);
  PrintScanRow(out, RowResult(std::string("\x01r", 2), {MakeCell("", "f", "a", 5, "x")}));
  PrintRowCount(out, 1);
  EXPECT_EQ(out.str(),
            "ROW                           COLUMN+CELL\n"
            " \\x01r                         column=f:a, timestamp=5, value=x\n"
            "1 row(s)\n");
}

TEST(ShellFormatterTest, LongKeysKeepASpaceBeforeTheCell) {
  std::ostringstream out;
  std::string key(40, 'k');
  PrintScanRow(out, RowResult(key, {MakeCell(key, "f", "a", 1, "v")}));
  EXPECT_EQ(out.str(), " " + key + " column=f:a, timestamp=1, value=v\n");
}

TEST(ShellFormatterTest, DescribeListsStateDurabilitySplitsAndFamilies) {
  TableInfo info;
  info.descriptor = TableDescriptor(TableName("ns", "t"));
  FamilyDescriptor f("f");
  f.max_versions = 3;
  f.ttl_seconds = 60;
  info.descriptor.AddFamily(f);
  info.enabled = false;
  info.split_keys = {"m", std::string("\xff", 1)};
  std::ostringstream out;
  PrintTableDescription(out, info);
  EXPECT_EQ(out.str(),
            "Table ns:t is DISABLED\n"
            "ns:t, {TABLE_ATTRIBUTES => {DURABILITY => 'USE_DEFAULT'}}\n"
            "SPLITS => ['m', '\\xFF']\n"
            "COLUMN FAMILIES DESCRIPTION\n"
            "{NAME => 'f', VERSIONS => '3', MIN_VERSIONS => '0', TTL => '60 SECONDS', "
            "KEEP_DELETED_CELLS => 'FALSE', COMPRESSION => 'NONE', BLOOMFILTER => 'ROW', "
            "BLOCKSIZE => '65536'}\n"
            "1 row(s)\n");
}

TEST(ShellFormatterTest, NameListsAndTimings) {
  std::ostringstream out;
  PrintNameList(out, "TABLE", {"a", "ns:b"});
  EXPECT_EQ(out.str(), "TABLE\na\nns:b\n2 row(s)\n");
  EXPECT_EQ(FormatTook(0.01234), "Took 0.0123 seconds");
  EXPECT_EQ(FormatTook(2), "Took 2.0000 seconds");
}

TEST(ShellFormatterTest, ValueFormatsDecodeBigEndianAsJavaBytes) {
  EXPECT_EQ(FormatValue(std::string("\xff\xff\xff\xff\xff\xff\xff\xfe", 8), ValueFormat::kLong),
            "-2");
  EXPECT_EQ(FormatValue(std::string("\x00\x00\x01\x00", 4), ValueFormat::kInt), "256");
  EXPECT_EQ(FormatValue(std::string("\x80\x00", 2), ValueFormat::kShort), "-32768");
  EXPECT_EQ(FormatValue(std::string("\x3f\xc0\x00\x00", 4), ValueFormat::kFloat), "1.5");
  EXPECT_EQ(FormatValue(std::string("\x40\x09\x21\xfb\x54\x44\x2d\x18", 8), ValueFormat::kDouble),
            "3.1415926535897931");
  EXPECT_EQ(FormatValue(std::string("\x01", 1), ValueFormat::kBoolean), "true");
  EXPECT_EQ(FormatValue("caf\xc3\xa9", ValueFormat::kString), "caf\xc3\xa9");
  // The wrong length prints the bytes instead of guessing.
  EXPECT_EQ(FormatValue("abc", ValueFormat::kLong), "abc");
  EXPECT_EQ(FormatValue(std::string("\x00", 1), ValueFormat::kBinary), "\\x00");
}

TEST(ShellFormatterTest, ValueFormatNames) {
  EXPECT_EQ(*ParseValueFormat("toLong"), ValueFormat::kLong);
  EXPECT_EQ(*ParseValueFormat("c(org.apache.hadoop.hbase.util.Bytes).toInt"), ValueFormat::kInt);
  EXPECT_EQ(*ParseValueFormat("toStringBinary"), ValueFormat::kBinary);
  EXPECT_TRUE(ParseValueFormat("toMoney").status().IsNotFound());
  EXPECT_TRUE(ParseValueFormat("").status().IsNotFound());
  Cell c = MakeCell("r", "f", "n", 1, std::string("\x00\x00\x00\x07", 4));
  EXPECT_EQ(FormatCell(c, {{{"f", "n"}, ValueFormat::kInt}}), "timestamp=1, value=7");
  EXPECT_EQ(FormatCell(c, {{{"f", "m"}, ValueFormat::kInt}}),
            "timestamp=1, value=\\x00\\x00\\x00\\x07");
}

}  // namespace
}  // namespace basalt::shell
