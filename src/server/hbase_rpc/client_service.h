// HBase's ClientService over basalt's Connection: Get, Mutate (Put, Delete, Increment, Append,
// and checkAndMutate through a Condition), Scan (scanners by id, with HBase's call sequence
// numbers, leases, limits, reversed scans and batches) and Multi (per-action results and
// errors, atomic row mutations, cells in the call's cell block), on the tables of a
// RegionDirectory's regions and on the synthetic hbase:meta (meta_table.h).
//
// Errors are HBase's exceptions (exceptions.h): a region name that names no current region is
// NotServingRegionException (the client looks the table up again), a scanner id the client
// does not hold UnknownScannerException, a call out of sequence OutOfOrderScannerNextException
// (the client opens the scan again after its last row). In Multi, an action's error is its own,
// and the others are applied.
//
// Caps (docs/security.md): the scanners of ScannerRegistry (per client address and in all, idle
// expiry), the rows and bytes one Scan call answers (the client's caching and max result size,
// at most max_result_bytes), and the actions of one Multi.
//
// Thread safety: Call from any thread.

#ifndef BASALT_SERVER_HBASE_RPC_CLIENT_SERVICE_H_
#define BASALT_SERVER_HBASE_RPC_CLIENT_SERVICE_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "basalt/connection.h"
#include "hbase_rpc/rpc_session.h"
#include "server/hbase_rpc/client_service_options.h"
#include "server/hbase_rpc/meta_table.h"
#include "server/hbase_rpc/region_directory.h"
#include "server/thrift/scanner_registry.h"

namespace basalt::server::hbase_rpc {

class ClientService : public ::basalt::hbase_rpc::RpcService {
 public:
  // Everything given must outlive the service. The tables of `reserved_namespaces` are refused
  // (AccessDeniedException).
  ClientService(Connection& conn, RegionDirectory& regions, MetaTable& meta,
                ScannerRegistry& scanners, ClientServiceOptions options = {},
                std::vector<std::string> reserved_namespaces = {})
      : conn_(conn),
        regions_(regions),
        meta_(meta),
        scanners_(scanners),
        options_(options),
        reserved_namespaces_(std::move(reserved_namespaces)) {}

  std::variant<::basalt::hbase_rpc::CallAnswer, ::basalt::hbase_rpc::RpcError> Call(
      const ::basalt::hbase_rpc::DecodedCall& call,
      const ::basalt::hbase_rpc::Caller& caller) override;

 private:
  using Answer = std::variant<::basalt::hbase_rpc::CallAnswer, ::basalt::hbase_rpc::RpcError>;
  Answer Get(const ::basalt::hbase_rpc::DecodedCall& call);
  Answer Mutate(const ::basalt::hbase_rpc::DecodedCall& call);
  Answer Scan(const ::basalt::hbase_rpc::DecodedCall& call, std::string_view client);
  Answer Multi(const ::basalt::hbase_rpc::DecodedCall& call);

  Connection& conn_;
  RegionDirectory& regions_;
  MetaTable& meta_;
  ScannerRegistry& scanners_;
  const ClientServiceOptions options_;
  const std::vector<std::string> reserved_namespaces_;
};

}  // namespace basalt::server::hbase_rpc

#endif  // BASALT_SERVER_HBASE_RPC_CLIENT_SERVICE_H_
