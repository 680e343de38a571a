// Admin: namespaces and tables. Obtained from Connection::admin().
//
// Thread safety: all methods may be called from many threads. Schema changes are serialised;
// each one is durable when it returns.

#ifndef BASALT_ADMIN_H_
#define BASALT_ADMIN_H_

#include <memory>
#include <string>
#include <vector>

#include "basalt/backup.h"
#include "basalt/bulk_load.h"
#include "basalt/schema.h"
#include "basalt/snapshot.h"
#include "basalt/stats.h"
#include "basalt/status.h"

namespace basalt {

class Admin {
 public:
  virtual ~Admin() = default;

  // Namespaces. "default" and "hbase" always exist and cannot be dropped.
  virtual Status CreateNamespace(const NamespaceDescriptor& ns) = 0;
  // FailedPrecondition while the namespace holds tables.
  virtual Status DeleteNamespace(const std::string& name) = 0;
  virtual Result<NamespaceDescriptor> GetNamespace(const std::string& name) = 0;
  virtual Result<std::vector<NamespaceDescriptor>> ListNamespaces() = 0;

  // Creates an enabled table. `split_keys` pre-split it into regions (sorted, distinct,
  // non-empty keys). AlreadyExists if the name is taken; NotFound if the namespace is missing.
  virtual Status CreateTable(const TableDescriptor& desc,
                             const std::vector<std::string>& split_keys = {}) = 0;
  virtual Result<bool> TableExists(const TableName& name) = 0;
  // Sorted by name. An empty `ns` lists every namespace.
  virtual Result<std::vector<TableName>> ListTables(const std::string& ns = "") = 0;
  virtual Result<TableInfo> DescribeTable(const TableName& name) = 0;

  // Family changes take effect at once for reads and writes. A deleted family's data is gone.
  virtual Status AddFamily(const TableName& table, const FamilyDescriptor& family) = 0;
  // Replaces the settings of an existing family (HBase modifyColumnFamily).
  virtual Status ModifyFamily(const TableName& table, const FamilyDescriptor& family) = 0;
  // FailedPrecondition when it is the table's last family.
  virtual Status DeleteFamily(const TableName& table, const std::string& family) = 0;
  // Sets the table's default durability.
  virtual Status SetDurability(const TableName& table, Durability durability) = 0;

  // A disabled table rejects reads and writes with FailedPrecondition.
  virtual Status DisableTable(const TableName& name) = 0;
  virtual Status EnableTable(const TableName& name) = 0;
  virtual Result<bool> IsTableEnabled(const TableName& name) = 0;

  // Removes every row, keeping the schema (and the split keys when `preserve_splits`).
  // REQUIRES: the table is disabled (FailedPrecondition otherwise), as in HBase. The table ends
  // enabled, as HBase's does.
  virtual Status TruncateTable(const TableName& name, bool preserve_splits = true) = 0;
  // REQUIRES: the table is disabled (FailedPrecondition otherwise), as in HBase.
  virtual Status DeleteTable(const TableName& name) = 0;

  // Writes memtables to disk (HBase flush).
  virtual Status Flush(const TableName& name) = 0;
  // Rewrites all of the table's data, dropping expired, excess, deleted and masked cells and
  // delete markers (HBase major_compact). Synchronous.
  virtual Status MajorCompact(const TableName& name) = 0;

  // The store's unique id, fixed when it was created: HBase's cluster id (what Thrift2's
  // getClusterId answers). The same across restarts and from every backend.
  virtual Result<std::string> ClusterId() = 0;

  // The storage engine's figures now (basalt/stats.h). NotSupported on backends without an
  // engine of their own to read (thrift://: HBase's Thrift2 has no such call).
  virtual Result<StoreStats> GetStoreStats() {
    return Status::NotSupported("this backend has no engine statistics");
  }

  // Takes a backup of the whole store into `backup_dir` (basalt/backup.h: incremental,
  // checksummed) while it serves reads and writes. The backup holds every write acknowledged
  // before the call began. NotSupported for an in-memory store and on thrift://.
  virtual Result<BackupInfo> CreateBackup(const std::string& /*backup_dir*/) {
    return Status::NotSupported("backups need an embedded store on disk");
  }

  // Table snapshots (basalt/snapshot.h), as HBase's snapshot / list_snapshots / clone_snapshot /
  // restore_snapshot / delete_snapshot. All of them are NotSupported for an in-memory store and
  // on thrift:// (HBase's Thrift2 has no snapshot calls).
  //
  // Takes snapshot `name` of `table`, enabled or not: every write to the table acknowledged
  // before the call began is in it, none begun after it returned is, and each write (one
  // mutation, a batch, a CheckAndMutate) is in it whole or not at all, across all its families.
  // Writes to the table wait while its families are flushed and their files linked; writes to
  // other tables do not. InvalidArgument for an illegal name, AlreadyExists when the name is
  // taken, NotFound when the table does not exist.
  virtual Status Snapshot(const TableName& /*table*/, const std::string& /*name*/) {
    return Status::NotSupported("snapshots need an embedded store on disk");
  }
  // Every snapshot, sorted by name.
  virtual Result<std::vector<SnapshotInfo>> ListSnapshots() {
    return Status::NotSupported("snapshots need an embedded store on disk");
  }
  // Creates table `new_table`, enabled, with the snapshot's schema, split keys and cells; the
  // snapshot is unchanged and later writes to either table do not reach the other. NotFound for
  // an unknown snapshot or a missing namespace, AlreadyExists when `new_table` exists (HBase's
  // TableExistsException).
  virtual Status CloneSnapshot(const std::string& /*name*/, const TableName& /*new_table*/) {
    return Status::NotSupported("snapshots need an embedded store on disk");
  }
  // Puts the snapshot's table back as the snapshot holds it: its schema, split keys and cells
  // replace the table's in one step. REQUIRES: the table is disabled (FailedPrecondition
  // otherwise, as in HBase); it stays disabled. When the table was dropped, it is created again
  // from the snapshot, enabled, as HBase's restore does (a clone under the old name). NotFound
  // for an unknown snapshot.
  virtual Status RestoreSnapshot(const std::string& /*name*/) {
    return Status::NotSupported("snapshots need an embedded store on disk");
  }
  // Removes the snapshot and frees its exclusive bytes. NotFound for an unknown name.
  virtual Status DeleteSnapshot(const std::string& /*name*/) {
    return Status::NotSupported("snapshots need an embedded store on disk");
  }

  // A loader that ingests sorted cells into `table` as table files (basalt/bulk_load.h: order,
  // atomicity, how loaded cells relate to concurrent writes). NotFound when the table does not
  // exist, FailedPrecondition when it is disabled. NotSupported on thrift://: neither HBase's
  // Thrift2 nor basalt's server can take table files, and batched Puts in its place would not be
  // atomic (a failure midway would leave part of the load visible) nor any faster than the
  // caller's own Table::Put batches, which are the way to load over Thrift2.
  virtual Result<std::unique_ptr<BulkLoader>> NewBulkLoader(
      const TableName& /*table*/, const BulkLoadOptions& /*options*/ = {}) {
    return Status::NotSupported(
        "bulk load needs an embedded store: this backend cannot ingest table files (write with "
        "Table::Put batches instead)");
  }
};

}  // namespace basalt

#endif  // BASALT_ADMIN_H_
