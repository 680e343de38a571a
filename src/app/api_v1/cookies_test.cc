#include "app/api_v1/cookies.h"

#include <gtest/gtest.h>

namespace basalt::app::api_v1 {
namespace {

TEST(CookiesTest, FindsTheNamedCookieAmongOthers) {
  EXPECT_EQ(FindCookie("a=1; basalt_session=tok; b=2", "basalt_session"), "tok");
  EXPECT_EQ(FindCookie("basalt_session=tok", "basalt_session"), "tok");
  EXPECT_EQ(FindCookie("  basalt_session = tok ;", "basalt_session"), "tok");
  EXPECT_EQ(FindCookie("basalt_session=\"tok\"", "basalt_session"), "tok");
  // The first of two wins; values may contain '='.
  EXPECT_EQ(FindCookie("x=a=b; x=c", "x"), "a=b");
}

TEST(CookiesTest, NamesCompareExactly) {
  EXPECT_EQ(FindCookie("xbasalt_session=1; basalt_sessionx=2", "basalt_session"), std::nullopt);
  EXPECT_EQ(FindCookie("BASALT_SESSION=1", "basalt_session"), std::nullopt);
}

TEST(CookiesTest, MalformedHeadersFindNothing) {
  EXPECT_EQ(FindCookie("", "x"), std::nullopt);
  EXPECT_EQ(FindCookie(";;;", "x"), std::nullopt);
  EXPECT_EQ(FindCookie("x; y", "x"), std::nullopt);
  EXPECT_EQ(FindCookie("x=", "x"), "");
  EXPECT_EQ(FindCookie("x=\"", "x"), "\"");
}

TEST(CookiesTest, SetCookieValuesCarryTheSecurityAttributes) {
  EXPECT_EQ(SessionCookie("tok", 60),
            "basalt_session=tok; HttpOnly; SameSite=Strict; Path=/; Max-Age=60");
  EXPECT_EQ(ClearedSessionCookie(),
            "basalt_session=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0");
}

}  // namespace
}  // namespace basalt::app::api_v1
