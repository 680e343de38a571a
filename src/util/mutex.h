// Mutex, SharedMutex and CondVar: std::mutex, std::shared_mutex and std::condition_variable with
// the thread-safety attributes of util/thread_annotations.h, so that clang checks every access to
// what they guard. Lock them through the scoped locks below (MutexLock, ReaderLock, WriterLock);
// lock()/unlock() are there for the std:: lock types where a lock must move (the analysis does
// not follow those: assert the lock held after taking it, with AssertHeld).

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
  bool try_lock() BASALT_TRY_ACQUIRE(true) { return mu_.try_lock(); }
  // Tells the analysis the caller holds it (it does not check).
  void AssertHeld() const BASALT_ASSERT_CAPABILITY(this) {}

 private:
  friend class CondVar;
  std::mutex mu_;
};

class BASALT_CAPABILITY("mutex") SharedMutex {
 public:
  SharedMutex() = default;
  SharedMutex(const SharedMutex&) = delete;
  SharedMutex& operator=(const SharedMutex&) = delete;

  void lock() BASALT_ACQUIRE() { mu_.lock(); }
  void unlock() BASALT_RELEASE() { mu_.unlock(); }
  void lock_shared() BASALT_ACQUIRE_SHARED() { mu_.lock_shared(); }
  void unlock_shared() BASALT_RELEASE_SHARED() { mu_.unlock_shared(); }
  void AssertHeld() const BASALT_ASSERT_CAPABILITY(this) {}
  void AssertReaderHeld() const BASALT_ASSERT_SHARED_CAPABILITY(this) {}

 private:
  std::shared_mutex mu_;
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

// Holds `mu` shared for its scope.
class BASALT_SCOPED_CAPABILITY ReaderLock {
 public:
  explicit ReaderLock(SharedMutex& mu) BASALT_ACQUIRE_SHARED(mu) : mu_(mu) { mu_.lock_shared(); }
  ~ReaderLock() BASALT_RELEASE() { mu_.unlock_shared(); }
  ReaderLock(const ReaderLock&) = delete;
  ReaderLock& operator=(const ReaderLock&) = delete;

 private:
  SharedMutex& mu_;
};

// Holds `mu` exclusively for its scope.
class BASALT_SCOPED_CAPABILITY WriterLock {
 public:
  explicit WriterLock(SharedMutex& mu) BASALT_ACQUIRE(mu) : mu_(mu) { mu_.lock(); }
  ~WriterLock() BASALT_RELEASE() { mu_.unlock(); }
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;

 private:
  SharedMutex& mu_;
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
  template <class Rep, class Period>
  bool WaitFor(Mutex& mu, const std::chrono::duration<Rep, Period>& timeout) BASALT_REQUIRES(mu) {
    return WaitUntil(mu, std::chrono::steady_clock::now() + timeout);
  }
  void NotifyOne() { cv_.notify_one(); }
  void NotifyAll() { cv_.notify_all(); }

 private:
  std::condition_variable cv_;
};

}  // namespace basalt::util

#endif  // BASALT_UTIL_MUTEX_H_
