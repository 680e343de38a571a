#include "basalt/status.h"

#include <gtest/gtest.h>

namespace basalt {
namespace {

TEST(StatusTest, NoSuchFamilyIsANotFoundWithItsSubCode) {
  Status s = Status::NoSuchFamily("column family 'x' does not exist in table 't'");
  EXPECT_TRUE(s.IsNotFound());
  EXPECT_TRUE(s.IsNoSuchFamily());
  EXPECT_EQ(s.ToString(), "NotFound: column family 'x' does not exist in table 't'");
  EXPECT_FALSE(Status::NotFound("table 't' does not exist").IsNoSuchFamily());
}

TEST(StatusTest, WithContextKeepsTheSubCode) {
  Status s = Status::NoSuchFamily("no family").WithContext("get 3");
  EXPECT_TRUE(s.IsNoSuchFamily());
  EXPECT_EQ(s.message(), "get 3: no family");
}

TEST(StatusTest, EqualityComparesTheSubCode) {
  EXPECT_NE(Status::NoSuchFamily("m"), Status::NotFound("m"));
  EXPECT_EQ(Status::NoSuchFamily("m"), Status::NoSuchFamily("m"));
}

}  // namespace
}  // namespace basalt
