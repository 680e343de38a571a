// Mutex and CondVar: std::mutex and std::condition_variable with the thread-safety attributes
// of util/thread_annotations.h, so that clang checks every access to what a Mutex guards. Lock it
// through MutexLock.

#ifndef BASALT_UTIL_MUTEX_H_
#define BASALT_UTIL_MUTEX_H_

#include <chrono>
#include <condition_variable>
#include <mutex>

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
