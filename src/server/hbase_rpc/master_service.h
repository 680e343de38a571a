// HBase's MasterService on a Connection's Admin: the DDL, namespace, table-listing and procedure
// calls HBase 2.6's Java client (HBaseAdmin, AsyncAdmin, the shell) makes to the master.
//
// Methods, by HBase's names (case-sensitive):
//   tables:     CreateTable, DeleteTable, truncateTable, EnableTable, DisableTable, ModifyTable,
//               AddColumn, DeleteColumn, ModifyColumn, FlushTable, GetTableDescriptors,
//               GetTableNames, GetTableState, GetSchemaAlterStatus (nothing left to update)
//   namespaces: CreateNamespace, DeleteNamespace, ModifyNamespace, GetNamespaceDescriptor,
//               ListNamespaceDescriptors, ListNamespaces, ListTableDescriptorsByNamespace,
//               ListTableNamesByNamespace
//   the rest:   getProcedureResult, IsMasterRunning (true), IsMasterInMaintenanceMode (false),
//               IsBalancerEnabled (false), Balance (balancer_ran false),
//               getSecurityCapabilities (none)
// Any other method, and a request that is not a valid message of its method (protobuf,
// required fields, fields HBase 2.6 lacks), is a DoNotRetryIOException.
//
// DDL is applied before the call is answered, and answered with a proc_id whose
// getProcedureResult is FINISHED (procedure_results.h). A failure is reported where HBase 2.6's
// master reports it. Those HMaster finds before or while the procedure is prepared (it waits on
// a blocking prepare latch) are the call's exception: CreateTable (TableExistsException,
// NamespaceNotFoundException), DeleteTable (TableNotFoundException, TableNotDisabledException),
// DisableTable (TableNotFoundException, TableNotEnabledException), ModifyTable and the column
// calls (TableNotFoundException, InvalidFamilyOperationException), the namespace calls
// (NamespaceExistException, NamespaceNotFoundException, ConstraintException for a namespace that
// holds tables or is "default" or "hbase"). EnableTable and truncateTable prepare without a
// latch for a 2.x client, so their failures (TableNotFoundException, TableNotDisabledException)
// are the procedure's: the call answers a proc_id whose result carries the exception. A schema
// basalt cannot hold (schema_codec.h) is a DoNotRetryIOException of the call.
// A DDL call whose nonce repeats that of a call answered with a proc_id (the client retrying a
// call whose answer it lost) is answered that proc_id again, and not applied twice.
//
// ModifyTable replaces the table's families and durability with the schema's: families added,
// changed and dropped by Admin's AddFamily, ModifyFamily and DeleteFamily, in that order, after
// the whole target schema has been validated. A change that fails midway leaves the ones before
// it applied (the message says how many), as HBase's own failed ModifyTableProcedure may.
// ModifyNamespace succeeds only when it changes nothing: Admin cannot change a namespace's
// configuration, so any other descriptor is a DoNotRetryIOException saying so.
//
// Reserved namespaces (reserved_namespaces.h) are refused with AccessDeniedException, as
// Thrift2 refuses them, and table listings leave their tables out, as hbase:meta does.
//
// hbase:meta is not a table of Admin's: GetTableState answers ENABLED for it, and it is in no
// listing.
//
// Thread safety: Call from any thread (Admin is thread-safe; the procedure results are locked).

#ifndef BASALT_SERVER_HBASE_RPC_MASTER_SERVICE_H_
#define BASALT_SERVER_HBASE_RPC_MASTER_SERVICE_H_

#include <string>
#include <variant>
#include <vector>

#include "basalt/connection.h"
#include "hbase_rpc/rpc_session.h"
#include "server/hbase_rpc/procedure_results.h"
#include "server/hbase_rpc/region_directory.h"

namespace basalt::server::hbase_rpc {

class MasterService : public ::basalt::hbase_rpc::RpcService {
 public:
  // `conn` and `regions` must outlive the service. `regions` is told of every table this
  // service creates, truncates (Renew) or deletes (Forget).
  MasterService(Connection& conn, RegionDirectory& regions,
                std::vector<std::string> reserved_namespaces = {});

  std::variant<::basalt::hbase_rpc::CallAnswer, ::basalt::hbase_rpc::RpcError> Call(
      const ::basalt::hbase_rpc::DecodedCall& call,
      const ::basalt::hbase_rpc::Caller& caller) override;

 private:
  class Handler;

  Connection& conn_;
  RegionDirectory& regions_;
  const std::vector<std::string> reserved_namespaces_;
  ProcedureResults procedures_;
};

}  // namespace basalt::server::hbase_rpc

#endif  // BASALT_SERVER_HBASE_RPC_MASTER_SERVICE_H_
