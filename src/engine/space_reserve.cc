#include "engine/space_reserve.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <utility>

namespace basalt::engine {
namespace {

constexpr uint64_t kMinReserve = uint64_t{1} << 20;
constexpr uint64_t kMaxReserve = uint64_t{64} << 20;

}  // namespace

SpaceReserve::SpaceReserve(std::string dir) : dir_(std::move(dir)), path_(dir_ + "/" + kFileName) {}

std::optional<uint64_t> SpaceReserve::FreeBytes(const std::string& path) {
  struct statvfs st;
  if (statvfs(path.c_str(), &st) != 0) return std::nullopt;
  return static_cast<uint64_t>(st.f_bavail) * st.f_frsize;
}

void SpaceReserve::PrepareForOpen() {
  util::MutexLock l(mu_);
  struct statvfs st;
  if (statvfs(dir_.c_str(), &st) != 0) return;
  const uint64_t total = static_cast<uint64_t>(st.f_blocks) * st.f_frsize;
  const uint64_t free = static_cast<uint64_t>(st.f_bavail) * st.f_frsize;
  size_ = std::clamp(total / 64, kMinReserve, kMaxReserve);
  struct stat file;
  held_ = stat(path_.c_str(), &file) == 0;
  if (held_ && free < size_) {
    // The disk is (nearly) full: the open needs the room more than the reserve does.
    held_ = false;
    unlink(path_.c_str());
    return;
  }
  RestoreLocked();
}

void SpaceReserve::Release() {
  util::MutexLock l(mu_);
  if (!held_) return;
  held_ = false;
  unlink(path_.c_str());
}

void SpaceReserve::Restore() {
  util::MutexLock l(mu_);
  RestoreLocked();
}

void SpaceReserve::RestoreLocked() {
  if (held_ || size_ == 0) return;
  auto free = FreeBytes(dir_);
  if (!free || *free < 2 * size_) return;
  int fd = open(path_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return;
  // fallocate allocates real blocks, so the bytes are kept from every other writer until the
  // file is deleted. A file system without it gets no reserve rather than megabytes of zeros
  // written at every open (posix_fallocate's fallback).
  const int err = fallocate(fd, 0, 0, static_cast<off_t>(size_));
  close(fd);
  if (err != 0) {
    unlink(path_.c_str());
    return;
  }
  held_ = true;
}

bool SpaceReserve::held() const {
  util::MutexLock l(mu_);
  return held_;
}

uint64_t SpaceReserve::size() const {
  util::MutexLock l(mu_);
  return size_;
}

}  // namespace basalt::engine
