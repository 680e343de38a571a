// CellBuffer: the cells a read fills, overwriting cells it was lent instead of building new ones.
//
// A scan hands out row after row through one RowResult. Each row's cells are strings; built
// afresh, a row of small cells costs a vector, a value and often a row key in allocations. A
// scanner swaps each row it hands out for the caller's previous row (the caller is done with it
// when it asks for the next), and the buffer overwrites those cells in place: their strings keep
// their capacity, so rows of similar shape are read without allocating and without moving cells
// about.
//
// Cells past size() are spares: constructed, holding stale data, never seen by anyone.

#ifndef BASALT_ENGINE_CELL_BUFFER_H_
#define BASALT_ENGINE_CELL_BUFFER_H_

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "basalt/cell.h"

namespace basalt::engine {

class CellBuffer {
 public:
  CellBuffer() = default;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // The i-th cell appended. REQUIRES: i < size().
  Cell& operator[](size_t i) { return cells_[i]; }

  // A cell after the others, whose fields hold stale data: the caller assigns every one.
  Cell& Append() {
    if (size_ == cells_.size()) {
      ++size_;
      return cells_.emplace_back();
    }
    Cell& c = cells_[size_++];
    // A huge value's buffer is not carried on into the many small values that may follow.
    if (c.value.capacity() > kMaxReusedValueCapacity) std::string().swap(c.value);
    return c;
  }

  // Empties the buffer and takes the cells of `*done`, which their owner no longer needs, as
  // spares; `*done` is left empty.
  void TakeSpares(std::vector<Cell>* done) {
    cells_.swap(*done);
    done->clear();
    size_ = 0;
  }

  // Room for `n` cells without reallocating: a read that knows its bound (a per-family limit)
  // grows the vector once instead of moving every cell at each doubling.
  void Reserve(size_t n) {
    if (cells_.capacity() < n) cells_.reserve(n);
  }

  // Takes back the last cell appended; it becomes a spare.
  void PopBack() { --size_; }

  // Empties the buffer; every cell becomes a spare.
  void Clear() { size_ = 0; }

  // Drops the spares and returns the vector of exactly the cells appended. The caller may edit
  // it or move it out; the next call on the buffer must then be Clear() or TakeSpares().
  std::vector<Cell>& Trim() {
    cells_.resize(size_);
    return cells_;
  }

 private:
  static constexpr size_t kMaxReusedValueCapacity = 64 << 10;

  std::vector<Cell> cells_;
  size_t size_ = 0;
};

}  // namespace basalt::engine

#endif  // BASALT_ENGINE_CELL_BUFFER_H_
