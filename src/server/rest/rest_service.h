// RestService: HBase's REST API (Stargate) over the public basalt API. It registers its routes
// on a Router; every handler calls only Connection, Admin and Table.
//
// Handlers return their failures as a Status; the router answers them through the one Status ->
// HTTP mapping (ErrorResponse in server/http/status_mapping.h). A handler returns an error
// response itself only where no Status says it (406, 415, 405, 410 for a failed scanner) or where
// HBase's REST server writes words of its own, which basalt writes byte for byte ("Not found",
// "No rows found.", the namespace messages, the 'Default GET' 400).
//
// Every resource in HBase's representations, XML, JSON and protobuf, plus text/plain where HBase
// writes the resource as text and application/octet-stream for single cells, picked by HBase's
// content negotiation (representation.h): handlers fill a model (models.h) and codecs.h writes
// it; bodies are read the same way. A request that accepts none of them gets 406, a body of
// another type 415. tests/gateways/ compares every resource with HBase's own answers; see
// docs/rest.md for the endpoints and where they differ from HBase.
//
// Reserved namespaces (RestOptions): every route naming a table or a namespace of one answers
// 403 text/plain, unless the server has an admin token and the request carries it. Listing all
// tables or namespaces still shows them (docs/security.md says why).
//
// Scanners belong to the table they were opened on and to who opened them: the admin token
// when the opening request carried it, else the client address (ScannerOwner, scanners.h). A
// read or delete from anyone else, or naming another table, is the 404 of an unknown scanner.
// Multi-row answers hold at most a ResultBudget of cells (result_budget.h).
//
// Thread safety: handlers run on many threads at once.

#ifndef BASALT_SERVER_REST_REST_SERVICE_H_
#define BASALT_SERVER_REST_REST_SERVICE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "basalt/connection.h"
#include "server/http/router.h"
#include "server/rest/scanners.h"

namespace basalt::server::rest {

struct RestOptions {
  // Namespaces no route may name (server/reserved_namespaces.h). Default: none.
  std::vector<std::string> reserved_namespaces;
  // When set, a request carrying it (server/http/credentials.h) may use the reserved namespaces.
  // Default: none, so nothing may.
  std::string admin_token;
};

class RestService {
 public:
  // `conn` and `scanners` must outlive the service; `listen_address` is "host:port", shown as
  // the node's name in /status/cluster and /{table}/regions.
  RestService(Connection& conn, ScannerRegistry& scanners, std::string listen_address,
              RestOptions options = {});

  void RegisterRoutes(http::Router* router);

  // GET /: the table list, a failure answered as the routes answer theirs. Public because `GET /`
  // is shared with the web UI, which answers browsers and hands every other client to this.
  http::Response ListTables(const http::RequestContext& ctx);

 private:
  using Ctx = http::RequestContext;
  using Response = http::Response;

  // The 403 for a request naming a reserved namespace ("ns" or "table" path parameter) without
  // the admin token; nullopt to go on. A name that does not parse is left to the handler.
  std::optional<Response> RefuseReserved(const Ctx& ctx) const;

  // Whether the server has an admin token and the request carries it.
  bool CarriesAdminToken(const Ctx& ctx) const;
  // Who a scanner request comes from, as the registry binds scanners to it (scanners.h).
  ScannerOwner ScannerOwnerOf(const Ctx& ctx) const;
  // The canonical name of the path's table, "" when it names none.
  static std::string ScannerTableOf(const Ctx& ctx);

  // The route behind ListTables.
  Result<Response> TableList(const Ctx& ctx);

  // Cluster and namespaces (rest_service.cc).
  Result<Response> Version(const Ctx& ctx);
  Result<Response> ClusterVersion(const Ctx& ctx);
  Result<Response> ClusterStatus(const Ctx& ctx);
  Result<Response> ListNamespaces(const Ctx& ctx);
  Result<Response> GetNamespace(const Ctx& ctx);
  Result<Response> CreateOrUpdateNamespace(const Ctx& ctx, bool update_existing);
  Result<Response> DeleteNamespace(const Ctx& ctx);
  Result<Response> NamespaceTables(const Ctx& ctx);

  // Tables (rest_schema.cc).
  Result<Response> GetSchema(const Ctx& ctx);
  Result<Response> PutSchema(const Ctx& ctx, bool replace);
  Result<Response> DeleteSchema(const Ctx& ctx);
  Result<Response> Regions(const Ctx& ctx);
  Result<Response> Exists(const Ctx& ctx);

  // Rows and cells (rest_rows.cc).
  Result<Response> GetRows(const Ctx& ctx);
  Result<Response> PutRows(const Ctx& ctx);
  Result<Response> DeleteRows(const Ctx& ctx);
  Result<Response> MultiGet(const Ctx& ctx);

  // Scanners (rest_scanner.cc).
  Result<Response> CreateScanner(const Ctx& ctx);
  Result<Response> NextScannerChunk(const Ctx& ctx);
  Result<Response> DeleteScanner(const Ctx& ctx);

  Connection& conn_;
  ScannerRegistry& scanners_;
  std::string listen_address_;
  RestOptions options_;
  int64_t start_ms_;
};

}  // namespace basalt::server::rest

#endif  // BASALT_SERVER_REST_REST_SERVICE_H_
