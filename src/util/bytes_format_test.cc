#include "util/bytes_format.h"

#include <gtest/gtest.h>

namespace basalt::util {
namespace {

TEST(BytesFormatTest, ToStringBinaryEscapesLikeHBase) {
  EXPECT_EQ(ToStringBinary("row-1"), "row-1");
  EXPECT_EQ(ToStringBinary(std::string("\0\x01\xff", 3)), "\\x00\\x01\\xFF");
  EXPECT_EQ(ToStringBinary("a\\b"), "a\\x5Cb");
  EXPECT_EQ(ToStringBinary("a b"), "a b");
  EXPECT_EQ(ToStringBinary("\n"), "\\x0A");
}

TEST(BytesFormatTest, FromStringBinaryParsesEscapes) {
  EXPECT_EQ(FromStringBinary("\\x00\\x7fA"), std::string("\0\x7f"
                                                         "A",
                                                         3));
  EXPECT_EQ(FromStringBinary("plain"), "plain");
  EXPECT_EQ(FromStringBinary("bad\\xZZ"), "bad\\xZZ");
  EXPECT_EQ(FromStringBinary("end\\x4"), "end\\x4");
}

TEST(BytesFormatTest, RoundTripsEveryByte) {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  EXPECT_EQ(FromStringBinary(ToStringBinary(all)), all);
}

}  // namespace
}  // namespace basalt::util
