// `basalt serve`: opens the store, serves the HTTP API on it until SIGTERM / SIGINT, then
// closes the store cleanly.

#ifndef BASALT_APP_SERVE_H_
#define BASALT_APP_SERVE_H_

#include "basalt/status.h"
#include "server/http/server_config.h"

namespace basalt::app {

// Prints "basalt serve: listening on http://HOST:PORT" on stdout once it accepts connections.
// Returns after a graceful shutdown; an error when the store cannot be opened, the address
// cannot be bound or the store does not close cleanly.
Status Serve(const server::http::ServerConfig& config);

}  // namespace basalt::app

#endif  // BASALT_APP_SERVE_H_
