// Buffered and framed Thrift transports for the server's reading side that count the
// message-size limit per request.
//
// Thrift 0.17 counts the bytes a transport consumes against TConfiguration's message-size limit
// and resets the count when the transport sends (flush) or says a message ended (readEnd). A
// client's one transport sends before every answer it reads, but the server reads through a
// transport of its own that never sends, and the buffered one never says a message ended: so
// the server dropped a long-lived connection ("No more data to read" at the client, then
// "Broken pipe") once its requests added up to the limit: 100 MiB by default, about 2.8 million
// rows of a batched ingest through one thrift:// connection. These reset the count at the end of
// every request, so the limit bounds one request, as it is meant to.

#ifndef BASALT_SERVER_THRIFT_MESSAGE_TRANSPORTS_H_
#define BASALT_SERVER_THRIFT_MESSAGE_TRANSPORTS_H_

#include <thrift/TConfiguration.h>
#include <thrift/transport/TBufferTransports.h>

#include <memory>

namespace basalt::server {

// Thrift's buffered transport reads and writes through 512-byte buffers: a 5 KiB answer left in
// ten send() calls, each its own TCP segment (the sockets set TCP_NODELAY), and a request came
// in 512 bytes per recv(). A request and its answer now fit one buffer each, up to this size.
inline constexpr uint32_t kSocketBufferBytes = 64 * 1024;

class MessageBufferedTransport : public apache::thrift::transport::TBufferedTransport {
 public:
  MessageBufferedTransport(std::shared_ptr<apache::thrift::transport::TTransport> transport,
                           std::shared_ptr<apache::thrift::TConfiguration> config)
      : TBufferedTransport(std::move(transport), kSocketBufferBytes, kSocketBufferBytes, config) {}

  uint32_t readEnd() override {
    uint32_t bytes = TBufferedTransport::readEnd();
    resetConsumedMessageSize();
    return bytes;
  }
};

class MessageFramedTransport : public apache::thrift::transport::TFramedTransport {
 public:
  MessageFramedTransport(std::shared_ptr<apache::thrift::transport::TTransport> transport,
                         std::shared_ptr<apache::thrift::TConfiguration> config)
      : TFramedTransport(std::move(transport), config) {}

  uint32_t readEnd() override {
    uint32_t bytes = TFramedTransport::readEnd();
    resetConsumedMessageSize();
    return bytes;
  }
};

}  // namespace basalt::server

#endif  // BASALT_SERVER_THRIFT_MESSAGE_TRANSPORTS_H_
