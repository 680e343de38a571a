// HashSlots: bounds how many password hashes (sign-ups and log-ins) run at once. Each argon2id
// hash at the interactive cost takes 64 MiB and a core for tens of milliseconds; unbounded, 32
// threads signing up at once pushed the server's plain /version to 3.6 s and its memory up by
// 2 GiB. A caller that finds no slot waits a little, then is told to retry.
//
// Thread safety: every method may be called from many threads.

#ifndef BASALT_APP_API_V1_HASH_SLOTS_H_
#define BASALT_APP_API_V1_HASH_SLOTS_H_

#include <chrono>

#include "util/mutex.h"

namespace basalt::app::api_v1 {

class HashSlots {
 public:
  // REQUIRES: slots >= 1.
  explicit HashSlots(int slots) : free_(slots) {}

  HashSlots(const HashSlots&) = delete;
  HashSlots& operator=(const HashSlots&) = delete;

  // A held slot, given back when it goes away; empty (false) when none was free in time.
  class Slot {
   public:
    Slot() = default;
    explicit Slot(HashSlots* owner) : owner_(owner) {}
    Slot(Slot&& other) noexcept : owner_(other.owner_) { other.owner_ = nullptr; }
    Slot& operator=(Slot&&) = delete;
    ~Slot() {
      if (owner_ != nullptr) owner_->Give();
    }
    explicit operator bool() const { return owner_ != nullptr; }

   private:
    HashSlots* owner_ = nullptr;
  };

  // A slot, waiting up to `wait` for one to be free.
  Slot Take(std::chrono::milliseconds wait) {
    const auto deadline = std::chrono::steady_clock::now() + wait;
    util::MutexLock lock(mu_);
    while (free_ == 0) {
      if (!cv_.WaitUntil(mu_, deadline) && free_ == 0) return Slot();
    }
    --free_;
    return Slot(this);
  }

  int free_slots() const {
    util::MutexLock lock(mu_);
    return free_;
  }

 private:
  void Give() {
    {
      util::MutexLock lock(mu_);
      ++free_;
    }
    cv_.NotifyOne();
  }

  mutable util::Mutex mu_;
  util::CondVar cv_;
  int free_ BASALT_GUARDED_BY(mu_);
};

}  // namespace basalt::app::api_v1

#endif  // BASALT_APP_API_V1_HASH_SLOTS_H_
