// The store's RocksDB info log (LOG in the data directory), written so that a full disk cannot
// bring the process down.
//
// RocksDB 7.8's own info log appends through a WritableFileWriter, which remembers a failed
// append (ENOSPC) and asserts on the next one; Debian's librocksdb is built with assertions, so
// the first log line after the disk filled up aborted the process (RocksDB logs one as soon as
// its error handler looks at the free space), and so did every later open on the full disk
// (docs/reliability.md, "Full disk"). This logger hands each line straight to the file system's
// FSWritableFile, which keeps no error state, and drops the line when the append fails.
//
// Like RocksDB's logger it first renames an existing LOG to LOG.old.<microseconds>; RocksDB
// deletes the oldest of those beyond DBOptions::keep_log_file_num.
//
// Thread safety: the logger may be used from any thread (RocksDB's background threads do).

#ifndef BASALT_ENGINE_INFO_LOG_H_
#define BASALT_ENGINE_INFO_LOG_H_

#include <rocksdb/env.h>

#include <memory>
#include <string>

namespace basalt::engine {

// A logger writing to `dir`/LOG through `env`'s file system (creating `dir` when missing). When
// the file cannot be created it returns a logger that drops every line: an info log is no
// reason to refuse to open a store, and leaving DBOptions::info_log empty would make RocksDB
// create its own, asserting, logger.
std::shared_ptr<rocksdb::Logger> OpenInfoLog(rocksdb::Env* env, const std::string& dir,
                                             rocksdb::InfoLogLevel level);

}  // namespace basalt::engine

#endif  // BASALT_ENGINE_INFO_LOG_H_
