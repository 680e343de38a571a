#include "server/thrift1/thrift1_server.h"

#include "server/thrift1/handler.h"

namespace basalt::server {

Thrift1Server::Thrift1Server(Connection& conn, Thrift1ServerOptions options)
    : ThriftServer("thrift1", conn, options,
                   PerConnectionProcessor<thrift1::HbaseProcessorFactory, thrift1::HbaseIfFactory,
                                          Thrift1Handler>()) {}

}  // namespace basalt::server
