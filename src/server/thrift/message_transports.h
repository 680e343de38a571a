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
#include <thrift/transport/TSocket.h>

#include <memory>

#include "server/thrift/arrival_spin.h"

namespace basalt::server {

// Thrift's buffered transport reads and writes through 512-byte buffers: a 5 KiB answer left in
// ten send() calls, each its own TCP segment (the sockets set TCP_NODELAY), and a request came
// in 512 bytes per recv(). A request and its answer now fit one buffer each, up to this size.
inline constexpr uint32_t kSocketBufferBytes = 64 * 1024;

// The socket under a transport: its descriptor, -1 once closed or when it is not a socket.
class SocketOf {
 public:
  explicit SocketOf(const std::shared_ptr<apache::thrift::transport::TTransport>& transport)
      : socket_(std::dynamic_pointer_cast<apache::thrift::transport::TSocket>(transport)) {}
  int fd() const { return socket_ ? static_cast<int>(socket_->getSocketFD()) : -1; }

 private:
  std::shared_ptr<apache::thrift::transport::TSocket> socket_;
};

// Both transports wait for a request through an ArrivalSpin (arrival_spin.h) when `spin` is not
// null; it must outlive them.
class MessageBufferedTransport : public apache::thrift::transport::TBufferedTransport {
 public:
  MessageBufferedTransport(std::shared_ptr<apache::thrift::transport::TTransport> transport,
                           std::shared_ptr<apache::thrift::TConfiguration> config,
                           ArrivalSpin* spin = nullptr)
      : TBufferedTransport(transport, kSocketBufferBytes, kSocketBufferBytes, config),
        socket_(transport),
        spin_(spin) {}

  uint32_t readSlow(uint8_t* buf, uint32_t len) override {
    // Only an empty buffer makes the base read the socket.
    if (rBase_ != rBound_) return TBufferedTransport::readSlow(buf, len);
    spin_.BeforeBlockingRead(socket_.fd());
    uint32_t got = TBufferedTransport::readSlow(buf, len);
    if (got > 0) spin_.AfterRead();
    return got;
  }

  uint32_t readEnd() override {
    uint32_t bytes = TBufferedTransport::readEnd();
    resetConsumedMessageSize();
    return bytes;
  }

 private:
  SocketOf socket_;
  ConnectionSpin spin_;
};

class MessageFramedTransport : public apache::thrift::transport::TFramedTransport {
 public:
  MessageFramedTransport(std::shared_ptr<apache::thrift::transport::TTransport> transport,
                         std::shared_ptr<apache::thrift::TConfiguration> config,
                         ArrivalSpin* spin = nullptr)
      : TFramedTransport(transport, config), socket_(transport), spin_(spin) {}

 protected:
  bool readFrame() override {
    spin_.BeforeBlockingRead(socket_.fd());
    bool got = TFramedTransport::readFrame();
    if (got) spin_.AfterRead();
    return got;
  }

 public:
  uint32_t readEnd() override {
    uint32_t bytes = TFramedTransport::readEnd();
    resetConsumedMessageSize();
    return bytes;
  }

 private:
  SocketOf socket_;
  ConnectionSpin spin_;
};

}  // namespace basalt::server

#endif  // BASALT_SERVER_THRIFT_MESSAGE_TRANSPORTS_H_
