// The connections a socket server (event_server.h) holds, by client address: admitting or
// refusing a new one, making room for it when the server is full, closing those idle past the
// timeout, and keeping the bytes held for connections (requests not yet complete, answers not
// yet sent) under a cap.
//
// The table never closes a socket itself: it marks a connection closing and shuts its socket
// down (shutdown(2)), which wakes whichever thread serves the connection; that thread removes it
// from the table and closes it. So a socket the table knows is always open.
//
// Caps, when reached:
// - a client at its share of connections: the new connection is refused;
// - the server full: the new connection takes the place of the connection idle longest of the
//   client holding the most (the newcomer's own client included; among clients holding as many,
//   the one idle longest of the first few), that connection being closed; refused only if that
//   client's every connection is in a call;
// - the bytes held past their cap: the connection holding the most is closed (as Redis's
//   maxmemory-clients).
// "Idle" counts from the last complete request (or the connection's start): a connection that
// sends a byte now and then but never a request is idle.
//
// Thread safety: every method from any thread; the connection's atomics from any thread.

#ifndef BASALT_SERVER_NET_CONNECTION_TABLE_H_
#define BASALT_SERVER_NET_CONNECTION_TABLE_H_

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "basalt/status.h"
#include "util/mutex.h"

namespace basalt::server {

// Nanoseconds of the steady clock.
int64_t SteadyNowNs();

// What the table knows of one connection. The serving thread owns everything else.
class TrackedConnection {
 public:
  TrackedConnection(int fd, std::string client) : fd_(fd), client_(std::move(client)) {
    const int64_t now = SteadyNowNs();
    last_request_ns.store(now, std::memory_order_relaxed);
    last_io_ns.store(now, std::memory_order_relaxed);
  }
  TrackedConnection(const TrackedConnection&) = delete;
  TrackedConnection& operator=(const TrackedConnection&) = delete;

  int fd() const { return fd_; }
  const std::string& client() const { return client_; }
  // Set by the table: the serving thread closes the connection once it sees it.
  bool closing() const { return closing_.load(); }

  // The last complete request (or the start), for shedding.
  std::atomic<int64_t> last_request_ns;
  // The last byte read or written, for the idle timeout.
  std::atomic<int64_t> last_io_ns;
  // A thread is serving the connection (reading, in a call, writing). Sequentially consistent,
  // as closing() (see ConnectionTable::CloseAll).
  std::atomic<bool> busy{false};

 private:
  friend class ConnectionTable;
  const int fd_;
  const std::string client_;
  std::atomic<bool> closing_{false};
  // The table's, under its mutex.
  bool counted_ = false;               // holds a place in the caps
  size_t index_in_client_ = 0;         // in its client's list, while counted
  size_t buffered_ = 0;                // bytes held, as last reported
  TrackedConnection* prev_ = nullptr;  // every connection in the table, closing ones too
  TrackedConnection* next_ = nullptr;
};

class ConnectionTable {
 public:
  // `server` names the server in log lines ("thrift2"). A cap of 0 means none.
  ConnectionTable(std::string server, size_t max_connections, size_t max_per_client,
                  size_t max_buffered_bytes);
  ~ConnectionTable();

  ConnectionTable(const ConnectionTable&) = delete;
  ConnectionTable& operator=(const ConnectionTable&) = delete;

  // Takes `conn` in, making room as the header says; Busy naming the cap when it is refused
  // (then the table does not hold it). While stopping, every connection is refused.
  Status Admit(TrackedConnection* conn);
  // Gives back everything `conn` held. REQUIRES: admitted; called once, by the serving thread,
  // before the socket is closed.
  void Remove(TrackedConnection* conn);

  // `conn` now holds `bytes` of unfinished requests and unsent answers. When every
  // connection's bytes add up past the cap, closes the connection holding the most.
  void NoteBuffered(TrackedConnection* conn, size_t bytes);

  // Closes the connections not being served that had no byte in or out for `idle`, or no
  // complete request for twice `idle`: a client trickling bytes of a request it never completes
  // (a slow loris) holds its connection that long at most, while a pooled connection that calls
  // now and then, or one receiving a long answer, is not cut.
  void CloseIdle(std::chrono::nanoseconds idle);
  // Refuses new connections from now on and closes every connection not being served; with
  // `even_busy`, those being served too (their thread closes them once their call returns).
  void CloseAll(bool even_busy);
  // Waits until the table is empty or `deadline` passes; whether it is empty.
  bool WaitEmpty(std::chrono::steady_clock::time_point deadline);

  size_t size() const;
  size_t held_by(const std::string& client) const;
  size_t buffered_bytes() const;
  // Connections closed to make room for new ones, and for the bytes cap, since the start.
  uint64_t shed() const;

 private:
  struct Client {
    std::string address;
    std::vector<TrackedConnection*> conns;  // counted ones
  };
  // Clients by their count, most first.
  struct ByCount {
    bool operator()(const std::pair<size_t, Client*>& a,
                    const std::pair<size_t, Client*>& b) const {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    }
  };

  // Marks `conn` closing and shuts its socket down.
  void CloseLocked(TrackedConnection* conn) BASALT_REQUIRES(mu_);
  // Drops `conn` from the caps (it stays listed until Remove).
  void UncountLocked(TrackedConnection* conn) BASALT_REQUIRES(mu_);
  // The connection to close to admit one more from `newcomer`; null if none.
  TrackedConnection* VictimLocked(const std::string& newcomer) BASALT_REQUIRES(mu_);
  void SetCountLocked(Client* client, size_t from, size_t to) BASALT_REQUIRES(mu_);
  // Logs at most one line a second for each kind.
  void LogRateLimited(std::atomic<int64_t>& last, std::atomic<uint64_t>& suppressed,
                      const std::string& line);

  const std::string server_;
  const size_t max_connections_;
  const size_t max_per_client_;
  const size_t max_buffered_bytes_;

  mutable util::Mutex mu_;
  util::CondVar empty_cv_;
  bool stopping_ BASALT_GUARDED_BY(mu_) = false;
  size_t counted_ BASALT_GUARDED_BY(mu_) = 0;
  size_t listed_ BASALT_GUARDED_BY(mu_) = 0;
  size_t buffered_ BASALT_GUARDED_BY(mu_) = 0;
  TrackedConnection* head_ BASALT_GUARDED_BY(mu_) = nullptr;
  std::unordered_map<std::string, Client> clients_ BASALT_GUARDED_BY(mu_);  // no empty ones
  std::set<std::pair<size_t, Client*>, ByCount> by_count_ BASALT_GUARDED_BY(mu_);
  std::atomic<uint64_t> shed_{0};

  std::atomic<int64_t> last_refusal_log_ns_{0};
  std::atomic<uint64_t> refusals_unlogged_{0};
  std::atomic<int64_t> last_shed_log_ns_{0};
  std::atomic<uint64_t> sheds_unlogged_{0};
};

}  // namespace basalt::server

#endif  // BASALT_SERVER_NET_CONNECTION_TABLE_H_
