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
#include <cstring>
#include <string_view>
#include <vector>

#include "util/futex_mutex.h"

namespace basalt::engine {

// Spreads rows over stripes: eight bytes at a time, then MurmurHash3's final mix so that every
// input bit reaches the low bits the stripe is taken from. Inline, where std::hash is a call
// into libstdc++ and was a quarter of a batched put's locking time.
inline uint64_t StripeHash(std::string_view s, uint64_t seed) {
  constexpr uint64_t kMul = 0xff51afd7ed558ccdull;
  uint64_t h = (seed * 0x9E3779B97F4A7C15ull) ^ s.size();
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, s.data() + i, 8);
    h = (h ^ word) * kMul;
    h ^= h >> 32;
  }
  uint64_t tail = 0;  // byte by byte: a memcpy of a variable length is a call
  for (size_t j = s.size(); j > i; --j) tail = (tail << 8) | static_cast<uint8_t>(s[j - 1]);
  h = (h ^ tail) * kMul;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

class RowLocks {
 public:
  static constexpr size_t kStripes = 4096;

  size_t StripeOf(uint64_t table_id, std::string_view row) const {
    return static_cast<size_t>(StripeHash(row, table_id) % kStripes);
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
