// The open scanners of a Thrift server (Thrift2 or Thrift1), by id, with HBase's idle expiry: a
// scanner nobody has used for the idle timeout is closed, and its id is unknown afterwards. Each
// scanner belongs to the client (peer address) that opened it, and the registry caps how many
// are open in all and per client (client_quota.h): without caps, 300,000 openScanner calls in
// 15 s took 2.1 GiB until the idle timeout freed them.

#ifndef BASALT_SERVER_THRIFT_SCANNER_REGISTRY_H_
#define BASALT_SERVER_THRIFT_SCANNER_REGISTRY_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

#include <string>
#include <string_view>

#include "basalt/status.h"
#include "basalt/table.h"
#include "server/client_quota.h"

namespace basalt::server {

// Thread safety: every method may be called from many threads; a Lease gives one call at a
// time the use of a scanner.
class ScannerRegistry {
 public:
  using Clock = std::chrono::steady_clock;

  // A cap of 0 means none.
  explicit ScannerRegistry(std::chrono::milliseconds idle_timeout, size_t max_scanners = 0,
                           size_t max_scanners_per_client = 0)
      : idle_timeout_(idle_timeout), quota_("scanners", max_scanners, max_scanners_per_client) {}

  ScannerRegistry(const ScannerRegistry&) = delete;
  ScannerRegistry& operator=(const ScannerRegistry&) = delete;

  // Takes the scanner of `client` and the Table it reads (which must outlive it); returns its
  // id. Ids count up from 0, as in HBase. Busy, closing the scanner, when a cap is reached.
  // `sort_columns` is Thrift1's TScan.sortColumns, kept for the scanner's answers.
  Result<int32_t> Add(std::string_view client, std::unique_ptr<Table> table,
                      std::unique_ptr<ResultScanner> scanner, bool sort_columns = false);

  struct Entry {
    std::mutex mu;  // held while a call uses the scanner
    std::unique_ptr<Table> table;
    std::unique_ptr<ResultScanner> scanner;
    std::string client;
    bool sort_columns = false;
    // Set (under `mu`) when a call had to drop rows it had read: the scanner cannot go on.
    bool broken = false;
    Clock::time_point last_access;  // guarded by the registry's mutex
  };

  // Exclusive use of one scanner for the length of a call.
  class Lease {
   public:
    explicit Lease(std::shared_ptr<Entry> entry) : entry_(std::move(entry)), lock_(entry_->mu) {}
    ResultScanner& scanner() const { return *entry_->scanner; }
    Entry& entry() const { return *entry_; }

   private:
    std::shared_ptr<Entry> entry_;
    std::unique_lock<std::mutex> lock_;
  };

  // The scanner's entry (refreshing its idle clock), or nullptr when the id is unknown, closed
  // or expired. Wrap it in a Lease to use it.
  std::shared_ptr<Entry> Find(int32_t id);

  // Forgets the scanner (it closes when its last Lease ends); false when the id is unknown.
  bool Remove(int32_t id);

  // Forgets scanners idle for longer than the timeout. Called periodically by the server.
  void ExpireIdle();

  // Forgets every scanner (the server's Stop).
  void ExpireAll();

  size_t size() const;

 private:
  // Forgets the entry at `it`, giving its unit back to the quota. REQUIRES: mu_ held.
  std::shared_ptr<Entry> EraseLocked(std::map<int32_t, std::shared_ptr<Entry>>::iterator it);

  const std::chrono::milliseconds idle_timeout_;
  ClientQuota quota_;
  mutable std::mutex mu_;
  int32_t next_id_ = 0;
  std::map<int32_t, std::shared_ptr<Entry>> scanners_;
};

}  // namespace basalt::server

#endif  // BASALT_SERVER_THRIFT_SCANNER_REGISTRY_H_
