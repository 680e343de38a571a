// A client of HBase's native RPC that speaks it in raw frames, for tests that need one connection
// per thread or thousands of them: the preamble and connection header as HBase's client sends
// them, calls written without waiting for their answers (pipelined), answers read one at a time.

#ifndef BASALT_TESTS_SUPPORT_RAW_RPC_CLIENT_H_
#define BASALT_TESTS_SUPPORT_RAW_RPC_CLIENT_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include <google/protobuf/message_lite.h>

#include "hbase_proto/proto/RPC.pb.h"

namespace basalt::testing {

// A TCP connection to 127.0.0.1:`port`; -1 when it cannot be made.
int ConnectToLoopback(int port);

class RawRpcClient {
 public:
  // Takes `fd` (a connected socket, or -1: then ok() is false) and sets up a connection of
  // `service` (ClientService, MasterService...) with the KeyValue cell codec. A read waits at most
  // `timeout`.
  RawRpcClient(int fd, const std::string& service, std::chrono::seconds timeout);
  ~RawRpcClient();
  RawRpcClient(const RawRpcClient&) = delete;
  RawRpcClient& operator=(const RawRpcClient&) = delete;

  // Whether the connection was made and its header sent.
  bool ok() const { return ok_; }

  // Writes `bytes` whole; false when the connection failed.
  bool Send(const std::string& bytes);
  // Writes call `id` of `method` with `request`.
  bool Call(uint32_t id, const std::string& method, const google::protobuf::MessageLite& request);
  // The next answer: its header, and its message's bytes (empty when it has none). False when
  // the connection closed or the read timed out.
  bool Read(::hbase::pb::ResponseHeader* header, std::string* message);

 private:
  bool ReadExactly(uint8_t* out, size_t n);

  const int fd_;
  bool ok_ = false;
};

}  // namespace basalt::testing

#endif  // BASALT_TESTS_SUPPORT_RAW_RPC_CLIENT_H_
