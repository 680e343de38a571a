// A small pool of Thrift2 clients (one socket each) shared by the threads of one remote
// Connection. A call borrows a client for its length; a client whose connection failed is
// dropped instead of returned, and the next call opens a fresh one. A client idle longer than
// the target's idle_ms is closed rather than reused: the server may have timed it out.

#ifndef BASALT_CLIENT_THRIFT2_CLIENT_POOL_H_
#define BASALT_CLIENT_THRIFT2_CLIENT_POOL_H_

#include <chrono>
#include <memory>
#include <mutex>
#include <vector>

#include "basalt/status.h"
#include "client/thrift2/errors.h"
#include "client/thrift2/target.h"
#include "thrift2/gen/THBaseService.h"

namespace basalt::client::remote {

using ThriftClient = ::basalt::thrift2::THBaseServiceClient;

// Thread safety: every method may be called from many threads.
class ClientPool {
 public:
  explicit ClientPool(Thrift2Target target) : target_(std::move(target)) {}
  ~ClientPool();

  const Thrift2Target& target() const { return target_; }

  // Runs `fn(client)`; whatever it throws becomes the returned Status (errors.h).
  // Aborted after Close().
  template <class F>
  Status Call(F&& fn) {
    auto client = Acquire();
    if (!client.ok()) return client.status();
    try {
      fn((*client)->stub);
    } catch (...) {
      CallFailure failure = TranslateCurrentException();
      if (failure.connection_usable) Release(std::move(*client));
      return failure.status;
    }
    Release(std::move(*client));
    return Status::OK();
  }

  // Closes every idle connection; later calls fail with Aborted.
  void Close();

 private:
  struct PooledClient {
    std::shared_ptr<apache::thrift::transport::TTransport> transport;
    ThriftClient stub;
    std::chrono::steady_clock::time_point idle_since;
    PooledClient(std::shared_ptr<apache::thrift::transport::TTransport> t,
                 std::shared_ptr<apache::thrift::protocol::TProtocol> p)
        : transport(std::move(t)), stub(std::move(p)) {}
  };

  Result<std::unique_ptr<PooledClient>> Acquire();
  void Release(std::unique_ptr<PooledClient> client);

  const Thrift2Target target_;
  std::mutex mu_;
  bool closed_ = false;
  std::vector<std::unique_ptr<PooledClient>> idle_;
};

}  // namespace basalt::client::remote

#endif  // BASALT_CLIENT_THRIFT2_CLIENT_POOL_H_
