#include "paging/bucket_merge.h"

#include <algorithm>
#include <string_view>

#include "basalt/salting.h"

namespace basalt::paging {
namespace {

std::string_view Unsalted(const RowResult& r) {
  return std::string_view(r.row()).substr(1);
}

}  // namespace

BucketMergeScanner::BucketMergeScanner(std::vector<std::unique_ptr<ResultScanner>> scanners,
                                       int buckets, bool reversed, int64_t limit)
    : scanners_(std::move(scanners)), buckets_(buckets), reversed_(reversed), limit_(limit) {
  heap_.reserve(scanners_.size());
}

bool BucketMergeScanner::After(const Head& a, const Head& b) const {
  int c = Unsalted(a.piece).compare(Unsalted(b.piece));
  if (c != 0) return reversed_ ? c < 0 : c > 0;
  // Equal keys only meet when a row sits in two buckets (which Advance reports); ordering by
  // bucket still keeps each bucket's pieces of a row together.
  return a.bucket > b.bucket;
}

bool BucketMergeScanner::Fail(Status s) {
  if (status_.ok()) status_ = std::move(s);
  Close();
  return false;
}

bool BucketMergeScanner::Advance(int bucket) {
  ResultScanner& scanner = *scanners_[bucket];
  Head head{RowResult(), bucket};
  if (!scanner.Next(&head.piece)) {
    Status s = scanner.status();
    if (!s.ok()) return Fail(std::move(s));
    return true;  // this bucket is exhausted
  }
  const std::string& row = head.piece.row();
  // The bucket scan's prefix keeps it under its salt byte, so only the hash can disagree.
  if (row.empty() || static_cast<uint8_t>(row[0]) != bucket ||
      SaltBucket(Unsalted(head.piece), buckets_) != bucket) {
    return Fail(Status::Corruption("salted table: a row stored in bucket " +
                                   std::to_string(bucket) + " does not hash to it with " +
                                   std::to_string(buckets_) +
                                   " buckets (was the table written with another bucket count?)"));
  }
  heap_.push_back(std::move(head));
  std::push_heap(heap_.begin(), heap_.end(),
                 [this](const Head& a, const Head& b) { return After(a, b); });
  return true;
}

bool BucketMergeScanner::Next(RowResult* out) {
  if (done_) return false;
  const bool limit_reached = !inside_row_ && limit_ > 0 && rows_ == limit_;
  if (!started_) {
    started_ = true;
    for (int b = 0; b < static_cast<int>(scanners_.size()); ++b) {
      if (!Advance(b)) return false;
    }
  } else if (pending_ >= 0 && !limit_reached) {
    // The bucket emitted last is read only now, so that a scan ending at its limit does not
    // read a row beyond it.
    if (!Advance(pending_)) return false;
  }
  pending_ = -1;
  if (heap_.empty() || limit_reached) {
    Close();
    return false;
  }
  std::pop_heap(heap_.begin(), heap_.end(),
                [this](const Head& a, const Head& b) { return After(a, b); });
  Head head = std::move(heap_.back());
  heap_.pop_back();
  if (!inside_row_) ++rows_;
  inside_row_ = head.piece.partial();
  pending_ = head.bucket;

  std::string row = head.piece.row().substr(1);
  for (Cell& cell : head.piece.mutable_cells()) cell.row = row;
  *out = RowResult(std::move(row), std::move(head.piece.mutable_cells()), head.piece.partial());
  return true;
}

ScanMetrics BucketMergeScanner::metrics() const {
  ScanMetrics sum;
  auto add = [](int64_t* total, int64_t part) {
    if (part < 0) return;
    *total = *total < 0 ? part : *total + part;
  };
  for (const auto& s : scanners_) {
    ScanMetrics m = s->metrics();
    add(&sum.rows_scanned, m.rows_scanned);
    add(&sum.rows_filtered, m.rows_filtered);
    add(&sum.keys_visited, m.keys_visited);
  }
  return sum;
}

void BucketMergeScanner::Close() {
  done_ = true;
  heap_.clear();
  for (auto& s : scanners_) s->Close();
}

}  // namespace basalt::paging
