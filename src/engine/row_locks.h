// Striped row locks: read-modify-write operations (Increment, Append, CheckAndMutate, deletes of
// the newest version) and every write of a row are serialised per row, so that each row's
// mutations apply in one order. Stripes are shared by unrelated rows; a multi-row batch takes its
// stripes in ascending order, so two batches never deadlock.

#ifndef BASALT_ENGINE_ROW_LOCKS_H_
#define BASALT_ENGINE_ROW_LOCKS_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string_view>
#include <vector>

namespace basalt::engine {

class RowLocks {
 public:
  static constexpr size_t kStripes = 4096;

  size_t StripeOf(uint64_t table_id, std::string_view row) const {
    size_t h = std::hash<std::string_view>{}(row);
    return (h ^ (table_id * 0x9E3779B97F4A7C15ull)) % kStripes;
  }

  // Holds the stripes of a set of rows until destroyed.
  class Guard {
   public:
    Guard(RowLocks* locks, std::vector<size_t> stripes)
        : locks_(locks), stripes_(std::move(stripes)) {
      std::sort(stripes_.begin(), stripes_.end());
      stripes_.erase(std::unique(stripes_.begin(), stripes_.end()), stripes_.end());
      for (size_t s : stripes_) locks_->mu_[s].lock();
    }
    ~Guard() {
      for (auto it = stripes_.rbegin(); it != stripes_.rend(); ++it) locks_->mu_[*it].unlock();
    }
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;

   private:
    RowLocks* locks_;
    std::vector<size_t> stripes_;
  };

 private:
  std::array<std::mutex, kStripes> mu_;
};

}  // namespace basalt::engine

#endif  // BASALT_ENGINE_ROW_LOCKS_H_
