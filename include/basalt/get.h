// Get: read one row. By default every family, newest version of each column.

#ifndef BASALT_GET_H_
#define BASALT_GET_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "basalt/filter.h"
#include "basalt/types.h"

namespace basalt {

// Which columns a read returns: family -> qualifiers. An empty qualifier set means the whole
// family; an empty map means every family of the table.
using ColumnSelection = std::map<std::string, std::set<std::string>>;

// The builders come in pairs, as Put's do: on a temporary (`Get(row).AddColumn(...)`) they return
// it as an rvalue, so handing the result to a vector for a multi-get moves it instead of copying
// its column selection and filter.
class Get {
 public:
  explicit Get(std::string row) : row_(std::move(row)) {}

  // The whole family; replaces earlier AddColumn calls for it.
  Get& AddFamily(std::string family) & {
    columns_[std::move(family)].clear();
    return *this;
  }
  Get&& AddFamily(std::string family) && { return std::move(AddFamily(std::move(family))); }
  // One column; after AddFamily for the same family, narrows the read to the added columns.
  Get& AddColumn(std::string family, std::string qualifier) & {
    columns_[std::move(family)].insert(std::move(qualifier));
    return *this;
  }
  Get&& AddColumn(std::string family, std::string qualifier) && {
    return std::move(AddColumn(std::move(family), std::move(qualifier)));
  }
  // At most `n` versions per column, newest first. Default: 1. REQUIRES: n >= 1.
  Get& ReadVersions(int32_t n) & {
    max_versions_ = n;
    return *this;
  }
  Get&& ReadVersions(int32_t n) && { return std::move(ReadVersions(n)); }
  Get& ReadAllVersions() & {
    max_versions_ = INT32_MAX;
    return *this;
  }
  Get&& ReadAllVersions() && { return std::move(ReadAllVersions()); }
  // Only versions with min <= timestamp < max.
  Get& SetTimeRange(int64_t min, int64_t max) & {
    time_range_ = {min, max};
    return *this;
  }
  Get&& SetTimeRange(int64_t min, int64_t max) && { return std::move(SetTimeRange(min, max)); }
  // Only the version at exactly `ts`.
  Get& SetTimestamp(int64_t ts) & {
    time_range_ = TimeRange::At(ts);
    return *this;
  }
  Get&& SetTimestamp(int64_t ts) && { return std::move(SetTimestamp(ts)); }
  // Per family, at most `n` cells (HBase setMaxResultsPerColumnFamily; Thrift2 storeLimit).
  Get& SetMaxResultsPerColumnFamily(int32_t n) & {
    max_results_per_family_ = n;
    return *this;
  }
  Get&& SetMaxResultsPerColumnFamily(int32_t n) && {
    return std::move(SetMaxResultsPerColumnFamily(n));
  }
  // Per family, skip the first `n` cells (HBase setRowOffsetPerColumnFamily; storeOffset).
  Get& SetRowOffsetPerColumnFamily(int32_t n) & {
    row_offset_per_family_ = n;
    return *this;
  }
  Get&& SetRowOffsetPerColumnFamily(int32_t n) && {
    return std::move(SetRowOffsetPerColumnFamily(n));
  }

  // Cells to keep (filter.h); nullptr: all. Row-level filters decide whether the row is
  // returned at all.
  Get& SetFilter(FilterPtr filter) & {
    filter_ = std::move(filter);
    return *this;
  }
  Get&& SetFilter(FilterPtr filter) && { return std::move(SetFilter(std::move(filter))); }

  const std::string& row() const { return row_; }
  const ColumnSelection& columns() const { return columns_; }
  int32_t max_versions() const { return max_versions_; }
  const TimeRange& time_range() const { return time_range_; }
  int32_t max_results_per_family() const { return max_results_per_family_; }
  int32_t row_offset_per_family() const { return row_offset_per_family_; }
  const FilterPtr& filter() const { return filter_; }

 private:
  std::string row_;
  ColumnSelection columns_;
  int32_t max_versions_ = 1;
  TimeRange time_range_;
  int32_t max_results_per_family_ = -1;
  int32_t row_offset_per_family_ = 0;
  FilterPtr filter_;
};

}  // namespace basalt

#endif  // BASALT_GET_H_
