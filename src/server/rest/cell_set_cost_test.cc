#include "server/rest/cell_set_cost.h"

#include <gtest/gtest.h>

#include <string>

#include "server/rest/models.h"

namespace basalt::server::rest {
namespace {

std::string Varint(uint64_t n) {
  std::string out;
  while (n >= 0x80) {
    out.push_back(static_cast<char>((n & 0x7F) | 0x80));
    n >>= 7;
  }
  out.push_back(static_cast<char>(n));
  return out;
}

// One row "row" of `count` empty cells.
std::string EmptyCells(Representation r, int count) {
  std::string out;
  if (r == Representation::kProtobuf) {
    std::string row = std::string("\x0a\x03row", 5);
    for (int i = 0; i < count; ++i) row += std::string("\x12\x00", 2);
    return "\x0a" + Varint(row.size()) + row;
  }
  if (r == Representation::kJson) {
    out = R"({"Row":[{"key":"cm93","Cell":[)";
    for (int i = 0; i < count; ++i) out += i == 0 ? "{}" : ",{}";
    return out + "]}]}";
  }
  out = R"(<CellSet><Row key="cm93">)";
  for (int i = 0; i < count; ++i) out += "<Cell/>";
  return out + "</Row></CellSet>";
}

TEST(CellSetCostTest, EmptyCellsCostTheirDecodedSizeNotTheirWireSize) {
  for (Representation r : {Representation::kProtobuf, Representation::kJson,
                           Representation::kXml}) {
    std::string body = EmptyCells(r, 10000);
    uint64_t cost = CellSetMemoryCost(r, body);
    // At least a CellModel per cell, many times the bytes on the wire.
    EXPECT_GE(cost, 10000 * sizeof(CellModel)) << static_cast<int>(r);
    EXPECT_GE(cost, 20 * body.size()) << static_cast<int>(r);
    // And it grows with the cells.
    EXPECT_GT(CellSetMemoryCost(r, EmptyCells(r, 20000)), cost + 9000 * sizeof(CellModel));
  }
}

TEST(CellSetCostTest, ValueBytesCountWhereTheyAreCopied) {
  std::string value(100000, 'v');
  uint64_t cost = CellSetMemoryCost(Representation::kOctetStream, value);
  EXPECT_GE(cost, 2 * value.size());  // the cell's value, then the Put's
  EXPECT_LE(cost, 4 * value.size() + 4096);
}

TEST(CellSetCostTest, ABrokenBodyCostsWhatCameBeforeTheBreak) {
  std::string body = EmptyCells(Representation::kProtobuf, 1000);
  body.resize(body.size() / 2);
  EXPECT_LT(CellSetMemoryCost(Representation::kProtobuf, body),
            CellSetMemoryCost(Representation::kProtobuf, EmptyCells(Representation::kProtobuf, 1000)));
  EXPECT_LE(CellSetMemoryCost(Representation::kJson, "[[[[[["), 6 * 100u);
  EXPECT_EQ(CellSetMemoryCost(Representation::kProtobuf, ""), 0u);
}

}  // namespace
}  // namespace basalt::server::rest
