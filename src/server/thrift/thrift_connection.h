// One connection of an event-driven Thrift server (thrift_server.h), and what a serving thread
// lends it while it serves it: Thrift's side of the EventServer (server/net/event_server.h).
//
// A connection holds no thread. When its socket is ready, one of the server's threads serves it
// (ThriftConnection::Serve): reads what has arrived without blocking, finds each complete request
// in it (a frame's length, or, buffered, the walk of message_scanner.h), runs the generated
// processor on the request's bytes in memory, and sends every answer of that read in one send;
// then it leaves, and the connection waits in epoll again. Several requests read at once
// (pipelined) are answered in one write. What has not arrived of a request, or could not be sent
// of the answers, stays in the connection's own buffers, which are empty (and hold no memory)
// while it is idle; while answers wait to be sent the connection reads no more requests.
//
// Thread safety: Serve from one thread at a time (the server's epoll hands a ready connection to
// one thread); TrackedConnection's parts from any.

#ifndef BASALT_SERVER_THRIFT_THRIFT_CONNECTION_H_
#define BASALT_SERVER_THRIFT_THRIFT_CONNECTION_H_

#include <thrift/TConfiguration.h>
#include <thrift/TProcessor.h>
#include <thrift/protocol/TProtocol.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "server/net/arrival_spin.h"
#include "server/net/connection_table.h"
#include "server/net/event_server.h"
#include "server/thrift/message_scanner.h"
#include "server/thrift/message_transports.h"

namespace basalt::server {

// What every connection of one server shares; it outlives them.
struct ConnectionSetup {
  // The server's name in log lines ("thrift2").
  std::string server;
  bool framed = false;
  bool compact = false;
  MessageCaps caps;
  int32_t max_frame_bytes = 0;
  // Makes the connection's processor (and so its handler) at its first request.
  apache::thrift::TProcessorFactory* processors = nullptr;
  // May be null: no polling for the next request.
  ArrivalSpin* spin = nullptr;
  // The message-size limit of the request transport.
  std::shared_ptr<apache::thrift::TConfiguration> config;
  // Makes a protocol on a transport (growing_protocol.h).
  std::shared_ptr<apache::thrift::protocol::TProtocolFactory> protocols;
  // Counts the sends that carry answers (ThriftServer::answer_writes). Never null.
  std::atomic<uint64_t>* answer_writes = nullptr;
};

// What one serving thread lends the connection it serves: the bytes read, the transports and
// protocols a request is decoded from and its answers encoded into.
class ServingThread : public ServingThreadState {
 public:
  explicit ServingThread(const ConnectionSetup& setup);

  // The most bytes one read takes from a socket.
  static constexpr size_t kReadBytes = 64 * 1024;

 private:
  friend class ThriftConnection;
  std::unique_ptr<uint8_t[]> read_buffer_;
  std::shared_ptr<RequestTransport> request_;
  std::shared_ptr<AnswerTransport> answers_;
  std::shared_ptr<apache::thrift::protocol::TProtocol> in_;
  std::shared_ptr<apache::thrift::protocol::TProtocol> out_;
};

class ThriftConnection : public ServedConnection {
 public:
  // `fd`: the accepted socket, non-blocking; `client`: the peer's address; `table`: the server's
  // connections, told the bytes this one holds.
  ThriftConnection(int fd, std::string client, const ConnectionSetup& setup,
                   ConnectionTable& table);
  ~ThriftConnection() override;

  // Serves what the socket has (see the header comment). `thread`: a ServingThread.
  Next Serve(ServingThreadState& thread) override;

 private:
  // Bytes the connection keeps between turns: the start of a request, or answers not yet sent.
  class Held {
   public:
    const uint8_t* data() const { return data_.get() + start_; }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    size_t capacity() const { return capacity_; }
    // Room for `n` more bytes at the end; returns where they go (see Added).
    uint8_t* Reserve(size_t n);
    void Added(size_t n) { size_ += n; }
    void Append(const uint8_t* p, size_t n) {
      std::memcpy(Reserve(n), p, n);
      Added(n);
    }
    // Drops the first `n` bytes; an emptied buffer gives its memory back.
    void Consume(size_t n);

   private:
    std::unique_ptr<uint8_t[]> data_;
    size_t start_ = 0;
    size_t size_ = 0;
    size_t capacity_ = 0;
  };

  enum class Answered { kAll, kSendBlocked, kClose };
  // Answers the complete requests at the start of `data` (`size` bytes from a request's start);
  // `*used` is set to the bytes of those answered.
  Answered AnswerRequests(ServingThread& thread, const uint8_t* data, size_t size, size_t* used);
  // Runs the processor on one request; false when the connection must close.
  bool Process(ServingThread& thread, const uint8_t* request, size_t size);
  // Sends what the thread's answer buffer holds, keeping in unsent_ what the socket does not
  // take now; false when the socket failed.
  bool SendAnswers(ServingThread& thread);
  // Sends unsent_; whether it is all sent (`*failed` when the socket failed).
  bool SendUnsent(bool* failed);
  // Reports the bytes held to the table, when they changed.
  void ReportHeld();

  const ConnectionSetup& setup_;
  ConnectionTable& table_;
  std::shared_ptr<apache::thrift::TProcessor> processor_;  // from the first request on
  MessageScanner scanner_;
  Held unread_;  // the start of a request not yet complete (or requests not yet answered)
  Held unsent_;  // answers the socket did not take yet
  // unread_ starts with complete requests, left unanswered until unsent_ drains.
  bool answers_waiting_ = false;
  size_t reported_held_ = 0;
};

}  // namespace basalt::server

#endif  // BASALT_SERVER_THRIFT_THRIFT_CONNECTION_H_
