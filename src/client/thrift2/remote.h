// The remote backend: Connection, Admin, Table and ResultScanner over HBase's Thrift2 protocol,
// talking to basalt's Thrift2 server or to an HBase cluster's Thrift2 gateway.
//
// What differs from the embedded backend (docs/hbase.md):
//   - Table::Batch is not atomic across rows: it applies one row at a time, in order, and stops
//     at the first failure (earlier rows stay written).
//   - Raw scans, per-family limits on scans, Increment and CheckAndMutate time ranges, flush and
//     major compaction have no Thrift2 form: NotSupported.

#ifndef BASALT_CLIENT_THRIFT2_REMOTE_H_
#define BASALT_CLIENT_THRIFT2_REMOTE_H_

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "basalt/connection.h"
#include "client/thrift2/client_pool.h"

namespace basalt::client::remote {

// `target` is "thrift://HOST:PORT[?options]" (target.h). Connects once to check the server.
Result<std::unique_ptr<Connection>> OpenThrift2(std::string_view target,
                                                const ConnectionOptions& options);

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
  Status TruncateTable(const TableName& name, bool preserve_splits) override;
  Status DeleteTable(const TableName& name) override;
  Status Flush(const TableName& name) override;
  Status MajorCompact(const TableName& name) override;

 private:
  std::shared_ptr<ClientPool> pool_;
};

class RemoteTable final : public Table {
 public:
  RemoteTable(std::shared_ptr<ClientPool> pool, TableName name)
      : pool_(std::move(pool)), name_(std::move(name)), wire_name_(name_.ToString()) {}

  const TableName& name() const override { return name_; }
  Status Put(const basalt::Put& put) override;
  Status Delete(const basalt::Delete& del) override;
  Result<RowResult> Get(const basalt::Get& get) override;
  Result<std::vector<RowResult>> Get(const std::vector<basalt::Get>& gets) override;
  Result<bool> Exists(const basalt::Get& get) override;
  Result<std::unique_ptr<ResultScanner>> GetScanner(const basalt::Scan& scan) override;
  Result<RowResult> Increment(const basalt::Increment& inc) override;
  Result<RowResult> Append(const basalt::Append& app) override;
  Result<bool> CheckAndMutate(const basalt::CheckAndMutate& cam) override;
  Status MutateRow(const RowMutations& mutations) override;
  // Not atomic across rows over Thrift2: see the file comment.
  Result<std::vector<RowResult>> Batch(const std::vector<Mutation>& mutations) override;

 private:
  std::shared_ptr<ClientPool> pool_;
  TableName name_;
  std::string wire_name_;  // the `binary table` argument: "ns:qualifier" or "qualifier"
};

// Streams a scan with openScanner / getScannerRows (the scan's caching, default 100, rows per
// call) / closeScanner, and makes exact what TScan cannot say (see the .cc).
class RemoteScanner final : public ResultScanner {
 public:
  // Opens the server-side scanner.
  static Result<std::unique_ptr<ResultScanner>> Open(std::shared_ptr<ClientPool> pool,
                                                     const std::string& table, const Scan& scan);
  ~RemoteScanner() override;

  bool Next(RowResult* out) override;
  Status status() const override { return status_; }
  void Close() override;

 private:
  RemoteScanner(std::shared_ptr<ClientPool> pool, int32_t id, int32_t rows_per_call, int64_t limit,
                std::optional<std::string> skip_row, std::optional<std::string> low_inclusive);
  Status Fetch();

  std::shared_ptr<ClientPool> pool_;
  int32_t id_;
  int32_t rows_per_call_;
  int64_t limit_;                             // rows; <= 0: none
  std::optional<std::string> skip_row_;       // a reversed scan's exclusive start row
  std::optional<std::string> low_inclusive_;  // a reversed scan's inclusive stop row
  std::deque<RowResult> buffer_;
  bool open_ = true;
  bool exhausted_ = false;
  int64_t rows_seen_ = 0;
  std::string last_row_;
  bool have_last_row_ = false;
  Status status_;
};

}  // namespace basalt::client::remote

#endif  // BASALT_CLIENT_THRIFT2_REMOTE_H_
