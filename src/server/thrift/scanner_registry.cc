#include "server/thrift/scanner_registry.h"

#include <algorithm>
#include <iterator>
#include <vector>

#include "util/secure_random.h"

namespace basalt::server {

namespace {

// Draws until one is free: with at most a few thousand of 2^31 ids open, a second draw is rare
// and a sixty-fourth never happens unless the OS's generator is broken.
constexpr int kMostIdDraws = 64;

}  // namespace

Result<int32_t> ScannerRegistry::NewIdLocked() const {
  for (int draw = 0; draw < kMostIdDraws; ++draw) {
    uint32_t bits = 0;
    BASALT_RETURN_IF_ERROR(
        util::FillSecureRandom(&bits, sizeof(bits)).WithContext("cannot draw a scanner id"));
    // Positive: Thrift's ids are i32, and some clients take 0 or a negative id for "none".
    auto id = static_cast<int32_t>(bits & 0x7fffffffu);
    if (id != 0 && scanners_.find(id) == scanners_.end()) return id;
  }
  return Status::IOError("cannot draw a free scanner id");
}

Status ScannerRegistry::AdmitLocked(const std::string& client, std::shared_ptr<Entry>* evicted) {
  auto mine = by_client_.find(client);
  const size_t held = mine == by_client_.end() ? 0 : mine->second.size();
  if (max_scanners_per_client_ > 0 && held >= max_scanners_per_client_) {
    return Status::Busy("too many open scanners for client " + client + " (at most " +
                        std::to_string(max_scanners_per_client_) +
                        " per client); close some or retry later");
  }
  if (max_scanners_ == 0 || scanners_.size() < max_scanners_) return Status::OK();
  // Full: a client holding the most gives up its idlest scanner to a client that holds none, or
  // two fewer (one fewer would only move the imbalance from one to the other). Among clients
  // holding as many, the idlest scanner of theirs goes.
  size_t most = 0;
  for (const auto& [owner, ids] : by_client_) most = std::max(most, ids.size());
  if (most <= held || (held > 0 && most < held + 2)) {
    return Status::Busy("too many open scanners on this server (at most " +
                        std::to_string(max_scanners_) + "), and client " + client + " holds " +
                        std::to_string(held) +
                        ", as many as the server can share out; close some or retry later");
  }
  auto idlest = scanners_.end();
  for (const auto& [owner, ids] : by_client_) {
    if (ids.size() != most) continue;
    for (int32_t id : ids) {
      auto it = scanners_.find(id);
      if (idlest == scanners_.end() || it->second->last_access < idlest->second->last_access) {
        idlest = it;
      }
    }
  }
  *evicted = EraseLocked(idlest);
  return Status::OK();
}

Result<int32_t> ScannerRegistry::Add(std::string_view client, std::unique_ptr<Table> table,
                                     std::unique_ptr<ResultScanner> scanner, bool sort_columns) {
  auto entry = std::make_shared<Entry>();
  entry->table = std::move(table);
  entry->scanner = std::move(scanner);
  entry->client = std::string(client);
  entry->sort_columns = sort_columns;
  // Destroyed (closing the scanner) after the lock is released, as `entry` is when refused.
  std::shared_ptr<Entry> evicted;
  util::MutexLock lock(mu_);
  BASALT_ASSIGN_OR_RETURN(int32_t id, NewIdLocked());
  BASALT_RETURN_IF_ERROR(AdmitLocked(entry->client, &evicted));
  entry->last_access = Clock::now();
  by_client_[entry->client].insert(id);
  scanners_.emplace(id, std::move(entry));
  return id;
}

std::shared_ptr<ScannerRegistry::Entry> ScannerRegistry::EraseLocked(EntryMap::iterator it) {
  std::shared_ptr<Entry> entry = std::move(it->second);
  auto owner = by_client_.find(entry->client);
  owner->second.erase(it->first);
  if (owner->second.empty()) by_client_.erase(owner);
  scanners_.erase(it);
  return entry;
}

std::shared_ptr<ScannerRegistry::Entry> ScannerRegistry::Find(int32_t id, std::string_view client) {
  std::shared_ptr<Entry> expired;  // destroyed (closing the scanner) after the lock is released
  util::MutexLock lock(mu_);
  auto it = scanners_.find(id);
  if (it == scanners_.end() || it->second->client != client) return nullptr;
  Clock::time_point now = Clock::now();
  if (now - it->second->last_access > idle_timeout_) {
    expired = EraseLocked(it);
    return nullptr;
  }
  it->second->last_access = now;
  return it->second;
}

bool ScannerRegistry::Remove(int32_t id, std::string_view client) {
  std::shared_ptr<Entry> entry;
  {
    util::MutexLock lock(mu_);
    auto it = scanners_.find(id);
    if (it == scanners_.end() || it->second->client != client) return false;
    entry = EraseLocked(it);
  }
  // Destroyed (closing the scanner) outside the registry lock, after any call using it.
  return true;
}

void ScannerRegistry::ExpireIdle() {
  std::vector<std::shared_ptr<Entry>> expired;
  {
    util::MutexLock lock(mu_);
    Clock::time_point now = Clock::now();
    for (auto it = scanners_.begin(); it != scanners_.end();) {
      auto next = std::next(it);
      if (now - it->second->last_access > idle_timeout_) expired.push_back(EraseLocked(it));
      it = next;
    }
  }
}

void ScannerRegistry::ExpireAll() {
  std::vector<std::shared_ptr<Entry>> all;
  {
    util::MutexLock lock(mu_);
    while (!scanners_.empty()) all.push_back(EraseLocked(scanners_.begin()));
  }
}

size_t ScannerRegistry::size() const {
  util::MutexLock lock(mu_);
  return scanners_.size();
}

size_t ScannerRegistry::held_by(std::string_view client) const {
  util::MutexLock lock(mu_);
  auto it = by_client_.find(std::string(client));
  return it == by_client_.end() ? 0 : it->second.size();
}

}  // namespace basalt::server
