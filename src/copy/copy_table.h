// copy: HBase's CopyTable over the public Connection API, so it copies between any two backends
// (embedded, thrift:// to HBase or `basalt serve`).
//
// Contract: every cell the scan selects (key range, time range, versions, families) is written
// to the destination with its row, qualifier, timestamp and value unchanged; a family may be
// renamed (HBase's --families=old:new). Rows are copied in key order in batches; after each
// batch the last copied row is recorded in the state file (written to a temporary file and
// renamed, so a crash leaves the previous record), and a run given the same state file starts
// after that row. Writes are idempotent (same timestamps), so re-copying a batch is harmless.
#ifndef BASALT_COPY_COPY_TABLE_H_
#define BASALT_COPY_COPY_TABLE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "basalt/connection.h"
#include "basalt/status.h"

namespace basalt::copy {

struct CopyTableOptions {
  std::string table;                // source table
  std::string new_name;             // destination table (HBase --new.name); empty: `table`
  std::string start_row;            // inclusive (--startrow)
  std::string stop_row;             // exclusive, empty: to the end (--stoprow)
  int64_t start_time = 0;           // inclusive (--starttime)
  std::optional<int64_t> end_time;  // exclusive (--endtime)
  int32_t versions = 1;             // versions per column (--versions)
  std::map<std::string, std::string> families;  // source -> destination; empty: all, unchanged
  int64_t max_rows_per_second = 0;              // 0: no cap
  int64_t max_bytes_per_second = 0;             // 0: no cap
  int32_t batch_rows = 500;                     // rows per destination write and per state record
  std::string state_file;                       // empty: not resumable
};

struct CopyTableStats {
  int64_t rows = 0;
  int64_t cells = 0;
  int64_t bytes = 0;
  bool resumed = false;
  std::string last_row;  // the last row written
};

// Called after each batch is written (for progress reports).
using CopyProgress = std::function<void(const CopyTableStats&)>;

// Parses HBase's --families value: "a,b:c" copies a as a and b as c.
Result<std::map<std::string, std::string>> ParseFamilies(std::string_view text);

// Copies; the destination table must exist with the destination families. On failure the state
// file holds the last batch written in full.
Result<CopyTableStats> CopyTable(Connection& source, Connection& destination,
                                 const CopyTableOptions& options,
                                 const CopyProgress& progress = {});

}  // namespace basalt::copy

#endif  // BASALT_COPY_COPY_TABLE_H_
