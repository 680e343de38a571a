// copy: HBase's SyncTable over the public Connection API: makes a target table equal to the
// source table a HashTable output (hash_table.h) was made from, rewriting only the ranges whose
// digests differ.
//
// Contract: the target's ranges are digested with the hash's own options (rows, time range,
// versions, families) in one scan; for each range whose digest differs, the source's and the
// target's cells of that range are compared row by row, cell by cell, keyed by (family,
// qualifier, timestamp). A cell the target lacks, or holds with another value, is put with its
// source timestamp (do_puts); a cell only the target has is deleted at exactly its timestamp
// (do_deletes). With dry_run nothing is written and the counts say what would be.
//
// On a real HBase whose families lack NEW_VERSION_BEHAVIOR, a cell put back under a newer delete
// marker (a row deleted on the target) stays hidden, as with HBase's own SyncTable: a second
// sync then still reports the range as differing.
#ifndef BASALT_COPY_SYNC_TABLE_H_
#define BASALT_COPY_SYNC_TABLE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "basalt/connection.h"
#include "basalt/status.h"
#include "copy/hash_table.h"

namespace basalt::copy {

struct SyncTableOptions {
  std::string source_table;  // empty: the hash's table
  std::string target_table;  // empty: the source table's name
  bool dry_run = false;      // --dryrun
  bool do_deletes = true;    // --doDeletes
  bool do_puts = true;       // --doPuts
};

struct SyncTableStats {
  int64_t ranges_checked = 0;
  int64_t ranges_matched = 0;
  int64_t ranges_differing = 0;
  int64_t rows_differing = 0;        // rows with at least one differing cell
  int64_t target_missing_rows = 0;   // rows only the source has
  int64_t source_missing_rows = 0;   // rows only the target has
  int64_t cells_put = 0;             // (or, with dry_run, that would be)
  int64_t cells_deleted = 0;         // (or, with dry_run, that would be)
  int64_t rows_put = 0;              // rows given at least one put
  int64_t rows_deleted = 0;          // rows given at least one delete
  std::vector<HashRange> differing;  // the differing ranges, with the source's digests
};

// Syncs `target` to `source` using `hash` (ReadTableHash or HashTable on the source).
Result<SyncTableStats> SyncTable(Connection& source, Connection& target, const TableHash& hash,
                                 const SyncTableOptions& options);

}  // namespace basalt::copy

#endif  // BASALT_COPY_SYNC_TABLE_H_
