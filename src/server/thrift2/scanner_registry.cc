#include "server/thrift2/scanner_registry.h"

#include <vector>

namespace basalt::server {

int32_t ScannerRegistry::Add(std::unique_ptr<Table> table, std::unique_ptr<ResultScanner> scanner) {
  auto entry = std::make_shared<Entry>();
  entry->table = std::move(table);
  entry->scanner = std::move(scanner);
  std::lock_guard<std::mutex> lock(mu_);
  entry->last_access = Clock::now();
  int32_t id = next_id_++;
  scanners_[id] = std::move(entry);
  return id;
}

std::shared_ptr<ScannerRegistry::Entry> ScannerRegistry::Find(int32_t id) {
  std::shared_ptr<Entry> expired;  // destroyed (closing the scanner) after the lock is released
  std::lock_guard<std::mutex> lock(mu_);
  auto it = scanners_.find(id);
  if (it == scanners_.end()) return nullptr;
  Clock::time_point now = Clock::now();
  if (now - it->second->last_access > idle_timeout_) {
    expired = std::move(it->second);
    scanners_.erase(it);
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
    entry = std::move(it->second);
    scanners_.erase(it);
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
      if (now - it->second->last_access > idle_timeout_) {
        expired.push_back(std::move(it->second));
        it = scanners_.erase(it);
      } else {
        ++it;
      }
    }
  }
}

void ScannerRegistry::ExpireAll() {
  std::map<int32_t, std::shared_ptr<Entry>> all;
  {
    std::lock_guard<std::mutex> lock(mu_);
    all.swap(scanners_);
  }
}

size_t ScannerRegistry::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return scanners_.size();
}

}  // namespace basalt::server
