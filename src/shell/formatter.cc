#include "shell/formatter.h"

#include <cstdio>

#include "util/bytes_format.h"

namespace basalt::shell {
namespace {

using util::ToStringBinary;

// HBase's shell pads the first column to at least this width.
constexpr size_t kFirstColumnWidth = 30;

std::string Pad(const std::string& s) {
  return s.size() >= kFirstColumnWidth ? s + " "
                                       : s + std::string(kFirstColumnWidth - s.size(), ' ');
}

std::string Ttl(int32_t seconds) {
  return seconds == kForeverTtl ? "FOREVER" : std::to_string(seconds) + " SECONDS";
}

}  // namespace

std::string FormatCell(const Cell& cell) {
  std::string text = "timestamp=" + std::to_string(cell.timestamp);
  if (cell.type != CellType::kPut) text += ", type=" + std::string(CellTypeName(cell.type));
  return text + ", value=" + ToStringBinary(cell.value);
}

std::string FormatColumn(const Cell& cell) {
  return ToStringBinary(cell.family) + ":" + ToStringBinary(cell.qualifier);
}

void PrintGetResult(std::ostream& out, const RowResult& row) {
  out << Pad("COLUMN") << "CELL\n";
  for (const Cell& c : row.cells()) out << " " << Pad(FormatColumn(c)) << FormatCell(c) << "\n";
  out << (row.empty() ? 0 : 1) << " row(s)\n";
}

void PrintScanHeader(std::ostream& out) {
  out << Pad("ROW") << "COLUMN+CELL\n";
}

void PrintScanRow(std::ostream& out, const RowResult& row) {
  const std::string key = Pad(ToStringBinary(row.row()));
  for (const Cell& c : row.cells()) {
    out << " " << key << "column=" << FormatColumn(c) << ", " << FormatCell(c) << "\n";
  }
}

void PrintRowCount(std::ostream& out, int64_t rows) {
  out << rows << " row(s)\n";
}

void PrintNameList(std::ostream& out, std::string_view heading,
                   const std::vector<std::string>& names) {
  out << heading << "\n";
  for (const auto& name : names) out << name << "\n";
  out << names.size() << " row(s)\n";
}

void PrintTableDescription(std::ostream& out, const TableInfo& info) {
  const TableDescriptor& d = info.descriptor;
  out << "Table " << d.name.ToString() << " is " << (info.enabled ? "ENABLED" : "DISABLED") << "\n";
  out << d.name.ToString() << ", {TABLE_ATTRIBUTES => {DURABILITY => '"
      << DurabilityName(d.durability) << "'}}\n";
  if (!info.split_keys.empty()) {
    out << "SPLITS => [";
    for (size_t i = 0; i < info.split_keys.size(); ++i) {
      out << (i ? ", '" : "'") << ToStringBinary(info.split_keys[i]) << "'";
    }
    out << "]\n";
  }
  out << "COLUMN FAMILIES DESCRIPTION\n";
  for (const auto& f : d.families) {
    out << "{NAME => '" << ToStringBinary(f.name) << "', VERSIONS => '" << f.max_versions
        << "', MIN_VERSIONS => '" << f.min_versions << "', TTL => '" << Ttl(f.ttl_seconds)
        << "', KEEP_DELETED_CELLS => '" << KeepDeletedCellsName(f.keep_deleted_cells)
        << "', COMPRESSION => '" << CompressionName(f.compression) << "', BLOOMFILTER => '"
        << BloomFilterName(f.bloom_filter) << "', BLOCKSIZE => '" << f.block_size << "'}\n";
  }
  out << d.families.size() << " row(s)\n";
}

std::string FormatTook(double seconds) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "Took %.4f seconds", seconds);
  return buf;
}

}  // namespace basalt::shell
