#include "server/namespace_modification.h"

namespace basalt::server {

Status CheckNamespaceModification(const NamespaceDescriptor& current,
                                  const NamespaceDescriptor& wanted) {
  if (current.configuration == wanted.configuration) return Status::OK();
  return Status::NotSupported(
      "modifyNamespace: basalt cannot change the configuration of namespace '" + wanted.name +
      "' (it is kept as created); a descriptor equal to the current one is "
      "accepted");
}

}  // namespace basalt::server
