#include "basalt/check_and_mutate.h"

namespace basalt {

bool CheckPasses(CompareOp op, const std::optional<std::string>& expected,
                 const std::optional<std::string_view>& stored) {
  if (!expected.has_value() || expected->empty()) {
    // HBase's rule for a null expected value (HRegion.checkAndMutate): with no cell the check
    // passes unless the operator is NOT_EQUAL; with a cell it passes when the stored value's
    // emptiness agrees with the operator.
    bool not_equal = op == CompareOp::kNotEqual;
    if (!stored.has_value()) return !not_equal;
    return stored->empty() == !not_equal;
  }
  if (!stored.has_value()) return false;
  return CompareOpHolds(op, std::string_view(*expected).compare(*stored));
}

}  // namespace basalt
