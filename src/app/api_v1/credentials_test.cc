#include "app/api_v1/credentials.h"

#include <gtest/gtest.h>

namespace basalt::app::api_v1 {
namespace {

namespace bh = boost::beast::http;

server::http::Request MakeRequest(bh::verb verb) {
  server::http::Request req;
  req.method(verb);
  req.target("/api/v1/posts");
  return req;
}

TEST(CredentialsTest, BearerWinsOverTheCookie) {
  server::http::Request req = MakeRequest(bh::verb::get);
  req.set(bh::field::cookie, "basalt_session=from-cookie");
  auto token = SessionTokenOf(req);
  ASSERT_TRUE(token.has_value());
  EXPECT_EQ(token->token, "from-cookie");
  EXPECT_TRUE(token->from_cookie);
  req.set(bh::field::authorization, "bearer  from-header ");
  token = SessionTokenOf(req);
  ASSERT_TRUE(token.has_value());
  EXPECT_EQ(token->token, "from-header");
  EXPECT_FALSE(token->from_cookie);
  // Another scheme is no session, and does not fall back to the cookie.
  req.set(bh::field::authorization, "Basic dXNlcjpwdw==");
  EXPECT_FALSE(SessionTokenOf(req).has_value());
  req.set(bh::field::authorization, "Bearer ");
  EXPECT_FALSE(SessionTokenOf(req).has_value());
}

TEST(CredentialsTest, NoCredentialIsNoToken) {
  server::http::Request req = MakeRequest(bh::verb::get);
  EXPECT_FALSE(SessionTokenOf(req).has_value());
  req.set(bh::field::cookie, "other=1; basalt_session=");
  EXPECT_FALSE(SessionTokenOf(req).has_value());
}

TEST(CredentialsTest, CookieWritesNeedTheCsrfHeader) {
  PresentedToken cookie{"t", true}, bearer{"t", false};
  for (bh::verb v : {bh::verb::post, bh::verb::put, bh::verb::delete_, bh::verb::patch}) {
    EXPECT_TRUE(NeedsCsrfHeader(MakeRequest(v), cookie));
    EXPECT_FALSE(NeedsCsrfHeader(MakeRequest(v), bearer));
  }
  EXPECT_FALSE(NeedsCsrfHeader(MakeRequest(bh::verb::get), cookie));
  server::http::Request req = MakeRequest(bh::verb::post);
  EXPECT_FALSE(HasCsrfHeader(req));
  req.set("X-Basalt-CSRF", "0");
  EXPECT_FALSE(HasCsrfHeader(req));
  req.set("x-basalt-csrf", "1");
  EXPECT_TRUE(HasCsrfHeader(req));
}

// The check the API answers with: FailedPrecondition is its 403 forbidden.
TEST(CredentialsTest, CsrfCheckFailsOnlyAForgeableWrite) {
  PresentedToken cookie{"t", true}, bearer{"t", false};
  server::http::Request req = MakeRequest(bh::verb::post);
  EXPECT_TRUE(CheckCsrfHeader(req, cookie).IsFailedPrecondition());
  EXPECT_TRUE(CheckCsrfHeader(req, bearer).ok());
  EXPECT_TRUE(CheckCsrfHeader(MakeRequest(bh::verb::get), cookie).ok());
  req.set("X-Basalt-CSRF", "1");
  EXPECT_TRUE(CheckCsrfHeader(req, cookie).ok());
}

}  // namespace
}  // namespace basalt::app::api_v1
