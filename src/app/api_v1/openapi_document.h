// The OpenAPI 3.0 description of /api/v1, served at /api/v1/openapi.json, generated from the
// service's route table (ApiV1Service::DescribedRoutes): each route carries an OpenApiOperation,
// and what several routes share is written once in openapi_document.cc: the paging and window
// query parameters, the path parameters ({user}, {id}, {item}), the error responses (E400, ...)
// with the error schema, the security schemes and the component schemas. The prose contract is
// docs/api-v1.md; openapi_test.cc checks that every route is described and that the document
// holds together.

#ifndef BASALT_APP_API_V1_OPENAPI_DOCUMENT_H_
#define BASALT_APP_API_V1_OPENAPI_DOCUMENT_H_

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "server/http/http_types.h"

namespace basalt::app::api_v1 {

// Keeps members in the order written, so the document reads in the order of the routes.
using OpenApiJson = nlohmann::ordered_json;

// The credential an operation takes: the securitySchemes it names.
enum class OpenApiSecurity { kNone, kSession, kAdmin };

struct OpenApiReply {
  int status = 200;
  std::string description;
  OpenApiJson schema;  // of the JSON body; null: no body
};

// One route's description; what the route's path and handler already say is not repeated here
// (the path parameters come from the pattern, a session route's 401/403 from its handler).
struct OpenApiOperation {
  std::string summary;
  OpenApiSecurity security = OpenApiSecurity::kNone;
  bool paged = false;              // takes ?limit= and ?cursor=
  bool windowed = false;           // takes ?from_ms= and ?to_ms= (the click queries)
  std::vector<OpenApiJson> query;  // further query parameters (IntQueryParameter), after those
  OpenApiJson body;                // schema of the JSON request body; null: none
  bool body_required = true;
  OpenApiReply reply;
  std::vector<int> errors;  // the statuses answered with the contract's error body
};

struct DescribedRoute {
  server::http::Verb verb;
  std::string pattern;  // as the router has it: "/api/v1/users/{user}"
  OpenApiOperation operation;
};

// Schema builders. Members come out in the order written, as a reader of OpenAPI expects them
// (type, required, properties).
OpenApiJson SchemaRef(std::string_view component);  // a schema of components/schemas
OpenApiJson StringSchema();
OpenApiJson IntegerSchema();
OpenApiJson Int64Schema();
OpenApiJson ArrayOf(OpenApiJson items);
OpenApiJson ObjectOf(std::initializer_list<std::pair<const char*, OpenApiJson>> properties,
                     std::vector<std::string> required = {});
// The contract's page: {"items": [...], "next_cursor": "..." or null}.
OpenApiJson PageOf(OpenApiJson item);
// An optional string query parameter.
OpenApiJson StringQueryParameter(std::string name, std::string_view description);
// An optional integer query parameter.
OpenApiJson IntQueryParameter(std::string name, int64_t min, std::optional<int64_t> max,
                              int64_t fallback);

// The document describing `routes`. A path parameter the shared pieces do not describe is
// declared without a description (openapi_test.cc fails on it).
OpenApiJson BuildOpenApiDocument(const std::vector<DescribedRoute>& routes);

// The document of ApiV1Service's routes as JSON text, built on first use.
std::string_view OpenApiDocument();

}  // namespace basalt::app::api_v1

#endif  // BASALT_APP_API_V1_OPENAPI_DOCUMENT_H_
