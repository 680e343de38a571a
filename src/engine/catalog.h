// The schema catalog: namespaces and tables as stored in the default column family (keys from
// key_format.h, values as JSON so that a human with ldb can read them).

#ifndef BASALT_ENGINE_CATALOG_H_
#define BASALT_ENGINE_CATALOG_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/schema.h"
#include "basalt/status.h"

namespace basalt::engine {

struct FamilyRecord {
  FamilyDescriptor descriptor;
  uint64_t id = 0;      // unique in the store, never reused
  std::string cf_name;  // the RocksDB column family holding the family's cells
};

struct TableRecord {
  TableName name;
  uint64_t id = 0;
  bool enabled = true;
  Durability durability = Durability::kUseDefault;
  std::vector<std::string> split_keys;
  std::vector<FamilyRecord> families;  // sorted by family name

  TableDescriptor Descriptor() const;
  const FamilyRecord* FindFamily(std::string_view name) const;
};

// The RocksDB column family name of a family: "f<id>" (ids are never reused, so a dropped and
// re-created family never sees old data).
std::string FamilyCfName(uint64_t family_id);

std::string EncodeTableRecord(const TableRecord& record);
Result<TableRecord> DecodeTableRecord(std::string_view bytes);

std::string EncodeNamespace(const NamespaceDescriptor& ns);
Result<NamespaceDescriptor> DecodeNamespace(std::string_view bytes);

}  // namespace basalt::engine

#endif  // BASALT_ENGINE_CATALOG_H_
