// Namespaces the HBase-facing APIs (REST, Thrift2) refuse to touch: those of the application
// served beside them (the app's users, password hashes and sessions), which reaches its own
// tables in process through the Connection. The app names them (app/serve.cc); the server only
// refuses. docs/security.md has the model.

#ifndef BASALT_SERVER_RESERVED_NAMESPACES_H_
#define BASALT_SERVER_RESERVED_NAMESPACES_H_

#include <string>
#include <string_view>
#include <vector>

namespace basalt::server {

// Whether `ns` is one of `reserved` (namespace names are case-sensitive, as in HBase).
bool IsReservedNamespace(const std::vector<std::string>& reserved, std::string_view ns);

// What a refused request is told, e.g. "namespace 'app' is reserved for the application on
// this server".
std::string ReservedNamespaceMessage(std::string_view ns);

}  // namespace basalt::server

#endif  // BASALT_SERVER_RESERVED_NAMESPACES_H_
