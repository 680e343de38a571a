// ResultBudget: the cell bytes one REST answer may hold.
//
// Multi-row answers (stateless scans, prefix and range row specs, multi-gets) are built whole
// before they are sent (HBase's REST server streams them), and a scanner chunk is too. Without a
// bound, one request built a body the size of the table, and a multi-get naming one large row
// many times a body larger than the store: each handler counts the rows it reads against a budget
// and stops reading once it is spent.

#ifndef BASALT_SERVER_REST_RESULT_BUDGET_H_
#define BASALT_SERVER_REST_RESULT_BUDGET_H_

#include <cstddef>
#include <string>

#include "basalt/row_result.h"
#include "basalt/status.h"

namespace basalt::server::rest {

// The cell bytes of one answer: 16 MiB, as the Thrift servers' result cap. An answer of this
// many cell bytes takes about three times as much while it is encoded (base64, the body).
inline constexpr size_t kMaxResultBytes = size_t{16} << 20;

// What a cell costs an answer: its row, family, qualifier and value bytes.
size_t CellBytes(const Cell& cell);
// The CellBytes of every cell of `row`.
size_t RowBytes(const RowResult& row);

// Not thread-safe: one per request.
class ResultBudget {
 public:
  // `advice` ends the error: what to ask for instead ("ask for fewer rows...").
  explicit ResultBudget(std::string advice, size_t max_bytes = kMaxResultBytes)
      : advice_(std::move(advice)), max_bytes_(max_bytes) {}

  // Counts `bytes` more; InvalidArgument (400), saying the rows asked for take more than the
  // budget and then the advice, once the total passes it. Call it before keeping (or copying)
  // what the bytes are, so that nothing past the budget is built.
  Status Take(size_t bytes);

  size_t used() const { return used_; }

 private:
  const std::string advice_;
  const size_t max_bytes_;
  size_t used_ = 0;
};

}  // namespace basalt::server::rest

#endif  // BASALT_SERVER_REST_RESULT_BUDGET_H_
