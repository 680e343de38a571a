#include "server/rest/rest_service.h"

#include <sys/utsname.h>

#include <chrono>

#include "server/http/credentials.h"
#include "server/http/status_mapping.h"
#include "server/reserved_namespaces.h"
#include "server/rest/codecs.h"
#include "server/rest/rest_util.h"

namespace basalt::server::rest {

namespace bh = boost::beast::http;
using http::Verb;

namespace {

// What /version/cluster and /version report as the release (HBase: its own version).
constexpr const char* kVersion = "basalt-0.1.0";

}  // namespace

RestService::RestService(Connection& conn, ScannerRegistry& scanners, std::string listen_address,
                         RestOptions options)
    : conn_(conn),
      scanners_(scanners),
      listen_address_(std::move(listen_address)),
      options_(std::move(options)),
      start_ms_(SystemWallMillis()) {}

void RestService::RegisterRoutes(http::Router* router) {
  // The router answers every route's failed Status through the one mapping. Every route passes
  // the reserved-namespace check first, so no handler can forget it.
  auto add_handler = [&](Verb verb, const char* pattern, http::ResultHandler handler) {
    router->Add(
        verb, pattern,
        [this, handler = std::move(handler)](const Ctx& ctx) -> Result<Response> {
          if (std::optional<Response> refused = RefuseReserved(ctx)) return std::move(*refused);
          return handler(ctx);
        },
        http::ErrorResponse);
  };
  auto add = [&](Verb verb, const char* pattern,
                 Result<Response> (RestService::*method)(const Ctx&)) {
    add_handler(verb, pattern, [this, method](const Ctx& ctx) { return (this->*method)(ctx); });
  };
  add(Verb::get, "/", &RestService::TableList);
  add(Verb::get, "/version", &RestService::Version);
  add(Verb::get, "/version/rest", &RestService::Version);
  add(Verb::get, "/version/cluster", &RestService::ClusterVersion);
  add(Verb::get, "/status/cluster", &RestService::ClusterStatus);
  add(Verb::get, "/namespaces", &RestService::ListNamespaces);
  add(Verb::get, "/namespaces/{ns}", &RestService::GetNamespace);
  add_handler(Verb::post, "/namespaces/{ns}",
              [this](const Ctx& ctx) { return CreateOrUpdateNamespace(ctx, false); });
  add_handler(Verb::put, "/namespaces/{ns}",
              [this](const Ctx& ctx) { return CreateOrUpdateNamespace(ctx, true); });
  add(Verb::delete_, "/namespaces/{ns}", &RestService::DeleteNamespace);
  add(Verb::get, "/namespaces/{ns}/tables", &RestService::NamespaceTables);

  add(Verb::get, "/{table}/schema", &RestService::GetSchema);
  add_handler(Verb::put, "/{table}/schema",
              [this](const Ctx& ctx) { return PutSchema(ctx, true); });
  add_handler(Verb::post, "/{table}/schema",
              [this](const Ctx& ctx) { return PutSchema(ctx, false); });
  add(Verb::delete_, "/{table}/schema", &RestService::DeleteSchema);
  add(Verb::get, "/{table}/regions", &RestService::Regions);
  add(Verb::get, "/{table}/exists", &RestService::Exists);

  add(Verb::get, "/{table}/multiget", &RestService::MultiGet);
  add(Verb::get, "/{table}/multiget/{columns}", &RestService::MultiGet);

  add(Verb::post, "/{table}/scanner", &RestService::CreateScanner);
  add(Verb::put, "/{table}/scanner", &RestService::CreateScanner);
  add(Verb::get, "/{table}/scanner/{id}", &RestService::NextScannerChunk);
  add(Verb::delete_, "/{table}/scanner/{id}", &RestService::DeleteScanner);

  for (const char* pattern :
       {"/{table}/{row}", "/{table}/{row}/{columns}", "/{table}/{row}/{columns}/{time}"}) {
    add(Verb::get, pattern, &RestService::GetRows);
    add(Verb::put, pattern, &RestService::PutRows);
    add(Verb::post, pattern, &RestService::PutRows);
    add(Verb::delete_, pattern, &RestService::DeleteRows);
  }
}

std::optional<http::Response> RestService::RefuseReserved(const Ctx& ctx) const {
  if (options_.reserved_namespaces.empty()) return std::nullopt;
  std::string ns;
  if (auto it = ctx.params.find("ns"); it != ctx.params.end()) {
    Result<std::string> name = DecodeSegment(it->second);
    if (!name.ok()) return std::nullopt;
    ns = std::move(*name);
  } else if (auto it = ctx.params.find("table"); it != ctx.params.end()) {
    Result<std::string> text = DecodeSegment(it->second);
    if (!text.ok()) return std::nullopt;
    Result<TableName> name = TableName::Parse(*text);
    if (!name.ok()) return std::nullopt;
    ns = name->ns;
  }
  if (!IsReservedNamespace(options_.reserved_namespaces, ns)) return std::nullopt;
  if (CarriesAdminToken(ctx)) return std::nullopt;
  return http::MakeResponse(ctx.request, bh::status::forbidden, "text/plain",
                            "Forbidden: " + ReservedNamespaceMessage(ns) + "\r\n");
}

bool RestService::CarriesAdminToken(const Ctx& ctx) const {
  return !options_.admin_token.empty() && http::HasAdminToken(ctx.request, options_.admin_token);
}

http::Response RestService::ListTables(const Ctx& ctx) {
  // The web UI's route is a plain Handler, so this answers a failure as the router would.
  Result<Response> response = TableList(ctx);
  if (!response.ok()) return http::ErrorResponse(ctx.request, response.status());
  return std::move(*response);
}

// The resources HBase lists text/plain first for (representation.h).
constexpr Offers kTextFirst{.text = true};

Result<http::Response> RestService::TableList(const Ctx& ctx) {
  std::optional<Negotiated> repr = NegotiateResponse(ctx.request, kTextFirst);
  if (!repr) return NotAcceptable(ctx.request);
  BASALT_ASSIGN_OR_RETURN(std::vector<TableName> tables, conn_.admin().ListTables(""));
  TableListModel list;
  for (const TableName& t : tables) list.names.push_back(t.ToString());
  return Ok(ctx.request, *repr, Encode(repr->representation, list));
}

Result<http::Response> RestService::Version(const Ctx& ctx) {
  std::optional<Negotiated> repr = NegotiateResponse(ctx.request, kTextFirst);
  if (!repr) return NotAcceptable(ctx.request);
  struct utsname u {};
  std::string os = "unknown";
  if (uname(&u) == 0) os = std::string(u.sysname) + " " + u.release + " " + u.machine;
  VersionModel version{.rest = "0.0.3",
                       .jvm = "none (basalt is C++)",
                       .os = os,
                       .server = "basalt/0.1.0",
                       .jersey = "none",
                       .version = kVersion};
  return Ok(ctx.request, *repr, Encode(repr->representation, version));
}

Result<http::Response> RestService::ClusterVersion(const Ctx& ctx) {
  // HBase has no protobuf message for the cluster version.
  std::optional<Negotiated> repr =
      NegotiateResponse(ctx.request, {.protobuf = false, .text = true});
  if (!repr) return NotAcceptable(ctx.request);
  return Ok(ctx.request, *repr, Encode(repr->representation, ClusterVersionModel{kVersion}));
}

Result<http::Response> RestService::ClusterStatus(const Ctx& ctx) {
  std::optional<Negotiated> repr = NegotiateResponse(ctx.request, kTextFirst);
  if (!repr) return NotAcceptable(ctx.request);
  BASALT_ASSIGN_OR_RETURN(std::vector<TableName> tables, conn_.admin().ListTables(""));
  ClusterStatusModel::Node node{.name = listen_address_, .start_code = start_ms_, .regions = {}};
  for (const TableName& t : tables) {
    auto info = conn_.admin().DescribeTable(t);
    if (!info.ok()) continue;  // dropped meanwhile
    std::vector<std::string> bounds = {""};
    for (const auto& k : info->split_keys) bounds.push_back(k);
    for (size_t i = 0; i < bounds.size(); ++i) {
      node.regions.push_back({.name = t.ToString() + "," + bounds[i] + "," + std::to_string(i),
                              .stores = static_cast<int32_t>(info->descriptor.families.size())});
    }
  }
  ClusterStatusModel status;
  status.regions = static_cast<int32_t>(node.regions.size());
  status.average_load = static_cast<double>(node.regions.size());
  status.live_nodes.push_back(std::move(node));
  return Ok(ctx.request, *repr, Encode(repr->representation, status));
}

Result<http::Response> RestService::ListNamespaces(const Ctx& ctx) {
  std::optional<Negotiated> repr = NegotiateResponse(ctx.request, kTextFirst);
  if (!repr) return NotAcceptable(ctx.request);
  BASALT_ASSIGN_OR_RETURN(auto namespaces, conn_.admin().ListNamespaces());
  NamespacesModel list;
  for (const auto& ns : namespaces) list.names.push_back(ns.name);
  return Ok(ctx.request, *repr, Encode(repr->representation, list));
}

Result<http::Response> RestService::GetNamespace(const Ctx& ctx) {
  std::optional<Negotiated> repr = NegotiateResponse(ctx.request, kTextFirst);
  if (!repr) return NotAcceptable(ctx.request);
  BASALT_ASSIGN_OR_RETURN(std::string name, DecodeSegment(ctx.Param("ns")));
  BASALT_ASSIGN_OR_RETURN(NamespaceDescriptor ns, conn_.admin().GetNamespace(name));
  NamespacePropertiesModel props{.name = ns.name, .properties = {}};
  for (const auto& [k, v] : ns.configuration) props.properties[k] = v;
  return Ok(ctx.request, *repr, Encode(repr->representation, props));
}

Result<http::Response> RestService::CreateOrUpdateNamespace(const Ctx& ctx, bool update_existing) {
  const auto& req = ctx.request;
  BASALT_ASSIGN_OR_RETURN(std::string name, DecodeSegment(ctx.Param("ns")));
  NamespaceDescriptor desc{name, {}};
  if (!req.body().empty()) {
    std::optional<Representation> body = BodyRepresentation(req);
    if (!body || *body == Representation::kOctetStream) return UnsupportedMediaType(req);
    BASALT_ASSIGN_OR_RETURN(NamespacePropertiesModel props,
                            Decode<NamespacePropertiesModel>(*body, req.body()));
    for (auto& [k, v] : props.properties) desc.configuration[k] = std::move(v);
  }
  auto existing = conn_.admin().GetNamespace(name);
  if (!existing.ok() && !existing.status().IsNotFound()) return existing.status();
  bool exists = existing.ok();
  if (!update_existing && exists) {
    return http::MakeResponse(req, bh::status::forbidden, "text/plain",
                              "Namespace '" + name +
                                  "' already exists.  Use REST PUT to alter the existing "
                                  "namespace.");
  }
  if (update_existing && !exists) {
    return http::MakeResponse(
        req, bh::status::forbidden, "text/plain",
        "Namespace '" + name + "' does not exist. Use REST POST to create the namespace.");
  }
  if (exists) {
    if (existing->configuration != desc.configuration) {
      return Status::NotSupported("basalt cannot change a namespace's properties yet");
    }
    // HBase answers an alteration with the namespace's URL as text.
    std::string host = listen_address_;
    if (auto it = req.find(bh::field::host); it != req.end()) host = std::string(it->value());
    return http::MakeResponse(req, bh::status::ok, "text/plain",
                              "http://" + host + "/namespaces/" + ctx.Param("ns"));
  }
  BASALT_RETURN_IF_ERROR(conn_.admin().CreateNamespace(desc));
  return Empty(req, bh::status::created);
}

Result<http::Response> RestService::DeleteNamespace(const Ctx& ctx) {
  BASALT_ASSIGN_OR_RETURN(std::string name, DecodeSegment(ctx.Param("ns")));
  Status deleted = conn_.admin().DeleteNamespace(name);
  if (deleted.IsNotFound()) {
    return http::MakeResponse(ctx.request, bh::status::not_found, "text/plain",
                              "Namespace '" + name + "' does not exists.  Cannot drop namespace.");
  }
  BASALT_RETURN_IF_ERROR(deleted);
  return Empty(ctx.request, bh::status::ok);
}

Result<http::Response> RestService::NamespaceTables(const Ctx& ctx) {
  std::optional<Negotiated> repr = NegotiateResponse(ctx.request, kTextFirst);
  if (!repr) return NotAcceptable(ctx.request);
  BASALT_ASSIGN_OR_RETURN(std::string name, DecodeSegment(ctx.Param("ns")));
  // An unknown namespace is NotFound, not an empty list.
  BASALT_RETURN_IF_ERROR(conn_.admin().GetNamespace(name).status());
  BASALT_ASSIGN_OR_RETURN(std::vector<TableName> tables, conn_.admin().ListTables(name));
  TableListModel list;
  for (const TableName& t : tables) list.names.push_back(t.qualifier);
  return Ok(ctx.request, *repr, Encode(repr->representation, list));
}

}  // namespace basalt::server::rest
