// A linearizability checker for histories of one register (Wing & Gong's search with Lowe's
// memoization, as in Knossos and Porcupine).
//
// A history is the operations that concurrent clients ran on one key, each with the time it was
// invoked and the time its response arrived, its argument and what it returned. The history is
// linearizable when the operations can be put in one total order that (1) respects real time:
// an operation that responded before another was invoked comes first, and (2) is a legal
// sequential run of the register: each operation returns what it would have returned had the
// operations run one at a time in that order.
//
//   std::vector<RegisterOp> history = ...;   // recorded by the test's client threads
//   LinearizabilityResult r = CheckLinearizable(history);
//   EXPECT_TRUE(r.linearizable) << r.explanation;
//
// Every operation must have completed (a failed call is left out by the caller: these tests
// treat any error as a test failure). Cost is exponential in the worst case; the memo of
// (operations linearized so far, register value) keeps histories of a few dozen operations per
// key fast.

#ifndef BASALT_TESTS_SUPPORT_LINEARIZABILITY_H_
#define BASALT_TESTS_SUPPORT_LINEARIZABILITY_H_

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace basalt::testing {

// The register's value when the cell does not exist.
inline constexpr int64_t kAbsent = std::numeric_limits<int64_t>::min();

struct RegisterOp {
  enum class Kind {
    kPut,          // register = arg
    kGet,          // returns the register (kAbsent when unset)
    kIncrement,    // register = (unset ? 0 : register) + arg; returns the new value
    kCheckAndPut,  // if register == expected (kAbsent: unset) then register = arg;
                   // returns 1 when it applied, 0 when not
  };
  Kind kind = Kind::kGet;
  int64_t arg = 0;
  int64_t expected = kAbsent;
  int64_t output = 0;  // what the call returned (unused for kPut)
  int64_t invoke_ns = 0;
  int64_t response_ns = 0;  // REQUIRES: >= invoke_ns
  int client = 0;           // which thread ran it; only for explanations
};

std::string Describe(const RegisterOp& op);

struct LinearizabilityResult {
  bool linearizable = false;
  // Search steps taken (each an operation tried at some point of the order).
  uint64_t steps = 0;
  // When not linearizable: the longest linearizable prefix found and the operations that could
  // not follow it, to read the failure.
  std::string explanation;
};

// Checks one register's history; the register starts unset.
LinearizabilityResult CheckLinearizable(const std::vector<RegisterOp>& history);

}  // namespace basalt::testing

#endif  // BASALT_TESTS_SUPPORT_LINEARIZABILITY_H_
