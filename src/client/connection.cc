// Connection::Open: picks a backend from the target string.

#include "basalt/connection.h"

#include "client/embedded.h"
#include "client/thrift2/remote_connection.h"

namespace basalt {

Result<std::unique_ptr<Connection>> Connection::Open(std::string_view target,
                                                     const ConnectionOptions& options) {
  std::string_view rest = target;
  auto take = [&](std::string_view scheme) {
    if (rest.substr(0, scheme.size()) == scheme) {
      rest.remove_prefix(scheme.size());
      return true;
    }
    return false;
  };
  if (take("mem:")) {
    ConnectionOptions o = options;
    o.in_memory = true;
    return client::OpenEmbedded(std::string(rest), o);
  }
  if (take("embedded:") || take("file:")) {
    if (rest.empty())
      return Status::InvalidArgument("no data directory in '" + std::string(target) + "'");
    return client::OpenEmbedded(std::string(rest), options);
  }
  if (target.substr(0, 9) == "thrift://") return client::remote::OpenThrift2(target, options);
  if (target.find("://") != std::string_view::npos) {
    return Status::NotSupported("no backend for '" + std::string(target) +
                                "': this build supports embedded stores (a directory, "
                                "file:DIR, embedded:DIR or mem:) and thrift://HOST:PORT");
  }
  if (target.empty()) return Status::InvalidArgument("no data directory given");
  return client::OpenEmbedded(std::string(target), options);
}

}  // namespace basalt
