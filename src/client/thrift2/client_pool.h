// A small pool of Thrift2 clients (one socket each) shared by the threads of one remote
// Connection. A call borrows a client for its length; a client whose connection failed is
// dropped instead of returned, and the next call opens a fresh one. A client idle longer than
// the target's idle_ms is closed rather than reused: the server may have timed it out.
//
// A pooled connection can still turn out dead when it is used (the server restarted, or closed
// it sooner than idle_ms says). A call marked idempotent that fails so on a reused connection is
// sent once more on a fresh one, after the other idle connections, likely dead too, are closed.
// Other calls are not resent: the server may have carried them out before the connection died
// (an Increment would count twice), so their caller sees the IOError.

#ifndef BASALT_CLIENT_THRIFT2_CLIENT_POOL_H_
#define BASALT_CLIENT_THRIFT2_CLIENT_POOL_H_

#include <chrono>
#include <memory>
#include <vector>

#include "basalt/status.h"
#include "client/thrift2/errors.h"
#include "client/thrift2/target.h"
#include "thrift2/gen/THBaseService.h"
#include "util/mutex.h"

namespace basalt::client::remote {

using ThriftClient = ::basalt::thrift2::THBaseServiceClient;

// Thread safety: every method may be called from many threads.
class ClientPool {
 public:
  explicit ClientPool(Thrift2Target target) : target_(std::move(target)) {}
  ~ClientPool();

  const Thrift2Target& target() const { return target_; }

  // Whether sending a call twice does what sending it once does: reads, and scanner opens and
  // closes (an extra scanner expires unused).
  enum class Idempotence { kNo, kYes };

  // Runs `fn(client)`; whatever it throws becomes the returned Status (errors.h). An idempotent
  // call is retried once when a reused connection turns out dead (see the top of this file), so
  // `fn` may run twice. Aborted after Close().
  template <class F>
  Status Call(F&& fn, Idempotence idempotence = Idempotence::kNo) {
    for (bool retried = false;; retried = true) {
      auto client = Acquire(/*fresh=*/retried);
      if (!client.ok()) return client.status();
      try {
        fn((*client)->stub);
      } catch (...) {
        CallFailure failure = TranslateCurrentException();
        if (failure.connection_usable) {
          Release(std::move(*client));
          return failure.status;
        }
        if (idempotence == Idempotence::kNo || retried || !(*client)->reused) {
          return failure.status;
        }
        CloseIdle();
        continue;
      }
      Release(std::move(*client));
      return Status::OK();
    }
  }

  // Closes every idle connection; later calls fail with Aborted.
  void Close();

 private:
  struct PooledClient {
    std::shared_ptr<apache::thrift::transport::TTransport> transport;
    ThriftClient stub;
    std::chrono::steady_clock::time_point idle_since;
    bool reused = false;  // taken from the idle list rather than opened for this call
    PooledClient(std::shared_ptr<apache::thrift::transport::TTransport> t,
                 std::shared_ptr<apache::thrift::protocol::TProtocol> p)
        : transport(std::move(t)), stub(std::move(p)) {}
  };

  // An idle client, or a new connection when there is none or `fresh`.
  Result<std::unique_ptr<PooledClient>> Acquire(bool fresh);
  void Release(std::unique_ptr<PooledClient> client);
  // Closes the idle clients (the pool stays open).
  void CloseIdle();

  const Thrift2Target target_;
  util::Mutex mu_;
  bool closed_ BASALT_GUARDED_BY(mu_) = false;
  std::vector<std::unique_ptr<PooledClient>> idle_ BASALT_GUARDED_BY(mu_);
};

}  // namespace basalt::client::remote

#endif  // BASALT_CLIENT_THRIFT2_CLIENT_POOL_H_
