// HBase's KeyValueCodec cell blocks: the cells a call carries after its message, outside
// protobuf (the async client's Multi always sends its mutations' cells this way; answers may).
//
// One cell, every integer big-endian:
//   int32 total (= 8 + key length + value length), int32 key length, int32 value length,
//   key: int16 row length, row, int8 family length, family, qualifier (the rest of the key but
//        the last 9 bytes), int64 timestamp, int8 type (4 Put, 8 Delete, 10 DeleteFamilyVersion,
//        12 DeleteColumn, 14 DeleteFamily: basalt's CellType values),
//   value.
// KeyValueCodec writes no tags, so a cell whose total exceeds its key and value is refused.
//
// The decoder reads untrusted bytes: it allocates no more than the block holds (each cell's
// strings are copied from the block, after its lengths were checked against what is left), and
// answers malformed input with a message saying where. Thread safety: free functions.

#ifndef BASALT_HBASE_RPC_CELL_BLOCK_H_
#define BASALT_HBASE_RPC_CELL_BLOCK_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/cell.h"

namespace basalt::hbase_rpc {

// A cursor over a cell block's cells, in order.
class CellBlockReader {
 public:
  explicit CellBlockReader(std::string_view block) : rest_(block) {}

  // The next cell into `*out`; false at the end of the block or on malformed bytes, after
  // which error() tells which.
  bool Next(Cell* out);
  // Set once a cell could not be read: what was wrong and at which cell.
  const std::optional<std::string>& error() const { return error_; }
  // Cells read so far.
  size_t cells_read() const { return cells_read_; }

 private:
  bool Fail(std::string what);

  std::string_view rest_;
  size_t cells_read_ = 0;
  std::optional<std::string> error_;
};

// Appends `cell` to `*block` as KeyValueCodec writes it. REQUIRES: row at most 32767 bytes,
// family at most 127 (basalt's own limits are lower).
void AppendKeyValue(const Cell& cell, std::string* block);

}  // namespace basalt::hbase_rpc

#endif  // BASALT_HBASE_RPC_CELL_BLOCK_H_
