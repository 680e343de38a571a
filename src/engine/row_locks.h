// Striped row locks: read-modify-write operations (Increment, Append, CheckAndMutate, deletes of
// the newest version) and every write of a row are serialised per row, so that each row's
// mutations apply in one order. Stripes are shared by unrelated rows; a multi-row batch takes its
// stripes in ascending order, so two batches never deadlock.

#ifndef BASALT_ENGINE_ROW_LOCKS_H_
#define BASALT_ENGINE_ROW_LOCKS_H_

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string_view>
#include <vector>

#include <xxhash.h>

#include "util/futex_mutex.h"

namespace basalt::engine {

class RowLocks {
 public:
  static constexpr size_t kStripes = 4096;

  // XXH3, as the keys layer hashes rows: its short-input path is a few multiplies, where
  // std::hash was a quarter of a batched put's locking time.
  size_t StripeOf(uint64_t table_id, std::string_view row) const {
    return static_cast<size_t>(XXH3_64bits_withSeed(row.data(), row.size(), table_id) % kStripes);
  }

  // Holds the stripes of a set of rows until destroyed.
  class Guard {
   public:
    Guard(RowLocks* locks, std::vector<size_t> stripes)
        : locks_(locks), stripes_(std::move(stripes)) {
      if (stripes_.size() <= kSortedUpTo) {
        std::sort(stripes_.begin(), stripes_.end());
        stripes_.erase(std::unique(stripes_.begin(), stripes_.end()), stripes_.end());
      } else {
        // A batch's stripes ordered through a bitmap, in linear time: sorting a hundred of them
        // cost more than taking their locks.
        std::array<uint64_t, kStripes / 64> bits{};
        for (size_t s : stripes_) bits[s / 64] |= uint64_t{1} << (s % 64);
        stripes_.clear();
        for (size_t w = 0; w < bits.size(); ++w) {
          for (uint64_t word = bits[w]; word != 0; word &= word - 1) {
            stripes_.push_back(w * 64 + static_cast<size_t>(std::countr_zero(word)));
          }
        }
      }
      for (size_t s : stripes_) locks_->mu_[s].lock();
    }
    ~Guard() {
      for (auto it = stripes_.rbegin(); it != stripes_.rend(); ++it) locks_->mu_[*it].unlock();
    }
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;

   private:
    // Up to this many stripes a sort is cheaper than clearing and scanning the 512-byte bitmap
    // (single-row writes take one stripe).
    static constexpr size_t kSortedUpTo = 16;
    RowLocks* locks_;
    std::vector<size_t> stripes_;
  };

 private:
  std::array<util::FutexMutex, kStripes> mu_;  // 4 bytes each (see futex_mutex.h)
};

}  // namespace basalt::engine

#endif  // BASALT_ENGINE_ROW_LOCKS_H_
