#include "server/http/credentials.h"

#include <gtest/gtest.h>

namespace basalt::server::http {
namespace {

namespace bh = boost::beast::http;

Request MakeRequest(bh::verb verb) {
  Request req;
  req.method(verb);
  req.target("/api/v1/posts");
  return req;
}

TEST(CredentialsTest, AdminTokenByBearerOrHeader) {
  Request req = MakeRequest(bh::verb::put);
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
  Handler inner = [](const RequestContext& ctx) {
    return MakeResponse(ctx.request, bh::status::ok, "text/plain", "done");
  };
  Handler guarded = RequireAdminToken("tok", inner);
  Request req = MakeRequest(bh::verb::put);
  RequestContext ctx{req, {}, {}, "127.0.0.1:1"};
  Response res = guarded(ctx);
  EXPECT_EQ(res.result(), bh::status::unauthorized);
  EXPECT_NE(res.body().find("X-Basalt-Admin"), std::string::npos);
  req.set("X-Basalt-Admin", "tok");
  EXPECT_EQ(guarded(ctx).body(), "done");
  // No token configured: no guard.
  req.erase("X-Basalt-Admin");
  EXPECT_EQ(RequireAdminToken("", inner)(ctx).body(), "done");
}

}  // namespace
}  // namespace basalt::server::http
