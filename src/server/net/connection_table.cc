#include "server/net/connection_table.h"

#include <sys/socket.h>

#include <spdlog/spdlog.h>

namespace basalt::server {

namespace {

// Clients holding as many connections as the most, looked at for the one idle longest: enough to
// find an old one among equals, few enough that a full server admits in bounded time.
constexpr size_t kTiedClientsLookedAt = 8;

}  // namespace

int64_t SteadyNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

ConnectionTable::ConnectionTable(std::string server, size_t max_connections, size_t max_per_client,
                                 size_t max_buffered_bytes)
    : server_(std::move(server)),
      max_connections_(max_connections),
      max_per_client_(max_per_client),
      max_buffered_bytes_(max_buffered_bytes) {}

ConnectionTable::~ConnectionTable() = default;

void ConnectionTable::SetCountLocked(Client* client, size_t from, size_t to) {
  if (from > 0) by_count_.erase({from, client});
  if (to > 0) by_count_.insert({to, client});
}

void ConnectionTable::UncountLocked(TrackedConnection* conn) {
  if (!conn->counted_) return;
  conn->counted_ = false;
  --counted_;
  buffered_ -= conn->buffered_;
  conn->buffered_ = 0;
  auto it = clients_.find(conn->client_);
  Client& client = it->second;
  const size_t before = client.conns.size();
  TrackedConnection* last = client.conns.back();
  client.conns[conn->index_in_client_] = last;
  last->index_in_client_ = conn->index_in_client_;
  client.conns.pop_back();
  SetCountLocked(&client, before, before - 1);
  if (client.conns.empty()) clients_.erase(it);
}

void ConnectionTable::CloseLocked(TrackedConnection* conn) {
  conn->closing_.store(true);
  // Wakes the thread serving it (or the next to poll it): its read sees the end.
  ::shutdown(conn->fd_, SHUT_RDWR);
  UncountLocked(conn);
}

TrackedConnection* ConnectionTable::VictimLocked(const std::string& newcomer) {
  auto own = clients_.find(newcomer);
  const size_t own_count = own == clients_.end() ? 1 : own->second.conns.size() + 1;
  const size_t top = std::max(own_count, by_count_.empty() ? 0 : by_count_.begin()->first);
  std::vector<Client*> candidates;
  if (own != clients_.end() && own_count == top) candidates.push_back(&own->second);
  for (auto it = by_count_.begin();
       it != by_count_.end() && it->first == top && candidates.size() < kTiedClientsLookedAt;
       ++it) {
    if (candidates.empty() || it->second != candidates.front()) candidates.push_back(it->second);
  }
  TrackedConnection* victim = nullptr;
  int64_t oldest = 0;
  for (Client* client : candidates) {
    for (TrackedConnection* c : client->conns) {
      if (c->busy.load(std::memory_order_acquire)) continue;
      const int64_t at = c->last_request_ns.load(std::memory_order_relaxed);
      if (victim == nullptr || at < oldest) {
        victim = c;
        oldest = at;
      }
    }
  }
  return victim;
}

Status ConnectionTable::Admit(TrackedConnection* conn) {
  std::string shed_line;
  Status refused;
  {
    util::MutexLock lock(mu_);
    if (stopping_) return Status::Busy("the server is stopping");
    auto it = clients_.find(conn->client_);
    const size_t held = it == clients_.end() ? 0 : it->second.conns.size();
    if (max_per_client_ > 0 && held >= max_per_client_) {
      refused = Status::Busy("too many connections for client " + conn->client_ + " (at most " +
                             std::to_string(max_per_client_) + " per client)");
    } else if (max_connections_ > 0 && counted_ >= max_connections_) {
      TrackedConnection* victim = VictimLocked(conn->client_);
      if (victim == nullptr) {
        refused = Status::Busy("too many connections on this server (at most " +
                               std::to_string(max_connections_) +
                               ", and those of the clients holding the most are all in calls)");
      } else {
        shed_line = "closed the connection idle longest of client " + victim->client_ +
                    " (of the " + std::to_string(clients_[victim->client_].conns.size()) +
                    " it held; the server holds at most " + std::to_string(max_connections_) +
                    ") to admit one from " + conn->client_;
        CloseLocked(victim);
        shed_.fetch_add(1, std::memory_order_relaxed);
      }
    }
    if (refused.ok()) {
      Client& client = clients_[conn->client_];
      if (client.address.empty()) client.address = conn->client_;
      const size_t before = client.conns.size();
      conn->index_in_client_ = before;
      client.conns.push_back(conn);
      SetCountLocked(&client, before, before + 1);
      conn->counted_ = true;
      ++counted_;
      conn->prev_ = nullptr;
      conn->next_ = head_;
      if (head_ != nullptr) head_->prev_ = conn;
      head_ = conn;
      ++listed_;
    }
  }
  if (!shed_line.empty()) LogRateLimited(last_shed_log_ns_, sheds_unlogged_, shed_line);
  if (!refused.ok()) {
    LogRateLimited(last_refusal_log_ns_, refusals_unlogged_,
                   "closed a new connection: " + refused.message());
  }
  return refused;
}

void ConnectionTable::Remove(TrackedConnection* conn) {
  util::MutexLock lock(mu_);
  UncountLocked(conn);
  if (conn->prev_ != nullptr) conn->prev_->next_ = conn->next_;
  if (conn->next_ != nullptr) conn->next_->prev_ = conn->prev_;
  if (head_ == conn) head_ = conn->next_;
  conn->prev_ = conn->next_ = nullptr;
  if (--listed_ == 0) empty_cv_.NotifyAll();
}

void ConnectionTable::NoteBuffered(TrackedConnection* conn, size_t bytes) {
  std::string shed_line;
  {
    util::MutexLock lock(mu_);
    if (!conn->counted_) return;
    buffered_ = buffered_ - conn->buffered_ + bytes;
    conn->buffered_ = bytes;
    if (max_buffered_bytes_ == 0 || buffered_ <= max_buffered_bytes_) return;
    TrackedConnection* victim = nullptr;
    for (TrackedConnection* c = head_; c != nullptr; c = c->next_) {
      if (c->counted_ && (victim == nullptr || c->buffered_ > victim->buffered_)) victim = c;
    }
    shed_line = "closed a connection of client " + victim->client_ + " holding " +
                std::to_string(victim->buffered_) + " bytes: connections held " +
                std::to_string(buffered_) + " bytes of requests and answers (at most " +
                std::to_string(max_buffered_bytes_) + ")";
    CloseLocked(victim);
    shed_.fetch_add(1, std::memory_order_relaxed);
  }
  LogRateLimited(last_shed_log_ns_, sheds_unlogged_, shed_line);
}

void ConnectionTable::CloseIdle(std::chrono::nanoseconds idle) {
  const int64_t now = SteadyNowNs();
  const int64_t no_io_before = now - idle.count();
  const int64_t no_request_before = now - 2 * idle.count();
  util::MutexLock lock(mu_);
  for (TrackedConnection* c = head_; c != nullptr; c = c->next_) {
    if (c->closing() || c->busy.load(std::memory_order_acquire)) continue;
    if (c->last_io_ns.load(std::memory_order_relaxed) < no_io_before ||
        c->last_request_ns.load(std::memory_order_relaxed) < no_request_before) {
      CloseLocked(c);
    }
  }
}

void ConnectionTable::CloseAll(bool even_busy) {
  util::MutexLock lock(mu_);
  stopping_ = true;
  for (TrackedConnection* c = head_; c != nullptr; c = c->next_) {
    // closing_ before busy, as the serving thread clears busy before it reads closing_ (both
    // sequentially consistent): one of the two sees the other, so a connection whose call ends
    // now is either shut down here or closed by its thread.
    const bool was_closing = c->closing_.exchange(true);
    if (even_busy || (!was_closing && !c->busy.load())) ::shutdown(c->fd_, SHUT_RDWR);
    UncountLocked(c);
  }
}

bool ConnectionTable::WaitEmpty(std::chrono::steady_clock::time_point deadline) {
  util::MutexLock lock(mu_);
  while (listed_ != 0) {
    if (!empty_cv_.WaitUntil(mu_, deadline)) return listed_ == 0;
  }
  return true;
}

size_t ConnectionTable::size() const {
  util::MutexLock lock(mu_);
  return counted_;
}

size_t ConnectionTable::held_by(const std::string& client) const {
  util::MutexLock lock(mu_);
  auto it = clients_.find(client);
  return it == clients_.end() ? 0 : it->second.conns.size();
}

size_t ConnectionTable::buffered_bytes() const {
  util::MutexLock lock(mu_);
  return buffered_;
}

uint64_t ConnectionTable::shed() const {
  return shed_.load(std::memory_order_relaxed);
}

void ConnectionTable::LogRateLimited(std::atomic<int64_t>& last, std::atomic<uint64_t>& suppressed,
                                     const std::string& line) {
  const int64_t now = SteadyNowNs();
  int64_t prev = last.load(std::memory_order_relaxed);
  if (now - prev < 1'000'000'000 || !last.compare_exchange_strong(prev, now)) {
    suppressed.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  const uint64_t others = suppressed.exchange(0, std::memory_order_relaxed);
  if (others > 0) {
    spdlog::warn("{}: {} (and {} more like it in the last second)", server_, line, others);
  } else {
    spdlog::warn("{}: {}", server_, line);
  }
}

}  // namespace basalt::server
