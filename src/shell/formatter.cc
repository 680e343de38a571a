#include "shell/formatter.h"

#include <bit>
#include <cstdio>
#include <cstring>

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

// The big-endian unsigned integer in `bytes`.
uint64_t BigEndian(std::string_view bytes) {
  uint64_t v = 0;
  for (char c : bytes) v = (v << 8) | static_cast<uint8_t>(c);
  return v;
}

std::string FormatDouble(double d) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.17g", d);
  return buf;
}

}  // namespace

Result<ValueFormat> ParseValueFormat(std::string_view name) {
  constexpr std::string_view kBytesClass = "c(org.apache.hadoop.hbase.util.Bytes).";
  if (name.substr(0, kBytesClass.size()) == kBytesClass) name.remove_prefix(kBytesClass.size());
  static const std::pair<std::string_view, ValueFormat> kFormats[] = {
      {"toInt", ValueFormat::kInt},       {"toLong", ValueFormat::kLong},
      {"toShort", ValueFormat::kShort},   {"toFloat", ValueFormat::kFloat},
      {"toDouble", ValueFormat::kDouble}, {"toBoolean", ValueFormat::kBoolean},
      {"toString", ValueFormat::kString}, {"toStringBinary", ValueFormat::kBinary}};
  for (const auto& [n, f] : kFormats) {
    if (n == name) return f;
  }
  return Status::NotFound("no value format '" + ToStringBinary(name) + "'");
}

std::string FormatValue(std::string_view bytes, ValueFormat format) {
  switch (format) {
    case ValueFormat::kBinary:
      break;
    case ValueFormat::kString:
      return std::string(bytes);
    case ValueFormat::kShort:
      if (bytes.size() == 2) return std::to_string(static_cast<int16_t>(BigEndian(bytes)));
      break;
    case ValueFormat::kInt:
      if (bytes.size() == 4) return std::to_string(static_cast<int32_t>(BigEndian(bytes)));
      break;
    case ValueFormat::kLong:
      if (bytes.size() == 8) return std::to_string(static_cast<int64_t>(BigEndian(bytes)));
      break;
    case ValueFormat::kFloat:
      if (bytes.size() == 4) {
        return FormatDouble(std::bit_cast<float>(static_cast<uint32_t>(BigEndian(bytes))));
      }
      break;
    case ValueFormat::kDouble:
      if (bytes.size() == 8) return FormatDouble(std::bit_cast<double>(BigEndian(bytes)));
      break;
    case ValueFormat::kBoolean:
      if (bytes.size() == 1) return bytes[0] != 0 ? "true" : "false";
      break;
  }
  return ToStringBinary(bytes);
}

std::string FormatCell(const Cell& cell, const ColumnFormats& formats) {
  std::string text = "timestamp=" + std::to_string(cell.timestamp);
  if (cell.type != CellType::kPut) text += ", type=" + std::string(CellTypeName(cell.type));
  auto it = formats.find({cell.family, cell.qualifier});
  return text + ", value=" +
         (it == formats.end() ? ToStringBinary(cell.value) : FormatValue(cell.value, it->second));
}

std::string FormatColumn(const Cell& cell) {
  return ToStringBinary(cell.family) + ":" + ToStringBinary(cell.qualifier);
}

void PrintGetResult(std::ostream& out, const RowResult& row, const ColumnFormats& formats) {
  out << Pad("COLUMN") << "CELL\n";
  for (const Cell& c : row.cells()) {
    out << " " << Pad(FormatColumn(c)) << FormatCell(c, formats) << "\n";
  }
  out << (row.empty() ? 0 : 1) << " row(s)\n";
}

void PrintScanHeader(std::ostream& out) {
  out << Pad("ROW") << "COLUMN+CELL\n";
}

void PrintScanRow(std::ostream& out, const RowResult& row, const ColumnFormats& formats) {
  const std::string key = Pad(ToStringBinary(row.row()));
  for (const Cell& c : row.cells()) {
    out << " " << key << "column=" << FormatColumn(c) << ", " << FormatCell(c, formats) << "\n";
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
        << BloomFilterName(f.bloom_filter) << "', BLOCKSIZE => '" << f.block_size << "'";
    for (const auto& [name, value] : f.attributes) {
      out << ", " << name << " => '" << ToStringBinary(value) << "'";
    }
    out << "}\n";
  }
  out << d.families.size() << " row(s)\n";
}

std::string FormatTook(double seconds) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "Took %.4f seconds", seconds);
  return buf;
}

}  // namespace basalt::shell
