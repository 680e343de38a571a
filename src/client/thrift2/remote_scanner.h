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

// Streams a scan with openScanner / getScannerRows (the scan's caching, default 100, rows per
// call) / closeScanner, and makes exact what TScan cannot say (see the .cc).
class RemoteScanner final : public ResultScanner {
 public:
  // Opens the server-side scanner.
  static Result<std::unique_ptr<ResultScanner>> Open(std::shared_ptr<ClientPool> pool,
                                                     const std::string& table, const Scan& scan);
  ~RemoteScanner() override;

  bool Next(RowResult* out) override;
  Status status() const override { return status_; }
  void Close() override;

 private:
  RemoteScanner(std::shared_ptr<ClientPool> pool, int32_t id, int32_t rows_per_call, int64_t limit,
                std::optional<std::string> skip_row, std::optional<std::string> low_inclusive);
  Status Fetch();

  std::shared_ptr<ClientPool> pool_;
  int32_t id_;
  int32_t rows_per_call_;
  int64_t limit_;                             // rows; <= 0: none
  std::optional<std::string> skip_row_;       // a reversed scan's exclusive start row
  std::optional<std::string> low_inclusive_;  // a reversed scan's inclusive stop row
  std::deque<RowResult> buffer_;
  bool open_ = true;
  bool exhausted_ = false;
  int64_t rows_seen_ = 0;
  std::string last_row_;
  bool have_last_row_ = false;
  Status status_;
};

}  // namespace basalt::client::remote

#endif  // BASALT_CLIENT_THRIFT2_REMOTE_SCANNER_H_
