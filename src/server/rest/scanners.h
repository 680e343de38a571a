// Scanners: the REST scanners (POST /{table}/scanner) that clients page through by id.
//
// Each scanner owns its Table and ResultScanner. A chunk is read cell by cell, so a row may be
// split across chunks exactly as HBase's ScannerInstanceResource does, and holds at most a
// ResultBudget of cell bytes (result_budget.h), past which the chunk ends early.
//
// A scanner belongs to its table and to whoever opened it (ScannerOwner): a request naming
// another table, or coming from someone else, finds no scanner there, exactly as for an id that
// was never handed out, so a scanner's existence does not leak either. Ids are 128 bits from
// the kernel's CSPRNG (getrandom), so they cannot be guessed. HBase's REST server looks ids up
// without their table, and makes them from the clock and a hash code.
//
// A scanner not used for `idle_timeout` is dropped by Expire() (and found no more by Find());
// Clear() drops them all (before the Connection closes). Scanners are capped in all
// (`max_open`) and per client (`max_open_per_client`), the client being the address (an IPv6
// address counts by its /64, which one host may hold whole: ClientShareKey). A tenth of
// `max_open` is kept for the admin token, whose scanners have no per-client cap: with the caps
// alone, ten addresses opening 1,000 scanners each shut every client out, the admin included,
// for as long as the scanners lived.
//
// Thread safety: every method may be called from many threads; one scanner serves one request
// at a time.

#ifndef BASALT_SERVER_REST_SCANNERS_H_
#define BASALT_SERVER_REST_SCANNERS_H_

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "basalt/table.h"
#include "server/rest/result_budget.h"
#include "util/mutex.h"
#include "util/thread_annotations.h"

namespace basalt::server::rest {

class RestScanner {
 public:
  RestScanner(std::unique_ptr<Table> table, std::unique_ptr<ResultScanner> scanner, int32_t batch,
              size_t max_chunk_bytes = kMaxResultBytes)
      : table_(std::move(table)),
        scanner_(std::move(scanner)),
        batch_(batch),
        max_chunk_bytes_(max_chunk_bytes) {}
  ~RestScanner();

  // The next rows, at most `max_cells` cells (default: the scanner's batch), `max_rows` rows
  // (<= 0: no row limit) and max_chunk_bytes of cells (but at least one cell). An empty vector
  // means the scan is exhausted.
  Result<std::vector<RowResult>> NextChunk(int64_t max_cells, int64_t max_rows)
      BASALT_EXCLUDES(mu_);

 private:
  util::Mutex mu_;
  std::unique_ptr<Table> table_;
  std::unique_ptr<ResultScanner> scanner_ BASALT_GUARDED_BY(mu_);
  const int32_t batch_;
  const size_t max_chunk_bytes_;
  RowResult pending_ BASALT_GUARDED_BY(mu_);     // the row being handed out
  size_t next_cell_ BASALT_GUARDED_BY(mu_) = 0;  // first cell of pending_ not yet returned
  bool exhausted_ BASALT_GUARDED_BY(mu_) = false;
};

// Who opened a scanner, and so who may read and delete it: the holder of the admin token (when
// the server has one and the opening request carried it), or else the client address, exactly.
struct ScannerOwner {
  bool admin = false;
  std::string address;  // the client's address without the port; unused for the admin

  // Whether a request from `asker` may use a scanner of this owner: an admin's scanner needs
  // the token, an anonymous one the same address (and no token: the two never mix).
  bool Admits(const ScannerOwner& asker) const {
    return admin ? asker.admin : !asker.admin && asker.address == address;
  }
};

// The key a client's share of scanners is counted under: an IPv4 address as it is (also when
// written IPv4-mapped, ::ffff:a.b.c.d), an IPv6 address by its /64 ("2001:db8:1:2::/64"), since
// one host is commonly given a whole /64; anything else as it is.
std::string ClientShareKey(std::string_view address);

// 128 bits from the kernel's CSPRNG, as 32 lower-case hex digits; IOError if it fails.
Result<std::string> NewScannerId();

class ScannerRegistry {
 public:
  // A cap of 0 means none. Of `max_open`, AdminReserve(max_open) places are kept for the admin.
  ScannerRegistry(std::chrono::seconds idle_timeout, size_t max_open,
                  size_t max_open_per_client = 0)
      : idle_timeout_(idle_timeout),
        max_open_(max_open),
        max_open_per_client_(max_open_per_client) {}

  // The places of `max_open` that anonymous scanners may not take: a tenth (at least one when
  // there is a cap).
  static size_t AdminReserve(size_t max_open) {
    return max_open == 0 ? 0 : std::max<size_t>(max_open / 10, 1);
  }

  // Registers a scanner `owner` opened on `table` (the table's canonical name,
  // TableName::ToString) and returns its id. Busy, naming the cap, when it would pass the
  // total (for an anonymous owner: the total less the admin's reserve) or the owner's client
  // share; IOError when no id could be drawn.
  Result<std::string> Add(const ScannerOwner& owner, std::string table,
                          std::shared_ptr<RestScanner> scanner);
  // The scanner `id` when it is open, on `table`, and its owner admits `asker`, else nullptr
  // (for all of these alike). Refreshes the scanner's idle clock only when it is found.
  std::shared_ptr<RestScanner> Find(const std::string& id, const ScannerOwner& asker,
                                    std::string_view table);
  // Closes the scanner Find would return; false when Find would return nullptr.
  bool Remove(const std::string& id, const ScannerOwner& asker, std::string_view table);
  // Drops scanners idle for longer than the idle timeout.
  void Expire();
  void Clear();
  int64_t size() const;

 private:
  struct Entry {
    std::shared_ptr<RestScanner> scanner;
    ScannerOwner owner;
    std::string table;
    std::string share;  // ClientShareKey of an anonymous owner's address; "" for the admin
    std::chrono::steady_clock::time_point last_used;
  };
  using Map = std::map<std::string, Entry>;

  // Busy when one more scanner of `owner` (counted under `share`) would pass a cap.
  Status CheckCapsLocked(const ScannerOwner& owner, const std::string& share) const
      BASALT_REQUIRES(mu_);
  // The entry for `id` when Find would return its scanner, else end(). Expired entries met on
  // the way are moved to `*expired`.
  Map::iterator LookupLocked(const std::string& id, const ScannerOwner& asker,
                             std::string_view table, std::shared_ptr<RestScanner>* expired)
      BASALT_REQUIRES(mu_);
  // Forgets the entry at `it`, giving its places back; returns its scanner, to be destroyed
  // outside the lock.
  std::shared_ptr<RestScanner> EraseLocked(Map::iterator it) BASALT_REQUIRES(mu_);

  const std::chrono::seconds idle_timeout_;
  const size_t max_open_;
  const size_t max_open_per_client_;
  mutable util::Mutex mu_;
  Map scanners_ BASALT_GUARDED_BY(mu_);
  size_t anonymous_open_ BASALT_GUARDED_BY(mu_) = 0;
  std::unordered_map<std::string, size_t> per_share_ BASALT_GUARDED_BY(mu_);  // no zero entries
};

}  // namespace basalt::server::rest

#endif  // BASALT_SERVER_REST_SCANNERS_H_
