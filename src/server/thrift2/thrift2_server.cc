#include "server/thrift2/thrift2_server.h"

#include "server/thrift2/handler.h"

namespace basalt::server {

Thrift2Server::Thrift2Server(Connection& conn, Thrift2ServerOptions options)
    : ThriftServer("thrift2", conn, options,
                   PerConnectionProcessor<thrift2::THBaseServiceProcessorFactory,
                                          thrift2::THBaseServiceIfFactory, Thrift2Handler>()) {}

}  // namespace basalt::server
