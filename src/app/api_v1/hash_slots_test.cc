#include "app/api_v1/hash_slots.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace basalt::app::api_v1 {
namespace {

using std::chrono::milliseconds;

TEST(HashSlotsTest, NoMoreThanTheSlotsAreHeldAndAFreedOneIsTakenAgain) {
  HashSlots slots(2);
  HashSlots::Slot a = slots.Take(milliseconds(0));
  HashSlots::Slot b = slots.Take(milliseconds(0));
  ASSERT_TRUE(a);
  ASSERT_TRUE(b);
  EXPECT_FALSE(slots.Take(milliseconds(20)));  // waited, none came free
  { HashSlots::Slot gone = std::move(a); }
  EXPECT_EQ(slots.free_slots(), 1);
  EXPECT_TRUE(slots.Take(milliseconds(0)));
}

TEST(HashSlotsTest, AWaiterGetsTheSlotFreedWhileItWaits) {
  HashSlots slots(1);
  auto held = std::make_unique<HashSlots::Slot>(slots.Take(milliseconds(0)));
  std::thread releaser([&] {
    std::this_thread::sleep_for(milliseconds(50));
    held.reset();
  });
  EXPECT_TRUE(slots.Take(milliseconds(5000)));
  releaser.join();
}

TEST(HashSlotsTest, ConcurrentHoldersNeverExceedTheSlots) {
  HashSlots slots(3);
  std::atomic<int> holding{0};
  std::atomic<int> most{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i) {
        HashSlots::Slot slot = slots.Take(milliseconds(5000));
        ASSERT_TRUE(slot);
        int now = holding.fetch_add(1) + 1;
        int seen = most.load();
        while (now > seen && !most.compare_exchange_weak(seen, now)) {
        }
        std::this_thread::yield();
        holding.fetch_sub(1);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_LE(most.load(), 3);
  EXPECT_EQ(slots.free_slots(), 3);
}

}  // namespace
}  // namespace basalt::app::api_v1
