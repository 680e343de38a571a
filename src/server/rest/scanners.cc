#include "server/rest/scanners.h"

#include <arpa/inet.h>

#include <cstring>
#include <iterator>
#include <vector>

#include "util/secure_random.h"

namespace basalt::server::rest {

RestScanner::~RestScanner() {
  // The scanner goes before the table that made it.
  if (scanner_) scanner_->Close();
  scanner_.reset();
}

Result<std::vector<RowResult>> RestScanner::NextChunk(int64_t max_cells, int64_t max_rows) {
  util::MutexLock lock(mu_);
  if (max_cells <= 0) max_cells = batch_;
  std::vector<RowResult> out;
  int64_t cells = 0;
  size_t bytes = 0;
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
    const Cell& cell = pending_.cells()[next_cell_];
    // The chunk ends before the cell that would take it past the byte cap; the next chunk
    // starts with it, so a cell larger than the cap still goes out, alone.
    if (cells > 0 && bytes + CellBytes(cell) > max_chunk_bytes_) break;
    // A new row starts unless the last row of `out` is this one (rows split across chunks or
    // batches keep their key).
    if (out.empty() || out.back().row() != pending_.row()) {
      if (max_rows > 0 && static_cast<int64_t>(out.size()) >= max_rows) break;
      out.emplace_back(pending_.row(), std::vector<Cell>{});
    }
    bytes += CellBytes(cell);
    out.back().mutable_cells().push_back(cell);
    ++next_cell_;
    ++cells;
  }
  return out;
}

std::string ClientShareKey(std::string_view address) {
  std::string text(address);
  in6_addr v6{};
  if (inet_pton(AF_INET6, text.c_str(), &v6) != 1) return text;
  static constexpr uint8_t kMappedPrefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (std::memcmp(v6.s6_addr, kMappedPrefix, sizeof(kMappedPrefix)) == 0) {
    char v4[INET_ADDRSTRLEN];
    if (inet_ntop(AF_INET, v6.s6_addr + 12, v4, sizeof(v4)) != nullptr) return v4;
  }
  std::memset(v6.s6_addr + 8, 0, 8);
  char prefix[INET6_ADDRSTRLEN];
  if (inet_ntop(AF_INET6, &v6, prefix, sizeof(prefix)) == nullptr) return text;
  return std::string(prefix) + "/64";
}

Result<std::string> NewScannerId() {
  unsigned char bytes[16];
  BASALT_RETURN_IF_ERROR(util::FillSecureRandom(bytes, sizeof(bytes)).WithContext("a scanner id"));
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id;
  id.reserve(2 * sizeof(bytes));
  for (unsigned char b : bytes) {
    id.push_back(kHex[b >> 4]);
    id.push_back(kHex[b & 0xf]);
  }
  return id;
}

Status ScannerRegistry::CheckCapsLocked(const ScannerOwner& owner, const std::string& share) const {
  auto busy = [](const std::string& what) {
    return Status::Busy("too many open scanners " + what + "; close some or retry later");
  };
  if (max_open_ > 0 && scanners_.size() >= max_open_) {
    return busy("on this server (at most " + std::to_string(max_open_) + ")");
  }
  if (owner.admin) return Status::OK();
  size_t reserve = AdminReserve(max_open_);
  if (max_open_ > 0 && anonymous_open_ >= max_open_ - reserve) {
    return busy("on this server (at most " + std::to_string(max_open_) + ", " +
                std::to_string(reserve) + " of them kept for the admin token)");
  }
  auto it = per_share_.find(share);
  if (max_open_per_client_ > 0 && it != per_share_.end() && it->second >= max_open_per_client_) {
    return busy("for client " + share + " (at most " + std::to_string(max_open_per_client_) +
                " per client)");
  }
  return Status::OK();
}

Result<std::string> ScannerRegistry::Add(const ScannerOwner& owner, std::string table,
                                         std::shared_ptr<RestScanner> scanner) {
  std::string share = owner.admin ? std::string() : ClientShareKey(owner.address);
  util::MutexLock lock(mu_);
  BASALT_RETURN_IF_ERROR(CheckCapsLocked(owner, share));
  std::string id;
  do {
    BASALT_ASSIGN_OR_RETURN(id, NewScannerId());
  } while (scanners_.count(id) > 0);
  if (!owner.admin) {
    ++anonymous_open_;
    ++per_share_[share];
  }
  scanners_.emplace(id, Entry{.scanner = std::move(scanner),
                              .owner = owner,
                              .table = std::move(table),
                              .share = std::move(share),
                              .last_used = std::chrono::steady_clock::now()});
  return id;
}

std::shared_ptr<RestScanner> ScannerRegistry::EraseLocked(Map::iterator it) {
  std::shared_ptr<RestScanner> scanner = std::move(it->second.scanner);
  if (!it->second.owner.admin) {
    --anonymous_open_;
    auto share = per_share_.find(it->second.share);
    if (share != per_share_.end() && --share->second == 0) per_share_.erase(share);
  }
  scanners_.erase(it);
  return scanner;
}

ScannerRegistry::Map::iterator ScannerRegistry::LookupLocked(
    const std::string& id, const ScannerOwner& asker, std::string_view table,
    std::shared_ptr<RestScanner>* expired) {
  auto it = scanners_.find(id);
  if (it == scanners_.end()) return it;
  if (std::chrono::steady_clock::now() - it->second.last_used > idle_timeout_) {
    *expired = EraseLocked(it);
    return scanners_.end();
  }
  if (it->second.table != table || !it->second.owner.Admits(asker)) return scanners_.end();
  return it;
}

std::shared_ptr<RestScanner> ScannerRegistry::Find(const std::string& id, const ScannerOwner& asker,
                                                   std::string_view table) {
  std::shared_ptr<RestScanner> expired;  // destroyed outside the lock
  util::MutexLock lock(mu_);
  auto it = LookupLocked(id, asker, table, &expired);
  if (it == scanners_.end()) return nullptr;
  it->second.last_used = std::chrono::steady_clock::now();
  return it->second.scanner;
}

bool ScannerRegistry::Remove(const std::string& id, const ScannerOwner& asker,
                             std::string_view table) {
  std::shared_ptr<RestScanner> doomed;  // destroyed outside the lock
  util::MutexLock lock(mu_);
  auto it = LookupLocked(id, asker, table, &doomed);
  if (it == scanners_.end()) return false;
  doomed = EraseLocked(it);
  return true;
}

void ScannerRegistry::Expire() {
  std::vector<std::shared_ptr<RestScanner>> doomed;
  util::MutexLock lock(mu_);
  auto now = std::chrono::steady_clock::now();
  for (auto it = scanners_.begin(); it != scanners_.end();) {
    auto next = std::next(it);
    if (now - it->second.last_used > idle_timeout_) doomed.push_back(EraseLocked(it));
    it = next;
  }
}

void ScannerRegistry::Clear() {
  std::vector<std::shared_ptr<RestScanner>> doomed;
  util::MutexLock lock(mu_);
  while (!scanners_.empty()) doomed.push_back(EraseLocked(scanners_.begin()));
}

int64_t ScannerRegistry::size() const {
  util::MutexLock lock(mu_);
  return static_cast<int64_t>(scanners_.size());
}

}  // namespace basalt::server::rest
