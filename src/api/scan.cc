#include "basalt/scan.h"

#include "util/coding.h"

namespace basalt {

std::string PrefixStopRow(std::string_view prefix) {
  return util::PrefixSuccessor(prefix);
}

}  // namespace basalt
