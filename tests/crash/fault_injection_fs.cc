#include "fault_injection_fs.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string_view>
#include <utility>

namespace basalt::crash {
namespace {

using rocksdb::IODebugContext;
using rocksdb::IOOptions;
using rocksdb::IOStatus;
using rocksdb::Slice;

// A writable file whose writes and syncs consult the file system's fault, and which keeps the
// power-loss model's record of its size and durable size.
class FaultyWritableFile : public rocksdb::FSWritableFileOwnerWrapper {
 public:
  using CallKind = FaultInjectionFileSystem::CallKind;
  using FileState = FaultInjectionFileSystem::FileState;

  FaultyWritableFile(std::unique_ptr<rocksdb::FSWritableFile> target, FaultInjectionFileSystem* fs,
                     std::string fname, std::shared_ptr<FileState> state)
      : FSWritableFileOwnerWrapper(std::move(target)),
        fs_(fs),
        fname_(std::move(fname)),
        state_(std::move(state)) {}

  IOStatus Append(const Slice& data, const IOOptions& options, IODebugContext* dbg) override {
    IOStatus s = fs_->Check(CallKind::kWrite, fname_);
    if (s.ok()) s = target()->Append(data, options, dbg);
    if (s.ok()) Grew(state_->size.fetch_add(data.size()) + data.size());
    return s;
  }
  IOStatus Append(const Slice& data, const IOOptions& options,
                  const rocksdb::DataVerificationInfo& info, IODebugContext* dbg) override {
    IOStatus s = fs_->Check(CallKind::kWrite, fname_);
    if (s.ok()) s = target()->Append(data, options, info, dbg);
    if (s.ok()) Grew(state_->size.fetch_add(data.size()) + data.size());
    return s;
  }
  IOStatus PositionedAppend(const Slice& data, uint64_t offset, const IOOptions& options,
                            IODebugContext* dbg) override {
    IOStatus s = fs_->Check(CallKind::kWrite, fname_);
    if (s.ok()) s = target()->PositionedAppend(data, offset, options, dbg);
    if (s.ok()) GrowTo(offset + data.size());
    return s;
  }
  IOStatus PositionedAppend(const Slice& data, uint64_t offset, const IOOptions& options,
                            const rocksdb::DataVerificationInfo& info,
                            IODebugContext* dbg) override {
    IOStatus s = fs_->Check(CallKind::kWrite, fname_);
    if (s.ok()) s = target()->PositionedAppend(data, offset, options, info, dbg);
    if (s.ok()) GrowTo(offset + data.size());
    return s;
  }
  IOStatus Truncate(uint64_t size, const IOOptions& options, IODebugContext* dbg) override {
    IOStatus s = target()->Truncate(size, options, dbg);
    // The durable size is not lowered: the power-loss cut takes the smaller of it and the size
    // on disk.
    if (s.ok()) state_->size.store(size);
    return s;
  }
  IOStatus Sync(const IOOptions& options, IODebugContext* dbg) override {
    return SyncWith(/*fsync=*/false, options, dbg);
  }
  IOStatus Fsync(const IOOptions& options, IODebugContext* dbg) override {
    return SyncWith(/*fsync=*/true, options, dbg);
  }
  // Not a durability point (see the header): the bytes stay unsynced for the power-loss model.
  IOStatus RangeSync(uint64_t offset, uint64_t nbytes, const IOOptions& options,
                     IODebugContext* dbg) override {
    IOStatus s = fs_->Check(CallKind::kSync, fname_);
    return s.ok() ? target()->RangeSync(offset, nbytes, options, dbg) : s;
  }

 private:
  void GrowTo(uint64_t end) {
    uint64_t size = state_->size.load();
    while (size < end && !state_->size.compare_exchange_weak(size, end)) {
    }
    Grew(end);
  }
  // An append that ended at `end` returned.
  void Grew(uint64_t end) {
    if (state_->wal) fs_->WalAppended(state_.get(), end);
  }
  IOStatus SyncWith(bool fsync, const IOOptions& options, IODebugContext* dbg) {
    IOStatus s = fs_->Check(CallKind::kSync, fname_);
    if (!s.ok()) return s;
    // What the sync covers is fixed when it begins: appends that return while it runs may or may
    // not reach the disk with it, so the model counts them as unsynced.
    const uint64_t covered = state_->size.load();
    s = fsync ? target()->Fsync(options, dbg) : target()->Sync(options, dbg);
    if (s.ok()) fs_->FileSynced(state_.get(), covered);
    return s;
  }

  FaultInjectionFileSystem* fs_;
  const std::string fname_;
  const std::shared_ptr<FileState> state_;
};

// A directory whose fsyncs make the directory operations before them durable.
class PowerLossDirectory : public rocksdb::FSDirectoryWrapper {
 public:
  PowerLossDirectory(std::unique_ptr<rocksdb::FSDirectory> target, FaultInjectionFileSystem* fs,
                     std::string dir)
      : FSDirectoryWrapper(std::move(target)), fs_(fs), dir_(std::move(dir)) {}

  IOStatus Fsync(const IOOptions& options, IODebugContext* dbg) override {
    return SyncWith(options, dbg, nullptr);
  }
  IOStatus FsyncWithDirOptions(const IOOptions& options, IODebugContext* dbg,
                               const rocksdb::DirFsyncOptions& dir_fsync_options) override {
    return SyncWith(options, dbg, &dir_fsync_options);
  }

 private:
  IOStatus SyncWith(const IOOptions& options, IODebugContext* dbg,
                    const rocksdb::DirFsyncOptions* dir_options) {
    IOStatus s = fs_->Check(FaultInjectionFileSystem::CallKind::kSync, dir_ + "/");
    if (!s.ok()) return s;
    const uint64_t seq = fs_->DirLogPosition();
    s = dir_options != nullptr ? FSDirectoryWrapper::FsyncWithDirOptions(options, dbg, *dir_options)
                               : FSDirectoryWrapper::Fsync(options, dbg);
    if (s.ok()) fs_->DirSynced(dir_, seq);
    return s;
  }

  FaultInjectionFileSystem* fs_;
  const std::string dir_;
};

// A file opened for random access (RocksDB reads table files so) whose reads consult the file
// system's fault. Asynchronous reads are left alone: basalt does not ask for them.
class FaultyRandomAccessFile : public rocksdb::FSRandomAccessFileOwnerWrapper {
 public:
  using CallKind = FaultInjectionFileSystem::CallKind;

  FaultyRandomAccessFile(std::unique_ptr<rocksdb::FSRandomAccessFile> target,
                         FaultInjectionFileSystem* fs, std::string fname)
      : FSRandomAccessFileOwnerWrapper(std::move(target)), fs_(fs), fname_(std::move(fname)) {}

  IOStatus Read(uint64_t offset, size_t n, const IOOptions& options, Slice* result, char* scratch,
                IODebugContext* dbg) const override {
    IOStatus s = fs_->Check(CallKind::kRead, fname_);
    if (!s.ok()) {
      *result = Slice();
      return s;
    }
    return target()->Read(offset, n, options, result, scratch, dbg);
  }
  IOStatus MultiRead(rocksdb::FSReadRequest* reqs, size_t num_reqs, const IOOptions& options,
                     IODebugContext* dbg) override {
    IOStatus s = fs_->Check(CallKind::kRead, fname_);
    if (!s.ok()) {
      for (size_t i = 0; i < num_reqs; ++i) {
        reqs[i].result = Slice();
        reqs[i].status = s;
      }
      return s;
    }
    return target()->MultiRead(reqs, num_reqs, options, dbg);
  }

 private:
  FaultInjectionFileSystem* fs_;
  const std::string fname_;
};

bool EndsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The directory a path names (for NewDirectory) or a file's directory, spelled one way, so that
// RocksDB's "DIR/000012.log" and NewDirectory("DIR") meet.
std::string DirName(const std::string& dir) {
  std::filesystem::path p = std::filesystem::path(dir).lexically_normal();
  if (!p.has_filename() && p.has_parent_path()) p = p.parent_path();
  return p.string();
}
std::string DirOf(const std::string& fname) {
  return DirName(std::filesystem::path(fname).lexically_normal().parent_path().string());
}

}  // namespace

std::string FaultName(Fault f) {
  switch (f) {
    case Fault::kWriteError:
      return "WriteError";
    case Fault::kSyncError:
      return "SyncError";
    case Fault::kNoSpace:
      return "NoSpace";
    case Fault::kNoSpaceOrInodes:
      return "NoSpaceOrInodes";
    case Fault::kReadError:
      return "ReadError";
    case Fault::kNone:
      break;
  }
  return "None";
}

void FaultInjectionFileSystem::SetFaultDirectory(const std::string& dir) {
  fault_directory_ = DirName(dir) + "/";
}

IOStatus FaultInjectionFileSystem::Check(CallKind kind, const std::string& fname) {
  switch (scope_.load()) {
    case FaultScope::kUnderDirectory:
      if (fault_directory_.size() <= 1 ||
          std::filesystem::path(fname).lexically_normal().string().rfind(fault_directory_, 0) !=
              0) {
        return IOStatus::OK();
      }
      break;
    case FaultScope::kAllFiles:
      break;
    case FaultScope::kWalOnly:
      if (!EndsWith(fname, ".log")) return IOStatus::OK();
      break;
    case FaultScope::kSstOnly:
      if (!EndsWith(fname, ".sst")) return IOStatus::OK();
      break;
  }
  bool applies = false;
  IOStatus failure;
  switch (fault_.load()) {
    case Fault::kNone:
      break;
    case Fault::kWriteError:
      applies = kind == CallKind::kWrite;
      failure = IOStatus::IOError("injected write error");
      break;
    case Fault::kSyncError:
      applies = kind == CallKind::kSync;
      failure = IOStatus::IOError("injected sync error");
      break;
    case Fault::kNoSpace:
      applies = kind == CallKind::kWrite;
      failure = IOStatus::NoSpace("injected: no space left on device");
      break;
    case Fault::kNoSpaceOrInodes:
      applies = kind == CallKind::kWrite || kind == CallKind::kCreate;
      failure = IOStatus::NoSpace("injected: no space left on device");
      break;
    case Fault::kReadError:
      applies = kind == CallKind::kRead;
      failure = IOStatus::IOError("injected read error");
      break;
  }
  if (!applies) return IOStatus::OK();
  // The calls SetFaultAfter lets through; the decrement that takes it from 1 to 0 is the last.
  if (pass_.load() > 0 && pass_.fetch_sub(1) > 0) return IOStatus::OK();
  ++injected_;
  return failure;
}

std::shared_ptr<FaultInjectionFileSystem::FileState> FaultInjectionFileSystem::TrackOpenedLocked(
    const std::string& fname, bool existed, bool emptied) {
  auto& state = files_[fname];
  if (!existed) {
    pending_[DirOf(fname)].push_back(DirOp{DirOp::kCreate, next_seq_++, fname, {}, {}, {}});
  }
  if (!existed || emptied || state == nullptr) {
    // A file emptied by NewWritableFile keeps nothing durable; one reopened as it is keeps what
    // it has (it was durable whole, or its state is known).
    uint64_t size = 0;
    if (existed && !emptied) {
      target()->GetFileSize(fname, IOOptions(), &size, nullptr).PermitUncheckedError();
    }
    state = std::make_shared<FileState>(size, EndsWith(fname, ".log"));
    state->creation_durable = existed && !CreationPendingLocked(fname);
    state->size_at_cut = size;  // what it has if the power is already off
  }
  if (trace_) Trace(existed ? "opened" : "created", fname);
  return state;
}

IOStatus FaultInjectionFileSystem::NewWritableFile(const std::string& fname,
                                                   const rocksdb::FileOptions& options,
                                                   std::unique_ptr<rocksdb::FSWritableFile>* result,
                                                   IODebugContext* dbg) {
  IOStatus s = Check(CallKind::kCreate, fname);
  if (!s.ok()) return s;
  std::lock_guard<std::mutex> l(mu_);
  const bool existed = target()->FileExists(fname, IOOptions(), dbg).ok();
  std::unique_ptr<rocksdb::FSWritableFile> file;
  s = target()->NewWritableFile(fname, options, &file, dbg);
  if (!s.ok()) return s;
  auto state = TrackOpenedLocked(fname, existed, /*emptied=*/true);
  result->reset(new FaultyWritableFile(std::move(file), this, fname, std::move(state)));
  return s;
}

IOStatus FaultInjectionFileSystem::NewRandomAccessFile(
    const std::string& fname, const rocksdb::FileOptions& options,
    std::unique_ptr<rocksdb::FSRandomAccessFile>* result, IODebugContext* dbg) {
  std::unique_ptr<rocksdb::FSRandomAccessFile> file;
  IOStatus s = target()->NewRandomAccessFile(fname, options, &file, dbg);
  if (s.ok()) result->reset(new FaultyRandomAccessFile(std::move(file), this, fname));
  return s;
}

IOStatus FaultInjectionFileSystem::ReopenWritableFile(
    const std::string& fname, const rocksdb::FileOptions& options,
    std::unique_ptr<rocksdb::FSWritableFile>* result, IODebugContext* dbg) {
  IOStatus s = Check(CallKind::kCreate, fname);
  if (!s.ok()) return s;
  std::lock_guard<std::mutex> l(mu_);
  const bool existed = target()->FileExists(fname, IOOptions(), dbg).ok();
  std::unique_ptr<rocksdb::FSWritableFile> file;
  s = target()->ReopenWritableFile(fname, options, &file, dbg);
  if (!s.ok()) return s;
  auto state = TrackOpenedLocked(fname, existed, /*emptied=*/false);
  result->reset(new FaultyWritableFile(std::move(file), this, fname, std::move(state)));
  return s;
}

IOStatus FaultInjectionFileSystem::ReuseWritableFile(
    const std::string& fname, const std::string& old_fname, const rocksdb::FileOptions& options,
    std::unique_ptr<rocksdb::FSWritableFile>* result, IODebugContext* dbg) {
  IOStatus s = Check(CallKind::kCreate, fname);
  if (!s.ok()) return s;
  // Modelled as the rename it starts with (see the header); the file's old bytes stay as durable
  // as they were.
  s = RenameFile(old_fname, fname, IOOptions(), dbg);
  if (!s.ok()) return s;
  std::lock_guard<std::mutex> l(mu_);
  std::unique_ptr<rocksdb::FSWritableFile> file;
  s = target()->ReuseWritableFile(fname, fname, options, &file, dbg);
  if (!s.ok()) return s;
  auto state = TrackOpenedLocked(fname, /*existed=*/true, /*emptied=*/false);
  result->reset(new FaultyWritableFile(std::move(file), this, fname, std::move(state)));
  return s;
}

IOStatus FaultInjectionFileSystem::NewDirectory(const std::string& name, const IOOptions& io_opts,
                                                std::unique_ptr<rocksdb::FSDirectory>* result,
                                                IODebugContext* dbg) {
  std::unique_ptr<rocksdb::FSDirectory> dir;
  IOStatus s = target()->NewDirectory(name, io_opts, &dir, dbg);
  if (s.ok()) result->reset(new PowerLossDirectory(std::move(dir), this, DirName(name)));
  return s;
}

IOStatus FaultInjectionFileSystem::SaveLocked(const std::string& fname, std::string* saved) {
  *saved = (std::filesystem::path(DirOf(fname)) /
            ("powerloss-saved-" + std::to_string(++saved_counter_)))
               .string();
  IOStatus s = target()->LinkFile(fname, *saved, IOOptions(), nullptr);
  if (!s.ok()) {
    return IOStatus::IOError("power-loss model: cannot keep " + fname +
                             " as a hard link: " + s.ToString());
  }
  return s;
}

bool FaultInjectionFileSystem::CreationPendingLocked(const std::string& fname) {
  auto it = pending_.find(DirOf(fname));
  if (it == pending_.end()) return false;
  return std::any_of(it->second.begin(), it->second.end(), [&](const DirOp& op) {
    return (op.kind == DirOp::kCreate || op.kind == DirOp::kRename) && op.name == fname;
  });
}

IOStatus FaultInjectionFileSystem::DeleteFile(const std::string& fname, const IOOptions& options,
                                              IODebugContext* dbg) {
  std::lock_guard<std::mutex> l(mu_);
  // Nothing to keep: the target answers (NotFound, which RocksDB expects for a missing file).
  if (!target()->FileExists(fname, IOOptions(), dbg).ok()) {
    return target()->DeleteFile(fname, options, dbg);
  }
  IOStatus s;
  auto& ops = pending_[DirOf(fname)];
  // A file whose creation is not durable yet just goes: a power failure would not bring it back.
  auto created = std::find_if(ops.rbegin(), ops.rend(), [&](const DirOp& op) {
    return op.kind == DirOp::kCreate && op.name == fname;
  });
  if (created != ops.rend()) {
    s = target()->DeleteFile(fname, options, dbg);
    if (!s.ok()) return s;
    ops.erase(std::next(created).base());
    files_.erase(fname);
    if (trace_) Trace("deleted (never durable)", fname);
    return s;
  }
  std::string saved;
  s = SaveLocked(fname, &saved);
  if (!s.ok()) return s;
  s = target()->DeleteFile(fname, options, dbg);
  if (!s.ok()) {
    target()->DeleteFile(saved, IOOptions(), nullptr).PermitUncheckedError();
    return s;
  }
  std::shared_ptr<FileState> state;
  if (auto it = files_.find(fname); it != files_.end()) {
    state = std::move(it->second);
    files_.erase(it);
  }
  ops.push_back(DirOp{DirOp::kDelete, next_seq_++, fname, {}, std::move(saved), std::move(state)});
  if (trace_) Trace("deleted", fname);
  return s;
}

void FaultInjectionFileSystem::RecordRenameLocked(const std::string& src, const std::string& dst,
                                                  std::string saved) {
  std::shared_ptr<FileState> replaced_state;
  if (auto it = files_.find(dst); it != files_.end()) {
    replaced_state = std::move(it->second);
    files_.erase(it);
  }
  if (auto it = files_.find(src); it != files_.end()) {
    auto state = std::move(it->second);
    files_.erase(it);
    state->creation_durable = false;  // until the rename is
    files_[dst] = std::move(state);
  }
  // `saved` is empty when nothing was replaced.
  pending_[DirOf(dst)].push_back(
      DirOp{DirOp::kRename, next_seq_++, dst, src, std::move(saved), std::move(replaced_state)});
}

IOStatus FaultInjectionFileSystem::RenameFile(const std::string& src, const std::string& dst,
                                              const IOOptions& options, IODebugContext* dbg) {
  std::lock_guard<std::mutex> l(mu_);
  if (src == dst) return target()->RenameFile(src, dst, options, dbg);
  IOStatus s;
  const bool replaced = target()->FileExists(dst, IOOptions(), dbg).ok();
  std::string saved;
  if (replaced) {
    s = SaveLocked(dst, &saved);
    if (!s.ok()) return s;
  }
  s = target()->RenameFile(src, dst, options, dbg);
  if (!s.ok()) {
    if (replaced) target()->DeleteFile(saved, IOOptions(), nullptr).PermitUncheckedError();
    return s;
  }
  RecordRenameLocked(src, dst, std::move(saved));
  if (trace_) Trace("renamed", src + " -> " + dst);
  return s;
}

IOStatus FaultInjectionFileSystem::LinkFile(const std::string& src, const std::string& dst,
                                            const IOOptions& options, IODebugContext* dbg) {
  IOStatus s = Check(CallKind::kCreate, dst);
  if (!s.ok()) return s;
  return target()->LinkFile(src, dst, options, dbg);
}

IOStatus FaultInjectionFileSystem::CreateDir(const std::string& dirname, const IOOptions& options,
                                             IODebugContext* dbg) {
  IOStatus s = Check(CallKind::kCreate, dirname + "/");
  if (!s.ok()) return s;
  return target()->CreateDir(dirname, options, dbg);
}

IOStatus FaultInjectionFileSystem::CreateDirIfMissing(const std::string& dirname,
                                                      const IOOptions& options,
                                                      IODebugContext* dbg) {
  // A directory that is there takes nothing: only a new one can fail.
  bool is_dir = false;
  if (!target()->IsDirectory(dirname, options, &is_dir, dbg).ok() || !is_dir) {
    IOStatus s = Check(CallKind::kCreate, dirname + "/");
    if (!s.ok()) return s;
  }
  return target()->CreateDirIfMissing(dirname, options, dbg);
}

IOStatus FaultInjectionFileSystem::Truncate(const std::string& fname, size_t size,
                                            const IOOptions& options, IODebugContext* dbg) {
  IOStatus s = target()->Truncate(fname, size, options, dbg);
  std::lock_guard<std::mutex> l(mu_);
  if (auto it = files_.find(fname); s.ok() && it != files_.end()) it->second->size.store(size);
  return s;
}

void FaultInjectionFileSystem::CutPower() {
  // Under mu_, so that a sync that completes from here on sees the cut and is not counted.
  std::lock_guard<std::mutex> l(mu_);
  if (power_cut_.load()) return;
  cut_tick_ = Tick();
  power_cut_ = true;
  for (auto& [fname, state] : files_) state->size_at_cut = state->size.load();
  for (auto& [dir, ops] : pending_) {
    for (auto& op : ops) {
      if (op.state) op.state->size_at_cut = op.state->size.load();
    }
  }
  if (trace_) Trace("power cut", "");
}

void FaultInjectionFileSystem::WalAppended(FileState* state, uint64_t end) {
  std::lock_guard<std::mutex> l(mu_);
  state->unsynced_appends.emplace_back(end, Tick());
}

void FaultInjectionFileSystem::PruneDurableAppendsLocked(FileState* state) {
  if (!state->creation_durable) return;
  auto& appends = state->unsynced_appends;
  appends.erase(appends.begin(), std::find_if(appends.begin(), appends.end(), [&](const auto& a) {
                  return a.first > state->synced;
                }));
}

void FaultInjectionFileSystem::FileSynced(FileState* state, uint64_t covered) {
  std::lock_guard<std::mutex> l(mu_);
  // After the cut the sync does its work but keeps nothing: the machine is off.
  if (power_cut_.load()) return;
  state->synced = std::max(state->synced, covered);
  PruneDurableAppendsLocked(state);
  if (trace_) Trace("synced", state->wal ? "a log" : "a file", covered);
}

void FaultInjectionFileSystem::Trace(const char* event, const std::string& what, uint64_t n) {
  std::fprintf(stderr, "[power-loss fs] tick %lld: %s %s %llu\n",
               static_cast<long long>(clock_.load()), event, what.c_str(),
               static_cast<unsigned long long>(n));
}

int64_t FaultInjectionFileSystem::FirstUnsyncedWalAppend() {
  std::lock_guard<std::mutex> l(mu_);
  int64_t first = INT64_MAX;
  for (const auto& [fname, state] : files_) {
    if (state->wal && !state->unsynced_appends.empty()) {
      first = std::min(first, state->unsynced_appends.front().second);
    }
  }
  return first;
}

uint64_t FaultInjectionFileSystem::DirLogPosition() {
  std::lock_guard<std::mutex> l(mu_);
  return next_seq_;
}

void FaultInjectionFileSystem::DirSynced(const std::string& dir, uint64_t seq) {
  std::lock_guard<std::mutex> l(mu_);
  if (power_cut_.load()) return;
  ++durable_dir_syncs_;
  auto it = pending_.find(dir);
  if (it == pending_.end()) return;
  // The operations logged before the fsync began are durable now: drop them, and the copies
  // kept to undo them.
  auto& ops = it->second;
  auto durable_end =
      std::find_if(ops.begin(), ops.end(), [&](const DirOp& op) { return op.seq >= seq; });
  for (auto op = ops.begin(); op != durable_end; ++op) {
    if (!op->saved.empty()) {
      target()->DeleteFile(op->saved, IOOptions(), nullptr).PermitUncheckedError();
    }
    // A durable creation, or a durable rename onto the name, makes the file's entry durable.
    if (op->kind == DirOp::kCreate || op->kind == DirOp::kRename) {
      if (auto f = files_.find(op->name); f != files_.end()) {
        f->second->creation_durable = true;
        PruneDurableAppendsLocked(f->second.get());
      }
    }
  }
  if (trace_) Trace("dir synced", dir, durable_end - ops.begin());
  ops.erase(ops.begin(), durable_end);
}

IOStatus FaultInjectionFileSystem::DropUnsyncedData(UnsyncedTail tail, uint64_t seed,
                                                    PowerLossReport* report) {
  std::lock_guard<std::mutex> l(mu_);
  if (!power_cut_.load()) return IOStatus::InvalidArgument("DropUnsyncedData before CutPower");
  *report = PowerLossReport();
  report->durable_dir_syncs = durable_dir_syncs_;
  const IOOptions io;
  auto fail = [](const std::string& what, const IOStatus& s) {
    return IOStatus::IOError("power-loss model: " + what + ": " + s.ToString());
  };
  // Undo the directory operations no fsync made durable, newest first, so that each one finds
  // the directory as it left it.
  for (auto& [dir, ops] : pending_) {
    for (auto op = ops.rbegin(); op != ops.rend(); ++op) {
      IOStatus s;
      switch (op->kind) {
        case DirOp::kCreate:
          s = target()->DeleteFile(op->name, io, nullptr);
          if (!s.ok() && !s.IsNotFound()) return fail("removing " + op->name, s);
          files_.erase(op->name);
          ++report->creations_undone;
          break;
        case DirOp::kDelete:
          s = target()->RenameFile(op->saved, op->name, io, nullptr);
          if (!s.ok()) return fail("restoring " + op->name, s);
          if (op->state) files_[op->name] = op->state;
          ++report->deletions_undone;
          break;
        case DirOp::kRename: {
          s = target()->RenameFile(op->name, op->from, io, nullptr);
          if (!s.ok()) return fail("renaming " + op->name + " back to " + op->from, s);
          auto moved = files_.find(op->name);
          if (moved != files_.end()) {
            files_[op->from] = std::move(moved->second);
            files_.erase(op->name);
          }
          if (!op->saved.empty()) {
            s = target()->RenameFile(op->saved, op->name, io, nullptr);
            if (!s.ok()) return fail("restoring " + op->name, s);
            if (op->state) files_[op->name] = op->state;
          }
          ++report->renames_undone;
          break;
        }
      }
    }
  }
  pending_.clear();
  // Then every file keeps what was synced (and, with kKeepRandomPrefix, part of the rest).
  std::mt19937_64 rng(seed);
  for (const auto& [fname, state] : files_) {
    uint64_t size = 0;
    IOStatus s = target()->GetFileSize(fname, io, &size, nullptr);
    if (s.IsNotFound()) continue;
    if (!s.ok()) return fail("sizing " + fname, s);
    uint64_t keep = std::min(state->synced, size);
    const uint64_t written = std::min(state->size_at_cut, size);
    if (tail == UnsyncedTail::kKeepRandomAppends && state->wal && written > keep) {
      // The end of a random one of the appends not durable (or none): a record boundary.
      std::vector<uint64_t> ends{keep};
      for (const auto& [end, tick] : state->unsynced_appends) {
        if (end > keep && end <= written) ends.push_back(end);
      }
      keep = ends[rng() % ends.size()];
    } else if (tail != UnsyncedTail::kDropAll && written > keep) {
      keep += rng() % (written - keep + 1);
    }
    if (size > keep) {
      // Through a writable file: the POSIX file system has no FileSystem::Truncate.
      std::unique_ptr<rocksdb::FSWritableFile> file;
      s = target()->ReopenWritableFile(fname, rocksdb::FileOptions(), &file, nullptr);
      if (s.ok()) s = file->Truncate(keep, io, nullptr);
      if (s.ok()) s = file->Close(io, nullptr);
      if (!s.ok()) return fail("cutting " + fname, s);
      ++report->files_cut;
      report->bytes_dropped += static_cast<int64_t>(size - keep);
    }
    if (state->wal) {
      report->logs.push_back(std::filesystem::path(fname).filename().string() + ": " +
                             std::to_string(keep) + " of " + std::to_string(size) +
                             " bytes kept (synced " + std::to_string(state->synced) +
                             ", at the cut " + std::to_string(state->size_at_cut) + ")");
    }
  }
  files_.clear();
  return IOStatus::OK();
}

}  // namespace basalt::crash
