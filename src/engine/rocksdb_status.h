// Translation of RocksDB statuses into basalt Status: the one place the engine does it.

#ifndef BASALT_ENGINE_ROCKSDB_STATUS_H_
#define BASALT_ENGINE_ROCKSDB_STATUS_H_

#include <rocksdb/status.h>

#include "basalt/status.h"

namespace basalt::engine {

inline Status FromRocks(const rocksdb::Status& s) {
  if (s.ok()) return Status::OK();
  std::string msg = s.ToString();
  if (s.IsNotFound()) return Status::NotFound(msg);
  if (s.IsCorruption()) return Status::Corruption(msg);
  if (s.IsInvalidArgument()) return Status::InvalidArgument(msg);
  if (s.IsNotSupported()) return Status::NotSupported(msg);
  if (s.IsBusy() || s.IsTryAgain() || s.IsTimedOut()) return Status::Busy(msg);
  if (s.IsAborted() || s.IsShutdownInProgress() || s.IsIncomplete()) return Status::Aborted(msg);
  return Status::IOError(msg);
}

}  // namespace basalt::engine

#endif  // BASALT_ENGINE_ROCKSDB_STATUS_H_
