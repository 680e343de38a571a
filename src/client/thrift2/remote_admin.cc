#include "client/thrift2/remote_admin.h"

#include <algorithm>

#include "client/thrift2/request_checks.h"
#include "thrift2/codec.h"

namespace basalt::client::remote {

namespace t2 = ::basalt::thrift2;

Status RemoteAdmin::CreateNamespace(const NamespaceDescriptor& ns) {
  // HBase's master refuses a bad name only after its gateway's client retried for half a minute.
  BASALT_RETURN_IF_ERROR(ValidateNamespaceName(ns.name));
  t2::TNamespaceDescriptor t = t2::ToThrift(ns);
  return pool_->Call([&](ThriftClient& c) { c.createNamespace(t); });
}

Status RemoteAdmin::DeleteNamespace(const std::string& name) {
  return pool_->Call([&](ThriftClient& c) { c.deleteNamespace(name); });
}

Result<NamespaceDescriptor> RemoteAdmin::GetNamespace(const std::string& name) {
  t2::TNamespaceDescriptor t;
  BASALT_RETURN_IF_ERROR(pool_->Call([&](ThriftClient& c) { c.getNamespaceDescriptor(t, name); },
                                     ClientPool::Idempotence::kYes));
  return t2::FromThrift(t);
}

Result<std::vector<NamespaceDescriptor>> RemoteAdmin::ListNamespaces() {
  std::vector<t2::TNamespaceDescriptor> ts;
  BASALT_RETURN_IF_ERROR(pool_->Call([&](ThriftClient& c) { c.listNamespaceDescriptors(ts); },
                                     ClientPool::Idempotence::kYes));
  std::vector<NamespaceDescriptor> out;
  for (const auto& t : ts) out.push_back(t2::FromThrift(t));
  return out;
}

Status RemoteAdmin::CreateTable(const TableDescriptor& desc,
                                const std::vector<std::string>& split_keys) {
  // Checked here too: Thrift2 cannot carry every mistake to the server (an attribute named like
  // a setting travels in the setting's typed field).
  BASALT_RETURN_IF_ERROR(desc.Validate());
  BASALT_RETURN_IF_ERROR(CheckSplitKeys(split_keys));
  t2::TTableDescriptor t = t2::ToThrift(desc);
  return pool_->Call([&](ThriftClient& c) { c.createTable(t, split_keys); });
}

Result<bool> RemoteAdmin::TableExists(const TableName& name) {
  bool exists = false;
  t2::TTableName t = t2::ToThrift(name);
  BASALT_RETURN_IF_ERROR(pool_->Call([&](ThriftClient& c) { exists = c.tableExists(t); },
                                     ClientPool::Idempotence::kYes));
  return exists;
}

Result<std::vector<TableName>> RemoteAdmin::ListTables(const std::string& ns) {
  std::vector<t2::TTableName> ts;
  BASALT_RETURN_IF_ERROR(pool_->Call(
      [&](ThriftClient& c) {
        if (ns.empty()) {
          c.getTableNamesByPattern(ts, ".*", /*includeSysTables=*/false);
        } else {
          c.getTableNamesByNamespace(ts, ns);
        }
      },
      ClientPool::Idempotence::kYes));
  std::vector<TableName> out;
  for (const auto& t : ts) {
    BASALT_ASSIGN_OR_RETURN(TableName name, t2::FromThrift(t));
    out.push_back(std::move(name));
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<TableInfo> RemoteAdmin::DescribeTable(const TableName& name) {
  t2::TTableName tname = t2::ToThrift(name);
  t2::TTableDescriptor desc;
  bool enabled = true;
  std::vector<t2::THRegionLocation> regions;
  BASALT_RETURN_IF_ERROR(ExplainTableFailure(*pool_, name,
                                             pool_->Call(
                                                 [&](ThriftClient& c) {
                                                   c.getTableDescriptor(desc, tname);
                                                   enabled = c.isTableEnabled(tname);
                                                   c.getAllRegionLocations(regions,
                                                                           name.ToString());
                                                 },
                                                 ClientPool::Idempotence::kYes)));
  TableInfo info;
  BASALT_ASSIGN_OR_RETURN(info.descriptor, t2::FromThrift(desc));
  std::sort(info.descriptor.families.begin(), info.descriptor.families.end(),
            [](const FamilyDescriptor& a, const FamilyDescriptor& b) { return a.name < b.name; });
  info.enabled = enabled;
  // Region start keys, after the first region's empty one, are the split keys.
  for (const auto& r : regions) {
    if (r.regionInfo.__isset.startKey && !r.regionInfo.startKey.empty()) {
      info.split_keys.push_back(r.regionInfo.startKey);
    }
  }
  std::sort(info.split_keys.begin(), info.split_keys.end());
  return info;
}

Status RemoteAdmin::AddFamily(const TableName& table, const FamilyDescriptor& family) {
  BASALT_RETURN_IF_ERROR(family.Validate());
  t2::TTableName t = t2::ToThrift(table);
  t2::TColumnFamilyDescriptor f = t2::ToThrift(family);
  return pool_->Call([&](ThriftClient& c) { c.addColumnFamily(t, f); });
}

Status RemoteAdmin::ModifyFamily(const TableName& table, const FamilyDescriptor& family) {
  BASALT_RETURN_IF_ERROR(family.Validate());
  t2::TTableName t = t2::ToThrift(table);
  t2::TColumnFamilyDescriptor f = t2::ToThrift(family);
  return pool_->Call([&](ThriftClient& c) { c.modifyColumnFamily(t, f); });
}

Status RemoteAdmin::DeleteFamily(const TableName& table, const std::string& family) {
  t2::TTableName t = t2::ToThrift(table);
  Status s = pool_->Call([&](ThriftClient& c) { c.deleteColumnFamily(t, family); });
  if (s.ok() || !s.IsIOError() || IsTransportFailure(s)) return s;
  // HBase's gateway answers an IOError (InvalidFamilyOperationException) for the last family.
  t2::TTableDescriptor desc;
  if (!pool_
           ->Call([&](ThriftClient& c) { c.getTableDescriptor(desc, t); },
                  ClientPool::Idempotence::kYes)
           .ok()) {
    return s;
  }
  if (desc.columns.size() == 1 && desc.columns[0].name == family) {
    return Status::FailedPrecondition("family '" + family + "' is the only family of table '" +
                                      table.ToString() + "'; the server said: " + s.message());
  }
  return s;
}

Status RemoteAdmin::SetDurability(const TableName& table, Durability durability) {
  t2::TTableName t = t2::ToThrift(table);
  return pool_->Call([&](ThriftClient& c) {
    t2::TTableDescriptor desc;
    c.getTableDescriptor(desc, t);
    desc.__set_durability(t2::ToThrift(durability));
    c.modifyTable(desc);
  });
}

Status RemoteAdmin::DisableTable(const TableName& name) {
  t2::TTableName t = t2::ToThrift(name);
  return pool_->Call([&](ThriftClient& c) { c.disableTable(t); });
}

Status RemoteAdmin::EnableTable(const TableName& name) {
  t2::TTableName t = t2::ToThrift(name);
  return pool_->Call([&](ThriftClient& c) { c.enableTable(t); });
}

Result<bool> RemoteAdmin::IsTableEnabled(const TableName& name) {
  t2::TTableName t = t2::ToThrift(name);
  bool enabled = false;
  BASALT_RETURN_IF_ERROR(pool_->Call([&](ThriftClient& c) { enabled = c.isTableEnabled(t); },
                                     ClientPool::Idempotence::kYes));
  return enabled;
}

Result<std::string> RemoteAdmin::ClusterId() {
  std::string id;
  BASALT_RETURN_IF_ERROR(
      pool_->Call([&](ThriftClient& c) { c.getClusterId(id); }, ClientPool::Idempotence::kYes));
  return id;
}

Status RemoteAdmin::TruncateTable(const TableName& name, bool preserve_splits) {
  t2::TTableName t = t2::ToThrift(name);
  return pool_->Call([&](ThriftClient& c) { c.truncateTable(t, preserve_splits); });
}

Status RemoteAdmin::DeleteTable(const TableName& name) {
  t2::TTableName t = t2::ToThrift(name);
  return pool_->Call([&](ThriftClient& c) { c.deleteTable(t); });
}

Status RemoteAdmin::Flush(const TableName& /*name*/) {
  return Status::NotSupported("Thrift2 has no flush method");
}

Status RemoteAdmin::MajorCompact(const TableName& /*name*/) {
  return Status::NotSupported("Thrift2 has no major compaction method");
}

Result<StoreStats> RemoteAdmin::GetStoreStats() {
  return Status::NotSupported(
      "Thrift2 has no engine statistics method; read the server's /metrics instead");
}

namespace {

Status NoSnapshots() {
  return Status::NotSupported(
      "HBase's Thrift2 has no snapshot methods: snapshots are taken on an embedded store "
      "(basalt --data DIR snapshot ..., or its shell, while no server holds DIR)");
}

}  // namespace

Status RemoteAdmin::Snapshot(const TableName& /*table*/, const std::string& /*name*/) {
  return NoSnapshots();
}

Result<std::vector<SnapshotInfo>> RemoteAdmin::ListSnapshots() {
  return NoSnapshots();
}

Status RemoteAdmin::CloneSnapshot(const std::string& /*name*/, const TableName& /*new_table*/) {
  return NoSnapshots();
}

Status RemoteAdmin::RestoreSnapshot(const std::string& /*name*/) {
  return NoSnapshots();
}

Status RemoteAdmin::DeleteSnapshot(const std::string& /*name*/) {
  return NoSnapshots();
}

}  // namespace basalt::client::remote
