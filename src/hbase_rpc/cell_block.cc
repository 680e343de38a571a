#include "hbase_rpc/cell_block.h"

#include <cstdint>

namespace basalt::hbase_rpc {
namespace {

uint64_t ReadBigEndian(std::string_view bytes, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[i]);
  return v;
}

void AppendBigEndian(uint64_t v, size_t n, std::string* out) {
  for (size_t i = n; i-- > 0;) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

bool IsCellType(uint8_t type) {
  switch (static_cast<CellType>(type)) {
    case CellType::kPut:
    case CellType::kDelete:
    case CellType::kDeleteFamilyVersion:
    case CellType::kDeleteColumn:
    case CellType::kDeleteFamily:
      return true;
  }
  return false;
}

// A key's fixed parts: row length (2), family length (1), timestamp (8), type (1).
constexpr size_t kKeyFixedBytes = 2 + 1 + 8 + 1;

}  // namespace

bool CellBlockReader::Fail(std::string what) {
  error_ = "cell " + std::to_string(cells_read_) + " of the cell block: " + std::move(what);
  rest_ = {};
  return false;
}

bool CellBlockReader::Next(Cell* out) {
  if (error_ || rest_.empty()) return false;
  if (rest_.size() < 12) return Fail("cut short in its lengths");
  const uint64_t total = ReadBigEndian(rest_, 4);
  const uint64_t key_length = ReadBigEndian(rest_.substr(4), 4);
  const uint64_t value_length = ReadBigEndian(rest_.substr(8), 4);
  if (total != 8 + key_length + value_length) {
    return Fail("its length " + std::to_string(total) + " is not 8 + key " +
                std::to_string(key_length) + " + value " + std::to_string(value_length) +
                " (tags are not accepted)");
  }
  if (rest_.size() - 4 < total)
    return Fail("cut short: it declares " + std::to_string(total) + " bytes, " +
                std::to_string(rest_.size() - 4) + " are left");
  std::string_view key = rest_.substr(12, key_length);
  std::string_view value = rest_.substr(12 + key_length, value_length);
  if (key.size() < kKeyFixedBytes) return Fail("its key is shorter than a key's fixed parts");
  const size_t row_length = ReadBigEndian(key, 2);
  if (key.size() < kKeyFixedBytes + row_length) return Fail("its row overruns its key");
  const size_t family_length = static_cast<unsigned char>(key[2 + row_length]);
  if (key.size() < kKeyFixedBytes + row_length + family_length) {
    return Fail("its family overruns its key");
  }
  const size_t qualifier_length = key.size() - kKeyFixedBytes - row_length - family_length;
  const uint8_t type = static_cast<unsigned char>(key[key.size() - 1]);
  if (!IsCellType(type)) return Fail("type " + std::to_string(type) + " is not a cell type");
  out->row.assign(key.substr(2, row_length));
  out->family.assign(key.substr(3 + row_length, family_length));
  out->qualifier.assign(key.substr(3 + row_length + family_length, qualifier_length));
  out->timestamp = static_cast<int64_t>(ReadBigEndian(key.substr(key.size() - 9), 8));
  out->type = static_cast<CellType>(type);
  out->value.assign(value);
  rest_.remove_prefix(4 + total);
  ++cells_read_;
  return true;
}

void AppendKeyValue(const Cell& cell, std::string* block) {
  const size_t key_length =
      kKeyFixedBytes + cell.row.size() + cell.family.size() + cell.qualifier.size();
  AppendBigEndian(8 + key_length + cell.value.size(), 4, block);
  AppendBigEndian(key_length, 4, block);
  AppendBigEndian(cell.value.size(), 4, block);
  AppendBigEndian(cell.row.size(), 2, block);
  block->append(cell.row);
  AppendBigEndian(cell.family.size(), 1, block);
  block->append(cell.family);
  block->append(cell.qualifier);
  AppendBigEndian(static_cast<uint64_t>(cell.timestamp), 8, block);
  block->push_back(static_cast<char>(cell.type));
  block->append(cell.value);
}

}  // namespace basalt::hbase_rpc
