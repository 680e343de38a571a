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

TEST(CredentialsTest, AdminTokenGuardAnswers401WithoutTheToken) {
  RequestGuard guard = AdminTokenGuard("tok");
  Request req = MakeRequest(bh::verb::put);
  std::optional<Response> res = guard(req);
  ASSERT_TRUE(res.has_value());
  EXPECT_EQ(res->result(), bh::status::unauthorized);
  EXPECT_EQ(res->at(bh::field::www_authenticate), "Bearer");
  EXPECT_NE(res->body().find("X-Basalt-Admin"), std::string::npos);
  req.set("X-Basalt-Admin", "tok");
  EXPECT_FALSE(guard(req).has_value());
  req.erase("X-Basalt-Admin");
  req.set(bh::field::authorization, "Bearer tok");
  EXPECT_FALSE(guard(req).has_value());
  req.set(bh::field::authorization, "Bearer wrong");
  EXPECT_TRUE(guard(req).has_value());
}

}  // namespace
}  // namespace basalt::server::http
