// `basalt serve`: opens the store, serves the HTTP API on it until SIGTERM / SIGINT, then
// closes the store cleanly.

#ifndef BASALT_APP_SERVE_H_
#define BASALT_APP_SERVE_H_

#include <cstdint>
#include <string>

#include "basalt/status.h"
#include "server/http/server_config.h"

namespace basalt::app {

// What the application on the server is told (from the same config file and flags as the server).
struct AppConfig {
  uint32_t session_ttl_seconds = 7 * 24 * 3600;  // an /api/v1 log-in session lives this long
  // "interactive" (argon2id, 64 MiB: the default) or "minimum" (FOR TESTS ONLY: a password
  // hash that costs nothing to brute-force).
  std::string password_hash_cost = "interactive";
  // Load the demo data set before serving, on the store's first start only (app/demo_data.h),
  // its default size times demo_scale (0 < demo_scale <= 100).
  bool demo = false;
  double demo_scale = 1.0;
  // The namespace of the recipes' tables behind /api/v1 and --demo, so that they stay apart from
  // the tables users create in `default`.
  std::string app_namespace = "app";
  // Sign-ups and log-ins one client address may make per minute, successful or not (each costs
  // a password hash); more get 429 with Retry-After.
  uint32_t auth_attempts_per_minute = 30;
  // Password hashes (sign-ups, log-ins) running at once; 64 MiB each at the interactive cost.
  uint32_t max_concurrent_password_hashes = 2;
  // Entries a home-timeline inbox keeps (FeedOptions::inbox_cap); home timelines go on past
  // them from the followees' own timelines.
  uint32_t feed_inbox_cap = 1000;
  // An inbox is trimmed back to feed_inbox_cap on about one delivery in this many
  // (FeedOptions::inbox_trim_every).
  uint32_t feed_inbox_trim_every = 16;
  // Where POST /api/v1/admin/backups takes backups of the store (a backup directory, created if
  // missing: basalt/backup.h). Empty: backups through the server are off. The client never
  // names a path: the operator chooses this one.
  std::string backup_dir;
};

// Everything `basalt serve` is told: the HBase-facing servers' settings and the app's.
struct ServeConfig {
  server::http::ServerConfig server;
  AppConfig app;
};

// Reads a JSON config file holding keys of both (server/http/server_config.h has the rules);
// keys not given keep their current value in `*config`.
Status LoadServeConfigFile(const std::string& path, ServeConfig* config);

// Prints "basalt serve: listening on http://HOST:PORT" on stdout once it accepts connections.
// Returns after a graceful shutdown; an error when the store cannot be opened, the address
// cannot be bound or the store does not close cleanly.
Status Serve(const ServeConfig& config);

}  // namespace basalt::app

#endif  // BASALT_APP_SERVE_H_
