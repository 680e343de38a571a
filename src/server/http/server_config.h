// ServerConfig: what the HBase-facing servers of `basalt serve` are told (HTTP, REST, Thrift2,
// Thrift1),
// from its JSON config file and its flags. What runs on them (the app) reads its own keys from
// the same file through ReadConfigFile.

#ifndef BASALT_SERVER_HTTP_SERVER_CONFIG_H_
#define BASALT_SERVER_HTTP_SERVER_CONFIG_H_

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "basalt/status.h"

namespace basalt::server::http {

// The longest thrift_spin_us accepted: past a millisecond a wait is a client's think time, which
// a sleeping thread costs nothing to wait out.
inline constexpr uint32_t kMaxThriftSpinUs = 1000;

struct ServerConfig {
  std::string data;  // data directory (required)
  std::string bind = "127.0.0.1";
  uint16_t port = 8080;                 // 0: any free port (the ready line says which)
  std::string access_log;               // empty: stderr
  uint64_t max_body = 8 * 1024 * 1024;  // bytes; larger request bodies get 413
  // Bytes of request data the server holds at once over every connection: bodies as they are
  // read (a Content-Length body counts whole from its header on, a chunked one as its chunks
  // come) and what handlers decode them into. A request that would go past it gets 503 with
  // Retry-After (a Content-Length body before any of it is read). At the default, 32 bodies of
  // max_body at once; without it, max_connections slow uploads would hold max_connections x
  // max_body. At least max_body.
  uint64_t request_memory_budget = uint64_t{256} << 20;
  uint32_t max_header = 16 * 1024;         // bytes; larger request headers get 431
  uint32_t read_timeout_seconds = 30;      // to read one request once it has started
  uint32_t idle_timeout_seconds = 60;      // a keep-alive connection with no request is closed
  uint32_t shutdown_timeout_seconds = 10;  // in-flight requests get this long on SIGTERM
  uint32_t threads = 0;                    // 0: from the number of cores
  // Open HTTP connections at once; one more is answered 503 and closed at once, so idle or
  // slow clients cannot exhaust file descriptors or memory.
  uint32_t max_connections = 1000;
  uint32_t scanner_ttl_seconds = 60;       // an idle REST scanner is dropped after this
  uint32_t max_scanners = 10000;           // open REST scanners at once
  uint32_t max_scanners_per_client = 100;  // ... of one client address
  // HBase's Thrift2 protocol on the same store, on the same bind address.
  bool thrift = true;           // false: no Thrift2 server
  uint16_t thrift_port = 9090;  // 0: any free port (the ready line says which)
  bool thrift_framed = false;   // TFramedTransport instead of a buffered socket (HBase -f)
  bool thrift_compact = false;  // TCompactProtocol instead of TBinaryProtocol (HBase -c)
  // HBase's Thrift1 protocol (service Hbase, happybase's) on the same store and bind address.
  // Its own port: HBase uses 9090 for either gateway, and basalt's Thrift2 has it.
  bool thrift1 = true;           // false: no Thrift1 server
  uint16_t thrift1_port = 9091;  // 0: any free port (the ready line says which)
  bool thrift1_framed = false;   // TFramedTransport instead of a buffered socket (HBase -f)
  bool thrift1_compact = false;  // TCompactProtocol instead of TBinaryProtocol (HBase -c)
  // HBase's native RPC (the stock HBase Java client, the HBase shell) on the same store and bind
  // address: server/hbase_rpc/rpc_server.h.
  bool hbase_rpc = true;            // false: no native RPC server
  uint16_t hbase_rpc_port = 16020;  // 0: any free port (the ready line says which)
  // Both Thrift servers: how long a connection that has answered polls for the next request
  // before it sleeps, while no other connection is calling (ThriftServerOptions::arrival_spin).
  // 0: never.
  uint32_t thrift_spin_us = 50;
  // Each Thrift server: connections open at once in all, and from one client address
  // (ThriftServerOptions::max_connections, max_connections_per_client). 0: no cap.
  uint32_t thrift_max_connections = 10000;
  uint32_t thrift_max_connections_per_client = 1000;
  // When set, the REST API's writes and schema changes (and the admin routes of whatever runs on
  // the server) need this token (`Authorization: Bearer T` or `X-Basalt-Admin: T`). A secret:
  // never logged.
  std::string admin_token;
  // Host names (besides IP literals, "localhost" and the bind address) the Host header may
  // carry; "*" accepts any. Others get 403, so a DNS-rebinding page cannot reach the server
  // under its own name (server/http/browser_guard.h). Add the public name behind a proxy.
  std::vector<std::string> allowed_hosts;
  // Listen beyond loopback without credentials for the data plane (see CheckExposure). Anyone
  // who can reach the ports may then read, write and drop every table outside the reserved
  // namespaces. Default: false.
  bool insecure_no_auth = false;
};

// The most one request may hold of request_memory_budget: its body and what it decodes into.
// 32 x max_body (a JSON CellSet of tiny cells takes about 15 times its size once parsed, decoded
// and made into Puts, and the estimate of it is from above) and at least 64 MiB (a small
// max_body still lets a body decode), at most the whole budget.
uint64_t RequestMemoryLimit(const ServerConfig& config);

// InvalidArgument naming the keys when the limits contradict each other (a budget smaller than
// max_body could never take a body the server accepts).
Status CheckLimits(const ServerConfig& config);

// Whether `bind` is a loopback address (127.0.0.0/8, ::1).
bool IsLoopbackBind(const std::string& bind);

// FailedPrecondition, naming the ways out, when the servers would listen beyond loopback
// without credentials for the data plane and insecure_no_auth is not set: without an admin
// token (REST would be open to anyone who can reach it), or with Thrift2 or Thrift1 on (neither
// has credentials at all). docs/security.md.
Status CheckExposure(const ServerConfig& config);

// Reads one config key: nullopt when `key` is none of ServerConfig's (another reader's, then),
// else OK or InvalidArgument for a value of the wrong type or range.
std::optional<Status> ReadServerConfigKey(const std::string& key, const nlohmann::json& value,
                                          ServerConfig* config);

// Reads the JSON object in `path` and hands each key to `read`, spelled with '_' ("max-body" and
// "max_body" are the same key): nullopt from `read` means an unknown key. InvalidArgument on
// malformed JSON, an unknown key or a bad value, naming the file; IOError when it cannot be read.
using ConfigKeyReader =
    std::function<std::optional<Status>(const std::string& key, const nlohmann::json& value)>;
Status ReadConfigFile(const std::string& path, const ConfigKeyReader& read);

// The value of config key `key` into `*out`; InvalidArgument naming the key when the JSON value
// is not of the type (or, for integers, in the range) of `*out`.
Status ReadConfigValue(const nlohmann::json& v, const std::string& key, std::string* out);
Status ReadConfigValue(const nlohmann::json& v, const std::string& key, bool* out);
Status ReadConfigValue(const nlohmann::json& v, const std::string& key, double* out);
Status ReadConfigValue(const nlohmann::json& v, const std::string& key, uint16_t* out);
Status ReadConfigValue(const nlohmann::json& v, const std::string& key, uint32_t* out);
Status ReadConfigValue(const nlohmann::json& v, const std::string& key, uint64_t* out);
Status ReadConfigValue(const nlohmann::json& v, const std::string& key,
                       std::vector<std::string>* out);

}  // namespace basalt::server::http

#endif  // BASALT_SERVER_HTTP_SERVER_CONFIG_H_
