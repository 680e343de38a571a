#include "server/thrift/scanner_registry.h"

#include <iterator>
#include <vector>

namespace basalt::server {

Result<int32_t> ScannerRegistry::Add(std::string_view client, std::unique_ptr<Table> table,
                                     std::unique_ptr<ResultScanner> scanner, bool sort_columns) {
  BASALT_RETURN_IF_ERROR(quota_.Acquire(client));
  auto entry = std::make_shared<Entry>();
  entry->table = std::move(table);
  entry->scanner = std::move(scanner);
  entry->client = std::string(client);
  entry->sort_columns = sort_columns;
  std::lock_guard<std::mutex> lock(mu_);
  entry->last_access = Clock::now();
  int32_t id = next_id_++;
  scanners_[id] = std::move(entry);
  return id;
}

std::shared_ptr<ScannerRegistry::Entry> ScannerRegistry::EraseLocked(
    std::map<int32_t, std::shared_ptr<Entry>>::iterator it) {
  std::shared_ptr<Entry> entry = std::move(it->second);
  scanners_.erase(it);
  quota_.Release(entry->client);
  return entry;
}

std::shared_ptr<ScannerRegistry::Entry> ScannerRegistry::Find(int32_t id) {
  std::shared_ptr<Entry> expired;  // destroyed (closing the scanner) after the lock is released
  std::lock_guard<std::mutex> lock(mu_);
  auto it = scanners_.find(id);
  if (it == scanners_.end()) return nullptr;
  Clock::time_point now = Clock::now();
  if (now - it->second->last_access > idle_timeout_) {
    expired = EraseLocked(it);
    return nullptr;
  }
  it->second->last_access = now;
  return it->second;
}

bool ScannerRegistry::Remove(int32_t id) {
  std::shared_ptr<Entry> entry;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = scanners_.find(id);
    if (it == scanners_.end()) return false;
    entry = EraseLocked(it);
  }
  // Destroyed (closing the scanner) outside the registry lock, after any call using it.
  return true;
}

void ScannerRegistry::ExpireIdle() {
  std::vector<std::shared_ptr<Entry>> expired;
  {
    std::lock_guard<std::mutex> lock(mu_);
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
    std::lock_guard<std::mutex> lock(mu_);
    while (!scanners_.empty()) all.push_back(EraseLocked(scanners_.begin()));
  }
}

size_t ScannerRegistry::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return scanners_.size();
}

}  // namespace basalt::server
