#include "basalt/base64.h"

#include <gtest/gtest.h>

namespace basalt {
namespace {

TEST(Base64Test, RoundTripsEveryLengthAndByte) {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  for (size_t n = 0; n <= all.size(); n += 1) {
    std::string bytes = all.substr(0, n);
    auto back = Base64Decode(Base64Encode(bytes), "test");
    ASSERT_TRUE(back.ok()) << n;
    EXPECT_EQ(*back, bytes);
  }
  EXPECT_EQ(Base64Encode("row1"), "cm93MQ==");
  EXPECT_EQ(Base64Encode("cf:a"), "Y2Y6YQ==");
}

TEST(Base64Test, RejectsMalformedText) {
  for (const char* bad : {"cm93MQ", "cm93MQ=", "cm9*MQ==", "=m93MQ==", "cm93M=Q=", "c"}) {
    auto r = Base64Decode(bad, "row key");
    EXPECT_TRUE(r.status().IsInvalidArgument()) << bad;
    EXPECT_NE(r.status().message().find("row key"), std::string::npos);
  }
}

TEST(Base64UrlTest, MatchesRfc4648VectorsWithoutPadding) {
  EXPECT_EQ(Base64UrlEncode(""), "");
  EXPECT_EQ(Base64UrlEncode("f"), "Zg");
  EXPECT_EQ(Base64UrlEncode("fo"), "Zm8");
  EXPECT_EQ(Base64UrlEncode("foo"), "Zm9v");
  EXPECT_EQ(Base64UrlEncode("foob"), "Zm9vYg");
  EXPECT_EQ(Base64UrlEncode("fooba"), "Zm9vYmE");
  EXPECT_EQ(Base64UrlEncode("foobar"), "Zm9vYmFy");
}

TEST(Base64UrlTest, UsesTheUrlSafeAlphabet) {
  EXPECT_EQ(Base64UrlEncode("\xfb\xff\xbf"), "-_-_");
  EXPECT_EQ(Base64UrlDecode("-_-_"), std::string("\xfb\xff\xbf"));
}

TEST(Base64UrlTest, RoundTripsEveryByteAndLength) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes += static_cast<char>(i);
  for (size_t n = 0; n <= bytes.size(); ++n) {
    std::string in = bytes.substr(bytes.size() - n);
    EXPECT_EQ(Base64UrlDecode(Base64UrlEncode(in)), in) << n;
  }
}

TEST(Base64UrlTest, RejectsNonCanonicalText) {
  EXPECT_EQ(Base64UrlDecode("Zg=="), std::nullopt);   // padding
  EXPECT_EQ(Base64UrlDecode("Zm9v+"), std::nullopt);  // standard alphabet
  EXPECT_EQ(Base64UrlDecode("Zm9/"), std::nullopt);
  EXPECT_EQ(Base64UrlDecode("Z"), std::nullopt);   // length 1 mod 4
  EXPECT_EQ(Base64UrlDecode("Zh"), std::nullopt);  // unused bits set
  EXPECT_EQ(Base64UrlDecode("Zm9 v"), std::nullopt);
  EXPECT_EQ(Base64UrlDecode(std::string_view("Zm\0v", 4)), std::nullopt);
}

}  // namespace
}  // namespace basalt
