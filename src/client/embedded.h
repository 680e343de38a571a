// The embedded backend: Connection, Admin and Table over an in-process engine::Engine.

#ifndef BASALT_CLIENT_EMBEDDED_H_
#define BASALT_CLIENT_EMBEDDED_H_

#include <memory>
#include <string>

#include "basalt/connection.h"
#include "basalt/options.h"
#include "engine/engine_options.h"

namespace basalt::client {

// `path` is the data directory (ignored with options.in_memory).
// `engine_options` (internal) is for tests, e.g. a fault-injecting Env.
Result<std::unique_ptr<Connection>> OpenEmbedded(const std::string& path,
                                                 const ConnectionOptions& options,
                                                 const engine::EngineOptions& engine_options = {});

}  // namespace basalt::client

#endif  // BASALT_CLIENT_EMBEDDED_H_
