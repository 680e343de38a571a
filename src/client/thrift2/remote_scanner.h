// ResultScanner over Thrift2's openScanner / getScannerRows / closeScanner.

#ifndef BASALT_CLIENT_THRIFT2_REMOTE_SCANNER_H_
#define BASALT_CLIENT_THRIFT2_REMOTE_SCANNER_H_

#include <deque>
#include <memory>
#include <optional>
#include <string>

#include "basalt/scan.h"
#include "basalt/table.h"
#include "client/thrift2/client_pool.h"

namespace basalt::client::remote {

// Streams a scan in batches of the scan's caching (default 100 rows). The first batch is one
// stateless getScannerResults call, so a scan that fits in it costs one round trip; a longer one
// then goes on with openScanner / getScannerRows / closeScanner from after the rows already
// returned. Makes exact what TScan cannot say (see the .cc).
//
// SkipRows counts rows by their keys, not by partial(): HBase's gateway sends partial() as
// HBase's mayHaveMoreCellsInRow, which a row's last piece can say too (a batch that ends with
// the row), so the default would count such a row together with the next. It reads one piece of
// the row after the last skipped one to see that row end, and Next() returns that piece.
class RemoteScanner final : public ResultScanner {
 public:
  // Fetches the first batch.
  static Result<std::unique_ptr<ResultScanner>> Open(std::shared_ptr<ClientPool> pool,
                                                     const std::string& table, const Scan& scan);
  ~RemoteScanner() override;

  bool Next(RowResult* out) override;
  int64_t SkipRows(int64_t n) override;
  Status status() const override { return status_; }
  void Close() override;

 private:
  explicit RemoteScanner(std::shared_ptr<ClientPool> pool) : pool_(std::move(pool)) {}
  // The first batch, and the server-side scanner when the scan may go on past it.
  Status Start(const std::string& table, ::basalt::thrift2::TScan tscan, bool stateless_first);
  Status Fetch();

  std::shared_ptr<ClientPool> pool_;
  int32_t id_ = -1;
  int32_t rows_per_call_ = 0;
  bool reversed_ = false;
  int64_t limit_ = 0;                         // rows; <= 0: none
  std::optional<std::string> skip_row_;       // a reversed scan's exclusive start row
  std::optional<std::string> low_inclusive_;  // a reversed scan's inclusive stop row
  // Rows up to this one (from this one down, reversed) came in the first batch: the server-side
  // scanner opened after it sends them again when a filter kept its start from moving on.
  std::optional<std::string> returned_through_;
  std::deque<RowResult> buffer_;
  // The first piece of the row after the ones SkipRows skipped: already counted, Next's next.
  std::optional<RowResult> pending_;
  bool open_ = false;  // a server-side scanner is open
  bool exhausted_ = false;
  int64_t rows_seen_ = 0;
  std::string last_row_;
  bool have_last_row_ = false;
  Status status_;
};

}  // namespace basalt::client::remote

#endif  // BASALT_CLIENT_THRIFT2_REMOTE_SCANNER_H_
