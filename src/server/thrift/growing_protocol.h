// Thrift protocols for the server's side of a connection that allocate a string as its bytes
// arrive, not when it is declared.
//
// Thrift's own binary and compact protocols allocate a string's declared size before reading
// it: a request declaring a string just under the message limit (100 MiB) held that much memory
// for as long as the client took to send it, or forever if it never did, and 32 such
// connections held 3.45 GiB. These read a string in chunks of at most 1 MiB, growing it as each
// chunk arrives. The server now decodes a request only once all of it has arrived
// (thrift_connection.h), so there a string's bytes are all in memory before it is read; the
// chunked read still bounds what a declaration can make any other transport allocate. A message
// name (a method name) is at most 256 bytes, and an old-style binary message whose name is no
// method name is refused at once: that is what a framed client's first bytes look like on a
// buffered connection. Everything else is Thrift's.

#ifndef BASALT_SERVER_THRIFT_GROWING_PROTOCOL_H_
#define BASALT_SERVER_THRIFT_GROWING_PROTOCOL_H_

#include <thrift/protocol/TProtocol.h>

#include <cstdint>
#include <memory>

namespace basalt::server {

// A factory of binary (or, with `compact`, compact) protocols that refuse strings longer than
// `string_limit` bytes and containers of more than `container_limit` elements (a
// TProtocolException, which closes the connection), and grow strings as they arrive.
std::shared_ptr<apache::thrift::protocol::TProtocolFactory> GrowingProtocolFactory(
    bool compact, int32_t string_limit, int32_t container_limit);

}  // namespace basalt::server

#endif  // BASALT_SERVER_THRIFT_GROWING_PROTOCOL_H_
