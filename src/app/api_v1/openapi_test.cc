#include <gtest/gtest.h>
#include <cctype>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

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

// Every "$ref" below `node` that does not point into `doc`.
void CollectRefProblems(const nlohmann::json& doc, const nlohmann::json& node,
                        std::vector<std::string>* problems) {
  if (node.is_object()) {
    if (auto ref = node.find("$ref"); ref != node.end()) {
      std::string target = ref->is_string() ? ref->get<std::string>() : "";
      if (target.rfind("#/", 0) != 0 ||
          !doc.contains(nlohmann::json::json_pointer(target.substr(1)))) {
        problems->push_back("unresolved $ref " + ref->dump());
      }
    }
  }
  if (node.is_structured()) {
    for (const auto& child : node) CollectRefProblems(doc, child, problems);
  }
}

// What keeps `doc` from being an OpenAPI 3.0 document that holds together, one line per
// problem: every operation answers something, every $ref resolves, the {params} of a path are
// exactly its declared path parameters (required, described), operationIds are unique and
// security requirements name declared schemes: what the OpenAPI JSON schema cannot say. The
// schema itself is applied by a real validator to the served document in
// tests/browser/openapi.test.mjs.
std::vector<std::string> StructuralProblems(const nlohmann::json& doc) {
  static const std::set<std::string> kMethods = {"get",     "put",  "post",  "delete",
                                                 "options", "head", "patch", "trace"};
  std::vector<std::string> problems;
  if (!doc.is_object() || !doc.contains("openapi") || !doc["info"].is_object() ||
      !doc["paths"].is_object()) {
    return {"not an OpenAPI document: no openapi, info or paths"};
  }
  CollectRefProblems(doc, doc, &problems);
  std::set<std::string> operation_ids;
  for (const auto& entry : doc["paths"].items()) {
    // Not a structured binding: clang 14 (the sanitizer build) cannot capture one in a lambda.
    const std::string& path = entry.key();
    const nlohmann::json& item = entry.value();
    std::set<std::string> in_path;
    for (size_t open = path.find('{'); open != std::string::npos; open = path.find('{', open + 1)) {
      in_path.insert(path.substr(open + 1, path.find('}', open) - open - 1));
    }
    // Each operation sees the path item's parameters and its own.
    auto declared_path_parameters = [&](const nlohmann::json& op) {
      std::set<std::string> declared;
      for (const nlohmann::json* list : {&item, &op}) {
        if (!list->contains("parameters")) continue;
        for (const auto& p : (*list)["parameters"]) {
          if (p.value("in", "") != "path") continue;
          std::string name = p.value("name", "");
          declared.insert(name);
          if (!p.value("required", false) || p.value("description", "").empty()) {
            problems.push_back(path + ": path parameter '" + name +
                               "' must be required and described");
          }
        }
      }
      return declared;
    };
    for (const auto& [method, op] : item.items()) {
      if (method == "parameters") continue;
      std::string where = method + " " + path;
      if (kMethods.count(method) == 0) problems.push_back(where + ": not an HTTP method");
      if (declared_path_parameters(op) != in_path) {
        problems.push_back(where + ": declared path parameters differ from the path's");
      }
      if (!op.contains("responses") || !op["responses"].is_object() || op["responses"].empty()) {
        problems.push_back(where + ": no responses");
      } else {
        for (const auto& [code, response] : op["responses"].items()) {
          if (!response.contains("$ref") && !response.contains("description")) {
            problems.push_back(where + " " + code + ": a response needs a description");
          }
        }
      }
      if (op.contains("operationId") &&
          !operation_ids.insert(op["operationId"].get<std::string>()).second) {
        problems.push_back(where + ": duplicate operationId");
      }
      for (const auto& requirement : op.value("security", nlohmann::json::array())) {
        for (const auto& [scheme, scopes] : requirement.items()) {
          if (!doc["components"]["securitySchemes"].contains(scheme)) {
            problems.push_back(where + ": unknown security scheme " + scheme);
          }
        }
      }
    }
  }
  return problems;
}

TEST(OpenApiTest, DocumentHoldsTogether) {
  nlohmann::json doc = nlohmann::json::parse(OpenApiDocument());
  std::vector<std::string> problems = StructuralProblems(doc);
  EXPECT_TRUE(problems.empty()) << nlohmann::json(problems).dump(1);
}

// The check above finds what it looks for.
TEST(OpenApiTest, StructuralCheckCatchesBrokenDocuments) {
  const nlohmann::json doc = nlohmann::json::parse(OpenApiDocument());
  nlohmann::json broken = doc;
  broken["components"]["schemas"].erase("Post");
  EXPECT_FALSE(StructuralProblems(broken).empty());
  broken = doc;
  broken["paths"]["/api/v1/users/{user}"].erase("parameters");
  EXPECT_FALSE(StructuralProblems(broken).empty());
  broken = doc;
  broken["paths"]["/api/v1/me"]["get"]["responses"] = nlohmann::json::object();
  EXPECT_FALSE(StructuralProblems(broken).empty());
  broken = doc;
  broken["paths"]["/api/v1/me"]["get"]["security"] = {{{"nobody", nlohmann::json::array()}}};
  EXPECT_FALSE(StructuralProblems(broken).empty());
  broken = doc;
  broken["paths"]["/api/v1/me"]["get"]["operationId"] = "x";
  broken["paths"]["/api/v1/timeline"]["get"]["operationId"] = "x";
  EXPECT_FALSE(StructuralProblems(broken).empty());
}

}  // namespace
}  // namespace basalt::app::api_v1
