#include "engine/info_log.h"

#include <rocksdb/file_system.h>

#include <cstdarg>
#include <cstdio>
#include <ctime>
#include <string>

#include "util/mutex.h"

namespace basalt::engine {
namespace {

// Appends each line to an FSWritableFile; a line that cannot be written is dropped.
class InfoLog : public rocksdb::Logger {
 public:
  InfoLog(rocksdb::Env* env, std::unique_ptr<rocksdb::FSWritableFile> file,
          rocksdb::InfoLogLevel level)
      : rocksdb::Logger(level), env_(env), file_(std::move(file)) {}
  ~InfoLog() override { CloseFile(); }

  using rocksdb::Logger::Logv;
  void Logv(const char* format, va_list ap) override {
    const uint64_t micros = env_->NowMicros();
    const time_t seconds = static_cast<time_t>(micros / 1000000);
    struct tm t;
    localtime_r(&seconds, &t);
    char prefix[64];
    const int prefix_len = std::snprintf(
        prefix, sizeof(prefix), "%04d/%02d/%02d-%02d:%02d:%02d.%06d %llx ", t.tm_year + 1900,
        t.tm_mon + 1, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec, static_cast<int>(micros % 1000000),
        static_cast<unsigned long long>(env_->GetThreadID()));
    std::string line(prefix, prefix_len > 0 ? static_cast<size_t>(prefix_len) : 0);
    va_list copy;
    va_copy(copy, ap);
    const int n = std::vsnprintf(nullptr, 0, format, copy);
    va_end(copy);
    if (n > 0) {
      const size_t start = line.size();
      line.resize(start + static_cast<size_t>(n) + 1);
      std::vsnprintf(line.data() + start, static_cast<size_t>(n) + 1, format, ap);
      line.resize(start + static_cast<size_t>(n));
    }
    if (line.empty() || line.back() != '\n') line.push_back('\n');
    util::MutexLock l(mu_);
    if (file_ == nullptr) return;
    // The status is dropped on purpose: see info_log.h.
    file_->Append(rocksdb::Slice(line), rocksdb::IOOptions(), nullptr).PermitUncheckedError();
  }

  void Flush() override {
    util::MutexLock l(mu_);
    if (file_ != nullptr) file_->Flush(rocksdb::IOOptions(), nullptr).PermitUncheckedError();
  }

 protected:
  rocksdb::Status CloseImpl() override {
    CloseFile();
    return rocksdb::Status::OK();
  }

 private:
  void CloseFile() {
    util::MutexLock l(mu_);
    if (file_ == nullptr) return;
    file_->Close(rocksdb::IOOptions(), nullptr).PermitUncheckedError();
    file_.reset();
  }

  rocksdb::Env* const env_;
  util::Mutex mu_;
  std::unique_ptr<rocksdb::FSWritableFile> file_ BASALT_GUARDED_BY(mu_);  // null once closed
};

// Drops every line.
class NullLog : public rocksdb::Logger {
 public:
  using rocksdb::Logger::Logv;
  void Logv(const char*, va_list) override {}
};

}  // namespace

std::shared_ptr<rocksdb::Logger> OpenInfoLog(rocksdb::Env* env, const std::string& dir,
                                             rocksdb::InfoLogLevel level) {
  const std::shared_ptr<rocksdb::FileSystem>& fs = env->GetFileSystem();
  const rocksdb::IOOptions io;
  fs->CreateDirIfMissing(dir, io, nullptr).PermitUncheckedError();
  const std::string name = dir + "/LOG";
  if (fs->FileExists(name, io, nullptr).ok()) {
    // A rename takes no space, so it works on a full disk too.
    fs->RenameFile(name, name + ".old." + std::to_string(env->NowMicros()), io, nullptr)
        .PermitUncheckedError();
  }
  std::unique_ptr<rocksdb::FSWritableFile> file;
  if (!fs->NewWritableFile(name, rocksdb::FileOptions(), &file, nullptr).ok()) {
    return std::make_shared<NullLog>();
  }
  return std::make_shared<InfoLog>(env, std::move(file), level);
}

}  // namespace basalt::engine
