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

}  // namespace
}  // namespace basalt::shell
