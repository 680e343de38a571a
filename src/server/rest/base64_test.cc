#include "server/rest/base64.h"

#include <gtest/gtest.h>

namespace basalt::server::rest {
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

}  // namespace
}  // namespace basalt::server::rest
