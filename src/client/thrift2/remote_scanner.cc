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
// A scan with a limit and no caching of its own asks for its whole limit in one call, up to this
// many rows: a page of a few hundred rows (a following list, a fan-out page) is one round trip.
constexpr int32_t kMostRowsPerCallForALimit = 1000;

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

  auto scanner = std::unique_ptr<RemoteScanner>(new RemoteScanner(std::move(pool)));
  scanner->reversed_ = scan.reversed();
  scanner->limit_ = scan.limit() > 0 ? scan.limit() : 0;
  scanner->rows_per_call_ = scan.caching() > 0 ? scan.caching() : kDefaultRowsPerCall;
  if (low && high &&
      (low->key > high->key || (low->key == high->key && !(low->inclusive && high->inclusive)))) {
    scanner->exhausted_ = true;
    return std::unique_ptr<ResultScanner>(std::move(scanner));
  }

  tscan.__isset.startRow = false;
  tscan.__isset.stopRow = false;
  if (!scan.reversed()) {
    if (low) tscan.__set_startRow(low->inclusive ? low->key : low->key + std::string(1, '\0'));
    if (high) tscan.__set_stopRow(high->inclusive ? high->key + std::string(1, '\0') : high->key);
  } else {
    if (high) {
      tscan.__set_startRow(high->key);
      if (!high->inclusive) scanner->skip_row_ = high->key;
    }
    if (low) {
      if (low->inclusive) {
        scanner->low_inclusive_ = low->key;
      } else {
        tscan.__set_stopRow(low->key);
      }
    }
  }
  if (scanner->limit_ > 0) {
    int64_t server_limit = scanner->limit_ + (scanner->skip_row_ ? 1 : 0);
    tscan.__set_limit(static_cast<int32_t>(std::min<int64_t>(server_limit, INT32_MAX)));
    const int64_t per_call = scan.caching() > 0 ? scan.caching() : kMostRowsPerCallForALimit;
    scanner->rows_per_call_ = static_cast<int32_t>(std::min<int64_t>(per_call, server_limit));
  }
  // With a batch, one row may come as several results, and a stateless call cannot say where
  // in a row to go on: such scans keep a server-side scanner from the start.
  BASALT_RETURN_IF_ERROR(scanner->Start(table, std::move(tscan), scan.batch() <= 0));
  return std::unique_ptr<ResultScanner>(std::move(scanner));
}

RemoteScanner::~RemoteScanner() {
  Close();
}

Status RemoteScanner::Start(const std::string& table, ::basalt::thrift2::TScan tscan,
                            bool stateless_first) {
  if (stateless_first) {
    std::vector<::basalt::thrift2::TResult> results;
    Status s = pool_->Call(
        [&](ThriftClient& c) { c.getScannerResults(results, table, tscan, rows_per_call_); },
        ClientPool::Idempotence::kYes);
    if (s.ok()) {
      for (auto& r : results) buffer_.push_back(::basalt::thrift2::FromThrift(std::move(r)));
      const auto n = static_cast<int64_t>(results.size());
      // Fewer rows than asked for, or all the limit allows: that was the whole scan.
      if (n < rows_per_call_ || (tscan.__isset.limit && n >= tscan.limit)) {
        exhausted_ = true;
        return Status::OK();
      }
      // Go on after the last row returned: past it, where the start can move; else (a filter
      // may keep state across rows, e.g. a page filter) from the start again, dropping what was
      // returned.
      const std::string& last = buffer_.back().row();
      returned_through_ = last;
      const bool filtered = tscan.__isset.filterString || tscan.__isset.filterBytes;
      if (!filtered) {
        // Reversed, the start row is inclusive: the server sends `last` again, and it is dropped.
        tscan.__set_startRow(reversed_ ? last : last + std::string(1, '\0'));
        if (tscan.__isset.limit) tscan.__set_limit(tscan.limit - n + (reversed_ ? 1 : 0));
      }
    } else if (!IsTooLargeForOneCall(s, "getScannerResults") && !s.IsNotSupported()) {
      return s;
    }
  }
  int32_t id = -1;
  BASALT_RETURN_IF_ERROR(pool_->Call([&](ThriftClient& c) { id = c.openScanner(table, tscan); },
                                     ClientPool::Idempotence::kYes));
  id_ = id;
  open_ = true;
  return Status::OK();
}

Status RemoteScanner::Fetch() {
  std::vector<::basalt::thrift2::TResult> results;
  BASALT_RETURN_IF_ERROR(
      pool_->Call([&](ThriftClient& c) { c.getScannerRows(results, id_, rows_per_call_); }));
  if (results.empty()) exhausted_ = true;
  for (auto& r : results) {
    RowResult row = ::basalt::thrift2::FromThrift(std::move(r));
    if (returned_through_) {
      if (reversed_ ? row.row() >= *returned_through_ : row.row() <= *returned_through_) continue;
      returned_through_.reset();
    }
    buffer_.push_back(std::move(row));
  }
  return Status::OK();
}

bool RemoteScanner::Next(RowResult* out) {
  if (pending_) {
    *out = std::move(*pending_);
    pending_.reset();
    return true;
  }
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
        // Unless the server is done, everything of this batch was returned before.
        if (!exhausted_) continue;
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

int64_t RemoteScanner::SkipRows(int64_t n) {
  if (n <= 0) return 0;
  int64_t skipped = 0;
  // The row being skipped: at first the one the last Next() returned a piece of, whose rest (if
  // any piece of it follows) counts as one row.
  std::optional<std::string> row;
  if (have_last_row_) row = last_row_;
  bool counted = false;
  RowResult piece;
  while (Next(&piece)) {
    if (row && piece.row() == *row) {
      if (!counted) ++skipped;
      counted = true;
      continue;
    }
    if (skipped == n) {
      pending_ = std::move(piece);
      break;
    }
    ++skipped;
    row = piece.row();
    counted = true;
  }
  return skipped;
}

void RemoteScanner::Close() {
  pending_.reset();
  buffer_.clear();
  exhausted_ = true;
  if (!open_) return;
  open_ = false;
  // The server forgets idle scanners anyway; a failed close changes nothing for the caller.
  pool_->Call([&](ThriftClient& c) { c.closeScanner(id_); }, ClientPool::Idempotence::kYes)
      .PermitUncheckedError();
}

}  // namespace basalt::client::remote
