// What modifyNamespace may do on basalt, for every protocol that offers it (Thrift2, the native
// RPC's MasterService): HBase's descriptor replaces the old one whole, but basalt's Admin has no
// call that changes a namespace's configuration, so only a modification that changes nothing
// succeeds, and any other is refused before anything is written.

#ifndef BASALT_SERVER_NAMESPACE_MODIFICATION_H_
#define BASALT_SERVER_NAMESPACE_MODIFICATION_H_

#include "basalt/schema.h"
#include "basalt/status.h"

namespace basalt::server {

// OK when `wanted` is `current`; NotSupported, naming the namespace, otherwise.
Status CheckNamespaceModification(const NamespaceDescriptor& current,
                                  const NamespaceDescriptor& wanted);

}  // namespace basalt::server

#endif  // BASALT_SERVER_NAMESPACE_MODIFICATION_H_
