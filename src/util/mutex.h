// Mutex, SharedMutex and CondVar: std::mutex, std::shared_mutex and std::condition_variable with
// the thread-safety attributes of util/thread_annotations.h, so that clang checks every access to
// what they guard. Lock them through MutexLock, ReaderMutexLock and WriterMutexLock.

#ifndef BASALT_UTIL_MUTEX_H_
#define BASALT_UTIL_MUTEX_H_

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <shared_mutex>

#include "util/thread_annotations.h"

namespace basalt::util {

class BASALT_CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void lock() BASALT_ACQUIRE() { mu_.lock(); }
  void unlock() BASALT_RELEASE() { mu_.unlock(); }

 private:
  friend class CondVar;
  std::mutex mu_;
};

// std::shared_mutex with the attributes: held shared by readers, exclusively by a writer.
class BASALT_CAPABILITY("shared mutex") SharedMutex {
 public:
  SharedMutex() = default;
  SharedMutex(const SharedMutex&) = delete;
  SharedMutex& operator=(const SharedMutex&) = delete;

  void lock() BASALT_ACQUIRE() { mu_.lock(); }
  void unlock() BASALT_RELEASE() { mu_.unlock(); }
  void lock_shared() BASALT_ACQUIRE_SHARED() { mu_.lock_shared(); }
  void unlock_shared() BASALT_RELEASE_SHARED() { mu_.unlock_shared(); }

 private:
  std::shared_mutex mu_;
};

// Holds `mu` shared for its scope.
class BASALT_SCOPED_CAPABILITY ReaderMutexLock {
 public:
  explicit ReaderMutexLock(SharedMutex& mu) BASALT_ACQUIRE_SHARED(mu) : mu_(mu) {
    mu_.lock_shared();
  }
  ~ReaderMutexLock() BASALT_RELEASE() { mu_.unlock_shared(); }
  ReaderMutexLock(const ReaderMutexLock&) = delete;
  ReaderMutexLock& operator=(const ReaderMutexLock&) = delete;

 private:
  SharedMutex& mu_;
};

// Holds `mu` exclusively for its scope.
class BASALT_SCOPED_CAPABILITY WriterMutexLock {
 public:
  explicit WriterMutexLock(SharedMutex& mu) BASALT_ACQUIRE(mu) : mu_(mu) { mu_.lock(); }
  ~WriterMutexLock() BASALT_RELEASE() { mu_.unlock(); }
  WriterMutexLock(const WriterMutexLock&) = delete;
  WriterMutexLock& operator=(const WriterMutexLock&) = delete;

 private:
  SharedMutex& mu_;
};

// Holds `mu` for its scope.
class BASALT_SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex& mu) BASALT_ACQUIRE(mu) : mu_(mu) { mu_.lock(); }
  ~MutexLock() BASALT_RELEASE() { mu_.unlock(); }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

 private:
  Mutex& mu_;
};

// A condition variable waited on with a util::Mutex held; the wait gives the mutex up and takes it
// back, as std::condition_variable's does.
class CondVar {
 public:
  void Wait(Mutex& mu) BASALT_REQUIRES(mu) {
    std::unique_lock<std::mutex> lock(mu.mu_, std::adopt_lock);
    cv_.wait(lock);
    lock.release();
  }
  // Returns false when `deadline` passed first.
  template <class Clock, class Duration>
  bool WaitUntil(Mutex& mu, const std::chrono::time_point<Clock, Duration>& deadline)
      BASALT_REQUIRES(mu) {
    std::unique_lock<std::mutex> lock(mu.mu_, std::adopt_lock);
    const bool woken = cv_.wait_until(lock, deadline) == std::cv_status::no_timeout;
    lock.release();
    return woken;
  }
  void NotifyOne() { cv_.notify_one(); }
  void NotifyAll() { cv_.notify_all(); }

 private:
  std::condition_variable cv_;
};

}  // namespace basalt::util

#endif  // BASALT_UTIL_MUTEX_H_
