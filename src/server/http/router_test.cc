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
TEST(RouterTest, NamespaceKeepsCatchAllPatternsOfOtherApisOut) {
  Router r;
  r.Add(Verb::get, "/{table}/{row}/{columns}", Named("row"));
  r.Add(Verb::get, "/api/v1/me", Named("me"));
  r.AddNamespace("/api/v1", Named("fallback"));
  auto m = r.Find(Verb::get, "/api/v1/me");
  ASSERT_NE(m.handler, nullptr);
  EXPECT_EQ(Call(m), "me");
  EXPECT_FALSE(m.fallback);
  // Without the namespace, the REST pattern would answer this path.
  m = r.Find(Verb::get, "/api/v1/nothing");
  ASSERT_NE(m.handler, nullptr);
  EXPECT_EQ(Call(m), "fallback");
  EXPECT_EQ(m.pattern, "/api/v1/*");
  EXPECT_TRUE(m.fallback);
  EXPECT_EQ(m.params["allow"], "");
  m = r.Find(Verb::post, "/api/v1/me");
  ASSERT_NE(m.handler, nullptr);
  EXPECT_EQ(Call(m), "fallback");
  EXPECT_EQ(m.params["allow"], "GET");
  // Outside the namespace (a prefix of the name is not enough) nothing changes.
  m = r.Find(Verb::get, "/api/v10/x");
  ASSERT_NE(m.handler, nullptr);
  EXPECT_EQ(Call(m), "row");
}

TEST(RouterTest, GuardRoutesGuardsOnlySelectedRoutes) {
  Router r;
  r.Add(Verb::get, "/{table}", Named("get"));
  r.Add(Verb::put, "/{table}", Named("put"));
  r.Add(Verb::put, "/{table}/scanner", Named("scanner"));
  r.GuardRoutes(
      [](Verb v, const std::string& pattern) {
        return v == Verb::put && pattern.find("/scanner") == std::string::npos;
      },
      [](const Request& req) -> std::optional<Response> {
        if (req.count("X-Pass") != 0) return std::nullopt;
        return MakeResponse(req, boost::beast::http::status::unauthorized, "text/plain", "no");
      });
  EXPECT_TRUE(r.Find(Verb::get, "/t").guards.empty());
  EXPECT_TRUE(r.Find(Verb::put, "/t/scanner").guards.empty());
  Router::Match put = r.Find(Verb::put, "/t");
  ASSERT_EQ(put.guards.size(), 1u);
  EXPECT_EQ(Call(put), "put");  // the handler itself is untouched
  Request req;
  std::optional<Response> refused = (*put.guards[0])(req);
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->result(), boost::beast::http::status::unauthorized);
  req.set("X-Pass", "1");
  EXPECT_FALSE((*put.guards[0])(req).has_value());
  ASSERT_EQ(r.Routes().size(), 3u);
}

TEST(RouterTest, ResultRouteAnswersAFailedStatusInTheApisErrorFormat) {
  Router r;
  r.Add(
      Verb::get, "/{table}",
      [](const RequestContext& ctx) -> Result<Response> {
        if (ctx.Param("table") == "missing") return Status::NotFound("no table 'missing'");
        return MakeResponse(ctx.request, boost::beast::http::status::ok, "text/plain", "found");
      },
      [](const Request& request, const Status& status) {
        return MakeResponse(request, boost::beast::http::status::gone, "text/plain",
                            "rendered: " + status.message());
      });
  auto found = r.Find(Verb::get, "/t1");
  ASSERT_NE(found.handler, nullptr);
  EXPECT_EQ(Call(found), "found");
  auto missing = r.Find(Verb::get, "/missing");
  ASSERT_NE(missing.handler, nullptr);
  Request req;
  RequestContext ctx{req, missing.params, {}, ""};
  Response res = (*missing.handler)(ctx);
  EXPECT_EQ(res.result(), boost::beast::http::status::gone);
  EXPECT_EQ(res.body(), "rendered: no table 'missing'");
}

}  // namespace basalt::server::http
