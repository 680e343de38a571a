#include "server/reserved_namespaces.h"

#include <algorithm>

namespace basalt::server {

bool IsReservedNamespace(const std::vector<std::string>& reserved, std::string_view ns) {
  return std::find(reserved.begin(), reserved.end(), ns) != reserved.end();
}

std::string ReservedNamespaceMessage(std::string_view ns) {
  return "namespace '" + std::string(ns) +
         "' is reserved for the application on this server (its accounts and sessions); the "
         "HBase APIs may not read, write or change it";
}

}  // namespace basalt::server
