#include "basalt/check_and_mutate.h"

#include <gtest/gtest.h>

namespace basalt {
namespace {

using Stored = std::optional<std::string_view>;

// HBase compares expected OP stored: kLess passes when the expected value is smaller.
TEST(CheckPassesTest, OperatorsCompareExpectedToStored) {
  std::optional<std::string> b = "b";
  EXPECT_TRUE(CheckPasses(CompareOp::kLess, b, Stored("c")));
  EXPECT_FALSE(CheckPasses(CompareOp::kLess, b, Stored("a")));
  EXPECT_TRUE(CheckPasses(CompareOp::kLessOrEqual, b, Stored("b")));
  EXPECT_TRUE(CheckPasses(CompareOp::kEqual, b, Stored("b")));
  EXPECT_FALSE(CheckPasses(CompareOp::kEqual, b, Stored("bb")));
  EXPECT_TRUE(CheckPasses(CompareOp::kNotEqual, b, Stored("a")));
  EXPECT_TRUE(CheckPasses(CompareOp::kGreaterOrEqual, b, Stored("a")));
  EXPECT_TRUE(CheckPasses(CompareOp::kGreater, b, Stored("a")));
  EXPECT_FALSE(CheckPasses(CompareOp::kGreater, b, Stored("b")));
}

TEST(CheckPassesTest, ComparisonIsUnsignedBytewise) {
  std::optional<std::string> low = "\x01";
  EXPECT_TRUE(CheckPasses(CompareOp::kLess, low, Stored("\xff")));
}

TEST(CheckPassesTest, ExpectedValueFailsOnMissingCell) {
  for (CompareOp op :
       {CompareOp::kLess, CompareOp::kEqual, CompareOp::kNotEqual, CompareOp::kGreater}) {
    EXPECT_FALSE(CheckPasses(op, std::string("x"), std::nullopt));
  }
}

TEST(CheckPassesTest, AbsentValueFollowsHBaseNullRule) {
  // ifNotExists: passes with no cell, or with an empty-valued cell.
  EXPECT_TRUE(CheckPasses(CompareOp::kEqual, std::nullopt, std::nullopt));
  EXPECT_TRUE(CheckPasses(CompareOp::kEqual, std::nullopt, Stored("")));
  EXPECT_FALSE(CheckPasses(CompareOp::kEqual, std::nullopt, Stored("v")));
  // NOT_EQUAL + null: exists with a non-empty value.
  EXPECT_FALSE(CheckPasses(CompareOp::kNotEqual, std::nullopt, std::nullopt));
  EXPECT_TRUE(CheckPasses(CompareOp::kNotEqual, std::nullopt, Stored("v")));
  EXPECT_FALSE(CheckPasses(CompareOp::kNotEqual, std::nullopt, Stored("")));
}

}  // namespace
}  // namespace basalt
