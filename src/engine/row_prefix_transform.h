// RocksDB prefix extractor that maps a cell key to its row prefix (E(row) 00 01), so that
// per-file bloom filters answer "does this file hold the row?" for point gets.

#ifndef BASALT_ENGINE_ROW_PREFIX_TRANSFORM_H_
#define BASALT_ENGINE_ROW_PREFIX_TRANSFORM_H_

#include <rocksdb/slice_transform.h>

#include "engine/key_format.h"

namespace basalt::engine {

class RowPrefixTransform : public rocksdb::SliceTransform {
 public:
  // The name is stored in SST files; never change it.
  const char* Name() const override { return "basalt.RowPrefix.v1"; }
  rocksdb::Slice Transform(const rocksdb::Slice& key) const override {
    return {key.data(), RowPrefixLength({key.data(), key.size()})};
  }
  bool InDomain(const rocksdb::Slice& key) const override {
    return RowPrefixLength({key.data(), key.size()}) > 0;
  }
};

}  // namespace basalt::engine

#endif  // BASALT_ENGINE_ROW_PREFIX_TRANSFORM_H_
