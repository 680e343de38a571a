// The OpenAPI 3.0 description of /api/v1, served at /api/v1/openapi.json. Hand-written beside
// the contract (docs/api-v1.md); a unit test checks that it parses and names every route the
// service registers.

#ifndef BASALT_APP_API_V1_OPENAPI_DOCUMENT_H_
#define BASALT_APP_API_V1_OPENAPI_DOCUMENT_H_

#include <string_view>

namespace basalt::app::api_v1 {

// The JSON text.
std::string_view OpenApiDocument();

}  // namespace basalt::app::api_v1

#endif  // BASALT_APP_API_V1_OPENAPI_DOCUMENT_H_
