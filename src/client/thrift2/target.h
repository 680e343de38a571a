// The thrift:// target of Connection::Open: where an HBase Thrift2 server is and how to talk
// to it.
//
//   thrift://HOST:PORT[?transport=buffered|framed&protocol=binary|compact
//                      &max_frame_bytes=N&max_message_bytes=N&timeout_ms=N&idle_ms=N]
//
// Defaults match HBase's Thrift2 server: buffered transport, binary protocol.

#ifndef BASALT_CLIENT_THRIFT2_TARGET_H_
#define BASALT_CLIENT_THRIFT2_TARGET_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "basalt/status.h"

namespace basalt::client::remote {

struct Thrift2Target {
  std::string host;
  int port = 9090;
  bool framed = false;
  bool compact = false;
  // Largest frame accepted from the server (framed transport), bytes. Default: 16 MiB.
  int32_t max_frame_bytes = 16 * 1024 * 1024;
  // Largest answer accepted from the server, bytes (Thrift's TConfiguration). Default: 100 MiB.
  int32_t max_message_bytes = 100 * 1024 * 1024;
  // Connect, send and receive timeout, milliseconds. Default: 60 s.
  int timeout_ms = 60000;
  // A pooled connection unused for this long is closed instead of reused, before the server's
  // read timeout (basalt and HBase: 60 s) can close it under the next call. Default: 20 s.
  int idle_ms = 20000;

  // The normalised target, e.g. "thrift://127.0.0.1:9090?transport=framed&protocol=compact".
  std::string ToString() const;
};

// InvalidArgument for a malformed target or an unknown option.
Result<Thrift2Target> ParseThrift2Target(std::string_view target);

}  // namespace basalt::client::remote

#endif  // BASALT_CLIENT_THRIFT2_TARGET_H_
