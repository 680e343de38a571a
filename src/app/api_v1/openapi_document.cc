#include "app/api_v1/openapi_document.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "app/api_v1/api_response.h"
#include "app/api_v1/api_v1_service.h"
#include "app/api_v1/cookies.h"
#include "app/api_v1/credentials.h"
#include "app/api_v1/validation.h"

namespace basalt::app::api_v1 {

namespace {

OpenApiJson JsonContent(OpenApiJson schema) {
  return {{"application/json", {{"schema", std::move(schema)}}}};
}

OpenApiJson Parameter(std::string name, std::string_view in, bool required, OpenApiJson schema,
                      std::string_view description) {
  OpenApiJson p = {
      {"name", std::move(name)}, {"in", in}, {"required", required}, {"schema", std::move(schema)}};
  if (!description.empty()) p["description"] = description;
  return p;
}

// The description of a path parameter of the contract; "" for a name it does not know.
std::string PathParameterDescription(std::string_view name) {
  if (name == "user") return "user name";
  if (name == "id") return "post id (base64url)";
  if (name == "item") return "click item, 1.." + std::to_string(kMaxItemBytes) + " bytes of UTF-8";
  return "";
}

// The {name}s of a route pattern, in order.
std::vector<std::string> PathParameterNames(std::string_view pattern) {
  std::vector<std::string> names;
  for (size_t open = pattern.find('{'); open != std::string_view::npos;
       open = pattern.find('{', open + 1)) {
    size_t close = pattern.find('}', open);
    if (close == std::string_view::npos) break;
    names.emplace_back(pattern.substr(open + 1, close - open - 1));
  }
  return names;
}

std::vector<OpenApiJson> PagingParameters() {
  return {IntQueryParameter("limit", 1, kMaxPageLimit, kDefaultPageLimit),
          Parameter("cursor", "query", false, StringSchema(), "next_cursor of the previous page")};
}

std::vector<OpenApiJson> WindowParameters() {
  return {
      Parameter("from_ms", "query", false, Int64Schema(), "window start (default: to_ms - 1 hour)"),
      Parameter("to_ms", "query", false, Int64Schema(), "window end (default: now)")};
}

OpenApiJson SecurityRequirements(OpenApiSecurity security) {
  switch (security) {
    case OpenApiSecurity::kSession:
      return {{{"sessionCookie", OpenApiJson::array()}}, {{"bearer", OpenApiJson::array()}}};
    case OpenApiSecurity::kAdmin:
      return {{{"adminToken", OpenApiJson::array()}}, {{"adminHeader", OpenApiJson::array()}}};
    case OpenApiSecurity::kNone:
      break;
  }
  return nullptr;
}

OpenApiJson SecuritySchemes() {
  return {{"sessionCookie",
           {{"type", "apiKey"},
            {"in", "cookie"},
            {"name", kSessionCookie},
            {"description",
             std::string("writes also need the header ") + std::string(kCsrfHeader) + ": 1"}}},
          {"bearer", {{"type", "http"}, {"scheme", "bearer"}}},
          {"adminToken",
           {{"type", "http"}, {"scheme", "bearer"}, {"description", "the server's admin token"}}},
          {"adminHeader",
           {{"type", "apiKey"}, {"in", "header"}, {"name", server::http::kAdminHeader}}}};
}

// The component response for an error status: the contract's code, and when to expect it where
// the code alone does not say.
OpenApiJson ErrorResponse(int status) {
  std::string description(ErrorCodeFor(static_cast<HttpStatus>(status)));
  if (status == 403) {
    description +=
        " (another user's resource, or a cookie write without " + std::string(kCsrfHeader) + ": 1)";
  } else if (status == 429) {
    description += " (see Retry-After)";
  }
  return {{"description", std::move(description)}, {"content", JsonContent(SchemaRef("Error"))}};
}

OpenApiJson ComponentSchemas() {
  OpenApiJson codes = OpenApiJson::array();
  for (const ApiErrorCode& e : kApiErrorCodes) codes.push_back(e.code);
  OpenApiJson error_code = StringSchema();
  error_code["enum"] = std::move(codes);
  return {
      {"Error",
       ObjectOf({{"error", ObjectOf({{"code", std::move(error_code)}, {"message", StringSchema()}},
                                    {"code", "message"})}},
                {"error"})},
      {"Credentials",
       ObjectOf({{"user", {{"type", "string"}, {"pattern", "^[a-z][a-z0-9_]{2,31}$"}}},
                 {"password", {{"type", "string"}, {"minLength", 10}, {"maxLength", 128}}}},
                {"user", "password"})},
      {"Session", ObjectOf({{"user", StringSchema()},
                            {"token", StringSchema()},
                            {"expires_at_ms", Int64Schema()}})},
      {"Profile", ObjectOf({{"user", StringSchema()},
                            {"display_name", StringSchema()},
                            {"bio", StringSchema()},
                            {"following", IntegerSchema()},
                            {"followers", IntegerSchema()},
                            {"followed_by_me", {{"type", "boolean"}}}})},
      {"Post", ObjectOf({{"id", StringSchema()},
                         {"author", StringSchema()},
                         {"timestamp_ms", Int64Schema()},
                         {"text", StringSchema()}})},
      {"Event", ObjectOf({{"user", StringSchema()},
                          {"time_ms", Int64Schema()},
                          {"seq", IntegerSchema()},
                          {"name", StringSchema()},
                          {"payload", StringSchema()}})},
      {"ClickCounts", ObjectOf({{"item", StringSchema()},
                                {"total", IntegerSchema()},
                                {"count", IntegerSchema()},
                                {"from_ms", Int64Schema()},
                                {"to_ms", Int64Schema()},
                                {"week", IntegerSchema()}})},
      {"ClickVisitors", ObjectOf({{"item", StringSchema()},
                                  {"visitors", Int64Schema()},
                                  {"from_ms", Int64Schema()},
                                  {"to_ms", Int64Schema()},
                                  {"relative_standard_error", {{"type", "number"}}}})},
      {"Backup", ObjectOf({{"id", IntegerSchema()},
                           {"timestamp", Int64Schema()},
                           {"files", IntegerSchema()},
                           {"size_bytes", Int64Schema()}})},
      {"HeavyHitters",
       ObjectOf({{"items", ArrayOf(ObjectOf({{"item", StringSchema()}, {"count", Int64Schema()}}))},
                 {"clicks", Int64Schema()},
                 {"error_bound", Int64Schema()},
                 {"from_ms", Int64Schema()},
                 {"to_ms", Int64Schema()}})}};
}

OpenApiJson OperationObject(const OpenApiOperation& op, std::set<int>* error_statuses) {
  OpenApiJson out = {{"summary", op.summary}};
  if (OpenApiJson security = SecurityRequirements(op.security); !security.is_null()) {
    out["security"] = std::move(security);
  }
  std::vector<OpenApiJson> parameters;
  auto add = [&parameters](const std::vector<OpenApiJson>& more) {
    parameters.insert(parameters.end(), more.begin(), more.end());
  };
  if (op.paged) add(PagingParameters());
  if (op.windowed) add(WindowParameters());
  add(op.query);
  if (!parameters.empty()) out["parameters"] = std::move(parameters);
  if (!op.body.is_null()) {
    out["requestBody"] = {{"required", op.body_required}, {"content", JsonContent(op.body)}};
  }
  OpenApiJson& responses = out["responses"];
  OpenApiJson& reply = responses[std::to_string(op.reply.status)];
  reply["description"] = op.reply.description;
  if (!op.reply.schema.is_null()) reply["content"] = JsonContent(op.reply.schema);
  std::vector<int> errors = op.errors;
  std::sort(errors.begin(), errors.end());
  errors.erase(std::unique(errors.begin(), errors.end()), errors.end());
  for (int status : errors) {
    responses[std::to_string(status)] = {
        {"$ref", "#/components/responses/E" + std::to_string(status)}};
    error_statuses->insert(status);
  }
  return out;
}

}  // namespace

OpenApiJson SchemaRef(std::string_view component) {
  return {{"$ref", "#/components/schemas/" + std::string(component)}};
}

OpenApiJson StringSchema() {
  return {{"type", "string"}};
}

OpenApiJson IntegerSchema() {
  return {{"type", "integer"}};
}

OpenApiJson Int64Schema() {
  return {{"type", "integer"}, {"format", "int64"}};
}

OpenApiJson ArrayOf(OpenApiJson items) {
  return {{"type", "array"}, {"items", std::move(items)}};
}

OpenApiJson ObjectOf(std::initializer_list<std::pair<const char*, OpenApiJson>> properties,
                     std::vector<std::string> required) {
  OpenApiJson out = {{"type", "object"}};
  if (!required.empty()) out["required"] = std::move(required);
  OpenApiJson& props = out["properties"];
  for (const auto& [name, schema] : properties) props[name] = schema;
  return out;
}

OpenApiJson PageOf(OpenApiJson item) {
  OpenApiJson next_cursor = StringSchema();
  next_cursor["nullable"] = true;
  return ObjectOf({{"items", ArrayOf(std::move(item))}, {"next_cursor", std::move(next_cursor)}},
                  {"items", "next_cursor"});
}

OpenApiJson StringQueryParameter(std::string name, std::string_view description) {
  return Parameter(std::move(name), "query", false, StringSchema(), description);
}

OpenApiJson IntQueryParameter(std::string name, int64_t min, std::optional<int64_t> max,
                              int64_t fallback) {
  OpenApiJson schema = {{"type", "integer"}, {"minimum", min}};
  if (max) schema["maximum"] = *max;
  schema["default"] = fallback;
  return Parameter(std::move(name), "query", false, std::move(schema), "");
}

OpenApiJson BuildOpenApiDocument(const std::vector<DescribedRoute>& routes) {
  OpenApiJson paths = OpenApiJson::object();
  std::set<int> error_statuses;
  for (const DescribedRoute& route : routes) {
    OpenApiJson& item = paths[route.pattern];
    if (item.is_null()) {
      std::vector<std::string> names = PathParameterNames(route.pattern);
      if (!names.empty()) {
        OpenApiJson& parameters = item["parameters"];
        for (const std::string& name : names) {
          parameters.push_back(
              Parameter(name, "path", true, StringSchema(), PathParameterDescription(name)));
        }
      }
    }
    std::string method(boost::beast::http::to_string(route.verb));
    std::transform(method.begin(), method.end(), method.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    item[method] = OperationObject(route.operation, &error_statuses);
  }
  OpenApiJson responses = OpenApiJson::object();
  for (int status : error_statuses) {
    responses["E" + std::to_string(status)] = ErrorResponse(status);
  }
  return {
      {"openapi", "3.0.3"},
      {"info",
       {{"title", "basalt recipes API"},
        {"version", "1"},
        {"description", "The recipes' JSON API of basalt serve; docs/api-v1.md is the contract."}}},
      {"paths", std::move(paths)},
      {"components",
       {{"securitySchemes", SecuritySchemes()},
        {"responses", std::move(responses)},
        {"schemas", ComponentSchemas()}}}};
}

std::string_view OpenApiDocument() {
  static const std::string kDocument =
      BuildOpenApiDocument(ApiV1Service::DescribedRoutes()).dump(1);
  return kDocument;
}

}  // namespace basalt::app::api_v1
