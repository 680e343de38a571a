// What the generated code declares but leaves to the user: TServerName's ordering, needed by
// the set<TServerName> arguments of getSlowLogResponses and clearSlowLogResponses.

#include <tuple>

#include "thrift2/gen/hbase_types.h"

namespace basalt::thrift2 {

bool TServerName::operator<(const TServerName& other) const {
  return std::tie(hostName, port, startCode) <
         std::tie(other.hostName, other.port, other.startCode);
}

}  // namespace basalt::thrift2
