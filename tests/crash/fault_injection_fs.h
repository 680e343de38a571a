// FaultInjectionFileSystem: a RocksDB FileSystem wrapper that fails writes or reads on demand,
// for the fault-injection tests. Wrap it in an Env with rocksdb::NewCompositeEnv and hand that to
// the engine through engine::EngineOptions::env.
//
// While a fault is set, the files in its scope (all by default: WAL, SST, MANIFEST) fail:
//   kWriteError  Append/PositionedAppend return IOError;
//   kSyncError   Sync/Fsync/RangeSync return IOError (writes succeed: SYNC_WAL writes, which
//                only append, go through; FSYNC_WAL writes and flushes fail);
//   kNoSpace     Append/PositionedAppend return IOError NoSpace: a full disk, as Linux file
//                systems have one (creating a file still works: an empty file takes no data
//                blocks, and RocksDB creates its new log and table files empty);
//   kNoSpaceOrInodes  the same, and new files fail with NoSpace too (a disk out of inodes, or
//                a directory that needs a block it cannot get);
//   kReadError   Read/MultiRead of files opened for random access (table files) return IOError.
// A failing call writes (or reads) nothing. Clearing the fault restores normal behaviour.
//
// Thread safety: every method may be called from any thread.

#ifndef BASALT_TESTS_CRASH_FAULT_INJECTION_FS_H_
#define BASALT_TESTS_CRASH_FAULT_INJECTION_FS_H_

#include <rocksdb/file_system.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace basalt::crash {

enum class Fault : uint8_t {
  kNone,
  kWriteError,
  kSyncError,
  kNoSpace,
  kNoSpaceOrInodes,
  kReadError
};
// Which files a fault applies to: the write-ahead log (*.log), table files (*.sst) or all.
enum class FaultScope : uint8_t { kAllFiles, kWalOnly, kSstOnly };

class FaultInjectionFileSystem : public rocksdb::FileSystemWrapper {
 public:
  explicit FaultInjectionFileSystem(const std::shared_ptr<rocksdb::FileSystem>& target)
      : FileSystemWrapper(target) {}

  const char* Name() const override { return "FaultInjectionFileSystem"; }

  void SetFault(Fault fault, FaultScope scope = FaultScope::kAllFiles) {
    scope_ = scope;
    fault_ = fault;
  }
  Fault fault() const { return fault_.load(); }
  // Calls failed on purpose so far.
  int64_t injected() const { return injected_.load(); }

  // The status a call on file `fname` gets now (OK when no fault applies).
  enum class CallKind : uint8_t { kWrite, kSync, kCreate, kRead };
  rocksdb::IOStatus Check(CallKind kind, const std::string& fname);

  rocksdb::IOStatus NewWritableFile(const std::string& fname, const rocksdb::FileOptions& options,
                                    std::unique_ptr<rocksdb::FSWritableFile>* result,
                                    rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus ReopenWritableFile(const std::string& fname,
                                       const rocksdb::FileOptions& options,
                                       std::unique_ptr<rocksdb::FSWritableFile>* result,
                                       rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus NewRandomAccessFile(const std::string& fname,
                                        const rocksdb::FileOptions& options,
                                        std::unique_ptr<rocksdb::FSRandomAccessFile>* result,
                                        rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus ReuseWritableFile(const std::string& fname, const std::string& old_fname,
                                      const rocksdb::FileOptions& options,
                                      std::unique_ptr<rocksdb::FSWritableFile>* result,
                                      rocksdb::IODebugContext* dbg) override;

 private:
  std::atomic<Fault> fault_{Fault::kNone};
  std::atomic<FaultScope> scope_{FaultScope::kAllFiles};
  std::atomic<int64_t> injected_{0};
};

}  // namespace basalt::crash

#endif  // BASALT_TESTS_CRASH_FAULT_INJECTION_FS_H_
