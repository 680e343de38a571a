#include "server/hbase_rpc/master_service.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string_view>

#include <re2/re2.h>

#include "basalt/admin.h"
#include "hbase_proto/message_parse.h"
#include "hbase_proto/proto/Master.pb.h"
#include "hbase_proto/schema_codec.h"
#include "server/hbase_rpc/exceptions.h"
#include "server/namespace_modification.h"
#include "server/reserved_namespaces.h"
#include "server/table_name_pattern.h"

namespace basalt::server::hbase_rpc {

using ::basalt::hbase_rpc::CallAnswer;
using ::basalt::hbase_rpc::Caller;
using ::basalt::hbase_rpc::DecodedCall;

namespace {

namespace pb = ::hbase::pb;
using Reply = std::variant<CallAnswer, RpcError>;

// What a procedure's failure names as its source (HBase puts the master's name there).
constexpr std::string_view kProcedureSource = "basalt";

RpcError Thrown(std::string_view exception_class, std::string message) {
  return RpcError{std::string(exception_class), std::move(message), false};
}

// A failure with no HBase class of its own.
RpcError ThrownStatus(const Status& status) {
  return Thrown(kDoNotRetryIOException, status.ToString());
}

CallAnswer Serialized(const google::protobuf::MessageLite& message) {
  return CallAnswer{message.SerializeAsString(), {}};
}

bool IsMetaTable(const TableName& name) {
  return name.ns == kSystemNamespace && name.qualifier == "meta";
}

}  // namespace

// One call: its request parsed, its answer made.
class MasterService::Handler {
 public:
  Handler(MasterService& service, const DecodedCall& call)
      : service_(service), admin_(service.conn_.admin()), call_(call) {}

  Reply Dispatch() {
    using Method = Reply (Handler::*)();
    static const std::map<std::string_view, Method> kMethods = {
        {"IsMasterRunning", &Handler::IsMasterRunning},
        {"CreateTable", &Handler::CreateTable},
        {"DeleteTable", &Handler::DeleteTable},
        {"truncateTable", &Handler::TruncateTable},
        {"EnableTable", &Handler::EnableTable},
        {"DisableTable", &Handler::DisableTable},
        {"ModifyTable", &Handler::ModifyTable},
        {"AddColumn", &Handler::AddColumn},
        {"DeleteColumn", &Handler::DeleteColumn},
        {"ModifyColumn", &Handler::ModifyColumn},
        {"FlushTable", &Handler::FlushTable},
        {"GetTableDescriptors", &Handler::GetTableDescriptors},
        {"GetTableNames", &Handler::GetTableNames},
        {"GetTableState", &Handler::GetTableState},
        {"GetSchemaAlterStatus", &Handler::GetSchemaAlterStatus},
        {"CreateNamespace", &Handler::CreateNamespace},
        {"DeleteNamespace", &Handler::DeleteNamespace},
        {"ModifyNamespace", &Handler::ModifyNamespace},
        {"GetNamespaceDescriptor", &Handler::GetNamespaceDescriptor},
        {"ListNamespaceDescriptors", &Handler::ListNamespaceDescriptors},
        {"ListNamespaces", &Handler::ListNamespaces},
        {"ListTableDescriptorsByNamespace", &Handler::ListTableDescriptorsByNamespace},
        {"ListTableNamesByNamespace", &Handler::ListTableNamesByNamespace},
        {"getProcedureResult", &Handler::GetProcedureResult},
        {"IsMasterInMaintenanceMode", &Handler::IsMasterInMaintenanceMode},
        {"IsBalancerEnabled", &Handler::IsBalancerEnabled},
        {"Balance", &Handler::Balance},
        {"getSecurityCapabilities", &Handler::GetSecurityCapabilities},
    };
    const std::string& method = call_.header.method_name();
    auto it = kMethods.find(method);
    if (it == kMethods.end()) {
      return Thrown(kDoNotRetryIOException, "method " + hbase_proto::Printable(method) +
                                                " of MasterService is not served by basalt");
    }
    return (this->*(it->second))();
  }

 private:
  // Parses the call's request; the error to answer when it is not one.
  template <class Request>
  std::optional<RpcError> Parse(Request* request) const {
    Status parsed = hbase_proto::ParseStrict(call_.param, request);
    if (parsed.ok()) return std::nullopt;
    return Thrown(kDoNotRetryIOException, "the request of " + call_.header.method_name() +
                                              " is not a valid message: " + parsed.message());
  }

  // Parses a DDL request and takes its nonce. Answers (when it returns one) the parse error, or
  // the first answer of the call this one repeats (procedure_results.h).
  template <class Response, class Request>
  std::optional<Reply> ParseDdl(Request* request) {
    if (auto bad = Parse(request)) return Reply(*bad);
    // HBase's "no nonce" is 0 (HConstants.NO_NONCE).
    if (request->nonce() == 0) return std::nullopt;
    nonce_ = NonceKey{request->nonce_group(), request->nonce()};
    std::optional<uint64_t> answered = service_.procedures_.FindByNonce(*nonce_);
    if (!answered) return std::nullopt;
    Response response;
    response.set_proc_id(*answered);
    return Reply(Serialized(response));
  }

  std::optional<RpcError> RefuseReserved(std::string_view ns) const {
    if (!IsReservedNamespace(service_.reserved_namespaces_, ns)) return std::nullopt;
    return Thrown(kAccessDeniedException, ReservedNamespaceMessage(ns));
  }

  // A table named by the request, refused when malformed or reserved.
  std::variant<TableName, RpcError> TableArgument(const pb::TableName& wire) const {
    Result<TableName> name = hbase_proto::DecodeTableName(wire);
    if (!name.ok()) return Thrown(kDoNotRetryIOException, name.status().message());
    if (auto refused = RefuseReserved(name->ns)) return *refused;
    return *std::move(name);
  }

  // The answer of a DDL call that ran to its end: a proc_id with `failure` as its outcome.
  template <class Response>
  Reply Procedure(std::optional<ProcedureFailure> failure = std::nullopt) {
    Response response;
    response.set_proc_id(service_.procedures_.Record(
        ProcedureOutcome{static_cast<uint64_t>(SystemWallMillis()), std::move(failure)}, nonce_));
    return Serialized(response);
  }

  static ProcedureFailure Failure(std::string_view exception_class, std::string message) {
    return ProcedureFailure{std::string(exception_class), std::move(message)};
  }

  // The tables a listing covers: in `ns` (all when null; none when it does not exist), HBase's
  // own namespace only with `include_sys_tables`, names matching `regex` in full when given, and
  // none of a reserved namespace (hbase:meta lists none either).
  std::variant<std::vector<TableName>, RpcError> MatchingTables(const std::string* ns,
                                                                const std::string* regex,
                                                                bool include_sys_tables) const {
    std::unique_ptr<re2::RE2> pattern;
    if (regex) {
      auto compiled = CompileTableNamePattern(*regex);
      if (!compiled.ok()) return Thrown(kDoNotRetryIOException, compiled.status().message());
      pattern = *std::move(compiled);
    }
    Result<std::vector<TableName>> all = admin_.ListTables(ns ? *ns : "");
    if (!all.ok()) {
      if (ns && all.status().IsNotFound()) return std::vector<TableName>{};
      return ThrownStatus(all.status());
    }
    std::vector<TableName> out;
    for (TableName& name : *all) {
      if (IsReservedNamespace(service_.reserved_namespaces_, name.ns)) continue;
      if (!include_sys_tables && name.ns == kSystemNamespace) continue;
      if (pattern && !re2::RE2::FullMatch(name.ToString(), *pattern)) continue;
      out.push_back(std::move(name));
    }
    return out;
  }

  // Appends the schema of each table still there. REQUIRES: no name is of a reserved namespace.
  std::optional<RpcError> AddSchemas(const std::vector<TableName>& names,
                                     google::protobuf::RepeatedPtrField<pb::TableSchema>* out) {
    for (const TableName& name : names) {
      Result<TableInfo> info = admin_.DescribeTable(name);
      if (info.status().IsNotFound()) continue;  // dropped since it was listed
      if (!info.ok()) return ThrownStatus(info.status());
      hbase_proto::EncodeTable(info->descriptor, out->Add());
    }
    return std::nullopt;
  }

  // NamespaceNotFoundException when `ns` does not exist.
  std::optional<RpcError> RequireNamespace(const std::string& ns) const {
    Result<NamespaceDescriptor> found = admin_.GetNamespace(ns);
    if (found.ok()) return std::nullopt;
    if (found.status().IsNotFound()) return Thrown(kNamespaceNotFoundException, ns);
    return ThrownStatus(found.status());
  }

  // The table's current schema; TableNotFoundException when it does not exist.
  std::variant<TableInfo, RpcError> ExistingTable(const TableName& name) const {
    Result<TableInfo> info = admin_.DescribeTable(name);
    if (info.ok()) return *std::move(info);
    if (info.status().IsNotFound()) return Thrown(kTableNotFoundException, name.ToString());
    return ThrownStatus(info.status());
  }

  Reply IsMasterRunning() {
    pb::IsMasterRunningRequest request;
    if (auto bad = Parse(&request)) return *bad;
    pb::IsMasterRunningResponse response;
    response.set_is_master_running(true);
    return Serialized(response);
  }

  Reply CreateTable() {
    pb::CreateTableRequest request;
    if (auto done = ParseDdl<pb::CreateTableResponse>(&request)) return *done;
    Result<TableDescriptor> desc = hbase_proto::DecodeTable(request.table_schema());
    if (!desc.ok()) return Thrown(kDoNotRetryIOException, desc.status().message());
    const TableName& name = desc->name;
    if (auto refused = RefuseReserved(name.ns)) return *refused;
    if (auto missing = RequireNamespace(name.ns)) return *missing;
    std::vector<std::string> split_keys(request.split_keys().begin(), request.split_keys().end());
    Status created = admin_.CreateTable(*desc, split_keys);
    if (created.IsAlreadyExists()) return Thrown(kTableExistsException, name.ToString());
    if (created.IsNotFound()) return Thrown(kNamespaceNotFoundException, name.ns);
    if (!created.ok()) return ThrownStatus(created);
    service_.regions_.Renew(name);
    return Procedure<pb::CreateTableResponse>();
  }

  Reply DeleteTable() {
    pb::DeleteTableRequest request;
    if (auto done = ParseDdl<pb::DeleteTableResponse>(&request)) return *done;
    auto name = TableArgument(request.table_name());
    if (auto* refused = std::get_if<RpcError>(&name)) return *refused;
    const TableName& table = std::get<TableName>(name);
    Status deleted = admin_.DeleteTable(table);
    if (deleted.IsNotFound()) return Thrown(kTableNotFoundException, table.ToString());
    if (deleted.IsFailedPrecondition()) {
      return Thrown(kTableNotDisabledException, table.ToString());
    }
    if (!deleted.ok()) return ThrownStatus(deleted);
    service_.regions_.Forget(table);
    return Procedure<pb::DeleteTableResponse>();
  }

  Reply TruncateTable() {
    pb::TruncateTableRequest request;
    if (auto done = ParseDdl<pb::TruncateTableResponse>(&request)) return *done;
    auto name = TableArgument(request.tablename());
    if (auto* refused = std::get_if<RpcError>(&name)) return *refused;
    const TableName& table = std::get<TableName>(name);
    Status truncated = admin_.TruncateTable(table, request.preservesplits());
    if (truncated.IsNotFound()) {
      return Procedure<pb::TruncateTableResponse>(
          Failure(kTableNotFoundException, table.ToString()));
    }
    if (truncated.IsFailedPrecondition()) {
      return Procedure<pb::TruncateTableResponse>(
          Failure(kTableNotDisabledException, table.ToString()));
    }
    if (!truncated.ok()) {
      return Procedure<pb::TruncateTableResponse>(
          Failure(kDoNotRetryIOException, truncated.ToString()));
    }
    service_.regions_.Renew(table);
    return Procedure<pb::TruncateTableResponse>();
  }

  Reply EnableTable() {
    pb::EnableTableRequest request;
    if (auto done = ParseDdl<pb::EnableTableResponse>(&request)) return *done;
    auto name = TableArgument(request.table_name());
    if (auto* refused = std::get_if<RpcError>(&name)) return *refused;
    const TableName& table = std::get<TableName>(name);
    using Response = pb::EnableTableResponse;
    Status enabled = admin_.EnableTable(table);
    if (enabled.IsNotFound()) {
      return Procedure<Response>(Failure(kTableNotFoundException, table.ToString()));
    }
    if (enabled.IsFailedPrecondition()) {
      return Procedure<Response>(Failure(kTableNotDisabledException, table.ToString()));
    }
    if (!enabled.ok())
      return Procedure<Response>(Failure(kDoNotRetryIOException, enabled.ToString()));
    return Procedure<Response>();
  }

  Reply DisableTable() {
    pb::DisableTableRequest request;
    if (auto done = ParseDdl<pb::DisableTableResponse>(&request)) return *done;
    auto name = TableArgument(request.table_name());
    if (auto* refused = std::get_if<RpcError>(&name)) return *refused;
    const TableName& table = std::get<TableName>(name);
    Status disabled = admin_.DisableTable(table);
    if (disabled.IsNotFound()) return Thrown(kTableNotFoundException, table.ToString());
    if (disabled.IsFailedPrecondition()) {
      return Thrown(kTableNotEnabledException, table.ToString());
    }
    if (!disabled.ok()) return ThrownStatus(disabled);
    return Procedure<pb::DisableTableResponse>();
  }

  // A family change's failure: what HBase's master says of the family, or the status.
  static RpcError FamilyChangeFailed(const Status& status) {
    if (status.IsAlreadyExists() || status.IsNotFound() || status.IsFailedPrecondition()) {
      return Thrown(kInvalidFamilyOperationException, status.message());
    }
    return ThrownStatus(status);
  }

  Reply ModifyTable() {
    pb::ModifyTableRequest request;
    if (auto done = ParseDdl<pb::ModifyTableResponse>(&request)) return *done;
    auto name = TableArgument(request.table_name());
    if (auto* refused = std::get_if<RpcError>(&name)) return *refused;
    const TableName& table = std::get<TableName>(name);
    Result<TableDescriptor> target = hbase_proto::DecodeTable(request.table_schema());
    if (!target.ok()) return Thrown(kDoNotRetryIOException, target.status().message());
    if (target->name != table) {
      return Thrown(kDoNotRetryIOException, "ModifyTable of '" + table.ToString() +
                                                "' with the schema of '" + target->name.ToString() +
                                                "'");
    }
    if (target->families.size() > kMaxFamiliesPerTable) {
      return Thrown(kDoNotRetryIOException, "table '" + table.ToString() + "' may have at most " +
                                                std::to_string(kMaxFamiliesPerTable) + " families");
    }
    auto current = ExistingTable(table);
    if (auto* missing = std::get_if<RpcError>(&current)) return *missing;
    const TableDescriptor& now = std::get<TableInfo>(current).descriptor;

    // Every change, in the order it is applied: additions first, so that no step leaves the
    // table without a family.
    std::vector<std::function<Status()>> changes;
    for (const FamilyDescriptor& f : target->families) {
      if (!now.FindFamily(f.name)) {
        changes.push_back([this, &table, added = &f] { return admin_.AddFamily(table, *added); });
      }
    }
    for (const FamilyDescriptor& f : target->families) {
      const FamilyDescriptor* old = now.FindFamily(f.name);
      if (old && !(*old == f)) {
        changes.push_back(
            [this, &table, changed = &f] { return admin_.ModifyFamily(table, *changed); });
      }
    }
    for (const FamilyDescriptor& f : now.families) {
      if (!target->FindFamily(f.name)) {
        changes.push_back(
            [this, &table, dropped = &f.name] { return admin_.DeleteFamily(table, *dropped); });
      }
    }
    if (target->durability != now.durability) {
      changes.push_back([this, &table, durability = target->durability] {
        return admin_.SetDurability(table, durability);
      });
    }
    for (size_t i = 0; i < changes.size(); ++i) {
      Status applied = changes[i]();
      if (applied.ok()) continue;
      if (i == 0) return FamilyChangeFailed(applied);
      return Thrown(kDoNotRetryIOException, "ModifyTable of '" + table.ToString() +
                                                "' stopped after " + std::to_string(i) + " of " +
                                                std::to_string(changes.size()) +
                                                " changes: " + applied.ToString());
    }
    return Procedure<pb::ModifyTableResponse>();
  }

  // AddColumn, ModifyColumn, DeleteColumn: `change` on an existing table.
  template <class Response>
  Reply FamilyChange(const TableName& table, const std::function<Status()>& change) {
    auto current = ExistingTable(table);
    if (auto* missing = std::get_if<RpcError>(&current)) return *missing;
    Status changed = change();
    if (!changed.ok()) return FamilyChangeFailed(changed);
    return Procedure<Response>();
  }

  Reply AddColumn() {
    pb::AddColumnRequest request;
    if (auto done = ParseDdl<pb::AddColumnResponse>(&request)) return *done;
    auto name = TableArgument(request.table_name());
    if (auto* refused = std::get_if<RpcError>(&name)) return *refused;
    const TableName& table = std::get<TableName>(name);
    Result<FamilyDescriptor> family = hbase_proto::DecodeFamily(request.column_families());
    if (!family.ok()) return Thrown(kDoNotRetryIOException, family.status().message());
    return FamilyChange<pb::AddColumnResponse>(table,
                                               [&] { return admin_.AddFamily(table, *family); });
  }

  Reply ModifyColumn() {
    pb::ModifyColumnRequest request;
    if (auto done = ParseDdl<pb::ModifyColumnResponse>(&request)) return *done;
    auto name = TableArgument(request.table_name());
    if (auto* refused = std::get_if<RpcError>(&name)) return *refused;
    const TableName& table = std::get<TableName>(name);
    Result<FamilyDescriptor> family = hbase_proto::DecodeFamily(request.column_families());
    if (!family.ok()) return Thrown(kDoNotRetryIOException, family.status().message());
    return FamilyChange<pb::ModifyColumnResponse>(
        table, [&] { return admin_.ModifyFamily(table, *family); });
  }

  Reply DeleteColumn() {
    pb::DeleteColumnRequest request;
    if (auto done = ParseDdl<pb::DeleteColumnResponse>(&request)) return *done;
    auto name = TableArgument(request.table_name());
    if (auto* refused = std::get_if<RpcError>(&name)) return *refused;
    const TableName& table = std::get<TableName>(name);
    return FamilyChange<pb::DeleteColumnResponse>(
        table, [&] { return admin_.DeleteFamily(table, request.column_name()); });
  }

  // Flushes the whole table whichever families the request names (a superset of the flush).
  Reply FlushTable() {
    pb::FlushTableRequest request;
    if (auto done = ParseDdl<pb::FlushTableResponse>(&request)) return *done;
    auto name = TableArgument(request.table_name());
    if (auto* refused = std::get_if<RpcError>(&name)) return *refused;
    const TableName& table = std::get<TableName>(name);
    Status flushed = admin_.Flush(table);
    if (flushed.IsNotFound()) return Thrown(kTableNotFoundException, table.ToString());
    if (!flushed.ok()) return ThrownStatus(flushed);
    return Procedure<pb::FlushTableResponse>();
  }

  Reply GetTableDescriptors() {
    pb::GetTableDescriptorsRequest request;
    if (auto bad = Parse(&request)) return *bad;
    pb::GetTableDescriptorsResponse response;
    std::vector<TableName> names;
    if (request.table_names_size() > 0) {
      // By name: the ones that exist (the client turns an empty answer into
      // TableNotFoundException).
      for (const pb::TableName& wire : request.table_names()) {
        auto name = TableArgument(wire);
        if (auto* refused = std::get_if<RpcError>(&name)) return *refused;
        names.push_back(std::get<TableName>(std::move(name)));
      }
    } else {
      auto matching = MatchingTables(request.has_namespace_() ? &request.namespace_() : nullptr,
                                     request.has_regex() ? &request.regex() : nullptr,
                                     request.include_sys_tables());
      if (auto* failed = std::get_if<RpcError>(&matching)) return *failed;
      names = std::get<std::vector<TableName>>(std::move(matching));
    }
    if (auto failed = AddSchemas(names, response.mutable_table_schema())) return *failed;
    return Serialized(response);
  }

  Reply GetTableNames() {
    pb::GetTableNamesRequest request;
    if (auto bad = Parse(&request)) return *bad;
    auto matching = MatchingTables(request.has_namespace_() ? &request.namespace_() : nullptr,
                                   request.has_regex() ? &request.regex() : nullptr,
                                   request.include_sys_tables());
    if (auto* failed = std::get_if<RpcError>(&matching)) return *failed;
    pb::GetTableNamesResponse response;
    for (const TableName& name : std::get<std::vector<TableName>>(matching)) {
      hbase_proto::EncodeTableName(name, response.add_table_names());
    }
    return Serialized(response);
  }

  Reply GetTableState() {
    pb::GetTableStateRequest request;
    if (auto bad = Parse(&request)) return *bad;
    auto name = TableArgument(request.table_name());
    if (auto* refused = std::get_if<RpcError>(&name)) return *refused;
    const TableName& table = std::get<TableName>(name);
    pb::GetTableStateResponse response;
    if (IsMetaTable(table)) {
      response.mutable_table_state()->set_state(pb::TableState::ENABLED);
      return Serialized(response);
    }
    Result<bool> enabled = admin_.IsTableEnabled(table);
    if (enabled.status().IsNotFound()) return Thrown(kTableNotFoundException, table.ToString());
    if (!enabled.ok()) return ThrownStatus(enabled.status());
    response.mutable_table_state()->set_state(*enabled ? pb::TableState::ENABLED
                                                       : pb::TableState::DISABLED);
    return Serialized(response);
  }

  // The 2.x blocking admin polls this after a family change until no region is left to update:
  // basalt's changes are applied when their call returns, so none ever is.
  Reply GetSchemaAlterStatus() {
    pb::GetSchemaAlterStatusRequest request;
    if (auto bad = Parse(&request)) return *bad;
    auto name = TableArgument(request.table_name());
    if (auto* refused = std::get_if<RpcError>(&name)) return *refused;
    const TableName& table = std::get<TableName>(name);
    Result<bool> exists = admin_.TableExists(table);
    if (!exists.ok()) return ThrownStatus(exists.status());
    if (!*exists) return Thrown(kTableNotFoundException, table.ToString());
    pb::GetSchemaAlterStatusResponse response;
    response.set_yet_to_update_regions(0);
    response.set_total_regions(1);
    return Serialized(response);
  }

  Reply CreateNamespace() {
    pb::CreateNamespaceRequest request;
    if (auto done = ParseDdl<pb::CreateNamespaceResponse>(&request)) return *done;
    Result<NamespaceDescriptor> ns = hbase_proto::DecodeNamespace(request.namespacedescriptor());
    if (!ns.ok()) return Thrown(kDoNotRetryIOException, ns.status().message());
    if (auto refused = RefuseReserved(ns->name)) return *refused;
    Status created = admin_.CreateNamespace(*ns);
    if (created.IsAlreadyExists()) return Thrown(kNamespaceExistException, ns->name);
    if (!created.ok()) return ThrownStatus(created);
    return Procedure<pb::CreateNamespaceResponse>();
  }

  Reply DeleteNamespace() {
    pb::DeleteNamespaceRequest request;
    if (auto done = ParseDdl<pb::DeleteNamespaceResponse>(&request)) return *done;
    const std::string& ns = request.namespacename();
    if (auto refused = RefuseReserved(ns)) return *refused;
    Status deleted = admin_.DeleteNamespace(ns);
    if (deleted.IsNotFound()) return Thrown(kNamespaceNotFoundException, ns);
    // "default" and "hbase", or a namespace that still holds tables.
    if (deleted.IsFailedPrecondition()) return Thrown(kConstraintException, deleted.message());
    if (!deleted.ok()) return ThrownStatus(deleted);
    return Procedure<pb::DeleteNamespaceResponse>();
  }

  Reply ModifyNamespace() {
    pb::ModifyNamespaceRequest request;
    if (auto done = ParseDdl<pb::ModifyNamespaceResponse>(&request)) return *done;
    Result<NamespaceDescriptor> wanted =
        hbase_proto::DecodeNamespace(request.namespacedescriptor());
    if (!wanted.ok()) return Thrown(kDoNotRetryIOException, wanted.status().message());
    if (auto refused = RefuseReserved(wanted->name)) return *refused;
    Result<NamespaceDescriptor> current = admin_.GetNamespace(wanted->name);
    if (current.status().IsNotFound()) return Thrown(kNamespaceNotFoundException, wanted->name);
    if (!current.ok()) return ThrownStatus(current.status());
    if (Status s = CheckNamespaceModification(*current, *wanted); !s.ok()) {
      return Thrown(kDoNotRetryIOException, s.ToString());
    }
    return Procedure<pb::ModifyNamespaceResponse>();
  }

  Reply GetNamespaceDescriptor() {
    pb::GetNamespaceDescriptorRequest request;
    if (auto bad = Parse(&request)) return *bad;
    const std::string& ns = request.namespacename();
    if (auto refused = RefuseReserved(ns)) return *refused;
    Result<NamespaceDescriptor> found = admin_.GetNamespace(ns);
    if (found.status().IsNotFound()) return Thrown(kNamespaceNotFoundException, ns);
    if (!found.ok()) return ThrownStatus(found.status());
    pb::GetNamespaceDescriptorResponse response;
    hbase_proto::EncodeNamespace(*found, response.mutable_namespacedescriptor());
    return Serialized(response);
  }

  Reply ListNamespaceDescriptors() {
    pb::ListNamespaceDescriptorsRequest request;
    if (auto bad = Parse(&request)) return *bad;
    Result<std::vector<NamespaceDescriptor>> all = admin_.ListNamespaces();
    if (!all.ok()) return ThrownStatus(all.status());
    pb::ListNamespaceDescriptorsResponse response;
    for (const NamespaceDescriptor& ns : *all) {
      hbase_proto::EncodeNamespace(ns, response.add_namespacedescriptor());
    }
    return Serialized(response);
  }

  Reply ListNamespaces() {
    pb::ListNamespacesRequest request;
    if (auto bad = Parse(&request)) return *bad;
    Result<std::vector<NamespaceDescriptor>> all = admin_.ListNamespaces();
    if (!all.ok()) return ThrownStatus(all.status());
    pb::ListNamespacesResponse response;
    for (const NamespaceDescriptor& ns : *all) response.add_namespacename(ns.name);
    return Serialized(response);
  }

  // The tables of an existing namespace.
  std::variant<std::vector<TableName>, RpcError> TablesOf(const std::string& ns) const {
    if (auto missing = RequireNamespace(ns)) return *missing;
    Result<std::vector<TableName>> names = admin_.ListTables(ns);
    if (names.status().IsNotFound()) return Thrown(kNamespaceNotFoundException, ns);
    if (!names.ok()) return ThrownStatus(names.status());
    return *std::move(names);
  }

  Reply ListTableDescriptorsByNamespace() {
    pb::ListTableDescriptorsByNamespaceRequest request;
    if (auto bad = Parse(&request)) return *bad;
    if (auto refused = RefuseReserved(request.namespacename())) return *refused;
    auto names = TablesOf(request.namespacename());
    if (auto* failed = std::get_if<RpcError>(&names)) return *failed;
    pb::ListTableDescriptorsByNamespaceResponse response;
    if (auto failed =
            AddSchemas(std::get<std::vector<TableName>>(names), response.mutable_tableschema())) {
      return *failed;
    }
    return Serialized(response);
  }

  Reply ListTableNamesByNamespace() {
    pb::ListTableNamesByNamespaceRequest request;
    if (auto bad = Parse(&request)) return *bad;
    if (auto refused = RefuseReserved(request.namespacename())) return *refused;
    auto names = TablesOf(request.namespacename());
    if (auto* failed = std::get_if<RpcError>(&names)) return *failed;
    pb::ListTableNamesByNamespaceResponse response;
    for (const TableName& name : std::get<std::vector<TableName>>(names)) {
      hbase_proto::EncodeTableName(name, response.add_tablename());
    }
    return Serialized(response);
  }

  Reply GetProcedureResult() {
    pb::GetProcedureResultRequest request;
    if (auto bad = Parse(&request)) return *bad;
    pb::GetProcedureResultResponse response;
    std::optional<ProcedureOutcome> outcome = service_.procedures_.Find(request.proc_id());
    if (!outcome) {
      response.set_state(pb::GetProcedureResultResponse::NOT_FOUND);
      return Serialized(response);
    }
    response.set_state(pb::GetProcedureResultResponse::FINISHED);
    response.set_submitted_time(outcome->finished_ms);
    response.set_last_update(outcome->finished_ms);
    if (outcome->failure) {
      pb::ForeignExceptionMessage* exception = response.mutable_exception();
      exception->set_source(std::string(kProcedureSource));
      exception->mutable_generic_exception()->set_class_name(outcome->failure->exception_class);
      exception->mutable_generic_exception()->set_message(outcome->failure->message);
    }
    return Serialized(response);
  }

  Reply IsMasterInMaintenanceMode() {
    pb::IsInMaintenanceModeRequest request;
    if (auto bad = Parse(&request)) return *bad;
    pb::IsInMaintenanceModeResponse response;
    response.set_inmaintenancemode(false);
    return Serialized(response);
  }

  Reply IsBalancerEnabled() {
    pb::IsBalancerEnabledRequest request;
    if (auto bad = Parse(&request)) return *bad;
    pb::IsBalancerEnabledResponse response;
    response.set_enabled(false);
    return Serialized(response);
  }

  // One region per table on one server: there is nothing to balance.
  Reply Balance() {
    pb::BalanceRequest request;
    if (auto bad = Parse(&request)) return *bad;
    pb::BalanceResponse response;
    response.set_balancer_ran(false);
    return Serialized(response);
  }

  // SIMPLE authentication, which proves nothing, is no capability.
  Reply GetSecurityCapabilities() {
    pb::SecurityCapabilitiesRequest request;
    if (auto bad = Parse(&request)) return *bad;
    return Serialized(pb::SecurityCapabilitiesResponse());
  }

  MasterService& service_;
  Admin& admin_;
  const DecodedCall& call_;
  std::optional<NonceKey> nonce_;  // the DDL request's, once parsed
};

MasterService::MasterService(Connection& conn, RegionDirectory& regions,
                             std::vector<std::string> reserved_namespaces)
    : conn_(conn), regions_(regions), reserved_namespaces_(std::move(reserved_namespaces)) {}

Reply MasterService::Call(const DecodedCall& call, const Caller& /*caller*/) {
  return Handler(*this, call).Dispatch();
}

}  // namespace basalt::server::hbase_rpc
