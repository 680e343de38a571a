// BulkLoader: loads a large, sorted set of cells into an existing table by writing RocksDB table
// files directly and ingesting them, as HBase's bulk load does with HFiles. Obtained from
// Admin::NewBulkLoader; the embedded backend only (thrift:// answers NotSupported).
//
//   auto loader = conn->admin().NewBulkLoader(TableName("default", "users"));
//   for (...) BASALT_RETURN_IF_ERROR((*loader)->Add(row, "info", "name", value));
//   BASALT_ASSIGN_OR_RETURN(BulkLoadStats stats, (*loader)->Finish());
//
// Order. Each family's cells must come in the store's cell order: row ascending (bytewise), then
// qualifier ascending, then timestamp descending. The families of a table are loaded
// independently, so cells of different families may interleave in any way (a row's "a:x" may
// follow its "b:y"). A cell out of that order, or a second cell with the same row, column and
// timestamp, fails with InvalidArgument naming both cells. Nothing is sorted or buffered in
// memory: cells go to table files as they are added, so a load may be far larger than memory.
//
// What a loaded cell is. A loaded cell reads exactly like the same cell written by a Put: it
// has the versions, TTL, delete and compaction rules of its family. Cells added without a
// timestamp get one: the time the loader was created (as one Put gives all its cells one time).
// The whole load takes its place in the store's write order when the loader is created, as one
// Put would:
//   - deletes made before NewBulkLoader never hide loaded cells; deletes made afterwards (while
//     the load runs, or later) hide the loaded cells they cover, as they hide older Puts;
//   - a Put made while the load runs and a loaded cell of the same column are ordered by their
//     timestamps, newest first. When both have exactly the same row, column and timestamp, the
//     loaded cell replaces the Put's (the load lands in storage last).
//
// Atomicity. Nothing is visible until Finish returns OK; then every cell of every family is, at
// once (one RocksDB ingest across the table's column families) and durably. A failed Add ends
// the load: later calls return that error, and nothing is loaded. Destroying an unfinished
// loader, or a failed Finish, loads nothing and deletes its files. A crash before Finish leaves
// files that the next open of the store deletes.
//
// The table must exist and be enabled, at NewBulkLoader and at Finish. A schema change of the
// table while the load runs that drops, truncates or recreates a family being loaded makes
// Finish fail with FailedPrecondition; other schema changes are fine.
//
// Thread safety: a BulkLoader belongs to one thread at a time. Several loaders (of the same or
// different tables) may run at once; each is atomic on its own. It must be destroyed before the
// Connection that made it is closed; after Connection::Close, Finish fails with Aborted and
// loads nothing (Add may still take cells until it needs a new file).

#ifndef BASALT_BULK_LOAD_H_
#define BASALT_BULK_LOAD_H_

#include <cstdint>
#include <string_view>

#include "basalt/status.h"
#include "basalt/types.h"

namespace basalt {

struct BulkLoadOptions {
  // A family's table file is closed, and the next begun, once it reaches this size. Smaller
  // files spread later compactions; larger ones mean fewer files. Default: 256 MiB.
  uint64_t target_file_bytes = uint64_t{256} << 20;
};

// What a finished load did.
struct BulkLoadStats {
  int64_t cells = 0;  // cells loaded
  int64_t files = 0;  // table files ingested (at least one per family with cells)
  int64_t bytes = 0;  // their total size
};

class BulkLoader {
 public:
  // Abandons the load unless Finish succeeded: nothing becomes visible, its files are deleted.
  virtual ~BulkLoader() = default;

  // Adds one cell (a Put cell; no delete markers). The checks of a Put apply: a non-empty row of
  // at most kMaxRowKeyLength bytes, a family of the table, a qualifier of at most 65535 bytes, a
  // timestamp >= 0 (or kLatestTimestamp: the loader's time), a value within the connection's
  // value size limit. Then the order above. Any failure ends the load (see Atomicity).
  virtual Status Add(std::string_view row, std::string_view family, std::string_view qualifier,
                     std::string_view value, int64_t timestamp = kLatestTimestamp) = 0;

  // Cells added so far.
  virtual int64_t cells() const = 0;

  // Ingests every cell added, atomically. OK with zero cells loads nothing. After it (either
  // way) the loader takes no more cells: Add and Finish return FailedPrecondition.
  virtual Result<BulkLoadStats> Finish() = 0;
};

}  // namespace basalt

#endif  // BASALT_BULK_LOAD_H_
