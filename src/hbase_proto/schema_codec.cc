#include "hbase_proto/schema_codec.h"

#include <cctype>
#include <charconv>
#include <map>
#include <string>
#include <string_view>

#include "hbase_proto/message_parse.h"

namespace basalt::hbase_proto {
namespace {

namespace pb = ::hbase::pb;

// HBase's attribute names (ColumnFamilyDescriptorBuilder, TableDescriptorBuilder).
constexpr std::string_view kVersions = "VERSIONS";
constexpr std::string_view kMinVersions = "MIN_VERSIONS";
constexpr std::string_view kTtl = "TTL";
constexpr std::string_view kKeepDeletedCells = "KEEP_DELETED_CELLS";
constexpr std::string_view kCompression = "COMPRESSION";
constexpr std::string_view kBloomFilter = "BLOOMFILTER";
constexpr std::string_view kBlockSize = "BLOCKSIZE";
constexpr std::string_view kDurability = "DURABILITY";
constexpr std::string_view kReadOnly = "READONLY";
constexpr std::string_view kIsMeta = "IS_META";
// HBase's HConstants.FOREVER, as the shell and REST may spell an unlimited TTL.
constexpr std::string_view kForeverText = "FOREVER";

Status BadAttribute(std::string_view owner, std::string_view attribute, std::string_view why) {
  return Status::InvalidArgument(std::string(owner) + " attribute " + std::string(attribute) +
                                 ": " + std::string(why));
}

// Java's Integer.parseInt over an attribute's text.
Result<int32_t> AttributeInt32(std::string_view owner, std::string_view attribute,
                               std::string_view text) {
  int32_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) {
    return BadAttribute(owner, attribute, "'" + Printable(text) + "' is not a 32-bit integer");
  }
  return value;
}

// `parsed` with the attribute named in its message.
template <class T>
Result<T> Named(std::string_view owner, std::string_view attribute, Result<T> parsed) {
  if (parsed.ok()) return parsed;
  return BadAttribute(owner, attribute, parsed.status().message());
}

Result<Durability> ParseDurabilityName(std::string_view text) {
  for (Durability d : {Durability::kUseDefault, Durability::kSkipWal, Durability::kAsyncWal,
                       Durability::kSyncWal, Durability::kFsyncWal}) {
    if (text == DurabilityName(d)) return d;
  }
  return Status::InvalidArgument("'" + Printable(text) + "' is not a durability");
}

// Java's coprocessor key pattern: "coprocessor$<digits>", any case.
bool IsCoprocessorKey(std::string_view key) {
  constexpr std::string_view kPrefix = "coprocessor$";
  if (key.size() <= kPrefix.size()) return false;
  for (size_t i = 0; i < kPrefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(key[i])) != kPrefix[i]) return false;
  }
  for (char c : key.substr(kPrefix.size())) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

void AddAttribute(std::string_view name, std::string_view value,
                  google::protobuf::RepeatedPtrField<pb::BytesBytesPair>* out) {
  pb::BytesBytesPair* pair = out->Add();
  pair->set_first(std::string(name));
  pair->set_second(std::string(value));
}

}  // namespace

void EncodeTableName(const TableName& name, pb::TableName* out) {
  out->set_namespace_(name.ns);
  out->set_qualifier(name.qualifier);
}

Result<TableName> DecodeTableName(const pb::TableName& name) {
  BASALT_RETURN_IF_ERROR(ValidateNamespaceName(name.namespace_()));
  BASALT_RETURN_IF_ERROR(ValidateTableQualifier(name.qualifier()));
  return TableName(name.namespace_(), name.qualifier());
}

void EncodeFamily(const FamilyDescriptor& family, pb::ColumnFamilySchema* out) {
  out->set_name(family.name);
  // Sorted by name, so equal descriptors give equal bytes; the kept attributes' names never
  // repeat a setting's (FamilyDescriptor::Validate).
  std::map<std::string_view, std::string> values;
  values[kVersions] = std::to_string(family.max_versions);
  values[kMinVersions] = std::to_string(family.min_versions);
  values[kTtl] = std::to_string(family.ttl_seconds);
  values[kKeepDeletedCells] = KeepDeletedCellsName(family.keep_deleted_cells);
  values[kCompression] = CompressionName(family.compression);
  values[kBloomFilter] = BloomFilterName(family.bloom_filter);
  values[kBlockSize] = std::to_string(family.block_size);
  for (const auto& [name, value] : family.attributes) values[name] = value;
  for (const auto& [name, value] : values) AddAttribute(name, value, out->mutable_attributes());
}

Result<FamilyDescriptor> DecodeFamily(const pb::ColumnFamilySchema& family) {
  FamilyDescriptor f(family.name());
  BASALT_RETURN_IF_ERROR(ValidateFamilyName(f.name));
  const std::string owner = "column family '" + f.name + "'";
  for (const pb::BytesBytesPair& pair : family.attributes()) {
    const std::string& key = pair.first();
    const std::string& text = pair.second();
    if (key == kVersions) {
      BASALT_ASSIGN_OR_RETURN(f.max_versions, AttributeInt32(owner, key, text));
    } else if (key == kMinVersions) {
      BASALT_ASSIGN_OR_RETURN(f.min_versions, AttributeInt32(owner, key, text));
    } else if (key == kTtl) {
      if (text == kForeverText) {
        f.ttl_seconds = kForeverTtl;
      } else {
        BASALT_ASSIGN_OR_RETURN(f.ttl_seconds, AttributeInt32(owner, key, text));
      }
    } else if (key == kBlockSize) {
      BASALT_ASSIGN_OR_RETURN(f.block_size, AttributeInt32(owner, key, text));
    } else if (key == kKeepDeletedCells) {
      BASALT_ASSIGN_OR_RETURN(f.keep_deleted_cells, Named(owner, key, ParseKeepDeletedCells(text)));
    } else if (key == kCompression) {
      BASALT_ASSIGN_OR_RETURN(f.compression, Named(owner, key, ParseCompression(text)));
    } else if (key == kBloomFilter) {
      BASALT_ASSIGN_OR_RETURN(f.bloom_filter, Named(owner, key, ParseBloomFilter(text)));
    } else {
      f.attributes[key] = text;
    }
  }
  BASALT_RETURN_IF_ERROR(f.Validate());
  return f;
}

void EncodeTable(const TableDescriptor& table, pb::TableSchema* out) {
  EncodeTableName(table.name, out->mutable_table_name());
  // What a descriptor built by Java's TableDescriptorBuilder holds, so that Java compares the
  // descriptor it gave with the one it reads back as equal: IS_META, and DURABILITY only when
  // set (Java's absent DURABILITY is USE_DEFAULT).
  AddAttribute(kIsMeta, "false", out->mutable_attributes());
  if (table.durability != Durability::kUseDefault) {
    AddAttribute(kDurability, DurabilityName(table.durability), out->mutable_attributes());
  }
  for (const FamilyDescriptor& f : table.families) EncodeFamily(f, out->add_column_families());
}

Result<TableDescriptor> DecodeTable(const pb::TableSchema& table) {
  if (!table.has_table_name()) return Status::InvalidArgument("table schema without a name");
  BASALT_ASSIGN_OR_RETURN(TableName name, DecodeTableName(table.table_name()));
  TableDescriptor d(std::move(name));
  const std::string owner = "table '" + d.name.ToString() + "'";
  for (const pb::BytesBytesPair& pair : table.attributes()) {
    const std::string& key = pair.first();
    const std::string& text = pair.second();
    if (key == kDurability) {
      BASALT_ASSIGN_OR_RETURN(d.durability, Named(owner, key, ParseDurabilityName(text)));
    } else if (key == kReadOnly) {
      // Java reads the value with Boolean.parseBoolean: "true" in any case.
      std::string lower = text;
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (lower == "true") {
        return BadAttribute(owner, key, "basalt cannot make a table read-only");
      }
    } else if (IsCoprocessorKey(key)) {
      return BadAttribute(owner, Printable(key), "basalt runs no coprocessors");
    }
  }
  for (const pb::ColumnFamilySchema& f : table.column_families()) {
    BASALT_ASSIGN_OR_RETURN(FamilyDescriptor family, DecodeFamily(f));
    d.AddFamily(std::move(family));
  }
  BASALT_RETURN_IF_ERROR(d.Validate());
  return d;
}

void EncodeNamespace(const NamespaceDescriptor& ns, pb::NamespaceDescriptor* out) {
  out->set_name(ns.name);
  for (const auto& [name, value] : ns.configuration) {
    pb::NameStringPair* pair = out->add_configuration();
    pair->set_name(name);
    pair->set_value(value);
  }
}

Result<NamespaceDescriptor> DecodeNamespace(const pb::NamespaceDescriptor& ns) {
  NamespaceDescriptor out;
  out.name = ns.name();
  BASALT_RETURN_IF_ERROR(ValidateNamespaceName(out.name));
  for (const pb::NameStringPair& pair : ns.configuration()) {
    out.configuration[pair.name()] = pair.value();
  }
  return out;
}

}  // namespace basalt::hbase_proto
