// The open scanners of a Thrift server (Thrift2 or Thrift1), by id, with HBase's idle expiry: a
// scanner nobody has used for the idle timeout is closed, and its id is unknown afterwards.
//
// Each scanner belongs to the client that opened it: Thrift carries no credentials, so a client
// is its peer address, and the connections of one address share its scanners (basalt's own
// thrift:// client lends any pooled socket to a scanner's next call). Every read and close names
// its client; a scanner of another client answers as an unknown id does, so that an id says
// nothing about other clients' scanners. Ids are drawn from the OS's CSPRNG (getrandom(2)),
// positive and unique among open scanners: an id seen on the wire tells nothing about the next
// one.
//
// What the scanners hold is capped (docs/security.md, "Resource caps"): without caps, 300,000
// openScanner calls in 15 s took 2.1 GiB until the idle timeout freed them. A client may hold at
// most `max_scanners_per_client`; the server at most `max_scanners`. With those caps alone a few
// addresses could fill the server for every other client as long as they kept their scanners,
// so a full server shares its scanners out: a client that holds none, or two fewer than the
// client holding the most, may still open one, and the idlest scanner of the client holding the
// most is closed to make room. Whatever addresses hold, any other address can then open
// scanners; k clients that want scanners end up with about max_scanners / k each, and only a
// client at that even share is refused.

#ifndef BASALT_SERVER_THRIFT_SCANNER_REGISTRY_H_
#define BASALT_SERVER_THRIFT_SCANNER_REGISTRY_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

#include "basalt/status.h"
#include "basalt/table.h"
#include "util/mutex.h"

namespace basalt::server {

// Thread safety: every method may be called from many threads; a Lease gives one call at a
// time the use of a scanner.
class ScannerRegistry {
 public:
  using Clock = std::chrono::steady_clock;

  // A cap of 0 means none.
  explicit ScannerRegistry(std::chrono::milliseconds idle_timeout, size_t max_scanners = 0,
                           size_t max_scanners_per_client = 0)
      : idle_timeout_(idle_timeout),
        max_scanners_(max_scanners),
        max_scanners_per_client_(max_scanners_per_client) {}

  ScannerRegistry(const ScannerRegistry&) = delete;
  ScannerRegistry& operator=(const ScannerRegistry&) = delete;

  // Takes the scanner of `client` and the Table it reads (which must outlive it); returns its
  // id. Busy, closing the scanner, when the client is at its cap, or when the server is full and
  // the client holds its share already (see above); a full server may instead close another
  // client's idlest scanner. IOError when the OS gives no random bytes. `sort_columns` is
  // Thrift1's TScan.sortColumns, kept for the scanner's answers.
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
    // HBase's native RPC (under `mu`): the next_call_seq the scanner's next call must carry, and
    // the most bytes of cells one call answers (the scan's max_result_size).
    uint64_t next_call_seq = 0;
    uint64_t max_result_bytes = 0;
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

  // The scanner `id` of `client` (refreshing its idle clock), or nullptr when the id is unknown,
  // closed, expired, or another client's. Wrap it in a Lease to use it.
  std::shared_ptr<Entry> Find(int32_t id, std::string_view client);

  // Forgets the scanner `id` of `client` (it closes when its last Lease ends); false when the id
  // is unknown or another client's.
  bool Remove(int32_t id, std::string_view client);

  // Forgets scanners idle for longer than the timeout. Called periodically by the server.
  void ExpireIdle();

  // Forgets every scanner (the server's Stop).
  void ExpireAll();

  size_t size() const;
  // Scanners `client` holds.
  size_t held_by(std::string_view client) const;

 private:
  using EntryMap = std::unordered_map<int32_t, std::shared_ptr<Entry>>;

  // Forgets the entry at `it`; returns it, to be destroyed (closing the scanner) once the lock is
  // released.
  std::shared_ptr<Entry> EraseLocked(EntryMap::iterator it) BASALT_REQUIRES(mu_);
  // Whether `client` may open one more; on a full server that a fair share lets the client into,
  // `*evicted` takes the scanner closed to make room.
  Status AdmitLocked(const std::string& client, std::shared_ptr<Entry>* evicted)
      BASALT_REQUIRES(mu_);
  // An id no open scanner has.
  Result<int32_t> NewIdLocked() const BASALT_REQUIRES(mu_);

  const std::chrono::milliseconds idle_timeout_;
  const size_t max_scanners_;
  const size_t max_scanners_per_client_;
  mutable util::Mutex mu_;
  EntryMap scanners_ BASALT_GUARDED_BY(mu_);
  // Each client's scanner ids; no empty sets.
  std::unordered_map<std::string, std::set<int32_t>> by_client_ BASALT_GUARDED_BY(mu_);
};

}  // namespace basalt::server

#endif  // BASALT_SERVER_THRIFT_SCANNER_REGISTRY_H_
