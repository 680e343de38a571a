// RestService: HBase's REST API (Stargate) over the public basalt API. It registers its routes
// on a Router; every handler calls only Connection, Admin and Table.
//
// JSON only (application/json), plus application/octet-stream for single cells; a request that
// accepts neither gets 406, a body of another type 415. See docs/rest.md for the endpoints and
// where they differ from HBase.
//
// Thread safety: handlers run on many threads at once.

#ifndef BASALT_SERVER_REST_REST_SERVICE_H_
#define BASALT_SERVER_REST_REST_SERVICE_H_

#include <cstdint>
#include <string>

#include "basalt/connection.h"
#include "server/http/router.h"
#include "server/rest/scanners.h"

namespace basalt::server::rest {

class RestService {
 public:
  // `conn` and `scanners` must outlive the service; `listen_address` is "host:port", shown as
  // the node's name in /status/cluster and /{table}/regions.
  RestService(Connection& conn, ScannerRegistry& scanners, std::string listen_address);

  void RegisterRoutes(http::Router* router);

  // GET /: the table list. Public because `GET /` is shared with the web UI, which answers
  // browsers and hands every other client to this.
  http::Response ListTables(const http::RequestContext& ctx);

 private:
  using Ctx = http::RequestContext;
  using Response = http::Response;

  // Cluster and namespaces (rest_service.cc).
  Response Version(const Ctx& ctx);
  Response ClusterVersion(const Ctx& ctx);
  Response ClusterStatus(const Ctx& ctx);
  Response ListNamespaces(const Ctx& ctx);
  Response GetNamespace(const Ctx& ctx);
  Response CreateOrUpdateNamespace(const Ctx& ctx, bool update_existing);
  Response DeleteNamespace(const Ctx& ctx);
  Response NamespaceTables(const Ctx& ctx);

  // Tables (rest_schema.cc).
  Response GetSchema(const Ctx& ctx);
  Response PutSchema(const Ctx& ctx, bool replace);
  Response DeleteSchema(const Ctx& ctx);
  Response Regions(const Ctx& ctx);
  Response Exists(const Ctx& ctx);

  // Rows and cells (rest_rows.cc).
  Response GetRows(const Ctx& ctx);
  Response PutRows(const Ctx& ctx);
  Response DeleteRows(const Ctx& ctx);
  Response MultiGet(const Ctx& ctx);

  // Scanners (rest_scanner.cc).
  Response CreateScanner(const Ctx& ctx);
  Response NextScannerChunk(const Ctx& ctx);
  Response DeleteScanner(const Ctx& ctx);

  Connection& conn_;
  ScannerRegistry& scanners_;
  std::string listen_address_;
  int64_t start_ms_;
};

}  // namespace basalt::server::rest

#endif  // BASALT_SERVER_REST_REST_SERVICE_H_
