// ServerConfig: what `basalt serve` is told, from its JSON config file and its flags.

#ifndef BASALT_SERVER_HTTP_SERVER_CONFIG_H_
#define BASALT_SERVER_HTTP_SERVER_CONFIG_H_

#include <cstdint>
#include <string>

#include "basalt/status.h"

namespace basalt::server::http {

struct ServerConfig {
  std::string data;  // data directory (required)
  std::string bind = "127.0.0.1";
  uint16_t port = 8080;                    // 0: any free port (the ready line says which)
  std::string access_log;                  // empty: stderr
  uint64_t max_body = 8 * 1024 * 1024;     // bytes; larger request bodies get 413
  uint32_t max_header = 16 * 1024;         // bytes; larger request headers get 431
  uint32_t read_timeout_seconds = 30;      // to read one request once it has started
  uint32_t idle_timeout_seconds = 60;      // a keep-alive connection with no request is closed
  uint32_t shutdown_timeout_seconds = 10;  // in-flight requests get this long on SIGTERM
  uint32_t threads = 0;                    // 0: from the number of cores
  // Open HTTP connections at once; one more is answered 503 and closed at once, so idle or
  // slow clients cannot exhaust file descriptors or memory.
  uint32_t max_connections = 1000;
  uint32_t scanner_ttl_seconds = 3600;  // an idle REST scanner is dropped after this
  uint32_t max_scanners = 10000;        // open REST scanners at once
  // HBase's Thrift2 protocol on the same store, on the same bind address.
  bool thrift = true;           // false: no Thrift2 server
  uint16_t thrift_port = 9090;  // 0: any free port (the ready line says which)
  bool thrift_framed = false;   // TFramedTransport instead of a buffered socket (HBase -f)
  bool thrift_compact = false;  // TCompactProtocol instead of TBinaryProtocol (HBase -c)
  // The recipes' JSON API /api/v1 (docs/api-v1.md).
  // When set, the REST API's writes and schema changes and /api/v1/admin/* need this token
  // (`Authorization: Bearer T` or `X-Basalt-Admin: T`). A secret: never logged.
  std::string admin_token;
  uint32_t session_ttl_seconds = 7 * 24 * 3600;  // a log-in session lives this long
  // "interactive" (argon2id, 64 MiB: the default) or "minimum" (FOR TESTS ONLY: a password
  // hash that costs nothing to brute-force).
  std::string password_hash_cost = "interactive";
  // Load the demo data set before serving, on the store's first start only (server/demo_data.h),
  // its default size times demo_scale (0 < demo_scale <= 100).
  bool demo = false;
  // The namespace of the recipes' tables behind /api/v1 and --demo, so that they stay apart from
  // the tables users create in `default`.
  std::string app_namespace = "app";
  double demo_scale = 1.0;
};

// Reads a JSON object whose keys are the field names above, with '-' or '_' ("max-body" and
// "max_body" are the same key); keys not given keep their current value in `*config`.
// InvalidArgument on malformed JSON, an unknown key or a value of the wrong type or range;
// IOError when the file cannot be read.
Status LoadConfigFile(const std::string& path, ServerConfig* config);

}  // namespace basalt::server::http

#endif  // BASALT_SERVER_HTTP_SERVER_CONFIG_H_
