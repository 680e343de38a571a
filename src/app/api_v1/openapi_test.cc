#include <gtest/gtest.h>
#include <cctype>

#include <nlohmann/json.hpp>

#include "app/api_v1/api_v1_service.h"
#include "app/api_v1/openapi_document.h"

namespace basalt::app::api_v1 {
namespace {

// Every route the service registers is described in the OpenAPI document, with its method, and
// the document describes no route that does not exist.
TEST(OpenApiTest, DocumentNamesEveryRegisteredRoute) {
  nlohmann::json doc = nlohmann::json::parse(OpenApiDocument(), nullptr, false);
  ASSERT_FALSE(doc.is_discarded());
  EXPECT_EQ(doc["openapi"].get<std::string>().substr(0, 2), "3.");

  auto conn = Connection::Open("mem:");
  ASSERT_TRUE(conn.ok()) << conn.status().ToString();
  AppServicesOptions options;
  options.start_background_work = false;
  auto app = AppServices::Open(**conn, options);
  ASSERT_TRUE(app.ok()) << app.status().ToString();
  server::http::Router router;
  ApiV1Service service(**app, nullptr, {});
  service.RegisterRoutes(&router);

  size_t described = 0;
  for (const auto& [path, item] : doc["paths"].items()) {
    for (const auto& [method, op] : item.items()) {
      if (method != "parameters") ++described;
    }
  }
  auto routes = router.Routes();
  EXPECT_EQ(routes.size(), described);
  for (const auto& [verb, pattern] : routes) {
    std::string method(boost::beast::http::to_string(verb));
    for (char& c : method) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    ASSERT_TRUE(doc["paths"].contains(pattern)) << pattern;
    EXPECT_TRUE(doc["paths"][pattern].contains(method)) << method << " " << pattern;
  }
  ASSERT_TRUE((*app)->Shutdown(std::chrono::milliseconds(0)).ok());
}

}  // namespace
}  // namespace basalt::app::api_v1
