// Admin over Thrift2: each call is one or a few THBaseService admin calls (docs/hbase.md).
// Flush, MajorCompact, GetStoreStats and the snapshot calls have no Thrift2 form: NotSupported
// (NewBulkLoader too, by the default of basalt/admin.h).
// ListTables() lists every namespace but HBase's own, `hbase` (its catalog tables hbase:meta and
// hbase:namespace are not the caller's; HBase's Admin.listTableNames() leaves them out too):
// ListTables("hbase") names them. Names, namespaces and split keys are checked here first
// (request_checks.h), and failures HBase's gateway answers without saying why are told apart
// with one more call (a missing table: NotFound; deleting a table's only family:
// FailedPrecondition).

#ifndef BASALT_CLIENT_THRIFT2_REMOTE_ADMIN_H_
#define BASALT_CLIENT_THRIFT2_REMOTE_ADMIN_H_

#include <memory>
#include <string>
#include <vector>

#include "basalt/admin.h"
#include "client/thrift2/client_pool.h"

namespace basalt::client::remote {

class RemoteAdmin final : public Admin {
 public:
  explicit RemoteAdmin(std::shared_ptr<ClientPool> pool) : pool_(std::move(pool)) {}

  Status CreateNamespace(const NamespaceDescriptor& ns) override;
  Status DeleteNamespace(const std::string& name) override;
  Result<NamespaceDescriptor> GetNamespace(const std::string& name) override;
  Result<std::vector<NamespaceDescriptor>> ListNamespaces() override;
  Status CreateTable(const TableDescriptor& desc,
                     const std::vector<std::string>& split_keys) override;
  Result<bool> TableExists(const TableName& name) override;
  Result<std::vector<TableName>> ListTables(const std::string& ns) override;
  Result<TableInfo> DescribeTable(const TableName& name) override;
  Status AddFamily(const TableName& table, const FamilyDescriptor& family) override;
  Status ModifyFamily(const TableName& table, const FamilyDescriptor& family) override;
  Status DeleteFamily(const TableName& table, const std::string& family) override;
  Status SetDurability(const TableName& table, Durability durability) override;
  Status DisableTable(const TableName& name) override;
  Status EnableTable(const TableName& name) override;
  Result<bool> IsTableEnabled(const TableName& name) override;
  Result<std::string> ClusterId() override;
  Status TruncateTable(const TableName& name, bool preserve_splits) override;
  Status DeleteTable(const TableName& name) override;
  Status Flush(const TableName& name) override;
  Status MajorCompact(const TableName& name) override;
  Result<StoreStats> GetStoreStats() override;
  Status Snapshot(const TableName& table, const std::string& name) override;
  Result<std::vector<SnapshotInfo>> ListSnapshots() override;
  Status CloneSnapshot(const std::string& name, const TableName& new_table) override;
  Status RestoreSnapshot(const std::string& name) override;
  Status DeleteSnapshot(const std::string& name) override;

 private:
  std::shared_ptr<ClientPool> pool_;
};

}  // namespace basalt::client::remote

#endif  // BASALT_CLIENT_THRIFT2_REMOTE_ADMIN_H_
