// FaultInjectionFileSystem: a RocksDB FileSystem wrapper that fails writes or reads on demand,
// and simulates a power failure, for the fault-injection and power-loss tests. Wrap it in an Env
// with rocksdb::NewCompositeEnv and hand that to the engine through engine::EngineOptions::env.
//
// Faults. While a fault is set, the files in its scope (all by default: WAL, SST, MANIFEST) fail:
//   kWriteError  Append/PositionedAppend return IOError;
//   kSyncError   Sync/Fsync/RangeSync return IOError (writes succeed: SYNC_WAL writes, which
//                only append, go through; FSYNC_WAL writes and flushes fail);
//   kNoSpace     Append/PositionedAppend return IOError NoSpace: a full disk, as Linux file
//                systems have one (creating a file still works: an empty file takes no data
//                blocks, and RocksDB creates its new log and table files empty);
//   kNoSpaceOrInodes  the same, and new files fail with NoSpace too (a disk out of inodes, or
//                a directory that needs a block it cannot get);
//   kReadError   Read/MultiRead of files opened for random access (table files) return IOError.
// "Writes" include making a directory or a hard link (kNoSpaceOrInodes fails them: they take an
// inode), "syncs" a directory's fsync. A failing call writes (or reads) nothing. Clearing the
// fault restores normal behaviour. SetFaultAfter lets the first N calls a fault would fail
// through, so that a test can fail each step of an operation in turn.
//
// Power loss. The file system records what a power failure would keep, modelling a disk that
// honours fsync and keeps nothing else:
//   - file data: for each file written through it, the bytes made durable by the last completed
//     Sync or Fsync, i.e. the file's size when that call began (bytes appended while it ran are
//     not counted). RangeSync (sync_file_range(2): no metadata, no disk cache flush) and Close
//     make nothing durable;
//   - directory entries: a file's creation, a rename and a deletion are durable only once an
//     FSDirectory::Fsync (or FsyncWithDirOptions) of their directory, begun after them, has
//     completed. Until then a power failure undoes them: a new file disappears (even if its data
//     was synced), a renamed file gets its old name back and the file it replaced returns, a
//     deleted file returns (kept meanwhile as a hard link named powerloss-saved-N in its
//     directory, which RocksDB ignores).
// Files that existed before the file system first wrote them count as durable whole.
// CutPower() is the failure. It freezes what is durable: syncs and directory fsyncs that
// complete after it are not counted, and every file written, created, renamed or deleted after
// it will be cut back or undone. The store itself runs on unaware (its calls succeed), as the
// machine would until it stopped, so that it can be closed normally; a write that returns after
// the cut (cut_tick()) would never have returned, and the tests count it as unknown. (A cut that
// made every later call fail instead was tried first: RocksDB 7.8 as Debian builds it, with
// assertions on, then aborted in a flush's SyncClosedLogs on a log writer that had seen the
// error, WritableFileWriter::AssertFalseAndGetStatusForPrevError.)
// Once the store is closed, DropUnsyncedData() turns the disk into what the failure would have
// left: it undoes the directory operations not made durable (newest first), then cuts every file
// written since tracking began to its durable size (or, with kKeepRandomPrefix or
// kKeepRandomAppends, to a random length between that and its size at the cut: writeback that got
// part of the unsynced tail out; never bytes written after the cut, which the store wrote only
// because its syncs seemed to succeed).
// Not modelled: directories' own creation and deletion (taken as durable), hard links (LinkFile
// only consults the fault: a link is taken as durable), writes through NewRandomRWFile, overwrites
// in place (ReuseWritableFile, used only for WAL recycling, which basalt does not enable, is
// modelled as the rename it starts with), renames across directories (recorded in the target's
// directory), and a disk that reorders or tears writes inside the synced range.
//
// Thread safety: every method may be called from any thread, except DropUnsyncedData (see there).

#ifndef BASALT_TESTS_CRASH_FAULT_INJECTION_FS_H_
#define BASALT_TESTS_CRASH_FAULT_INJECTION_FS_H_

#include <rocksdb/file_system.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace basalt::crash {

enum class Fault : uint8_t {
  kNone,
  kWriteError,
  kSyncError,
  kNoSpace,
  kNoSpaceOrInodes,
  kReadError
};
// Which files a fault applies to: the write-ahead log (*.log), table files (*.sst), the files
// under the directory given to SetFaultDirectory (e.g. a backup directory), or all.
enum class FaultScope : uint8_t { kAllFiles, kWalOnly, kSstOnly, kUnderDirectory };
// "WriteError", "NoSpace", ...: the fault's name in test names.
std::string FaultName(Fault fault);
// The faults a write can meet, which the fault tests run under, and the name generator that
// INSTANTIATE_TEST_SUITE_P takes for them.
inline constexpr Fault kWriteFaults[] = {Fault::kWriteError, Fault::kSyncError, Fault::kNoSpace,
                                         Fault::kNoSpaceOrInodes};
struct FaultParamName {
  template <class ParamInfo>
  std::string operator()(const ParamInfo& info) const {
    return FaultName(info.param);
  }
};

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
  // The fault set next lets its first `calls` calls through and fails the ones after them.
  void SetFaultAfter(int64_t calls) { pass_ = calls; }
  // The directory of FaultScope::kUnderDirectory. REQUIRES: called before the file system is
  // first used (it is read without a lock).
  void SetFaultDirectory(const std::string& dir);
  // Calls failed on purpose so far.
  int64_t injected() const { return injected_.load(); }

  // The status a call on file `fname` gets now (OK when no fault applies).
  enum class CallKind : uint8_t { kWrite, kSync, kCreate, kRead };
  rocksdb::IOStatus Check(CallKind kind, const std::string& fname);

  // --- Power loss ---

  // A logical clock shared with the tests: each call returns a larger number than every earlier
  // one. Appends to the write-ahead log are stamped with it when they return, so a test can place
  // its writes (stamped before the call and after the acknowledgement) against them.
  int64_t Tick() { return clock_.fetch_add(1) + 1; }
  // The Tick of the earliest write-ahead log (*.log) append, of the files written through this
  // file system and not deleted, that is not durable (no completed sync covers it, or no
  // directory fsync covers its file's creation); INT64_MAX when every one is durable. Every WAL
  // append that returned before it is durable. Call it after CutPower() for the figure a power
  // failure leaves.
  int64_t FirstUnsyncedWalAppend();

  // The power failure: from now on nothing becomes durable (see the top of this file).
  // Irreversible: once the store is closed and DropUnsyncedData has run, the store is reopened on
  // another (e.g. the plain) file system.
  void CutPower();
  bool power_cut() const { return power_cut_.load(); }
  // The Tick taken at the cut (0 before it). A write that returned after it would never have
  // returned: the machine was off.
  int64_t cut_tick() const { return cut_tick_.load(); }
  // Prints every power-loss event (file creations, syncs, directory fsyncs, renames,
  // deletions, the cut) to stderr, for finding out why a test lost a write.
  void SetTrace(bool on) { trace_ = on; }

  // What DropUnsyncedData keeps of the bytes written before the cut and not synced: nothing, a
  // random prefix (writeback got part of it out, a torn tail), or for write-ahead log files a
  // random number of whole appends (writeback stopped at a record boundary, as it can at a log
  // block boundary; other files as kKeepRandomPrefix).
  enum class UnsyncedTail : uint8_t { kDropAll, kKeepRandomPrefix, kKeepRandomAppends };
  struct PowerLossReport {
    int64_t files_cut = 0;         // files cut back to their durable size
    int64_t bytes_dropped = 0;     // unsynced bytes dropped
    int64_t creations_undone = 0;  // new files removed: their creation was never dir-synced
    int64_t renames_undone = 0;
    int64_t deletions_undone = 0;   // deleted files brought back
    int64_t durable_dir_syncs = 0;  // directory fsyncs completed before the cut
    // One line per write-ahead log file left: "000012.log: 1234 of 5678 bytes kept (synced 1000,
    // at the cut 4000)", for explaining a loss.
    std::vector<std::string> logs;
  };
  // Makes the disk what the power failure left (see the top of this file). `seed` drives the
  // random prefixes of kKeepRandomPrefix. REQUIRES: CutPower() was called and nothing uses the
  // file system any more (the store is closed); afterwards it must not be used again.
  rocksdb::IOStatus DropUnsyncedData(UnsyncedTail tail, uint64_t seed, PowerLossReport* report);

  // What the power-loss model knows of one file written through this file system. Internal to
  // the file system and its files.
  struct FileState {
    explicit FileState(uint64_t initial_size, bool wal_file)
        : size(initial_size), synced(initial_size), wal(wal_file) {}
    std::atomic<uint64_t> size;    // bytes written (appends that returned)
    uint64_t synced;               // durable bytes; guarded by the file system's mu_
    bool creation_durable = true;  // false until a directory fsync covers its creation; mu_
    // The size at the cut: what writeback could have got out (kKeepRandomPrefix); mu_.
    uint64_t size_at_cut = 0;
    const bool wal;  // a write-ahead log file
    // WAL files: (end offset, Tick when it returned) of each append that is not durable yet (not
    // covered by a sync, or in a file whose creation is not durable), oldest first; mu_.
    std::vector<std::pair<uint64_t, int64_t>> unsynced_appends;
  };
  // Called by a file when an append that took it to `end` bytes returned: stamps it (WAL files).
  void WalAppended(FileState* state, uint64_t end);
  // Called by a file when its Sync/Fsync, begun when the file had `covered` bytes, completed:
  // records them as durable, unless the power was cut meanwhile (the sync did not complete
  // before the failure).
  void FileSynced(FileState* state, uint64_t covered);
  // The same for a directory fsync of `dir` begun when the directory log was at `seq`.
  void DirSynced(const std::string& dir, uint64_t seq);
  uint64_t DirLogPosition();

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
  rocksdb::IOStatus NewDirectory(const std::string& name, const rocksdb::IOOptions& io_opts,
                                 std::unique_ptr<rocksdb::FSDirectory>* result,
                                 rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus DeleteFile(const std::string& fname, const rocksdb::IOOptions& options,
                               rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus RenameFile(const std::string& src, const std::string& dst,
                               const rocksdb::IOOptions& options,
                               rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus LinkFile(const std::string& src, const std::string& dst,
                             const rocksdb::IOOptions& options,
                             rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus CreateDir(const std::string& dirname, const rocksdb::IOOptions& options,
                              rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus CreateDirIfMissing(const std::string& dirname,
                                       const rocksdb::IOOptions& options,
                                       rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus Truncate(const std::string& fname, size_t size,
                             const rocksdb::IOOptions& options,
                             rocksdb::IODebugContext* dbg) override;

 private:
  // A directory operation not yet made durable by a directory fsync.
  struct DirOp {
    enum Kind : uint8_t { kCreate, kDelete, kRename } kind;
    uint64_t seq;      // position in the directory log (DirLogPosition)
    std::string name;  // the file created, deleted, or renamed to
    std::string from;  // kRename: the old name
    // kDelete, and kRename over an existing file: a hard link keeping the old file.
    std::string saved;
    // kDelete, kRename: what was known of the deleted or replaced file (null: durable whole).
    std::shared_ptr<FileState> state;
  };

  void Trace(const char* event, const std::string& what, uint64_t n = 0);
  // Drops the appends of a WAL file that are durable now; REQUIRES mu_.
  static void PruneDurableAppendsLocked(FileState* state);
  // Records a file just opened for writing: `existed` says whether it was there before the
  // call, `emptied` whether the call emptied it; returns its state. REQUIRES mu_.
  std::shared_ptr<FileState> TrackOpenedLocked(const std::string& fname, bool existed,
                                               bool emptied);
  // Whether a creation of (or rename onto) `fname` waits for a directory fsync; REQUIRES mu_.
  bool CreationPendingLocked(const std::string& fname);
  // Keeps `fname` as a hard link in its directory; REQUIRES mu_.
  rocksdb::IOStatus SaveLocked(const std::string& fname, std::string* saved);
  // Records a rename already done on the target; REQUIRES mu_.
  // `saved` is the hard link keeping the replaced file, empty when none was replaced.
  void RecordRenameLocked(const std::string& src, const std::string& dst, std::string saved);

  std::atomic<Fault> fault_{Fault::kNone};
  std::atomic<FaultScope> scope_{FaultScope::kAllFiles};
  std::string fault_directory_;  // normalised, with a trailing separator
  std::atomic<int64_t> injected_{0};
  std::atomic<int64_t> pass_{0};  // SetFaultAfter's calls still to let through

  std::atomic<int64_t> clock_{0};
  std::atomic<bool> power_cut_{false};
  std::atomic<int64_t> cut_tick_{0};
  std::atomic<bool> trace_{false};
  std::mutex mu_;  // guards the power-loss state below and FileState::synced
  // Files written since tracking began, by path; absent: durable whole, or gone.
  std::map<std::string, std::shared_ptr<FileState>> files_;
  // Directory operations not yet durable, by directory, oldest first.
  std::map<std::string, std::vector<DirOp>> pending_;
  uint64_t next_seq_ = 1;
  int64_t saved_counter_ = 0;
  int64_t durable_dir_syncs_ = 0;
};

}  // namespace basalt::crash

#endif  // BASALT_TESTS_CRASH_FAULT_INJECTION_FS_H_
