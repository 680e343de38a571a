#include "client/thrift2/remote_connection.h"

#include "client/thrift2/remote_admin.h"
#include "client/thrift2/remote_table.h"

namespace basalt::client::remote {

namespace {

class RemoteConnection final : public Connection {
 public:
  RemoteConnection(std::shared_ptr<ClientPool> pool, size_t max_value_bytes)
      : pool_(std::move(pool)), admin_(pool_), max_value_bytes_(max_value_bytes) {}
  ~RemoteConnection() override { Close().PermitUncheckedError(); }

  Admin& admin() override { return admin_; }

  Result<std::unique_ptr<Table>> GetTable(const TableName& name) override {
    BASALT_ASSIGN_OR_RETURN(bool exists, admin_.TableExists(name));
    if (!exists) return Status::NotFound("table " + name.ToString() + " does not exist");
    return std::unique_ptr<Table>(new RemoteTable(pool_, name, max_value_bytes_));
  }

  std::string target() const override { return pool_->target().ToString(); }

  Status Close() override {
    pool_->Close();
    return Status::OK();
  }

 private:
  std::shared_ptr<ClientPool> pool_;
  RemoteAdmin admin_;
  const size_t max_value_bytes_;
};

}  // namespace

Result<std::unique_ptr<Connection>> OpenThrift2(std::string_view target,
                                                const ConnectionOptions& options) {
  BASALT_ASSIGN_OR_RETURN(Thrift2Target t, ParseThrift2Target(target));
  auto pool = std::make_shared<ClientPool>(std::move(t));
  // One call proves the server is there and speaks Thrift2 with the same transport/protocol.
  BASALT_RETURN_IF_ERROR(pool->Call([](ThriftClient& c) { c.getThriftServerType(); }));
  return std::unique_ptr<Connection>(
      new RemoteConnection(std::move(pool), options.max_value_bytes));
}

}  // namespace basalt::client::remote
