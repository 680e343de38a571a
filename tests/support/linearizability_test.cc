// The linearizability checker accepts what a register may do under concurrency and rejects what
// it may not, so a pass of the concurrency tests that use it means something.

#include "support/linearizability.h"

#include <gtest/gtest.h>

#include <random>

namespace basalt::testing {
namespace {

using Kind = RegisterOp::Kind;

RegisterOp Put(int64_t v, int64_t from, int64_t to) {
  return {.kind = Kind::kPut, .arg = v, .invoke_ns = from, .response_ns = to};
}
RegisterOp Get(int64_t seen, int64_t from, int64_t to) {
  return {.kind = Kind::kGet, .output = seen, .invoke_ns = from, .response_ns = to};
}
RegisterOp Inc(int64_t by, int64_t after, int64_t from, int64_t to) {
  return {
      .kind = Kind::kIncrement, .arg = by, .output = after, .invoke_ns = from, .response_ns = to};
}
RegisterOp Cas(int64_t expected, int64_t v, bool applied, int64_t from, int64_t to) {
  return {.kind = Kind::kCheckAndPut,
          .arg = v,
          .expected = expected,
          .output = applied ? 1 : 0,
          .invoke_ns = from,
          .response_ns = to};
}

TEST(LinearizabilityTest, AcceptsTheEmptyHistory) {
  EXPECT_TRUE(CheckLinearizable({}).linearizable);
}

TEST(LinearizabilityTest, AcceptsASequentialLegalHistory) {
  auto r = CheckLinearizable({Get(kAbsent, 0, 1), Put(3, 2, 3), Get(3, 4, 5), Inc(2, 5, 6, 7),
                              Cas(5, 9, true, 8, 9), Cas(5, 1, false, 10, 11), Get(9, 12, 13)});
  EXPECT_TRUE(r.linearizable) << r.explanation;
}

TEST(LinearizabilityTest, RejectsAStaleReadAfterAWriteCompleted) {
  auto r = CheckLinearizable({Put(1, 0, 10), Get(kAbsent, 20, 30)});
  EXPECT_FALSE(r.linearizable);
  EXPECT_NE(r.explanation.find("get() -> absent"), std::string::npos) << r.explanation;
}

TEST(LinearizabilityTest, ConcurrentReadMaySeeTheOldOrTheNewValue) {
  EXPECT_TRUE(CheckLinearizable({Put(1, 0, 10), Get(1, 5, 15)}).linearizable);
  EXPECT_TRUE(CheckLinearizable({Put(1, 0, 10), Get(kAbsent, 5, 15)}).linearizable);
}

TEST(LinearizabilityTest, RejectsReadsThatDisagreeOnTheOrderOfTwoWrites) {
  // Either write may win, but once a reader saw 2 after both finished, a later reader cannot
  // see 1.
  EXPECT_TRUE(CheckLinearizable({Put(1, 0, 10), Put(2, 0, 10), Get(2, 20, 30), Get(2, 40, 50)})
                  .linearizable);
  EXPECT_FALSE(CheckLinearizable({Put(1, 0, 10), Put(2, 0, 10), Get(2, 20, 30), Get(1, 40, 50)})
                   .linearizable);
  // Two concurrent readers may disagree while a write is in flight... in one order only.
  EXPECT_TRUE(
      CheckLinearizable({Put(1, 0, 100), Get(kAbsent, 10, 20), Get(1, 30, 40)}).linearizable);
  EXPECT_FALSE(
      CheckLinearizable({Put(1, 0, 100), Get(1, 10, 20), Get(kAbsent, 30, 40)}).linearizable);
}

TEST(LinearizabilityTest, RejectsALostIncrement) {
  EXPECT_TRUE(CheckLinearizable({Inc(1, 1, 0, 10), Inc(1, 2, 5, 15)}).linearizable);
  EXPECT_FALSE(CheckLinearizable({Inc(1, 1, 0, 10), Inc(1, 1, 5, 15)}).linearizable);
  EXPECT_FALSE(
      CheckLinearizable({Inc(1, 1, 0, 10), Inc(1, 2, 20, 30), Get(1, 40, 50)}).linearizable);
}

TEST(LinearizabilityTest, RejectsTwoWinnersOfOneCheckAndPut) {
  EXPECT_TRUE(CheckLinearizable(
                  {Cas(kAbsent, 1, true, 0, 10), Cas(kAbsent, 2, false, 0, 10), Get(1, 20, 30)})
                  .linearizable);
  EXPECT_FALSE(
      CheckLinearizable({Cas(kAbsent, 1, true, 0, 10), Cas(kAbsent, 2, true, 0, 10)}).linearizable);
  // A winner that then is not what a later read sees, with no other writer.
  EXPECT_FALSE(
      CheckLinearizable({Cas(kAbsent, 1, true, 0, 10), Get(kAbsent, 20, 30)}).linearizable);
}

TEST(LinearizabilityTest, AcceptsLongRandomSequentialHistoriesQuickly) {
  // A legal sequential run, then the ops' times widened so that neighbours overlap: still
  // linearizable (the true order is one witness); the memo keeps the search small.
  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    std::vector<RegisterOp> history;
    int64_t state = kAbsent;
    for (int i = 0; i < 60; ++i) {
      RegisterOp op;
      switch (rng() % 4) {
        case 0:
          op = Put(static_cast<int64_t>(rng() % 5), 0, 0);
          state = op.arg;
          break;
        case 1:
          op = Get(state, 0, 0);
          break;
        case 2:
          state = (state == kAbsent ? 0 : state) + 1;
          op = Inc(1, state, 0, 0);
          break;
        default: {
          int64_t expected = rng() % 2 ? state : static_cast<int64_t>(rng() % 5);
          bool applied = expected == state;
          op = Cas(expected, static_cast<int64_t>(rng() % 5), applied, 0, 0);
          if (applied) state = op.arg;
        }
      }
      op.invoke_ns = i * 10;
      op.response_ns = i * 10 + 25;  // overlaps the next two operations
      history.push_back(op);
    }
    auto r = CheckLinearizable(history);
    ASSERT_TRUE(r.linearizable) << r.explanation;
    EXPECT_LT(r.steps, 100000u);
  }
}

}  // namespace
}  // namespace basalt::testing
