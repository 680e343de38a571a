// Schema objects: table names, namespaces, column families and tables, as in HBase's
// TableDescriptor / ColumnFamilyDescriptor. These are plain values; Admin stores them.

#ifndef BASALT_SCHEMA_H_
#define BASALT_SCHEMA_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/status.h"
#include "basalt/types.h"

namespace basalt {

// A table's full name: `namespace:qualifier`. A name without a colon is in the "default"
// namespace, as in HBase.
struct TableName {
  std::string ns = "default";
  std::string qualifier;

  TableName() = default;
  TableName(std::string ns_in, std::string qualifier_in)
      : ns(std::move(ns_in)), qualifier(std::move(qualifier_in)) {}

  // Parses "ns:qualifier" or "qualifier" and validates both parts.
  static Result<TableName> Parse(std::string_view text);

  // "qualifier" for the default namespace, otherwise "ns:qualifier" (HBase's
  // getNameAsString).
  std::string ToString() const;

  friend auto operator<=>(const TableName&, const TableName&) = default;
};

inline constexpr std::string_view kDefaultNamespace = "default";
inline constexpr std::string_view kSystemNamespace = "hbase";

// Name rules (HBase's TableName and ColumnFamilyDescriptor checks):
//  - namespace: 1-128 characters of [A-Za-z0-9_];
//  - table qualifier: 1-128 characters of [A-Za-z0-9_.-], not starting with '.' or '-';
//  - family: 1-127 printable ASCII characters, no ':' and not starting with '.'.
Status ValidateNamespaceName(std::string_view name);
Status ValidateTableQualifier(std::string_view name);
Status ValidateFamilyName(std::string_view name);

enum class Compression : uint8_t { kNone, kSnappy, kLz4, kZstd, kGz };
enum class BloomFilter : uint8_t {
  kNone,
  kRow,     // filter on the row key: point gets and row scans skip files without the row
  kRowCol,  // accepted for compatibility; basalt filters on the row (see docs/data-model.md)
};
enum class KeepDeletedCells : uint8_t { kFalse = 0, kTrue = 1, kTtl = 2 };  // TKeepDeletedCells

std::string_view CompressionName(Compression c);  // HBase spelling: "NONE", "SNAPPY", ...
Result<Compression> ParseCompression(std::string_view name);  // case-insensitive
std::string_view BloomFilterName(BloomFilter b);              // "NONE", "ROW", "ROWCOL"
Result<BloomFilter> ParseBloomFilter(std::string_view name);
std::string_view KeepDeletedCellsName(KeepDeletedCells k);  // "FALSE", "TRUE", "TTL"
Result<KeepDeletedCells> ParseKeepDeletedCells(std::string_view name);

inline constexpr int32_t kForeverTtl = 2147483647;  // HConstants.FOREVER, seconds

struct FamilyDescriptor {
  std::string name;
  // Versions a read can see per column; older ones are dropped at compaction. Default: 1.
  int32_t max_versions = 1;
  // Versions kept even after their TTL expires. 0 (the default) turns this off.
  // REQUIRES: min_versions <= max_versions.
  int32_t min_versions = 0;
  // Seconds a cell lives after its timestamp. Default: forever.
  int32_t ttl_seconds = kForeverTtl;
  KeepDeletedCells keep_deleted_cells = KeepDeletedCells::kFalse;
  Compression compression = Compression::kNone;
  BloomFilter bloom_filter = BloomFilter::kRow;
  // Target size of an uncompressed data block, bytes. Default: 64 KiB as HBase.
  int32_t block_size = 65536;
  // HBase's other column-family attributes, by HBase's name (IN_MEMORY, BLOCKCACHE,
  // REPLICATION_SCOPE, DATA_BLOCK_ENCODING, ...): kept with the schema and read back, so HBase
  // clients see what they set, but basalt does not act on them. Names are 1..64 of [A-Z0-9_.],
  // not one of the settings above; values at most 1024 bytes; at most 32 attributes.
  std::map<std::string, std::string> attributes;

  explicit FamilyDescriptor(std::string name_in = "") : name(std::move(name_in)) {}

  // Checks the name and the numeric settings (ranges, min_versions <= max_versions).
  Status Validate() const;

  friend bool operator==(const FamilyDescriptor&, const FamilyDescriptor&) = default;
};

// The most families one table may have; CreateTable and AddFamily refuse more with
// InvalidArgument. HBase has no such cap but advises one to three families. Each basalt family
// is a RocksDB column family of its own, and RocksDB rewrites its OPTIONS file, which lists every
// column family of the store, at each family created or dropped: the cap bounds what one schema
// change costs (docs/data-model.md, "Families").
inline constexpr size_t kMaxFamiliesPerTable = 64;

struct TableDescriptor {
  TableName name;
  std::vector<FamilyDescriptor> families;  // sorted by name in descriptors that Admin returns
  Durability durability = Durability::kUseDefault;  // kUseDefault means kSyncWal

  TableDescriptor() = default;
  explicit TableDescriptor(TableName name_in) : name(std::move(name_in)) {}

  TableDescriptor& AddFamily(FamilyDescriptor family) {
    families.push_back(std::move(family));
    return *this;
  }

  // nullptr when the table has no such family.
  const FamilyDescriptor* FindFamily(std::string_view family) const;

  // Checks names, at least one family, no duplicate family. (The engine checks
  // kMaxFamiliesPerTable.)
  Status Validate() const;

  friend bool operator==(const TableDescriptor&, const TableDescriptor&) = default;
};

struct NamespaceDescriptor {
  std::string name;
  std::map<std::string, std::string> configuration;

  friend bool operator==(const NamespaceDescriptor&, const NamespaceDescriptor&) = default;
};

// What Admin::DescribeTable returns: the descriptor plus state.
struct TableInfo {
  TableDescriptor descriptor;
  bool enabled = true;
  // Region boundaries: the split keys the table was created with, sorted. N keys give N + 1
  // regions; basalt keeps them as metadata for clients that page per region.
  std::vector<std::string> split_keys;
};

}  // namespace basalt

#endif  // BASALT_SCHEMA_H_
