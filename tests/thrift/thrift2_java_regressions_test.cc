// The Thrift2 methods HBase's Java client (ThriftAdmin) and clients generated from HBase's IDL
// call that basalt once refused outright: modifyNamespace, the slow-log calls, grant and revoke.
// Each is answered as HBase answers it in its default configuration (no slow log buffer, no
// access controller); tests/java/thrift-client checks the same calls through HBase's Java client
// against basalt and a real HBase.

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TSocket.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "server/thrift2/thrift2_server.h"
#include "support/test_store.h"
#include "thrift2/gen/THBaseService.h"

namespace basalt::testing {
namespace {

using ::basalt::thrift2::TAccessControlEntity;
using ::basalt::thrift2::THBaseServiceClient;
using ::basalt::thrift2::TIOError;
using ::basalt::thrift2::TLogQueryFilter;
using ::basalt::thrift2::TNamespaceDescriptor;
using ::basalt::thrift2::TOnlineLogRecord;
using ::basalt::thrift2::TPermissionScope;
using ::basalt::thrift2::TServerName;

class Thrift2JavaRegressionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto conn = Connection::Open("mem:");
    ASSERT_OK(conn);
    conn_ = std::move(*conn);
    server::Thrift2ServerOptions options;
    options.bind_address = "127.0.0.1";
    options.port = 0;
    options.reserved_namespaces = {"app"};
    server_ = std::make_unique<server::Thrift2Server>(*conn_, options);
    ASSERT_OK(server_->Start());
    auto socket =
        std::make_shared<apache::thrift::transport::TSocket>("127.0.0.1", server_->port());
    socket->setRecvTimeout(10000);
    transport_ = std::make_shared<apache::thrift::transport::TBufferedTransport>(socket);
    client_ = std::make_unique<THBaseServiceClient>(
        std::make_shared<apache::thrift::protocol::TBinaryProtocol>(transport_));
    transport_->open();
    ASSERT_OK(conn_->admin().CreateNamespace(NamespaceDescriptor{"app", {}}));
    ASSERT_OK(conn_->admin().CreateNamespace(NamespaceDescriptor{"ns", {{"owner", "suite"}}}));
  }

  void TearDown() override {
    if (transport_) transport_->close();
    client_.reset();
    if (server_) server_->Stop();
    server_.reset();
    if (conn_) EXPECT_OK(conn_->Close());
  }

  // The TIOError `call` throws; a failure if it throws nothing.
  template <class Call>
  TIOError ErrorOf(Call call) {
    try {
      call();
    } catch (const TIOError& e) {
      return e;
    }
    ADD_FAILURE() << "no TIOError";
    return TIOError();
  }

  static TAccessControlEntity Acl(TPermissionScope::type scope, const std::string& name) {
    TAccessControlEntity acl;
    acl.username = "alice";
    acl.actions = "RW";
    acl.scope = scope;
    if (scope == TPermissionScope::TABLE) {
      acl.__set_tableName(name);
    } else {
      acl.__set_nsName(name);
    }
    return acl;
  }

  std::unique_ptr<Connection> conn_;
  std::unique_ptr<server::Thrift2Server> server_;
  std::shared_ptr<apache::thrift::transport::TTransport> transport_;
  std::unique_ptr<THBaseServiceClient> client_;
};

TEST_F(Thrift2JavaRegressionsTest, GrantAndRevokeAnswerAsHBaseWithoutItsAccessController) {
  for (const auto& acl :
       {Acl(TPermissionScope::NAMESPACE, "ns"), Acl(TPermissionScope::TABLE, "ns:t"),
        Acl(TPermissionScope::TABLE, "t")}) {
    TIOError grant = ErrorOf([&] { client_->grant(acl); });
    EXPECT_NE(grant.message.find("AccessController is not loaded"), std::string::npos)
        << grant.message;
    EXPECT_EQ(grant.message.rfind("NotSupported: grant", 0), 0u) << grant.message;
    EXPECT_FALSE(grant.canRetry);
    TIOError revoke = ErrorOf([&] { client_->revoke(acl); });
    EXPECT_NE(revoke.message.find("AccessController is not loaded"), std::string::npos)
        << revoke.message;
    EXPECT_FALSE(revoke.canRetry);
  }
  // The connection is still good.
  std::vector<std::string> namespaces;
  client_->listNamespaces(namespaces);
  EXPECT_FALSE(namespaces.empty());
}

TEST_F(Thrift2JavaRegressionsTest, GrantOfABadTableNameOrAReservedScopeIsRefusedFirst) {
  TIOError bad = ErrorOf([&] { client_->grant(Acl(TPermissionScope::TABLE, "no spaces")); });
  EXPECT_EQ(bad.message.rfind("InvalidArgument", 0), 0u) << bad.message;
  EXPECT_FALSE(bad.canRetry);
  TIOError ns = ErrorOf([&] { client_->grant(Acl(TPermissionScope::NAMESPACE, "app")); });
  EXPECT_EQ(ns.message.rfind("PermissionDenied", 0), 0u) << ns.message;
  TIOError table = ErrorOf([&] { client_->revoke(Acl(TPermissionScope::TABLE, "app:users")); });
  EXPECT_EQ(table.message.rfind("PermissionDenied", 0), 0u) << table.message;
}

TEST_F(Thrift2JavaRegressionsTest, SlowLogCallsAnswerAsHBaseWithoutASlowLogBuffer) {
  TServerName self;
  self.hostName = "127.0.0.1";
  self.__set_port(server_->port());
  self.__set_startCode(0);
  TServerName other = self;
  other.__set_port(server_->port() + 1);

  TLogQueryFilter filter;
  filter.__set_tableName("t");
  std::vector<TOnlineLogRecord> records;
  client_->getSlowLogResponses(records, {}, filter);
  EXPECT_TRUE(records.empty());
  client_->getSlowLogResponses(records, {self, other}, filter);
  EXPECT_TRUE(records.empty());

  std::vector<bool> cleared;
  client_->clearSlowLogResponses(cleared, {});
  EXPECT_TRUE(cleared.empty());
  client_->clearSlowLogResponses(cleared, {self, other});
  EXPECT_EQ(cleared, std::vector<bool>({false, false}));
}

TEST_F(Thrift2JavaRegressionsTest, ModifyNamespaceOfAMissingNamespaceIsNotFound) {
  TNamespaceDescriptor missing;
  missing.name = "nope";
  TIOError e = ErrorOf([&] { client_->modifyNamespace(missing); });
  EXPECT_EQ(e.message.rfind("NotFound", 0), 0u) << e.message;
  EXPECT_FALSE(e.canRetry);
  TNamespaceDescriptor bad;
  bad.name = "no spaces";
  EXPECT_EQ(ErrorOf([&] { client_->modifyNamespace(bad); }).message.rfind("InvalidArgument", 0),
            0u);
  TNamespaceDescriptor reserved;
  reserved.name = "app";
  EXPECT_EQ(
      ErrorOf([&] { client_->modifyNamespace(reserved); }).message.rfind("PermissionDenied", 0),
      0u);
}

TEST_F(Thrift2JavaRegressionsTest, ModifyNamespaceThatChangesNothingSucceeds) {
  TNamespaceDescriptor same;
  same.name = "ns";
  same.__set_configuration({{"owner", "suite"}});
  client_->modifyNamespace(same);
  TNamespaceDescriptor plain;
  plain.name = "default";
  client_->modifyNamespace(plain);
  TNamespaceDescriptor got;
  client_->getNamespaceDescriptor(got, "ns");
  EXPECT_EQ(got.configuration, (std::map<std::string, std::string>{{"owner", "suite"}}));
}

TEST_F(Thrift2JavaRegressionsTest, ModifyNamespaceThatChangesTheConfigurationIsRefusedWhole) {
  TNamespaceDescriptor changed;
  changed.name = "ns";
  changed.__set_configuration({{"owner", "another"}, {"added", "yes"}});
  TIOError e = ErrorOf([&] { client_->modifyNamespace(changed); });
  EXPECT_EQ(e.message.rfind("NotSupported: modifyNamespace", 0), 0u) << e.message;
  EXPECT_FALSE(e.canRetry);
  auto ns = conn_->admin().GetNamespace("ns");
  ASSERT_OK(ns);
  EXPECT_EQ(ns->configuration, (std::map<std::string, std::string>{{"owner", "suite"}}));
}

}  // namespace
}  // namespace basalt::testing
