#include "basalt/status.h"

#include <gtest/gtest.h>

namespace basalt {
namespace {

TEST(StatusTest, NoSuchFamilyIsAnInvalidArgumentWithItsSubCode) {
  Status s = Status::NoSuchFamily("column family 'x' does not exist in table 't'");
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_TRUE(s.IsNoSuchFamily());
  EXPECT_EQ(s.ToString(), "InvalidArgument: column family 'x' does not exist in table 't'");
  EXPECT_FALSE(Status::InvalidArgument("bad").IsNoSuchFamily());
}

TEST(StatusTest, WithContextKeepsTheSubCode) {
  Status s = Status::NoSuchFamily("no family").WithContext("get 3");
  EXPECT_TRUE(s.IsNoSuchFamily());
  EXPECT_EQ(s.message(), "get 3: no family");
}

TEST(StatusTest, EqualityComparesTheSubCode) {
  EXPECT_NE(Status::NoSuchFamily("m"), Status::InvalidArgument("m"));
  EXPECT_EQ(Status::NoSuchFamily("m"), Status::NoSuchFamily("m"));
}

}  // namespace
}  // namespace basalt
