// copy: HBase's HashTable over the public Connection API: a table's key range cut into contiguous
// row ranges of about `batch_size` bytes, each with a digest of every cell the scan selects, so
// that sync_table.h can tell which ranges of another copy differ without reading them twice.
//
// Contract: the ranges cover [start_row, stop_row) with no gap: the first starts at start_row,
// each ends where the next starts (at the first row of the next batch), the last ends at
// stop_row (empty: the end of the table). A range's digest is XXH3-128 over its cells in scan
// order, each as (row, family, qualifier, timestamp, type, value) with lengths and a big-endian
// timestamp, so it depends only on the cells: the same data hashes the same from any backend.
//
// The output is a directory holding `manifest` (the options, one `key=value` a line) and
// `hashes` (one line a range: start row, stop row, digest), rows escaped by EscapeRow. It is
// written beside OUTPUT_DIR and renamed into place, so a reader sees all of it or nothing; an
// existing OUTPUT_DIR is refused (as HBase's HashTable refuses an existing output path).
#ifndef BASALT_COPY_HASH_TABLE_H_
#define BASALT_COPY_HASH_TABLE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/connection.h"
#include "basalt/status.h"

namespace basalt::copy {

struct HashTableOptions {
  std::string table;                  // as NAME or NAMESPACE:NAME
  std::string start_row;              // inclusive (--startrow)
  std::string stop_row;               // exclusive, empty: to the end (--stoprow)
  int64_t start_time = 0;             // inclusive (--starttime)
  std::optional<int64_t> end_time;    // exclusive (--endtime)
  int32_t versions = 1;               // versions per column (--versions)
  std::vector<std::string> families;  // empty: all (--families)
  int64_t batch_size = 8000;          // bytes of cells per range (HBase's --batchsize default)
  friend bool operator==(const HashTableOptions&, const HashTableOptions&) = default;
};

struct HashRange {
  std::string start_row;  // inclusive
  std::string stop_row;   // exclusive; empty in the last range: the end of the table
  std::string digest;     // 32 lowercase hex digits
  friend bool operator==(const HashRange&, const HashRange&) = default;
};

struct TableHash {
  HashTableOptions options;
  std::vector<HashRange> ranges;
  int64_t rows = 0;   // counted while hashing; not stored
  int64_t cells = 0;  // counted while hashing; not stored
};

// Computes the digest of each range of `ranges` (start and stop rows only) on `conn`, with the
// scan `options` describes, by one scan over the whole key range. The ranges must be sorted and
// contiguous (as HashTable writes them).
Result<std::vector<std::string>> DigestRanges(Connection& conn, const std::string& table,
                                              const HashTableOptions& options,
                                              const std::vector<HashRange>& ranges);

// The scan HashTable and SyncTable read with: the options' rows, times, versions and families.
Scan HashScan(const HashTableOptions& options, const std::string& start_row,
              const std::string& stop_row);

// Hashes the table on `conn`.
Result<TableHash> HashTable(Connection& conn, const HashTableOptions& options);

// Writes `hash` into `dir` (which must not exist) atomically, as described above.
Status WriteTableHash(const TableHash& hash, const std::string& dir);

// Reads what WriteTableHash wrote; InvalidArgument for anything else.
Result<TableHash> ReadTableHash(const std::string& dir);

// Rows in the files: bytes 0x21-0x7e as themselves except '\\' and '"', others as \xHH; the
// empty row as "" (so every field is non-empty and the line splits at spaces).
std::string EscapeRow(std::string_view row);
Result<std::string> UnescapeRow(std::string_view text);

}  // namespace basalt::copy

#endif  // BASALT_COPY_HASH_TABLE_H_
