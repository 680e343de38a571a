#include "server/rest/scanners.h"

#include <iterator>
#include <random>
#include <vector>

namespace basalt::server::rest {

RestScanner::~RestScanner() {
  // The scanner goes before the table that made it.
  if (scanner_) scanner_->Close();
  scanner_.reset();
}

Result<std::vector<RowResult>> RestScanner::NextChunk(int64_t max_cells, int64_t max_rows) {
  std::lock_guard<std::mutex> lock(mu_);
  if (max_cells <= 0) max_cells = batch_;
  std::vector<RowResult> out;
  int64_t cells = 0;
  while (cells < max_cells) {
    if (next_cell_ >= pending_.size()) {
      if (exhausted_) break;
      RowResult next;
      if (!scanner_->Next(&next)) {
        exhausted_ = true;
        BASALT_RETURN_IF_ERROR(scanner_->status());
        break;
      }
      pending_ = std::move(next);
      next_cell_ = 0;
      continue;
    }
    // A new row starts unless the last row of `out` is this one (rows split across chunks or
    // batches keep their key).
    if (out.empty() || out.back().row() != pending_.row()) {
      if (max_rows > 0 && static_cast<int64_t>(out.size()) >= max_rows) break;
      out.emplace_back(pending_.row(), std::vector<Cell>{});
    }
    out.back().mutable_cells().push_back(pending_.cells()[next_cell_++]);
    ++cells;
  }
  return out;
}

Result<std::string> ScannerRegistry::Add(std::string_view client,
                                         std::shared_ptr<RestScanner> scanner) {
  BASALT_RETURN_IF_ERROR(quota_.Acquire(client));
  std::lock_guard<std::mutex> lock(mu_);
  // Ids are not guessable by other clients: a counter plus random bits.
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%llu%012llx", static_cast<unsigned long long>(next_id_++),
                static_cast<unsigned long long>(rng() & 0xFFFFFFFFFFFFull));
  scanners_[buf] = {std::move(scanner), std::string(client), std::chrono::steady_clock::now()};
  return std::string(buf);
}

std::shared_ptr<RestScanner> ScannerRegistry::EraseLocked(
    std::map<std::string, Entry>::iterator it) {
  std::shared_ptr<RestScanner> scanner = std::move(it->second.scanner);
  quota_.Release(it->second.client);
  scanners_.erase(it);
  return scanner;
}

std::shared_ptr<RestScanner> ScannerRegistry::Find(const std::string& id) {
  std::shared_ptr<RestScanner> expired;  // destroyed outside the lock
  std::lock_guard<std::mutex> lock(mu_);
  auto it = scanners_.find(id);
  if (it == scanners_.end()) return nullptr;
  auto now = std::chrono::steady_clock::now();
  if (now - it->second.last_used > ttl_) {
    expired = EraseLocked(it);
    return nullptr;
  }
  it->second.last_used = now;
  return it->second.scanner;
}

bool ScannerRegistry::Remove(const std::string& id) {
  std::shared_ptr<RestScanner> doomed;  // destroyed outside the lock
  std::lock_guard<std::mutex> lock(mu_);
  auto it = scanners_.find(id);
  if (it == scanners_.end()) return false;
  doomed = EraseLocked(it);
  return true;
}

void ScannerRegistry::Expire() {
  std::vector<std::shared_ptr<RestScanner>> doomed;
  std::lock_guard<std::mutex> lock(mu_);
  auto now = std::chrono::steady_clock::now();
  for (auto it = scanners_.begin(); it != scanners_.end();) {
    auto next = std::next(it);
    if (now - it->second.last_used > ttl_) doomed.push_back(EraseLocked(it));
    it = next;
  }
}

void ScannerRegistry::Clear() {
  std::vector<std::shared_ptr<RestScanner>> doomed;
  std::lock_guard<std::mutex> lock(mu_);
  while (!scanners_.empty()) doomed.push_back(EraseLocked(scanners_.begin()));
}

int64_t ScannerRegistry::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int64_t>(scanners_.size());
}

}  // namespace basalt::server::rest
