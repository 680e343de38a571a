#include "server/hbase_rpc/exceptions.h"

namespace basalt::server::hbase_rpc {

RpcError DataCallError(const Status& status) {
  std::string_view exception = kDoNotRetryIOException;
  if (status.IsNoSuchFamily()) {
    exception = kNoSuchColumnFamilyException;
  } else if (status.IsNotFound()) {
    exception = kTableNotFoundException;
  } else if (status.IsFailedPrecondition()) {
    exception = kTableNotEnabledException;
  } else if (status.IsBusy()) {
    exception = kRegionTooBusyException;
  } else if (status.IsIOError() || status.IsAborted()) {
    exception = kIOException;
  }
  return RpcError{std::string(exception), status.ToString(), false};
}

}  // namespace basalt::server::hbase_rpc
