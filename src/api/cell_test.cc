#include "basalt/cell.h"

#include <gtest/gtest.h>

namespace basalt {
namespace {

TEST(ColumnNameTest, SplitsAtTheFirstColonAsHBaseDoes) {
  EXPECT_EQ(ParseColumnName("f:q"), (ColumnName{"f", "q"}));
  EXPECT_EQ(ParseColumnName("f:a:b"), (ColumnName{"f", "a:b"}));
  EXPECT_EQ(ParseColumnName("f:"), (ColumnName{"f", ""}));
  EXPECT_EQ(ParseColumnName("f"), (ColumnName{"f", std::nullopt}));
  EXPECT_EQ(ParseColumnName(""), (ColumnName{"", std::nullopt}));
  EXPECT_EQ(ParseColumnName(":q"), (ColumnName{"", "q"}));
  EXPECT_EQ(ParseColumnName(std::string_view("f:\0x", 4)),
            (ColumnName{"f", std::string("\0x", 2)}));
}

}  // namespace
}  // namespace basalt
