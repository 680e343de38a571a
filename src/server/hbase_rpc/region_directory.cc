#include "server/hbase_rpc/region_directory.h"

#include <algorithm>

#include "basalt/key_spread.h"
#include "basalt/types.h"

namespace basalt::server::hbase_rpc {
namespace {

std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

}  // namespace

Region RegionDirectory::Named(const TableName& table, uint64_t id, std::string start_key,
                              std::string end_key) {
  // HBase: the encoded name is the MD5 of everything before it, in hex.
  std::string prefix = table.ToString() + "," + start_key + "," + std::to_string(id);
  std::string digest = HashPrefix(prefix, HashSize(HashKind::kMd5), HashKind::kMd5).value();
  Region region{table, id, std::move(start_key), std::move(end_key), {}};
  region.name = prefix + "." + Hex(digest) + ".";
  return region;
}

std::vector<Region> RegionDirectory::Regions(const TableName& table,
                                             const std::vector<std::string>& split_keys) {
  util::MutexLock lock(mu_);
  auto [it, inserted] = tables_.try_emplace(table);
  if (inserted) it->second.id = first_region_id_;
  std::vector<Region> regions;
  std::string start;
  for (size_t i = 0; i <= split_keys.size(); ++i) {
    std::string end = i < split_keys.size() ? split_keys[i] : std::string();
    regions.push_back(Named(table, it->second.id, start, end));
    it->second.names.insert(regions.back().name);
    start = std::move(end);
  }
  return regions;
}

uint64_t RegionDirectory::NextId() {
  // Above the first id too, which the table's earlier regions may have had.
  last_id_ =
      std::max({static_cast<uint64_t>(SystemWallMillis()), last_id_ + 1, first_region_id_ + 1});
  return last_id_;
}

void RegionDirectory::Renew(const TableName& table) {
  util::MutexLock lock(mu_);
  tables_[table] = Incarnation{NextId(), {}};
}

void RegionDirectory::Forget(const TableName& table) {
  // The table's next regions are new ones whichever protocol brings the table back.
  util::MutexLock lock(mu_);
  tables_[table] = Incarnation{NextId(), {}};
}

std::optional<TableName> RegionDirectory::Resolve(std::string_view region_name) {
  const size_t comma = region_name.find(',');
  if (comma == std::string_view::npos) return std::nullopt;
  Result<TableName> table = TableName::Parse(region_name.substr(0, comma));
  if (!table.ok()) return std::nullopt;
  util::MutexLock lock(mu_);
  auto it = tables_.find(*table);
  if (it == tables_.end() || !it->second.names.count(region_name)) return std::nullopt;
  return *std::move(table);
}

void FillRegionInfo(const Region& region, ::hbase::pb::RegionInfo* out) {
  out->set_region_id(region.id);
  out->mutable_table_name()->set_namespace_(region.table.ns);
  out->mutable_table_name()->set_qualifier(region.table.qualifier);
  out->set_start_key(region.start_key);
  out->set_end_key(region.end_key);
  out->set_offline(false);
  out->set_split(false);
  out->set_replica_id(0);
}

std::string PrintableRegionName(std::string_view name) {
  std::string out;
  for (unsigned char c : name.substr(0, 300)) {
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out.push_back(static_cast<char>(c));
    } else {
      static constexpr char kDigits[] = "0123456789ABCDEF";
      out += "\\x";
      out.push_back(kDigits[c >> 4]);
      out.push_back(kDigits[c & 15]);
    }
  }
  return out;
}

}  // namespace basalt::server::hbase_rpc
