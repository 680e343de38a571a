// Table snapshots, as HBase's: a named, durable copy of one table's schema and cells at one point
// of the write order, taken in time independent of the table's size (its files are hard-linked,
// not copied). A snapshot is either complete or absent: a crash while one is taken or deleted
// leaves nothing that ListSnapshots shows. Snapshots live beside the store's files
// (`<data>/snapshots/`), so only an embedded store on disk has them; they are not part of a
// backup (basalt/backup.h).

#ifndef BASALT_SNAPSHOT_H_
#define BASALT_SNAPSHOT_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "basalt/schema.h"
#include "basalt/status.h"

namespace basalt {

struct SnapshotInfo {
  std::string name;
  TableName table;               // the table it was taken of
  int64_t creation_time_ms = 0;  // milliseconds since the epoch
  // What its files cost on disk: a file the live table (or another snapshot) still shares costs
  // nothing extra and counts as shared; a file only the snapshot holds (its link count is 1:
  // the table has compacted it away) counts as exclusive.
  uint64_t shared_bytes = 0;
  uint64_t exclusive_bytes = 0;
};

// The longest snapshot name: a snapshot is a directory named after it.
inline constexpr size_t kMaxSnapshotNameLength = 200;

// OK when `name` is a legal snapshot name, as HBase's rule: [a-zA-Z_0-9][a-zA-Z_0-9-.]*, at
// most kMaxSnapshotNameLength characters. InvalidArgument naming the fault otherwise.
Status ValidateSnapshotName(std::string_view name);

}  // namespace basalt

#endif  // BASALT_SNAPSHOT_H_
