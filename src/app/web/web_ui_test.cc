#include "app/web/web_ui.h"

#include <gtest/gtest.h>

#include "server/http/router.h"

namespace basalt::app::web {
namespace {

namespace bh = boost::beast::http;
using server::http::Request;
using server::http::Response;
using server::http::Router;
using server::http::Verb;

// A header's value as a std::string (Beast's own string_view does not compare with std's).
template <typename Field>
std::string Header(const Response& res, Field field) {
  auto v = res[field];
  return std::string(v.data(), v.size());
}

const Asset kAssets[] = {
    {"index.html", "text/html; charset=utf-8", "<!doctype html>home", "\"aaaa\""},
    {"app.css", "text/css; charset=utf-8", "body{}", "\"bbbb\""},
    {"js/app.js", "text/javascript; charset=utf-8", "export {};", "\"cccc\""},
};

// A router as serve.cc builds it: the UI first, then a REST-like table of routes.
class WebUiTest : public ::testing::Test {
 protected:
  WebUiTest() : ui_(kAssets) {
    auto rest_root = [](const server::http::RequestContext& ctx) {
      return server::http::MakeResponse(ctx.request, bh::status::ok, "application/json",
                                        "rest-root");
    };
    for (auto& route : ui_.Routes(rest_root)) {
      router_.Add(Verb::get, route.pattern, std::move(route.handler));
    }
    router_.Add(Verb::get, "/", rest_root);
    router_.Add(Verb::get, "/{table}/{row}", [](const server::http::RequestContext& ctx) {
      return server::http::MakeResponse(ctx.request, bh::status::ok, "application/json",
                                        "rest-row");
    });
  }

  Response Get(std::string_view target, std::string_view accept = "text/html,*/*;q=0.8",
               std::string_view if_none_match = "") {
    Request req{Verb::get, boost::beast::string_view(target.data(), target.size()), 11};
    if (!accept.empty()) req.set(bh::field::accept, std::string(accept));
    if (!if_none_match.empty()) req.set(bh::field::if_none_match, std::string(if_none_match));
    Router::Match m = router_.Find(Verb::get, target);
    if (m.handler == nullptr) return Response{bh::status::not_found, 11};
    server::http::RequestContext ctx{req, m.params, {}, "127.0.0.1:1"};
    return (*m.handler)(ctx);
  }

  WebUi ui_;
  Router router_;
};

void ExpectSecurityHeaders(const Response& res) {
  EXPECT_EQ(Header(res, "Content-Security-Policy"), kContentSecurityPolicy);
  EXPECT_NE(Header(res, "Content-Security-Policy").find("default-src 'self'"), std::string::npos);
  EXPECT_EQ(Header(res, "X-Content-Type-Options"), "nosniff");
  EXPECT_EQ(Header(res, "X-Frame-Options"), "DENY");
  EXPECT_EQ(Header(res, "Referrer-Policy"), "no-referrer");
}

TEST_F(WebUiTest, RootServesIndexToBrowsers) {
  Response res = Get("/");
  EXPECT_EQ(res.result(), bh::status::ok);
  EXPECT_EQ(res.body(), "<!doctype html>home");
  EXPECT_EQ(Header(res, bh::field::content_type), "text/html; charset=utf-8");
  EXPECT_EQ(Header(res, bh::field::etag), "\"aaaa\"");
  EXPECT_EQ(Header(res, bh::field::vary), "Accept");
  ExpectSecurityHeaders(res);
}

TEST_F(WebUiTest, RootGoesToRestForOtherClients) {
  EXPECT_EQ(Get("/", "application/json").body(), "rest-root");
  EXPECT_EQ(Get("/", "*/*").body(), "rest-root");
  EXPECT_EQ(Get("/", "").body(), "rest-root");
}

TEST_F(WebUiTest, ServesAssetsAtEveryDepthWithTheirContentType) {
  Response css = Get("/ui/app.css");
  EXPECT_EQ(css.result(), bh::status::ok);
  EXPECT_EQ(css.body(), "body{}");
  EXPECT_EQ(Header(css, bh::field::content_type), "text/css; charset=utf-8");
  ExpectSecurityHeaders(css);
  Response js = Get("/ui/js/app.js");
  EXPECT_EQ(js.result(), bh::status::ok);
  EXPECT_EQ(js.body(), "export {};");
  EXPECT_EQ(Header(js, bh::field::content_type), "text/javascript; charset=utf-8");
}

TEST_F(WebUiTest, IfNoneMatchWithTheEtagIsNotModified) {
  Response res = Get("/ui/app.css", "*/*", "\"bbbb\"");
  EXPECT_EQ(res.result(), bh::status::not_modified);
  EXPECT_TRUE(res.body().empty());
  EXPECT_EQ(Header(res, bh::field::etag), "\"bbbb\"");
  ExpectSecurityHeaders(res);
  EXPECT_EQ(Get("/ui/app.css", "*/*", "\"x\", W/\"bbbb\"").result(), bh::status::not_modified);
  EXPECT_EQ(Get("/ui/app.css", "*/*", "*").result(), bh::status::not_modified);
  EXPECT_EQ(Get("/ui/app.css", "*/*", "\"aaaa\"").result(), bh::status::ok);
}

TEST_F(WebUiTest, UnknownAssetIsNotFoundWithSecurityHeaders) {
  Response res = Get("/ui/missing.js");
  EXPECT_EQ(res.result(), bh::status::not_found);
  ExpectSecurityHeaders(res);
  EXPECT_EQ(Get("/ui/js/missing.js").result(), bh::status::not_found);
}

TEST_F(WebUiTest, TraversalNeverEscapesTheAssetSet) {
  for (std::string_view target :
       {"/ui/../index.html", "/ui/js/../app.css", "/ui/%2e%2e/index.html", "/ui/..%2Fapp.css",
        "/ui/js%2Fapp.js", "/ui/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd", "/ui/..%5Capp.css",
        "/ui/./app.css", "/ui/js/./app.js", "/ui/app.css%00", "/ui/..", "/ui/.",
        "/ui/js/../../../../etc/passwd", "/ui/%61pp.css"}) {
    // Either the UI's own 404 or, deeper than any asset, no route at all.
    EXPECT_EQ(Get(target).result(), bh::status::not_found) << target;
  }
}

TEST_F(WebUiTest, FindMatchesWholePathsOnly) {
  EXPECT_NE(ui_.Find("js/app.js"), nullptr);
  EXPECT_EQ(ui_.Find("app.js"), nullptr);
  EXPECT_EQ(ui_.Find("js"), nullptr);
  EXPECT_EQ(ui_.Find(""), nullptr);
  EXPECT_EQ(ui_.Find("/index.html"), nullptr);
}

TEST_F(WebUiTest, UiPrefixBeatsTableRoutesButOtherTablesStillReachRest) {
  // A table named "ui" is shadowed for two-segment paths; its qualified name is not.
  EXPECT_EQ(Get("/ui/row1").result(), bh::status::not_found);
  EXPECT_EQ(Get("/default:ui/row1", "application/json").body(), "rest-row");
  EXPECT_EQ(Get("/t1/row1", "application/json").body(), "rest-row");
}

TEST(EmbeddedAssetsTest, HoldTheUiWithStrongEtags) {
  WebUi ui(EmbeddedAssets());
  const Asset* index = ui.Find("index.html");
  ASSERT_NE(index, nullptr);
  EXPECT_EQ(index->content_type, "text/html; charset=utf-8");
  EXPECT_NE(index->bytes.find("<html"), std::string_view::npos);
  for (const Asset& asset : EmbeddedAssets()) {
    ASSERT_EQ(asset.etag.size(), 34u) << asset.path;  // a quoted 32-hex-digit SHA-256 prefix
    EXPECT_EQ(asset.etag.front(), '"');
    EXPECT_EQ(asset.etag.back(), '"');
    EXPECT_NE(asset.content_type, "application/octet-stream") << asset.path;
    EXPECT_FALSE(asset.bytes.empty()) << asset.path;
  }
  // No script parses strings as HTML: user content goes in as text only (docs/web-ui.md).
  for (const Asset& asset : EmbeddedAssets()) {
    if (!asset.path.ends_with(".js")) continue;
    for (std::string_view sink : {"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write",
                                  "eval(", "new Function"}) {
      EXPECT_EQ(asset.bytes.find(sink), std::string_view::npos) << asset.path << ": " << sink;
    }
  }
  // No inline script anywhere in the page: the CSP would block it.
  std::string_view html = index->bytes;
  EXPECT_EQ(html.find("<script>"), std::string_view::npos);
  EXPECT_EQ(html.find("onclick="), std::string_view::npos);
}

}  // namespace
}  // namespace basalt::app::web
