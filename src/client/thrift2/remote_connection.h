// The remote backend: Connection::Open("thrift://HOST:PORT[?OPTIONS]") gives a Connection whose
// Admin, Tables and scanners talk HBase's Thrift2 protocol to basalt's Thrift2 server or to an
// HBase cluster's Thrift2 gateway (docs/hbase.md). A Connection may be shared by threads.

#ifndef BASALT_CLIENT_THRIFT2_REMOTE_CONNECTION_H_
#define BASALT_CLIENT_THRIFT2_REMOTE_CONNECTION_H_

#include <memory>
#include <string_view>

#include "basalt/connection.h"
#include "basalt/options.h"

namespace basalt::client::remote {

// `target` is "thrift://HOST:PORT[?options]" (target.h). Connects once to check the server.
Result<std::unique_ptr<Connection>> OpenThrift2(std::string_view target,
                                                const ConnectionOptions& options);

}  // namespace basalt::client::remote

#endif  // BASALT_CLIENT_THRIFT2_REMOTE_CONNECTION_H_
