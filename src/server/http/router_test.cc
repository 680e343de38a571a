#include "server/http/router.h"

#include <gtest/gtest.h>

#include "server/http/url.h"

namespace basalt::server::http {
namespace {

Handler Named(std::string name) {
  return [name](const RequestContext& ctx) {
    return MakeResponse(ctx.request, boost::beast::http::status::ok, "text/plain", name);
  };
}

std::string Call(const Router::Match& m) {
  Request req;
  RequestContext ctx{req, m.params, {}, ""};
  return (*m.handler)(ctx).body();
}

TEST(RouterTest, LiteralSegmentBeatsParameter) {
  Router r;
  r.Add(Verb::get, "/{table}/{row}", Named("row"));
  r.Add(Verb::get, "/{table}/schema", Named("schema"));
  auto m = r.Find(Verb::get, "/t1/schema");
  ASSERT_NE(m.handler, nullptr);
  EXPECT_EQ(Call(m), "schema");
  EXPECT_EQ(m.pattern, "/{table}/schema");
  m = r.Find(Verb::get, "/t1/r%2F1");
  ASSERT_NE(m.handler, nullptr);
  EXPECT_EQ(Call(m), "row");
  EXPECT_EQ(m.params.at("table"), "t1");
  EXPECT_EQ(m.params.at("row"), "r%2F1");  // still encoded: handlers decode
}

TEST(RouterTest, OtherMethodOnMatchingPathListsAllowedMethods) {
  Router r;
  r.Add(Verb::get, "/{table}/{row}", Named("row"));
  r.Add(Verb::post, "/{table}/scanner", Named("create"));
  r.Add(Verb::put, "/{table}/scanner", Named("create"));
  auto m = r.Find(Verb::get, "/t/scanner");
  EXPECT_EQ(m.handler, nullptr);
  EXPECT_EQ(m.allowed, (std::vector<Verb>{Verb::post, Verb::put}));
}

TEST(RouterTest, UnknownPathMatchesNothing) {
  Router r;
  r.Add(Verb::get, "/version", Named("v"));
  auto m = r.Find(Verb::get, "/a/b/c");
  EXPECT_EQ(m.handler, nullptr);
  EXPECT_TRUE(m.allowed.empty());
  EXPECT_TRUE(m.pattern.empty());
  r.Add(Verb::get, "/", Named("root"));
  m = r.Find(Verb::get, "/");
  ASSERT_NE(m.handler, nullptr);
  EXPECT_EQ(Call(m), "root");
}

TEST(UrlTest, PercentDecodingAndQueries) {
  EXPECT_EQ(*PercentDecode("a%00b%2Fc%ff"), std::string("a\0b/c\xff", 6));
  EXPECT_EQ(*PercentDecode("a+b"), "a+b");
  EXPECT_EQ(*PercentDecode("a+b", true), "a b");
  EXPECT_TRUE(PercentDecode("bad%zz").status().IsInvalidArgument());
  EXPECT_TRUE(PercentDecode("bad%2").status().IsInvalidArgument());
  auto q = ParseQuery("row=a&row=b%20c&flag&v=2");
  ASSERT_TRUE(q.ok());
  std::vector<std::pair<std::string, std::string>> want = {
      {"row", "a"}, {"row", "b c"}, {"flag", ""}, {"v", "2"}};
  EXPECT_EQ(*q, want);
}

}  // namespace
}  // namespace basalt::server::http
