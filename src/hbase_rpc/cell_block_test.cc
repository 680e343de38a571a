#include "hbase_rpc/cell_block.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace basalt::hbase_rpc {
namespace {

std::vector<Cell> ReadAll(std::string_view block, std::optional<std::string>* error) {
  CellBlockReader reader(block);
  std::vector<Cell> cells;
  Cell cell;
  while (reader.Next(&cell)) cells.push_back(cell);
  *error = reader.error();
  return cells;
}

TEST(CellBlockTest, KeyValueBytesAreHBasesLayout) {
  std::string block;
  AppendKeyValue({"r", "f", "q", 0x0102030405060708, CellType::kPut, "v"}, &block);
  // total 8 + key 15 + value 1; key: row len 1, "r", family len 1, "f", "q", ts, type 4.
  const std::string expected = std::string("\0\0\0\x18\0\0\0\x0f\0\0\0\x01", 12) +
                               std::string(
                                   "\0\x01r\x01"
                                   "fq\x01\x02\x03\x04\x05\x06\x07\x08\x04",
                                   15) +
                               "v";
  EXPECT_EQ(block, expected);
}

TEST(CellBlockTest, CellsComeBackInOrder) {
  std::vector<Cell> cells = {{"row1", "cf", "a", 5, CellType::kPut, "x"},
                             {"row1", "cf", "", 7, CellType::kDeleteFamily, ""},
                             {std::string(300, 'r'), "f", std::string(1000, 'q'), 1,
                              CellType::kDeleteColumn, std::string(70000, 'v')}};
  std::string block;
  for (const Cell& c : cells) AppendKeyValue(c, &block);
  std::optional<std::string> error;
  EXPECT_EQ(ReadAll(block, &error), cells);
  EXPECT_FALSE(error.has_value());
}

TEST(CellBlockTest, EveryCutOfACellIsAnErrorNotACrash) {
  std::string block;
  AppendKeyValue({"row", "fam", "qual", 9, CellType::kPut, "value"}, &block);
  for (size_t cut = 1; cut < block.size(); ++cut) {
    std::optional<std::string> error;
    EXPECT_TRUE(ReadAll(block.substr(0, cut), &error).empty()) << cut;
    EXPECT_TRUE(error.has_value()) << cut;
  }
}

TEST(CellBlockTest, LengthsThatDisagreeAreRefused) {
  std::string block;
  AppendKeyValue({"row", "fam", "qual", 9, CellType::kPut, "value"}, &block);
  std::optional<std::string> error;
  std::string with_tags = block;
  with_tags[3] = static_cast<char>(with_tags[3] + 2);  // total counts 2 bytes of tags
  with_tags += "tt";
  EXPECT_TRUE(ReadAll(with_tags, &error).empty());
  EXPECT_NE(error->find("tags"), std::string::npos) << *error;

  std::string long_row = block;
  long_row[12] = '\x7f';  // the row length overruns the key
  EXPECT_TRUE(ReadAll(long_row, &error).empty());
  EXPECT_NE(error->find("row overruns"), std::string::npos) << *error;

  std::string bad_type = block;
  bad_type[block.size() - 6] = 3;  // the type byte, before the 5-byte value
  EXPECT_TRUE(ReadAll(bad_type, &error).empty());
  EXPECT_NE(error->find("not a cell type"), std::string::npos) << *error;

  std::string huge = std::string("\x7f\xff\xff\xff\x7f\xff\xff\xef\0\0\0\x08", 12);
  EXPECT_TRUE(ReadAll(huge, &error).empty());
  EXPECT_NE(error->find("cut short"), std::string::npos) << *error;
}

}  // namespace
}  // namespace basalt::hbase_rpc
