// The in-memory transports a Thrift server's processor reads one request from and writes its
// answers into: the server reads a request whole off the socket first (thrift_connection.h), so
// the generated processor never waits on a socket, and answers are sent once, several at a time.
//
// Both are buffers (TBufferBase), so the server's protocols (growing_protocol.h) read and write
// them through inline calls.

#ifndef BASALT_SERVER_THRIFT_MESSAGE_TRANSPORTS_H_
#define BASALT_SERVER_THRIFT_MESSAGE_TRANSPORTS_H_

#include <thrift/TConfiguration.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TTransportException.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>

namespace basalt::server {

// Reads the bytes of one request, which stay the caller's. Reading past them is Thrift's
// end-of-file error ("No more data to read"), as a closed socket's would be.
class RequestTransport
    : public apache::thrift::transport::TVirtualTransport<RequestTransport,
                                                          apache::thrift::transport::TBufferBase> {
 public:
  // `config` gives the message-size limit counted while reading.
  explicit RequestTransport(std::shared_ptr<apache::thrift::TConfiguration> config)
      : TVirtualTransport(std::move(config)) {}

  // The request now read: `size` bytes at `data`, which must outlive the reading.
  void Reset(const uint8_t* data, size_t size) {
    setReadBuffer(const_cast<uint8_t*>(data), static_cast<uint32_t>(size));
    resetConsumedMessageSize();
  }
  // What of the request has not been read.
  size_t remaining() const { return static_cast<size_t>(rBound_ - rBase_); }

  bool isOpen() const override { return true; }
  void open() override {}
  void close() override {}

 protected:
  uint32_t readSlow(uint8_t* buf, uint32_t len) override {
    const uint32_t n = std::min(len, static_cast<uint32_t>(rBound_ - rBase_));
    std::memcpy(buf, rBase_, n);
    rBase_ += n;
    return n;
  }
  void writeSlow(const uint8_t*, uint32_t) override {
    throw apache::thrift::transport::TTransportException(
        apache::thrift::transport::TTransportException::BAD_ARGS, "a request is read only");
  }
  const uint8_t* borrowSlow(uint8_t*, uint32_t*) override { return nullptr; }
};

// Collects answers, one after another, in a buffer that grows as they are written.
class AnswerTransport
    : public apache::thrift::transport::TVirtualTransport<AnswerTransport,
                                                          apache::thrift::transport::TBufferBase> {
 public:
  AnswerTransport() { Grow(kInitialBytes); }

  const uint8_t* data() const { return buf_.get(); }
  uint8_t* mutable_data() { return buf_.get(); }
  size_t size() const { return static_cast<size_t>(wBase_ - buf_.get()); }
  // Keeps the first `size` bytes.
  void Truncate(size_t size) { wBase_ = buf_.get() + size; }
  // Empties the buffer; one grown past kKeptBytes (a large answer) gives its memory back.
  void Clear() {
    if (capacity_ > kKeptBytes) {
      buf_.reset();
      capacity_ = 0;
      Grow(kInitialBytes);
    }
    wBase_ = buf_.get();
  }

  bool isOpen() const override { return true; }
  void open() override {}
  void close() override {}

 protected:
  uint32_t readSlow(uint8_t*, uint32_t) override { return 0; }
  void writeSlow(const uint8_t* buf, uint32_t len) override {
    const size_t used = size();
    if (used + len > capacity_) Grow(std::max(capacity_ * 2, used + len));
    std::memcpy(wBase_, buf, len);
    wBase_ += len;
  }
  const uint8_t* borrowSlow(uint8_t*, uint32_t*) override { return nullptr; }

 private:
  static constexpr size_t kInitialBytes = 64 * 1024;
  static constexpr size_t kKeptBytes = 1024 * 1024;

  void Grow(size_t capacity) {
    const size_t used = buf_ ? size() : 0;
    std::unique_ptr<uint8_t[]> bigger(new uint8_t[capacity]);
    if (used > 0) std::memcpy(bigger.get(), buf_.get(), used);
    buf_ = std::move(bigger);
    capacity_ = capacity;
    setWriteBuffer(buf_.get() + used, static_cast<uint32_t>(capacity_ - used));
  }

  std::unique_ptr<uint8_t[]> buf_;
  size_t capacity_ = 0;
};

}  // namespace basalt::server

#endif  // BASALT_SERVER_THRIFT_MESSAGE_TRANSPORTS_H_
