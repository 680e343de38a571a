#include "server/api_v1/credentials.h"

#include <gtest/gtest.h>

namespace basalt::server::api_v1 {
namespace {

namespace bh = boost::beast::http;

http::Request MakeRequest(bh::verb verb) {
  http::Request req;
  req.method(verb);
  req.target("/api/v1/posts");
  return req;
}

TEST(CredentialsTest, BearerWinsOverTheCookie) {
  http::Request req = MakeRequest(bh::verb::get);
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
  http::Request req = MakeRequest(bh::verb::get);
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
  http::Request req = MakeRequest(bh::verb::post);
  EXPECT_FALSE(HasCsrfHeader(req));
  req.set("X-Basalt-CSRF", "0");
  EXPECT_FALSE(HasCsrfHeader(req));
  req.set("x-basalt-csrf", "1");
  EXPECT_TRUE(HasCsrfHeader(req));
}

TEST(CredentialsTest, AdminTokenByBearerOrHeader) {
  http::Request req = MakeRequest(bh::verb::put);
  EXPECT_FALSE(HasAdminToken(req, "s3cret"));
  req.set(bh::field::authorization, "Bearer s3cret");
  EXPECT_TRUE(HasAdminToken(req, "s3cret"));
  req.set(bh::field::authorization, "Bearer s3cre");
  EXPECT_FALSE(HasAdminToken(req, "s3cret"));
  req.erase(bh::field::authorization);
  req.set("X-Basalt-Admin", "s3cret");
  EXPECT_TRUE(HasAdminToken(req, "s3cret"));
  req.set("X-Basalt-Admin", "s3cret2");
  EXPECT_FALSE(HasAdminToken(req, "s3cret"));
}

TEST(CredentialsTest, ConstantTimeEqualsIsEquality) {
  EXPECT_TRUE(ConstantTimeEquals("", ""));
  EXPECT_TRUE(ConstantTimeEquals("abc", "abc"));
  EXPECT_FALSE(ConstantTimeEquals("abc", "abd"));
  EXPECT_FALSE(ConstantTimeEquals("abc", "ab"));
  EXPECT_FALSE(ConstantTimeEquals("", "a"));
}

TEST(CredentialsTest, RestGuardAnswers401WithoutTheToken) {
  http::Handler inner = [](const http::RequestContext& ctx) {
    return http::MakeResponse(ctx.request, bh::status::ok, "text/plain", "done");
  };
  http::Handler guarded = RequireAdminTokenForRest("tok", inner);
  http::Request req = MakeRequest(bh::verb::put);
  http::RequestContext ctx{req, {}, {}, "127.0.0.1:1"};
  http::Response res = guarded(ctx);
  EXPECT_EQ(res.result(), bh::status::unauthorized);
  EXPECT_NE(res.body().find("X-Basalt-Admin"), std::string::npos);
  req.set("X-Basalt-Admin", "tok");
  EXPECT_EQ(guarded(ctx).body(), "done");
  // No token configured: no guard.
  req.erase("X-Basalt-Admin");
  EXPECT_EQ(RequireAdminTokenForRest("", inner)(ctx).body(), "done");
}

}  // namespace
}  // namespace basalt::server::api_v1
