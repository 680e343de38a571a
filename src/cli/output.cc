#include "cli/output.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "util/bytes_format.h"

namespace basalt::cli {
namespace {

using Json = nlohmann::json;
using util::ToStringBinary;

Json CellJson(const Cell& c) {
  Json j = {{"family", ToStringBinary(c.family)},
            {"qualifier", ToStringBinary(c.qualifier)},
            {"timestamp", c.timestamp},
            {"value", ToStringBinary(c.value)}};
  if (c.type != CellType::kPut) j["type"] = std::string(CellTypeName(c.type));
  return j;
}

Json RowJson(const RowResult& row) {
  Json cells = Json::array();
  for (const Cell& c : row.cells()) cells.push_back(CellJson(c));
  return {{"row", ToStringBinary(row.row())}, {"cells", std::move(cells)}};
}

std::string CellText(const Cell& c) {
  std::string text = "timestamp=" + std::to_string(c.timestamp);
  if (c.type != CellType::kPut) text += ", type=" + std::string(CellTypeName(c.type));
  return text + ", value=" + ToStringBinary(c.value);
}

std::string ColumnText(const Cell& c) {
  return ToStringBinary(c.family) + ":" + ToStringBinary(c.qualifier);
}

// HBase shell pads the first column to at least this width.
constexpr size_t kFirstColumnWidth = 30;

std::string Pad(const std::string& s) {
  return s.size() >= kFirstColumnWidth ? s + " "
                                       : s + std::string(kFirstColumnWidth - s.size(), ' ');
}

std::string Ttl(int32_t seconds) {
  return seconds == kForeverTtl ? "FOREVER" : std::to_string(seconds);
}

}  // namespace

void Output::Row(const RowResult& row) {
  if (json_) {
    out_ << RowJson(row).dump() << "\n";
    return;
  }
  out_ << Pad("COLUMN") << "CELL\n";
  for (const Cell& c : row.cells()) out_ << " " << Pad(ColumnText(c)) << CellText(c) << "\n";
  out_ << (row.empty() ? 0 : 1) << " row(s)\n";
}

void Output::BeginRows() {
  first_row_ = true;
  if (json_) {
    out_ << "[";
  } else {
    out_ << Pad("ROW") << "COLUMN+CELL\n";
  }
}

void Output::NextRow(const RowResult& row) {
  if (json_) {
    out_ << (first_row_ ? "\n" : ",\n") << RowJson(row).dump();
  } else {
    for (const Cell& c : row.cells()) {
      out_ << " " << Pad(ToStringBinary(row.row())) << "column=" << ColumnText(c) << ", "
           << CellText(c) << "\n";
    }
  }
  first_row_ = false;
}

void Output::EndRows(int64_t count) {
  if (json_) {
    out_ << (first_row_ ? "]\n" : "\n]\n");
  } else {
    out_ << count << " row(s)\n";
  }
}

void Output::Tables(const std::vector<TableName>& tables) {
  if (json_) {
    Json j = Json::array();
    for (const auto& t : tables) j.push_back({{"namespace", t.ns}, {"table", t.qualifier}});
    out_ << j.dump() << "\n";
    return;
  }
  out_ << "TABLE\n";
  for (const auto& t : tables) out_ << t.ToString() << "\n";
  out_ << tables.size() << " row(s)\n";
}

void Output::Namespaces(const std::vector<NamespaceDescriptor>& namespaces) {
  if (json_) {
    Json j = Json::array();
    for (const auto& ns : namespaces) j.push_back(ns.name);
    out_ << j.dump() << "\n";
    return;
  }
  out_ << "NAMESPACE\n";
  for (const auto& ns : namespaces) out_ << ns.name << "\n";
  out_ << namespaces.size() << " row(s)\n";
}

void Output::Snapshots(const std::vector<SnapshotInfo>& snapshots) {
  if (json_) {
    Json j = Json::array();
    for (const auto& s : snapshots) {
      j.push_back({{"name", s.name},
                   {"table", s.table.ToString()},
                   {"creation_time_ms", s.creation_time_ms},
                   {"shared_bytes", s.shared_bytes},
                   {"exclusive_bytes", s.exclusive_bytes}});
    }
    out_ << j.dump() << "\n";
    return;
  }
  out_ << "SNAPSHOT\tTABLE\tCREATION_TIME_MS\tSHARED_BYTES\tEXCLUSIVE_BYTES\n";
  for (const auto& s : snapshots) {
    out_ << s.name << "\t" << s.table.ToString() << "\t" << s.creation_time_ms << "\t"
         << s.shared_bytes << "\t" << s.exclusive_bytes << "\n";
  }
  out_ << snapshots.size() << " row(s)\n";
}

void Output::Table(const TableInfo& info, std::optional<size_t>) {
  const TableDescriptor& d = info.descriptor;
  if (json_) {
    Json families = Json::array();
    for (const auto& f : d.families) {
      families.push_back({{"name", f.name},
                          {"versions", f.max_versions},
                          {"min_versions", f.min_versions},
                          {"ttl", f.ttl_seconds},
                          {"keep_deleted_cells", KeepDeletedCellsName(f.keep_deleted_cells)},
                          {"compression", CompressionName(f.compression)},
                          {"bloom_filter", BloomFilterName(f.bloom_filter)},
                          {"block_size", f.block_size}});
    }
    Json splits = Json::array();
    for (const auto& s : info.split_keys) splits.push_back(ToStringBinary(s));
    out_ << Json{{"name", d.name.ToString()},
                 {"enabled", info.enabled},
                 {"durability", DurabilityName(d.durability)},
                 {"split_keys", std::move(splits)},
                 {"families", std::move(families)}}
                .dump()
         << "\n";
    return;
  }
  out_ << "Table " << d.name.ToString() << " is " << (info.enabled ? "ENABLED" : "DISABLED")
       << "\n";
  out_ << "DURABILITY => '" << DurabilityName(d.durability) << "'\n";
  if (!info.split_keys.empty()) {
    out_ << "SPLITS => [";
    for (size_t i = 0; i < info.split_keys.size(); ++i) {
      out_ << (i ? ", '" : "'") << ToStringBinary(info.split_keys[i]) << "'";
    }
    out_ << "]\n";
  }
  out_ << "COLUMN FAMILIES DESCRIPTION\n";
  for (const auto& f : d.families) {
    out_ << "{NAME => '" << f.name << "', VERSIONS => '" << f.max_versions << "', MIN_VERSIONS => '"
         << f.min_versions << "', TTL => '" << Ttl(f.ttl_seconds) << "', KEEP_DELETED_CELLS => '"
         << KeepDeletedCellsName(f.keep_deleted_cells) << "', COMPRESSION => '"
         << CompressionName(f.compression) << "', BLOOMFILTER => '"
         << BloomFilterName(f.bloom_filter) << "', BLOCKSIZE => '" << f.block_size << "'}\n";
  }
  out_ << d.families.size() << " row(s)\n";
}

void Output::Counter(int64_t value) {
  if (json_) {
    out_ << Json{{"value", value}}.dump() << "\n";
  } else {
    out_ << "COUNTER VALUE = " << value << "\n";
  }
}

void Output::Count(int64_t rows) {
  if (json_) {
    out_ << Json{{"rows", rows}}.dump() << "\n";
  } else {
    out_ << rows << " row(s)\n";
  }
}

void Output::Done(const std::string& what) {
  if (json_) {
    out_ << Json{{"ok", true}, {"done", what}}.dump() << "\n";
  } else {
    out_ << what << "\n";
  }
}

}  // namespace basalt::cli
