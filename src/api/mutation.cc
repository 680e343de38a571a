#include "basalt/mutation.h"

namespace basalt {

const std::string& MutationRow(const Mutation& m) {
  return std::visit([](const auto& x) -> const std::string& { return x.row(); }, m);
}

}  // namespace basalt
