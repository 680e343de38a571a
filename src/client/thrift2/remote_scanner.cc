// RemoteScanner. TScan has only an inclusive startRow and an exclusive stopRow (reference §2.1),
// so the scan's bounds, inclusivity flags and row prefix are first reduced to one range
// [low, high] with flags, and then sent as exactly as TScan allows:
//   forward:  an exclusive low becomes low + "\x00" (the smallest key after it) and an inclusive
//             high becomes high + "\x00"; both exact, nothing is dropped on the client.
//   reversed: the scan starts at high; when high is exclusive, a row equal to it is dropped here
//             (and the server limit is one more). An inclusive low cannot be expressed as an
//             exclusive stop, so the server scans on and the client ends the scan at the first
//             row below low, closing the server scanner.
// The client also counts rows against the limit, whatever the server does.

#include "client/thrift2/remote_scanner.h"

#include <algorithm>

#include "thrift2/codec.h"

namespace basalt::client::remote {

namespace {

constexpr int32_t kDefaultRowsPerCall = 100;

struct Bound {
  std::string key;
  bool inclusive;
};

std::optional<Bound> TighterLow(std::optional<Bound> a, Bound b) {
  if (!a || b.key > a->key) return b;
  if (b.key == a->key) a->inclusive = a->inclusive && b.inclusive;
  return a;
}

std::optional<Bound> TighterHigh(std::optional<Bound> a, Bound b) {
  if (!a || b.key < a->key) return b;
  if (b.key == a->key) a->inclusive = a->inclusive && b.inclusive;
  return a;
}

}  // namespace

RemoteScanner::RemoteScanner(std::shared_ptr<ClientPool> pool, int32_t id, int32_t rows_per_call,
                             int64_t limit, std::optional<std::string> skip_row,
                             std::optional<std::string> low_inclusive)
    : pool_(std::move(pool)),
      id_(id),
      rows_per_call_(rows_per_call),
      limit_(limit),
      skip_row_(std::move(skip_row)),
      low_inclusive_(std::move(low_inclusive)) {}

Result<std::unique_ptr<ResultScanner>> RemoteScanner::Open(std::shared_ptr<ClientPool> pool,
                                                           const std::string& table,
                                                           const Scan& scan) {
  BASALT_ASSIGN_OR_RETURN(::basalt::thrift2::TScan tscan, ::basalt::thrift2::ToThrift(scan));
  std::optional<Bound> low;
  std::optional<Bound> high;
  const std::string& start = scan.start_row();
  const std::string& stop = scan.stop_row();
  if (!scan.reversed()) {
    if (!start.empty()) low = Bound{start, scan.start_inclusive()};
    if (!stop.empty()) high = Bound{stop, scan.stop_inclusive()};
  } else {
    if (!start.empty()) high = Bound{start, scan.start_inclusive()};
    if (!stop.empty()) low = Bound{stop, scan.stop_inclusive()};
  }
  if (!scan.row_prefix().empty()) {
    low = TighterLow(low, Bound{scan.row_prefix(), true});
    std::string prefix_stop = PrefixStopRow(scan.row_prefix());
    if (!prefix_stop.empty()) high = TighterHigh(high, Bound{prefix_stop, false});
  }

  int64_t limit = scan.limit() > 0 ? scan.limit() : 0;
  int32_t rows_per_call = scan.caching() > 0 ? scan.caching() : kDefaultRowsPerCall;
  auto empty_scanner = [&] {
    auto s = std::unique_ptr<RemoteScanner>(
        new RemoteScanner(pool, -1, rows_per_call, limit, std::nullopt, std::nullopt));
    s->open_ = false;
    s->exhausted_ = true;
    return s;
  };
  if (low && high &&
      (low->key > high->key || (low->key == high->key && !(low->inclusive && high->inclusive)))) {
    return std::unique_ptr<ResultScanner>(empty_scanner());
  }

  tscan.__isset.startRow = false;
  tscan.__isset.stopRow = false;
  std::optional<std::string> skip_row;
  std::optional<std::string> low_inclusive;
  if (!scan.reversed()) {
    if (low) tscan.__set_startRow(low->inclusive ? low->key : low->key + std::string(1, '\0'));
    if (high) tscan.__set_stopRow(high->inclusive ? high->key + std::string(1, '\0') : high->key);
  } else {
    if (high) {
      tscan.__set_startRow(high->key);
      if (!high->inclusive) skip_row = high->key;
    }
    if (low) {
      if (low->inclusive) {
        low_inclusive = low->key;
      } else {
        tscan.__set_stopRow(low->key);
      }
    }
  }
  if (limit > 0) {
    int64_t server_limit = limit + (skip_row ? 1 : 0);
    tscan.__set_limit(static_cast<int32_t>(std::min<int64_t>(server_limit, INT32_MAX)));
    rows_per_call = static_cast<int32_t>(std::min<int64_t>(rows_per_call, server_limit));
  }

  int32_t id = -1;
  BASALT_RETURN_IF_ERROR(pool->Call([&](ThriftClient& c) { id = c.openScanner(table, tscan); }));
  return std::unique_ptr<ResultScanner>(new RemoteScanner(
      std::move(pool), id, rows_per_call, limit, std::move(skip_row), std::move(low_inclusive)));
}

RemoteScanner::~RemoteScanner() {
  Close();
}

Status RemoteScanner::Fetch() {
  std::vector<::basalt::thrift2::TResult> results;
  BASALT_RETURN_IF_ERROR(
      pool_->Call([&](ThriftClient& c) { c.getScannerRows(results, id_, rows_per_call_); }));
  for (const auto& r : results) buffer_.push_back(::basalt::thrift2::FromThrift(r));
  return Status::OK();
}

bool RemoteScanner::Next(RowResult* out) {
  while (true) {
    if (buffer_.empty()) {
      if (exhausted_ || !open_) return false;
      Status s = Fetch();
      if (!s.ok()) {
        status_ = s;
        Close();
        return false;
      }
      if (buffer_.empty()) {
        exhausted_ = true;
        Close();
        return false;
      }
    }
    RowResult r = std::move(buffer_.front());
    buffer_.pop_front();
    if (skip_row_ && r.row() == *skip_row_) continue;
    if (low_inclusive_ && r.row() < *low_inclusive_) {
      exhausted_ = true;
      buffer_.clear();
      Close();
      return false;
    }
    if (!have_last_row_ || r.row() != last_row_) {
      if (limit_ > 0 && rows_seen_ >= limit_) {
        exhausted_ = true;
        buffer_.clear();
        Close();
        return false;
      }
      ++rows_seen_;
      last_row_ = r.row();
      have_last_row_ = true;
    }
    *out = std::move(r);
    return true;
  }
}

void RemoteScanner::Close() {
  buffer_.clear();
  exhausted_ = true;
  if (!open_) return;
  open_ = false;
  // The server forgets idle scanners anyway; a failed close changes nothing for the caller.
  pool_->Call([&](ThriftClient& c) { c.closeScanner(id_); }).PermitUncheckedError();
}

}  // namespace basalt::client::remote
