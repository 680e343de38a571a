// SpaceReserve: a file of reserved bytes in the data directory (basalt-reserve) that the engine
// deletes when the disk fills up, so that the store has room to come back.
//
// Why: on a full disk RocksDB stops writing, and everything that brings it back needs some free
// space: DB::Resume() flushes the memtables to table files before it lets writes in again, and a
// reopen writes a new MANIFEST, an OPTIONS file and a new write-ahead log. Whoever filled the
// disk (this store or another program), the reserve's bytes are the store's to give back: it is
// released the moment a write fails for lack of space (or, at open, when the disk is nearly
// full), and made again once the disk has room for it twice over (docs/reliability.md, "Full
// disk").
//
// Its size is 1/64 of the file system, at least 1 MiB and at most 64 MiB: enough for a reopen
// (a MANIFEST and an OPTIONS file are kilobytes) and for a share of a memtable flush. The bytes
// are allocated (fallocate), not a sparse hole, so they really are kept from other writers; a
// file system without fallocate gets no reserve.
//
// Thread safety: every method may be called concurrently.

#ifndef BASALT_ENGINE_SPACE_RESERVE_H_
#define BASALT_ENGINE_SPACE_RESERVE_H_

#include <cstdint>
#include <optional>
#include <string>

#include "util/mutex.h"

namespace basalt::engine {

class SpaceReserve {
 public:
  static constexpr const char* kFileName = "basalt-reserve";

  // `dir`: the data directory (it must exist before the other calls).
  explicit SpaceReserve(std::string dir);

  // Before RocksDB opens the store: releases the reserve when the free space is below its size
  // (so that the open has room), else makes it when it is missing and there is room.
  void PrepareForOpen();
  // Deletes the reserve file: the disk is full. Cheap when it is already gone.
  void Release();
  // Makes the reserve again if it is missing and the disk has room for it twice over.
  void Restore();

  // Whether the reserve file is there (as far as this object knows).
  bool held() const;
  // Its size, bytes (0 until the file system's size is known).
  uint64_t size() const;

  // The bytes an unprivileged writer can still use on the file system of `path`.
  static std::optional<uint64_t> FreeBytes(const std::string& path);

 private:
  void RestoreLocked() BASALT_REQUIRES(mu_);

  const std::string dir_;
  const std::string path_;
  mutable util::Mutex mu_;
  uint64_t size_ BASALT_GUARDED_BY(mu_) = 0;
  bool held_ BASALT_GUARDED_BY(mu_) = false;
};

}  // namespace basalt::engine

#endif  // BASALT_ENGINE_SPACE_RESERVE_H_
