// Table over Thrift2 (docs/hbase.md). Every single-row call stays atomic on the server.
// Table::Batch is not atomic across rows: it checks row keys and families first, then applies
// one row at a time, in order, and stops at the first failure (earlier rows stay written).
// The family check uses the table's descriptor as read at most a second ago (and reads it again
// when a family is missing from it), so a batch is one call less than with a descriptor read per
// batch; a family dropped within that second is left for the server to refuse.
// Increment and CheckAndMutate time ranges have no Thrift2 form: NotSupported.
// Every request first passes the client's checks (request_checks.h). A call the server fails
// with a bare IOError (HBase's gateway names neither a missing nor a disabled table in its
// message) is told apart with one more call: NotFound when the table is gone, FailedPrecondition
// when it is disabled.

#ifndef BASALT_CLIENT_THRIFT2_REMOTE_TABLE_H_
#define BASALT_CLIENT_THRIFT2_REMOTE_TABLE_H_

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "basalt/table.h"
#include "client/thrift2/client_pool.h"
#include "util/mutex.h"

namespace basalt::client::remote {

class RemoteTable final : public Table {
 public:
  // `max_value_bytes`: ConnectionOptions::max_value_bytes, checked before a write is sent.
  RemoteTable(std::shared_ptr<ClientPool> pool, TableName name, size_t max_value_bytes)
      : pool_(std::move(pool)),
        name_(std::move(name)),
        wire_name_(name_.ToString()),
        max_value_bytes_(max_value_bytes) {}

  const TableName& name() const override { return name_; }
  Status Put(const basalt::Put& put) override;
  // One putMultiple, after the client-side checks Batch makes (row keys, families).
  Status Put(const std::vector<basalt::Put>& puts) override;
  Status Delete(const basalt::Delete& del) override;
  Result<RowResult> Get(const basalt::Get& get) override;
  // getMultiple calls of at most 1,000 Gets each, in order; one the server refuses as too large
  // for one call (basalt's server caps a call's results at 16 MiB) is split in halves, so the
  // caller never sees that refusal. Over Thrift2 a multi-get is no snapshot anyway (both
  // servers read its rows one by one), so the split takes no guarantee away.
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
  // The table's descriptor, as the server has it now.
  Result<TableDescriptor> Describe();
  // `check` against the descriptor read within the last second, or, when there is none or
  // `check` fails on it (the schema may have changed since), against the server's descriptor now.
  Status CheckAgainstSchema(const std::function<Status(const TableDescriptor&)>& check);
  // `fn` through the pool, its failure explained (see the file comment).
  template <class F>
  Status Call(F&& fn, ClientPool::Idempotence idempotence = ClientPool::Idempotence::kNo) {
    return ExplainFailure(pool_->Call(std::forward<F>(fn), idempotence));
  }
  Status ExplainFailure(Status failure);

  std::shared_ptr<ClientPool> pool_;
  TableName name_;
  std::string wire_name_;  // the `binary table` argument: "ns:qualifier" or "qualifier"
  const size_t max_value_bytes_;
  util::Mutex schema_mu_;
  std::shared_ptr<const TableDescriptor> schema_ BASALT_GUARDED_BY(schema_mu_);  // null: none read
  std::chrono::steady_clock::time_point schema_read_ BASALT_GUARDED_BY(schema_mu_);
};

}  // namespace basalt::client::remote

#endif  // BASALT_CLIENT_THRIFT2_REMOTE_TABLE_H_
