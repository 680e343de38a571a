#include "server/http/http_types.h"

#include <gtest/gtest.h>

namespace basalt::server::http {
namespace {

TEST(HttpTypesTest, ClientAddressDropsThePort) {
  EXPECT_EQ(ClientAddress("127.0.0.1:5000"), "127.0.0.1");
  EXPECT_EQ(ClientAddress("[::1]:5000"), "::1");
  EXPECT_EQ(ClientAddress("::1:5000"), "::1");
  EXPECT_EQ(ClientAddress(""), "");
}

}  // namespace
}  // namespace basalt::server::http
