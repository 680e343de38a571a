// UserStore under concurrent registrations: one name, one account. Runs in the normal suite and
// under ThreadSanitizer.

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "basalt/recipes/users.h"
#include "support/test_store.h"

namespace basalt::testing {
namespace {

using recipes::UserStore;
using recipes::UserStoreOptions;

constexpr int kUserThreads = 4;

class UsersConcurrencyTest : public StoreTest {};

TEST_P(UsersConcurrencyTest, RacingRegistrationsOfOneNameCreateOneAccount) {
  UserStoreOptions options;
  options.hash_cost = UserStoreOptions::HashCost::kMinimum;
  auto opened = UserStore::Open(store().conn(), options);
  ASSERT_OK(opened);
  UserStore& users = **opened;
  constexpr int kNames = 20;
  std::vector<std::vector<int>> wins(kUserThreads);
  std::atomic<int> other_errors{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kUserThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int n = 0; n < kNames; ++n) {
        Status s = users.Register("name" + std::to_string(n), "password-of-" + std::to_string(t));
        if (s.ok()) {
          wins[t].push_back(n);
        } else if (!s.IsAlreadyExists()) {
          ++other_errors;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(other_errors.load(), 0);
  std::vector<int> winner(kNames, -1);
  for (int t = 0; t < kUserThreads; ++t) {
    for (int n : wins[t]) {
      EXPECT_EQ(winner[n], -1) << "two registrations of name" << n << " succeeded";
      winner[n] = t;
    }
  }
  for (int n = 0; n < kNames; ++n) {
    ASSERT_NE(winner[n], -1) << "nobody registered name" << n;
    std::string name = "name" + std::to_string(n);
    // The stored password is the winner's.
    for (int t = 0; t < kUserThreads; ++t) {
      EXPECT_EQ(users.LogIn(name, "password-of-" + std::to_string(t)).ok(), t == winner[n]);
    }
  }
}

BASALT_INSTANTIATE_STORE_TEST(UsersConcurrencyTest);

}  // namespace
}  // namespace basalt::testing
