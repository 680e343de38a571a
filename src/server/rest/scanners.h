// Scanners: the REST scanners (POST /{table}/scanner) that clients page through by id.
//
// Each scanner owns its Table and ResultScanner. A chunk is read cell by cell, so a row may be
// split across chunks exactly as HBase's ScannerInstanceResource does. A scanner not used for
// `ttl` is dropped by Expire(); Clear() drops them all (before the Connection closes). Scanners
// are capped in all and per client address (client_quota.h): with the total cap alone, one
// client opening 10,000 scanners shut everyone out of scanners for as long as their TTL.
//
// Thread safety: every method may be called from many threads; one scanner serves one request
// at a time.

#ifndef BASALT_SERVER_REST_SCANNERS_H_
#define BASALT_SERVER_REST_SCANNERS_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/table.h"
#include "server/client_quota.h"

namespace basalt::server::rest {

class RestScanner {
 public:
  RestScanner(std::unique_ptr<Table> table, std::unique_ptr<ResultScanner> scanner, int32_t batch)
      : table_(std::move(table)), scanner_(std::move(scanner)), batch_(batch) {}
  ~RestScanner();

  // The next rows, at most `max_cells` cells (default: the scanner's batch) and `max_rows`
  // rows (<= 0: no row limit). An empty vector means the scan is exhausted.
  Result<std::vector<RowResult>> NextChunk(int64_t max_cells, int64_t max_rows);

 private:
  std::mutex mu_;
  std::unique_ptr<Table> table_;
  std::unique_ptr<ResultScanner> scanner_;
  int32_t batch_;
  RowResult pending_;     // the row being handed out
  size_t next_cell_ = 0;  // first cell of pending_ not yet returned
  bool exhausted_ = false;
};

class ScannerRegistry {
 public:
  // A cap of 0 means none.
  ScannerRegistry(std::chrono::seconds ttl, size_t max_open, size_t max_open_per_client = 0)
      : ttl_(ttl), quota_("scanners", max_open, max_open_per_client) {}

  // Busy, naming the cap, when max_open scanners are open, or max_open_per_client of `client`'s.
  Result<std::string> Add(std::string_view client, std::shared_ptr<RestScanner> scanner);
  // nullptr when the id is unknown or expired. Refreshes the scanner's lease.
  std::shared_ptr<RestScanner> Find(const std::string& id);
  bool Remove(const std::string& id);
  // Drops scanners idle for longer than the ttl.
  void Expire();
  void Clear();
  int64_t size() const;

 private:
  struct Entry {
    std::shared_ptr<RestScanner> scanner;
    std::string client;
    std::chrono::steady_clock::time_point last_used;
  };
  // Forgets the entry at `it`, giving its unit back; returns its scanner, to be destroyed
  // outside the lock. REQUIRES: mu_ held.
  std::shared_ptr<RestScanner> EraseLocked(std::map<std::string, Entry>::iterator it);

  const std::chrono::seconds ttl_;
  ClientQuota quota_;
  mutable std::mutex mu_;
  std::map<std::string, Entry> scanners_;  // guarded by mu_
  uint64_t next_id_ = 1;                   // guarded by mu_
};

}  // namespace basalt::server::rest

#endif  // BASALT_SERVER_REST_SCANNERS_H_
