// The HBase exceptions basalt's native RPC services answer with, by the Java class name the
// client loads (it instantiates the class by name, then retries, re-locates or gives up by what
// the class is), and the one mapping from a basalt Status to them.

#ifndef BASALT_SERVER_HBASE_RPC_EXCEPTIONS_H_
#define BASALT_SERVER_HBASE_RPC_EXCEPTIONS_H_

#include <string>
#include <string_view>

#include "basalt/status.h"
#include "hbase_rpc/rpc_codec.h"

namespace basalt::server::hbase_rpc {

using ::basalt::hbase_rpc::kDoNotRetryIOException;
using ::basalt::hbase_rpc::RpcError;

inline constexpr std::string_view kTableNotFoundException =
    "org.apache.hadoop.hbase.TableNotFoundException";
inline constexpr std::string_view kTableExistsException =
    "org.apache.hadoop.hbase.TableExistsException";
inline constexpr std::string_view kTableNotEnabledException =
    "org.apache.hadoop.hbase.TableNotEnabledException";
inline constexpr std::string_view kTableNotDisabledException =
    "org.apache.hadoop.hbase.TableNotDisabledException";
inline constexpr std::string_view kNoSuchColumnFamilyException =
    "org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException";
// Retriable: the client looks the region up again in hbase:meta.
inline constexpr std::string_view kNotServingRegionException =
    "org.apache.hadoop.hbase.NotServingRegionException";
// The client opens the scan again from the row after the last one it has.
inline constexpr std::string_view kUnknownScannerException =
    "org.apache.hadoop.hbase.UnknownScannerException";
inline constexpr std::string_view kOutOfOrderScannerNextException =
    "org.apache.hadoop.hbase.exceptions.OutOfOrderScannerNextException";
// Retriable, with the client's backoff.
inline constexpr std::string_view kRegionTooBusyException =
    "org.apache.hadoop.hbase.RegionTooBusyException";
// Namespace, family and schema rules: what HMaster throws for DDL.
inline constexpr std::string_view kNamespaceNotFoundException =
    "org.apache.hadoop.hbase.NamespaceNotFoundException";
inline constexpr std::string_view kNamespaceExistException =
    "org.apache.hadoop.hbase.NamespaceExistException";
inline constexpr std::string_view kInvalidFamilyOperationException =
    "org.apache.hadoop.hbase.InvalidFamilyOperationException";
inline constexpr std::string_view kConstraintException =
    "org.apache.hadoop.hbase.constraint.ConstraintException";
// Not retried: the caller may not do this.
inline constexpr std::string_view kAccessDeniedException =
    "org.apache.hadoop.hbase.security.AccessDeniedException";
// Retriable: a plain I/O failure.
inline constexpr std::string_view kIOException = "java.io.IOException";

// The exception of a failed data call (Get, Mutate, Scan, Multi): a missing table is
// TableNotFoundException, a missing family NoSuchColumnFamilyException, a disabled table
// (FailedPrecondition) TableNotEnabledException, what the client sent wrong (InvalidArgument,
// NotSupported, ...) DoNotRetryIOException, a full server (Busy) RegionTooBusyException, and a
// store failure IOException, which the client retries. The message is the Status's text.
RpcError DataCallError(const Status& status);

inline RpcError DoNotRetry(std::string message) {
  return RpcError{std::string(kDoNotRetryIOException), std::move(message), false};
}

}  // namespace basalt::server::hbase_rpc

#endif  // BASALT_SERVER_HBASE_RPC_EXCEPTIONS_H_
