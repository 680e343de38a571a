#include "fault_injection_fs.h"

#include <string_view>

namespace basalt::crash {
namespace {

using rocksdb::IODebugContext;
using rocksdb::IOOptions;
using rocksdb::IOStatus;
using rocksdb::Slice;

// A writable file whose writes and syncs consult the file system's fault.
class FaultyWritableFile : public rocksdb::FSWritableFileOwnerWrapper {
 public:
  using CallKind = FaultInjectionFileSystem::CallKind;

  FaultyWritableFile(std::unique_ptr<rocksdb::FSWritableFile> target, FaultInjectionFileSystem* fs,
                     std::string fname)
      : FSWritableFileOwnerWrapper(std::move(target)), fs_(fs), fname_(std::move(fname)) {}

  IOStatus Append(const Slice& data, const IOOptions& options, IODebugContext* dbg) override {
    IOStatus s = fs_->Check(CallKind::kWrite, fname_);
    return s.ok() ? target()->Append(data, options, dbg) : s;
  }
  IOStatus Append(const Slice& data, const IOOptions& options,
                  const rocksdb::DataVerificationInfo& info, IODebugContext* dbg) override {
    IOStatus s = fs_->Check(CallKind::kWrite, fname_);
    return s.ok() ? target()->Append(data, options, info, dbg) : s;
  }
  IOStatus PositionedAppend(const Slice& data, uint64_t offset, const IOOptions& options,
                            IODebugContext* dbg) override {
    IOStatus s = fs_->Check(CallKind::kWrite, fname_);
    return s.ok() ? target()->PositionedAppend(data, offset, options, dbg) : s;
  }
  IOStatus PositionedAppend(const Slice& data, uint64_t offset, const IOOptions& options,
                            const rocksdb::DataVerificationInfo& info,
                            IODebugContext* dbg) override {
    IOStatus s = fs_->Check(CallKind::kWrite, fname_);
    return s.ok() ? target()->PositionedAppend(data, offset, options, info, dbg) : s;
  }
  IOStatus Sync(const IOOptions& options, IODebugContext* dbg) override {
    IOStatus s = fs_->Check(CallKind::kSync, fname_);
    return s.ok() ? target()->Sync(options, dbg) : s;
  }
  IOStatus Fsync(const IOOptions& options, IODebugContext* dbg) override {
    IOStatus s = fs_->Check(CallKind::kSync, fname_);
    return s.ok() ? target()->Fsync(options, dbg) : s;
  }
  IOStatus RangeSync(uint64_t offset, uint64_t nbytes, const IOOptions& options,
                     IODebugContext* dbg) override {
    IOStatus s = fs_->Check(CallKind::kSync, fname_);
    return s.ok() ? target()->RangeSync(offset, nbytes, options, dbg) : s;
  }

 private:
  FaultInjectionFileSystem* fs_;
  const std::string fname_;
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

}  // namespace

IOStatus FaultInjectionFileSystem::Check(CallKind kind, const std::string& fname) {
  switch (scope_.load()) {
    case FaultScope::kAllFiles:
      break;
    case FaultScope::kWalOnly:
      if (!EndsWith(fname, ".log")) return IOStatus::OK();
      break;
    case FaultScope::kSstOnly:
      if (!EndsWith(fname, ".sst")) return IOStatus::OK();
      break;
  }
  switch (fault_.load()) {
    case Fault::kNone:
      return IOStatus::OK();
    case Fault::kWriteError:
      if (kind != CallKind::kWrite) return IOStatus::OK();
      ++injected_;
      return IOStatus::IOError("injected write error");
    case Fault::kSyncError:
      if (kind != CallKind::kSync) return IOStatus::OK();
      ++injected_;
      return IOStatus::IOError("injected sync error");
    case Fault::kNoSpace:
      if (kind != CallKind::kWrite) return IOStatus::OK();
      ++injected_;
      return IOStatus::NoSpace("injected: no space left on device");
    case Fault::kNoSpaceOrInodes:
      if (kind == CallKind::kSync || kind == CallKind::kRead) return IOStatus::OK();
      ++injected_;
      return IOStatus::NoSpace("injected: no space left on device");
    case Fault::kReadError:
      if (kind != CallKind::kRead) return IOStatus::OK();
      ++injected_;
      return IOStatus::IOError("injected read error");
  }
  return IOStatus::OK();
}

IOStatus FaultInjectionFileSystem::NewWritableFile(const std::string& fname,
                                                   const rocksdb::FileOptions& options,
                                                   std::unique_ptr<rocksdb::FSWritableFile>* result,
                                                   IODebugContext* dbg) {
  IOStatus s = Check(CallKind::kCreate, fname);
  if (!s.ok()) return s;
  std::unique_ptr<rocksdb::FSWritableFile> file;
  s = target()->NewWritableFile(fname, options, &file, dbg);
  if (s.ok()) result->reset(new FaultyWritableFile(std::move(file), this, fname));
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
  std::unique_ptr<rocksdb::FSWritableFile> file;
  s = target()->ReopenWritableFile(fname, options, &file, dbg);
  if (s.ok()) result->reset(new FaultyWritableFile(std::move(file), this, fname));
  return s;
}

IOStatus FaultInjectionFileSystem::ReuseWritableFile(
    const std::string& fname, const std::string& old_fname, const rocksdb::FileOptions& options,
    std::unique_ptr<rocksdb::FSWritableFile>* result, IODebugContext* dbg) {
  IOStatus s = Check(CallKind::kCreate, fname);
  if (!s.ok()) return s;
  std::unique_ptr<rocksdb::FSWritableFile> file;
  s = target()->ReuseWritableFile(fname, old_fname, options, &file, dbg);
  if (s.ok()) result->reset(new FaultyWritableFile(std::move(file), this, fname));
  return s;
}

}  // namespace basalt::crash
