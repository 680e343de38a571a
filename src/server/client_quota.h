// ClientQuota: counts a resource that clients hold (scanners, connections) in all and per client,
// and refuses one more beyond either cap, so that no single client can take what every other
// client needs. A client is whatever the caller names it: the servers use the peer's IP address,
// the only identity a credential-less protocol has (so clients behind one address, or all local
// clients on loopback, share one per-client cap).
//
// Thread safety: every method may be called from many threads.

#ifndef BASALT_SERVER_CLIENT_QUOTA_H_
#define BASALT_SERVER_CLIENT_QUOTA_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>

#include "basalt/status.h"
#include "util/mutex.h"

namespace basalt::server {

class ClientQuota {
 public:
  // `what` names the resource in errors ("scanners"). A cap of 0 means no cap.
  ClientQuota(std::string what, size_t max_total, size_t max_per_client)
      : what_(std::move(what)), max_total_(max_total), max_per_client_(max_per_client) {}

  ClientQuota(const ClientQuota&) = delete;
  ClientQuota& operator=(const ClientQuota&) = delete;

  // Takes one unit for `client`; Busy, naming the cap that was reached, when it would exceed
  // either cap (nothing is taken then). Each OK must be matched by one Release.
  Status Acquire(std::string_view client);
  // Gives back one unit of `client`. REQUIRES: a matching Acquire.
  void Release(std::string_view client);

  size_t total() const;
  size_t held_by(std::string_view client) const;

 private:
  const std::string what_;
  const size_t max_total_;
  const size_t max_per_client_;
  mutable util::Mutex mu_;
  size_t total_ BASALT_GUARDED_BY(mu_) = 0;
  std::unordered_map<std::string, size_t> held_ BASALT_GUARDED_BY(mu_);  // no zero entries
};

}  // namespace basalt::server

#endif  // BASALT_SERVER_CLIENT_QUOTA_H_
