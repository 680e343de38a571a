// AtomicRowWrites: Connection::MutateRows, and whether the store has it. A feed writes a post
// with its job, and a fan-out page with its job's progress, as one atomic write where it can;
// once the store answers NotSupported (thrift://), both go the single-row way for good.

#ifndef BASALT_RECIPES_ATOMIC_ROW_WRITES_H_
#define BASALT_RECIPES_ATOMIC_ROW_WRITES_H_

#include <atomic>

#include "basalt/connection.h"
#include "basalt/multi_row_mutation.h"
#include "basalt/status.h"

namespace basalt::recipes {

class AtomicRowWrites {
 public:
  explicit AtomicRowWrites(Connection& conn) : conn_(conn) {}

  // conn.MutateRows(m): whether its conditions held and it was written; NotSupported (answered
  // locally, without a call to the store) when the store has no atomic multi-row write.
  Result<bool> Apply(const MultiRowMutation& m) {
    Result<bool> applied = conn_.MutateRows(m);
    if (applied.status().IsNotSupported()) supported_ = false;
    return applied;
  }

  // False once Apply answered NotSupported.
  bool supported() const { return supported_; }

 private:
  Connection& conn_;
  std::atomic<bool> supported_{true};
};

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_ATOMIC_ROW_WRITES_H_
