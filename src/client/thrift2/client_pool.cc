#include "client/thrift2/client_pool.h"

#include <thrift/TConfiguration.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TSocket.h>

namespace basalt::client::remote {

namespace {

// How many idle connections the pool keeps; more are closed when returned.
constexpr size_t kMaxIdleClients = 8;

constexpr uint32_t kBufferBytes = 64 * 1024;

void CloseQuietly(apache::thrift::transport::TTransport& transport) {
  try {
    transport.close();
  } catch (...) {
    // Closing a broken socket can throw; there is nothing left to release.
  }
}

}  // namespace

ClientPool::~ClientPool() {
  Close();
}

Result<std::unique_ptr<ClientPool::PooledClient>> ClientPool::Acquire(bool fresh) {
  std::vector<std::unique_ptr<PooledClient>> stale;
  {
    util::MutexLock lock(mu_);
    if (closed_) return Status::Aborted("the connection is closed");
    if (!fresh && !idle_.empty()) {
      // The newest idle client is at the back: when it has been idle too long, so have all.
      const auto oldest_reusable =
          std::chrono::steady_clock::now() - std::chrono::milliseconds(target_.idle_ms);
      if (idle_.back()->idle_since >= oldest_reusable) {
        auto client = std::move(idle_.back());
        idle_.pop_back();
        client->reused = true;
        return client;
      }
      stale.swap(idle_);
    }
  }
  for (auto& c : stale) CloseQuietly(*c->transport);
  // One transport both writes and reads, and Thrift resets its count of the message-size limit
  // when it sends (flush), so the limit bounds each answer, not the connection's total.
  auto config = std::make_shared<apache::thrift::TConfiguration>(target_.max_message_bytes,
                                                                 target_.max_frame_bytes);
  try {
    auto socket =
        std::make_shared<apache::thrift::transport::TSocket>(target_.host, target_.port, config);
    socket->setConnTimeout(target_.timeout_ms);
    socket->setRecvTimeout(target_.timeout_ms);
    socket->setSendTimeout(target_.timeout_ms);
    socket->setNoDelay(true);
    std::shared_ptr<apache::thrift::transport::TBufferBase> transport;
    if (target_.framed) {
      transport = std::make_shared<apache::thrift::transport::TFramedTransport>(socket, config);
    } else {
      // Thrift's 512-byte default sends a larger call in several TCP segments and reads an
      // answer 512 bytes per recv(); 64 KiB buffers take most calls in one of each.
      transport = std::make_shared<apache::thrift::transport::TBufferedTransport>(
          socket, kBufferBytes, kBufferBytes, config);
    }
    // The protocols are Thrift's, bound to the buffer type rather than to TTransport: they read
    // and write the buffer through inline calls, where through TTransport every field's every
    // byte count was a virtual call (a third of the client's time decoding a 30-row answer).
    // The bytes on the wire are the same.
    std::shared_ptr<apache::thrift::protocol::TProtocol> protocol;
    if (target_.compact) {
      protocol = std::make_shared<
          apache::thrift::protocol::TCompactProtocolT<apache::thrift::transport::TBufferBase>>(
          transport);
    } else {
      protocol = std::make_shared<
          apache::thrift::protocol::TBinaryProtocolT<apache::thrift::transport::TBufferBase>>(
          transport);
    }
    transport->open();
    return std::make_unique<PooledClient>(transport, protocol);
  } catch (...) {
    return TranslateCurrentException().status.WithContext("connecting to " + target_.ToString());
  }
}

void ClientPool::Release(std::unique_ptr<PooledClient> client) {
  {
    util::MutexLock lock(mu_);
    if (!closed_ && idle_.size() < kMaxIdleClients) {
      client->idle_since = std::chrono::steady_clock::now();
      idle_.push_back(std::move(client));
      return;
    }
  }
  CloseQuietly(*client->transport);
}

void ClientPool::CloseIdle() {
  std::vector<std::unique_ptr<PooledClient>> idle;
  {
    util::MutexLock lock(mu_);
    idle.swap(idle_);
  }
  for (auto& c : idle) CloseQuietly(*c->transport);
}

void ClientPool::Close() {
  std::vector<std::unique_ptr<PooledClient>> idle;
  {
    util::MutexLock lock(mu_);
    closed_ = true;
    idle.swap(idle_);
  }
  for (auto& c : idle) CloseQuietly(*c->transport);
}

}  // namespace basalt::client::remote
