// The scanner of a salted scan: merges one scanner per bucket into one stream in original-key
// order (salting.h).

#ifndef BASALT_PAGING_BUCKET_MERGE_H_
#define BASALT_PAGING_BUCKET_MERGE_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "basalt/table.h"

namespace basalt::paging {

// Merges bucket scanners with a heap keyed on the original row key (the stored key without its
// salt byte), ascending or, for a reversed scan, descending. Every piece of a row (Scan::SetBatch)
// comes from one bucket and is emitted before any other row. Each result has the salt byte
// removed from RowResult::row() and every Cell::row. A row whose salt byte is not
// SaltBucket(original key, N) ends the scan with Corruption (the table was written with a
// different N, or by something that does not salt).
//
// `limit` (<= 0: none) counts rows after the merge. Bucket scanners are read lazily: the first
// Next reads one piece of each, each later call one piece of the bucket emitted before, so a
// scan that stops at its limit reads no row beyond it (other than each bucket's current one).
class BucketMergeScanner final : public ResultScanner {
 public:
  // scanners[i] scans bucket i of `buckets`; REQUIRES: scanners.size() == buckets.
  BucketMergeScanner(std::vector<std::unique_ptr<ResultScanner>> scanners, int buckets,
                     bool reversed, int64_t limit);

  bool Next(RowResult* out) override;
  Status status() const override { return status_; }
  void Close() override;
  // The sum over the bucket scanners; a counter stays -1 when no bucket counts it.
  ScanMetrics metrics() const override;

 private:
  struct Head {
    RowResult piece;  // the bucket's next piece, still salted
    int bucket;
  };

  // Reads the next piece of `bucket` into the heap; false (with status_ set) on a scan error.
  bool Advance(int bucket);
  bool Fail(Status s);
  // Heap order: true when `a` should come out after `b`.
  bool After(const Head& a, const Head& b) const;

  std::vector<std::unique_ptr<ResultScanner>> scanners_;
  int buckets_;
  bool reversed_;
  int64_t limit_;
  std::vector<Head> heap_;
  bool started_ = false;
  int pending_ = -1;  // the bucket whose piece was emitted last, to be read again
  bool done_ = false;
  bool inside_row_ = false;  // the last piece emitted was partial
  int64_t rows_ = 0;
  Status status_;
};

}  // namespace basalt::paging

#endif  // BASALT_PAGING_BUCKET_MERGE_H_
