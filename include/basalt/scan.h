// Scan: read a range of rows in key order (or reversed), streaming through a ResultScanner.

#ifndef BASALT_SCAN_H_
#define BASALT_SCAN_H_

#include <cstdint>
#include <string>

#include "basalt/filter.h"
#include "basalt/get.h"
#include "basalt/types.h"

namespace basalt {

class Scan {
 public:
  Scan() = default;

  // First row (inclusive by default). Empty: the start of the table. For a reversed scan the
  // start row is the LARGER key, as in HBase.
  Scan& WithStartRow(std::string row, bool inclusive = true) {
    start_row_ = std::move(row);
    start_inclusive_ = inclusive;
    return *this;
  }
  // Row to stop at (exclusive by default). Empty: the end of the table (the beginning for a
  // reversed scan).
  Scan& WithStopRow(std::string row, bool inclusive = false) {
    stop_row_ = std::move(row);
    stop_inclusive_ = inclusive;
    return *this;
  }
  // Only rows that start with `prefix` (HBase setStartStopRowForPrefixScan). Combined with
  // start and stop rows, the scan covers the intersection. Works for reversed scans too.
  Scan& SetRowPrefix(std::string prefix) {
    row_prefix_ = std::move(prefix);
    return *this;
  }

  Scan& SetReversed(bool reversed) {
    reversed_ = reversed;
    return *this;
  }
  // At most `n` rows in all. 0 or negative: no limit.
  Scan& SetLimit(int64_t n) {
    limit_ = n;
    return *this;
  }
  // At most `n` cells per RowResult; a wider row comes back in several pieces, all but the last
  // marked partial(). 0 or negative: whole rows.
  Scan& SetBatch(int32_t n) {
    batch_ = n;
    return *this;
  }
  // Rows fetched per round trip by remote backends. A hint; results do not depend on it.
  Scan& SetCaching(int32_t n) {
    caching_ = n;
    return *this;
  }
  Scan& AddFamily(std::string family) {
    columns_[std::move(family)].clear();
    return *this;
  }
  Scan& AddColumn(std::string family, std::string qualifier) {
    columns_[std::move(family)].insert(std::move(qualifier));
    return *this;
  }
  Scan& ReadVersions(int32_t n) {
    max_versions_ = n;
    return *this;
  }
  Scan& ReadAllVersions() {
    max_versions_ = INT32_MAX;
    return *this;
  }
  Scan& SetTimeRange(int64_t min, int64_t max) {
    time_range_ = {min, max};
    return *this;
  }
  Scan& SetTimestamp(int64_t ts) {
    time_range_ = TimeRange::At(ts);
    return *this;
  }
  Scan& SetMaxResultsPerColumnFamily(int32_t n) {
    max_results_per_family_ = n;
    return *this;
  }
  Scan& SetRowOffsetPerColumnFamily(int32_t n) {
    row_offset_per_family_ = n;
    return *this;
  }
  // Return delete markers and the cells they hide, every stored version (HBase setRaw).
  // A raw scan ignores the version limit of families but still honours time range, columns
  // and ReadVersions.
  Scan& SetRaw(bool raw) {
    raw_ = raw;
    return *this;
  }
  // Rows and cells to keep (filter.h); nullptr: all. Evaluated by the store while it reads.
  Scan& SetFilter(FilterPtr filter) {
    filter_ = std::move(filter);
    return *this;
  }

  const std::string& start_row() const { return start_row_; }
  bool start_inclusive() const { return start_inclusive_; }
  const std::string& stop_row() const { return stop_row_; }
  bool stop_inclusive() const { return stop_inclusive_; }
  const std::string& row_prefix() const { return row_prefix_; }
  bool reversed() const { return reversed_; }
  int64_t limit() const { return limit_; }
  int32_t batch() const { return batch_; }
  int32_t caching() const { return caching_; }
  const ColumnSelection& columns() const { return columns_; }
  int32_t max_versions() const { return max_versions_; }
  const TimeRange& time_range() const { return time_range_; }
  int32_t max_results_per_family() const { return max_results_per_family_; }
  int32_t row_offset_per_family() const { return row_offset_per_family_; }
  bool raw() const { return raw_; }
  const FilterPtr& filter() const { return filter_; }

 private:
  std::string start_row_;
  bool start_inclusive_ = true;
  std::string stop_row_;
  bool stop_inclusive_ = false;
  std::string row_prefix_;
  bool reversed_ = false;
  int64_t limit_ = 0;
  int32_t batch_ = 0;
  int32_t caching_ = 0;
  ColumnSelection columns_;
  int32_t max_versions_ = 1;
  TimeRange time_range_;
  int32_t max_results_per_family_ = -1;
  int32_t row_offset_per_family_ = 0;
  bool raw_ = false;
  FilterPtr filter_;
};

// The smallest key greater than every key that starts with `prefix`; empty when there is none
// (the prefix is empty or all 0xFF bytes). HBase's prefix-scan stop row.
std::string PrefixStopRow(std::string_view prefix);

}  // namespace basalt

#endif  // BASALT_SCAN_H_
