#include "engine/catalog.h"

#include <nlohmann/json.hpp>

namespace basalt::engine {
namespace {

using nlohmann::json;

std::string HexEncode(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (char c : bytes) {
    auto u = static_cast<unsigned char>(c);
    out.push_back(kHex[u >> 4]);
    out.push_back(kHex[u & 0xf]);
  }
  return out;
}

bool HexDecode(std::string_view hex, std::string* out) {
  if (hex.size() % 2 != 0) return false;
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  out->clear();
  for (size_t i = 0; i < hex.size(); i += 2) {
    int hi = nibble(hex[i]);
    int lo = nibble(hex[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<char>(hi * 16 + lo));
  }
  return true;
}

json FamilyToJson(const FamilyRecord& f) {
  const FamilyDescriptor& d = f.descriptor;
  json j{{"name", d.name},
         {"id", f.id},
         {"cf", f.cf_name},
         {"max_versions", d.max_versions},
         {"min_versions", d.min_versions},
         {"ttl_seconds", d.ttl_seconds},
         {"keep_deleted_cells", KeepDeletedCellsName(d.keep_deleted_cells)},
         {"compression", CompressionName(d.compression)},
         {"bloom_filter", BloomFilterName(d.bloom_filter)},
         {"block_size", d.block_size}};
  // Only when set: records without attributes keep the format they always had.
  if (!d.attributes.empty()) j["attributes"] = d.attributes;
  return j;
}

Result<FamilyRecord> FamilyFromJson(const json& j) {
  FamilyRecord f;
  FamilyDescriptor& d = f.descriptor;
  d.name = j.at("name").get<std::string>();
  f.id = j.at("id").get<uint64_t>();
  f.cf_name = j.at("cf").get<std::string>();
  d.max_versions = j.at("max_versions").get<int32_t>();
  d.min_versions = j.at("min_versions").get<int32_t>();
  d.ttl_seconds = j.at("ttl_seconds").get<int32_t>();
  BASALT_ASSIGN_OR_RETURN(d.keep_deleted_cells,
                          ParseKeepDeletedCells(j.at("keep_deleted_cells").get<std::string>()));
  BASALT_ASSIGN_OR_RETURN(d.compression, ParseCompression(j.at("compression").get<std::string>()));
  BASALT_ASSIGN_OR_RETURN(d.bloom_filter,
                          ParseBloomFilter(j.at("bloom_filter").get<std::string>()));
  d.block_size = j.at("block_size").get<int32_t>();
  // Absent in records written before attributes were kept.
  if (j.contains("attributes")) {
    d.attributes = j.at("attributes").get<std::map<std::string, std::string>>();
  }
  return f;
}

}  // namespace

std::string FamilyCfName(uint64_t family_id) {
  return "f" + std::to_string(family_id);
}

TableDescriptor TableRecord::Descriptor() const {
  TableDescriptor d(name);
  d.durability = durability;
  for (const auto& f : families) d.families.push_back(f.descriptor);
  return d;
}

const FamilyRecord* TableRecord::FindFamily(std::string_view family) const {
  for (const auto& f : families) {
    if (f.descriptor.name == family) return &f;
  }
  return nullptr;
}

std::string EncodeTableRecord(const TableRecord& r) {
  json families = json::array();
  for (const auto& f : r.families) families.push_back(FamilyToJson(f));
  json splits = json::array();
  for (const auto& s : r.split_keys) splits.push_back(HexEncode(s));
  json j{{"namespace", r.name.ns},
         {"qualifier", r.name.qualifier},
         {"id", r.id},
         {"enabled", r.enabled},
         {"durability", static_cast<int>(r.durability)},
         {"split_keys_hex", splits},
         {"families", families}};
  return j.dump();
}

Result<TableRecord> DecodeTableRecord(std::string_view bytes) {
  try {
    json j = json::parse(bytes);
    TableRecord r;
    r.name.ns = j.at("namespace").get<std::string>();
    r.name.qualifier = j.at("qualifier").get<std::string>();
    r.id = j.at("id").get<uint64_t>();
    r.enabled = j.at("enabled").get<bool>();
    int durability = j.at("durability").get<int>();
    if (durability < 0 || durability > static_cast<int>(Durability::kFsyncWal)) {
      return Status::Corruption("catalog: bad durability " + std::to_string(durability));
    }
    r.durability = static_cast<Durability>(durability);
    for (const auto& s : j.at("split_keys_hex")) {
      std::string key;
      if (!HexDecode(s.get<std::string>(), &key)) return Status::Corruption("catalog: bad split");
      r.split_keys.push_back(std::move(key));
    }
    for (const auto& f : j.at("families")) {
      BASALT_ASSIGN_OR_RETURN(FamilyRecord family, FamilyFromJson(f));
      r.families.push_back(std::move(family));
    }
    return r;
  } catch (const json::exception& e) {
    return Status::Corruption(std::string("catalog: table record does not decode: ") + e.what());
  }
}

std::string EncodeNamespace(const NamespaceDescriptor& ns) {
  json j{{"name", ns.name}, {"configuration", ns.configuration}};
  return j.dump();
}

Result<NamespaceDescriptor> DecodeNamespace(std::string_view bytes) {
  try {
    json j = json::parse(bytes);
    NamespaceDescriptor ns;
    ns.name = j.at("name").get<std::string>();
    ns.configuration = j.at("configuration").get<std::map<std::string, std::string>>();
    return ns;
  } catch (const json::exception& e) {
    return Status::Corruption(std::string("catalog: namespace record does not decode: ") +
                              e.what());
  }
}

}  // namespace basalt::engine
