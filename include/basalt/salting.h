// Salted tables: each row key is stored behind a one-byte hash bucket, so that sequential keys
// (timestamps, counters, ids) spread their writes over N key ranges instead of all landing at
// the end of one, while reads still see the original keys in their original order.
//
//   auto events = SaltedTable::Wrap(*table, 16);             // Result<SaltedTable>
//   Status s = events->Put(Put("2026-11-22T10:30#42").Add("e", "type", "click"));
//   auto scanner = events->GetScanner(Scan().SetRowPrefix("2026-11-22"));  // in key order
//   auto page = ReadPage(*events, scan, 20, cursor);          // paging.h works unchanged
//
// Layout (docs/paging.md, "Salting"): stored row key = SaltBucket(key, N) as one byte, then the
// original key. The bucket count is part of the data's format: always wrap a table with the N
// it was written with. A scan that meets a row whose salt byte is not its bucket under this N
// fails with Corruption instead of returning rows out of place.
//
// Reads: a Get touches one bucket. A Scan opens one scanner per bucket, each with the scan's
// bounds and prefix under its salt byte, and merges them with a heap on the original keys, so
// rows come back in key order (forward or reversed); the scan's limit applies after the merge,
// and Scan::SetBatch pieces of a row stay together. Results carry original keys, in
// RowResult::row() and in every Cell::row. A scan costs N scanners, so choose N for the write
// spread you need (HBase's advice: only salt when writes hot-spot).
//
// Filters see the stored (salted) keys, so filters on row keys are rewritten per bucket:
// PrefixFilter, InclusiveStopFilter, FuzzyRowFilter and RowFilter with a binary or
// binaryprefix comparator work as on an unsalted table. A RowFilter with another comparator
// (regexstring, substring, long) would see the salt byte and is rejected with InvalidArgument.
// In a Scan, filters that end the whole scan (PageFilter, WhileMatchFilter,
// ColumnCountGetFilter) would end each bucket's scan separately, so they are rejected too: use
// Scan::SetLimit or the pager (paging.h) instead.
//
// Everything goes through the wrapped Table's public API, so a SaltedTable works on any
// backend. Thread safety and atomicity are the wrapped table's: a SaltedTable holds no state of
// its own beyond the table pointer and N.

#ifndef BASALT_SALTING_H_
#define BASALT_SALTING_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/status.h"
#include "basalt/table.h"

namespace basalt {

// The salt bucket of an original row key among `buckets`: XXH3_64bits(row) mod buckets. This
// is a stored format (changing it would move every row), pinned by tests.
// REQUIRES: 1 <= buckets <= 256.
uint8_t SaltBucket(std::string_view row, int buckets);

// A Table whose row keys are salted. Every Table call takes and returns original keys.
// Lifetime: the wrapped Table must outlive the SaltedTable and its scanners.
class SaltedTable final : public Table {
 public:
  static constexpr int kMinBuckets = 1;
  static constexpr int kMaxBuckets = 256;

  // InvalidArgument unless kMinBuckets <= buckets <= kMaxBuckets.
  static Result<SaltedTable> Wrap(Table& table, int buckets);

  int buckets() const { return buckets_; }
  Table& wrapped() const { return *table_; }

  // The stored key of an original row key. InvalidArgument for an empty key (empty row keys
  // are rejected by every table; salted, one would no longer be empty).
  Result<std::string> SaltedRow(std::string_view row) const;

  const TableName& name() const override { return table_->name(); }
  Status Put(const basalt::Put& put) override;
  Status Put(const std::vector<basalt::Put>& puts) override;
  Status Delete(const basalt::Delete& del) override;
  Result<RowResult> Get(const basalt::Get& get) override;
  Result<std::vector<RowResult>> Get(const std::vector<basalt::Get>& gets) override;
  Result<bool> Exists(const basalt::Get& get) override;
  // Rows in original-key order; see the file comment for how the per-bucket scans merge.
  Result<std::unique_ptr<ResultScanner>> GetScanner(const basalt::Scan& scan) override;
  Result<RowResult> Increment(const basalt::Increment& inc) override;
  Result<RowResult> Append(const basalt::Append& app) override;
  Result<bool> CheckAndMutate(const basalt::CheckAndMutate& cam) override;
  Status MutateRow(const RowMutations& mutations) override;
  Result<std::vector<RowResult>> Batch(const std::vector<Mutation>& mutations) override;

 private:
  SaltedTable(Table& table, int buckets) : table_(&table), buckets_(buckets) {}

  Table* table_;
  int buckets_;
};

}  // namespace basalt

#endif  // BASALT_SALTING_H_
