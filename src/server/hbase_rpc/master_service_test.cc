#include "server/hbase_rpc/master_service.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "basalt/admin.h"
#include "hbase_proto/proto/Master.pb.h"
#include "hbase_proto/schema_codec.h"

namespace basalt::server::hbase_rpc {
namespace {

namespace pb = ::hbase::pb;
using ::basalt::hbase_rpc::CallAnswer;
using ::basalt::hbase_rpc::Caller;
using ::basalt::hbase_rpc::DecodedCall;
using ::basalt::hbase_rpc::RpcError;

constexpr char kTableNotFound[] = "org.apache.hadoop.hbase.TableNotFoundException";
constexpr char kTableExists[] = "org.apache.hadoop.hbase.TableExistsException";
constexpr char kTableNotDisabled[] = "org.apache.hadoop.hbase.TableNotDisabledException";
constexpr char kTableNotEnabled[] = "org.apache.hadoop.hbase.TableNotEnabledException";
constexpr char kNamespaceNotFound[] = "org.apache.hadoop.hbase.NamespaceNotFoundException";
constexpr char kNamespaceExist[] = "org.apache.hadoop.hbase.NamespaceExistException";
constexpr char kConstraint[] = "org.apache.hadoop.hbase.constraint.ConstraintException";
constexpr char kInvalidFamily[] = "org.apache.hadoop.hbase.InvalidFamilyOperationException";
constexpr char kAccessDenied[] = "org.apache.hadoop.hbase.security.AccessDeniedException";
constexpr char kDoNotRetry[] = "org.apache.hadoop.hbase.DoNotRetryIOException";

class MasterServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto conn = Connection::Open("mem:");
    ASSERT_TRUE(conn.ok()) << conn.status().ToString();
    conn_ = std::move(*conn);
    service_ = std::make_unique<MasterService>(*conn_, regions_, std::vector<std::string>{"app"});
  }

  std::variant<CallAnswer, RpcError> CallBytes(const std::string& method,
                                               const std::string& bytes) {
    DecodedCall call;
    call.header.set_call_id(1);
    call.header.set_method_name(method);
    call.has_param = true;
    call.param = bytes;
    return service_->Call(call, Caller{"127.0.0.1:1"});
  }

  // The response of a call expected to succeed.
  template <class Response>
  Response Ok(const std::string& method, const google::protobuf::MessageLite& request) {
    auto reply = CallBytes(method, request.SerializeAsString());
    Response response;
    if (auto* error = std::get_if<RpcError>(&reply)) {
      ADD_FAILURE() << method << ": " << error->exception_class << ": " << error->message;
      return response;
    }
    EXPECT_TRUE(response.ParseFromString(std::get<CallAnswer>(reply).message)) << method;
    return response;
  }

  // The exception of a call expected to fail.
  RpcError Fails(const std::string& method, const google::protobuf::MessageLite& request) {
    auto reply = CallBytes(method, request.SerializeAsString());
    if (auto* error = std::get_if<RpcError>(&reply)) {
      EXPECT_FALSE(error->fatal);
      return *error;
    }
    ADD_FAILURE() << method << " succeeded";
    return {};
  }

  pb::GetProcedureResultResponse Procedure(uint64_t proc_id) {
    pb::GetProcedureResultRequest request;
    request.set_proc_id(proc_id);
    return Ok<pb::GetProcedureResultResponse>("getProcedureResult", request);
  }

  // Asserts the procedure finished, failed with `exception_class` when given.
  void ExpectFinished(uint64_t proc_id, const std::string& exception_class = "") {
    pb::GetProcedureResultResponse result = Procedure(proc_id);
    EXPECT_EQ(result.state(), pb::GetProcedureResultResponse::FINISHED);
    if (exception_class.empty()) {
      EXPECT_FALSE(result.has_exception()) << result.exception().generic_exception().message();
    } else {
      EXPECT_EQ(result.exception().generic_exception().class_name(), exception_class);
    }
  }

  static pb::TableName Name(const std::string& ns, const std::string& qualifier) {
    pb::TableName name;
    name.set_namespace_(ns);
    name.set_qualifier(qualifier);
    return name;
  }

  static pb::CreateTableRequest CreateRequest(const TableDescriptor& desc) {
    pb::CreateTableRequest request;
    hbase_proto::EncodeTable(desc, request.mutable_table_schema());
    return request;
  }

  uint64_t Create(const std::string& ns, const std::string& qualifier) {
    TableDescriptor desc(TableName(ns, qualifier));
    desc.AddFamily(FamilyDescriptor("cf"));
    return Ok<pb::CreateTableResponse>("CreateTable", CreateRequest(desc)).proc_id();
  }

  template <class Request>
  static Request ForTable(const std::string& qualifier) {
    Request request;
    *request.mutable_table_name() = Name("default", qualifier);
    return request;
  }

  RegionDirectory regions_{1000};
  std::unique_ptr<Connection> conn_;
  std::unique_ptr<MasterService> service_;
};

TEST_F(MasterServiceTest, TableLifecycleRoundTrips) {
  TableDescriptor desc(TableName("default", "t1"));
  FamilyDescriptor cf("cf");
  cf.max_versions = 3;
  desc.AddFamily(cf);
  pb::CreateTableRequest create = CreateRequest(desc);
  create.add_split_keys("m");
  const uint64_t created = Ok<pb::CreateTableResponse>("CreateTable", create).proc_id();
  ExpectFinished(created);
  auto info = conn_->admin().DescribeTable(TableName("default", "t1"));
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->split_keys, std::vector<std::string>{"m"});
  const uint64_t first_region = regions_.Regions(TableName("default", "t1"), {}).at(0).id;
  EXPECT_GT(first_region, 1000u) << "CreateTable renews the table's region";

  pb::GetTableDescriptorsRequest by_name;
  *by_name.add_table_names() = Name("default", "t1");
  auto described = Ok<pb::GetTableDescriptorsResponse>("GetTableDescriptors", by_name);
  ASSERT_EQ(described.table_schema_size(), 1);
  auto back = hbase_proto::DecodeTable(described.table_schema(0));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->families.at(0).max_versions, 3);

  auto names = Ok<pb::GetTableNamesResponse>("GetTableNames", pb::GetTableNamesRequest());
  ASSERT_EQ(names.table_names_size(), 1);
  EXPECT_EQ(names.table_names(0).qualifier(), "t1");

  auto state =
      Ok<pb::GetTableStateResponse>("GetTableState", ForTable<pb::GetTableStateRequest>("t1"));
  EXPECT_EQ(state.table_state().state(), pb::TableState::ENABLED);

  ExpectFinished(
      Ok<pb::DisableTableResponse>("DisableTable", ForTable<pb::DisableTableRequest>("t1"))
          .proc_id());
  state = Ok<pb::GetTableStateResponse>("GetTableState", ForTable<pb::GetTableStateRequest>("t1"));
  EXPECT_EQ(state.table_state().state(), pb::TableState::DISABLED);
  ExpectFinished(
      Ok<pb::EnableTableResponse>("EnableTable", ForTable<pb::EnableTableRequest>("t1")).proc_id());
  EXPECT_TRUE(*conn_->admin().IsTableEnabled(TableName("default", "t1")));

  ASSERT_TRUE(conn_->admin().DisableTable(TableName("default", "t1")).ok());
  pb::TruncateTableRequest truncate;
  *truncate.mutable_tablename() = Name("default", "t1");
  truncate.set_preservesplits(true);
  ExpectFinished(Ok<pb::TruncateTableResponse>("truncateTable", truncate).proc_id());
  EXPECT_GT(regions_.Regions(TableName("default", "t1"), {}).at(0).id, first_region);
  EXPECT_EQ(conn_->admin().DescribeTable(TableName("default", "t1"))->split_keys,
            std::vector<std::string>{"m"});

  ASSERT_TRUE(conn_->admin().DisableTable(TableName("default", "t1")).ok());
  ExpectFinished(
      Ok<pb::DeleteTableResponse>("DeleteTable", ForTable<pb::DeleteTableRequest>("t1")).proc_id());
  EXPECT_FALSE(*conn_->admin().TableExists(TableName("default", "t1")));
  EXPECT_EQ(Ok<pb::GetTableDescriptorsResponse>("GetTableDescriptors", by_name).table_schema_size(),
            0);
}

TEST_F(MasterServiceTest, FailuresTheMasterThrowsAreTheCallsException) {
  Create("default", "t");
  TableDescriptor again(TableName("default", "t"));
  again.AddFamily(FamilyDescriptor("cf"));
  EXPECT_EQ(Fails("CreateTable", CreateRequest(again)).exception_class, kTableExists);

  TableDescriptor elsewhere(TableName("nowhere", "t"));
  elsewhere.AddFamily(FamilyDescriptor("cf"));
  RpcError no_ns = Fails("CreateTable", CreateRequest(elsewhere));
  EXPECT_EQ(no_ns.exception_class, kNamespaceNotFound);
  EXPECT_EQ(no_ns.message, "nowhere");

  EXPECT_EQ(Fails("DeleteTable", ForTable<pb::DeleteTableRequest>("missing")).exception_class,
            kTableNotFound);
  EXPECT_EQ(Fails("DeleteTable", ForTable<pb::DeleteTableRequest>("t")).exception_class,
            kTableNotDisabled);
  EXPECT_EQ(Fails("GetTableState", ForTable<pb::GetTableStateRequest>("missing")).exception_class,
            kTableNotFound);
  // DisableTable waits on a blocking prepare latch in HBase 2.6 (HMaster.disableTable).
  EXPECT_EQ(Fails("DisableTable", ForTable<pb::DisableTableRequest>("missing")).exception_class,
            kTableNotFound);
  ASSERT_TRUE(conn_->admin().DisableTable(TableName("default", "t")).ok());
  RpcError disabled_twice = Fails("DisableTable", ForTable<pb::DisableTableRequest>("t"));
  EXPECT_EQ(disabled_twice.exception_class, kTableNotEnabled);
  EXPECT_EQ(disabled_twice.message, "t");

  pb::CreateTableRequest bad_schema = CreateRequest(again);
  bad_schema.mutable_table_schema()->mutable_column_families(0)->mutable_attributes(0)->set_second(
      "not-a-number");
  EXPECT_EQ(Fails("CreateTable", bad_schema).exception_class, kDoNotRetry);
}

TEST_F(MasterServiceTest, EnableAndTruncateFailuresAreTheProceduresOutcome) {
  Create("default", "t");
  auto enable = Ok<pb::EnableTableResponse>("EnableTable", ForTable<pb::EnableTableRequest>("t"));
  ExpectFinished(enable.proc_id(), kTableNotDisabled);
  pb::TruncateTableRequest truncate;
  *truncate.mutable_tablename() = Name("default", "t");
  ExpectFinished(Ok<pb::TruncateTableResponse>("truncateTable", truncate).proc_id(),
                 kTableNotDisabled);
  *truncate.mutable_tablename() = Name("default", "missing");
  ExpectFinished(Ok<pb::TruncateTableResponse>("truncateTable", truncate).proc_id(),
                 kTableNotFound);
  ExpectFinished(
      Ok<pb::EnableTableResponse>("EnableTable", ForTable<pb::EnableTableRequest>("missing"))
          .proc_id(),
      kTableNotFound);

  pb::GetProcedureResultResponse failed = Procedure(enable.proc_id());
  EXPECT_EQ(failed.exception().generic_exception().message(), "t");
  EXPECT_TRUE(failed.exception().has_source());
  EXPECT_EQ(Procedure(987654).state(), pb::GetProcedureResultResponse::NOT_FOUND);
}

TEST_F(MasterServiceTest, ARetriedCallIsAnsweredItsFirstProcedure) {
  TableDescriptor desc(TableName("default", "t"));
  desc.AddFamily(FamilyDescriptor("cf"));
  pb::CreateTableRequest create = CreateRequest(desc);
  create.set_nonce_group(7);
  create.set_nonce(42);
  const uint64_t first = Ok<pb::CreateTableResponse>("CreateTable", create).proc_id();
  EXPECT_EQ(Ok<pb::CreateTableResponse>("CreateTable", create).proc_id(), first)
      << "the same nonce: not TableExistsException";
  ExpectFinished(first);
  create.set_nonce(43);
  EXPECT_EQ(Fails("CreateTable", create).exception_class, kTableExists);
  // Without a nonce (0), every call is applied.
  auto disable = ForTable<pb::DisableTableRequest>("t");
  Ok<pb::DisableTableResponse>("DisableTable", disable);
  EXPECT_EQ(Fails("DisableTable", disable).exception_class, kTableNotEnabled);
}

TEST_F(MasterServiceTest, ModifyTableAppliesTheDifference) {
  TableDescriptor desc(TableName("default", "t"));
  desc.AddFamily(FamilyDescriptor("a")).AddFamily(FamilyDescriptor("b"));
  Ok<pb::CreateTableResponse>("CreateTable", CreateRequest(desc));

  TableDescriptor target(TableName("default", "t"));
  FamilyDescriptor a("a");
  a.max_versions = 7;
  target.AddFamily(a).AddFamily(FamilyDescriptor("c"));
  target.durability = Durability::kFsyncWal;
  pb::ModifyTableRequest modify;
  *modify.mutable_table_name() = Name("default", "t");
  hbase_proto::EncodeTable(target, modify.mutable_table_schema());
  ExpectFinished(Ok<pb::ModifyTableResponse>("ModifyTable", modify).proc_id());
  auto info = conn_->admin().DescribeTable(TableName("default", "t"));
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->descriptor, target);

  *modify.mutable_table_name() = Name("default", "other");
  EXPECT_EQ(Fails("ModifyTable", modify).exception_class, kDoNotRetry);
  modify.clear_table_schema();
  hbase_proto::EncodeTable(TableDescriptor(TableName("default", "missing")).AddFamily(a),
                           modify.mutable_table_schema());
  *modify.mutable_table_name() = Name("default", "missing");
  EXPECT_EQ(Fails("ModifyTable", modify).exception_class, kTableNotFound);
}

TEST_F(MasterServiceTest, ColumnCallsAndTheirFamilyErrors) {
  Create("default", "t");
  auto add = ForTable<pb::AddColumnRequest>("t");
  hbase_proto::EncodeFamily(FamilyDescriptor("d"), add.mutable_column_families());
  ExpectFinished(Ok<pb::AddColumnResponse>("AddColumn", add).proc_id());
  EXPECT_EQ(Fails("AddColumn", add).exception_class, kInvalidFamily);

  auto modify = ForTable<pb::ModifyColumnRequest>("t");
  FamilyDescriptor d("d");
  d.ttl_seconds = 100;
  hbase_proto::EncodeFamily(d, modify.mutable_column_families());
  ExpectFinished(Ok<pb::ModifyColumnResponse>("ModifyColumn", modify).proc_id());
  EXPECT_EQ(conn_->admin()
                .DescribeTable(TableName("default", "t"))
                ->descriptor.FindFamily("d")
                ->ttl_seconds,
            100);
  modify.clear_column_families();
  hbase_proto::EncodeFamily(FamilyDescriptor("zz"), modify.mutable_column_families());
  EXPECT_EQ(Fails("ModifyColumn", modify).exception_class, kInvalidFamily);

  auto remove = ForTable<pb::DeleteColumnRequest>("t");
  remove.set_column_name("d");
  ExpectFinished(Ok<pb::DeleteColumnResponse>("DeleteColumn", remove).proc_id());
  EXPECT_EQ(Fails("DeleteColumn", remove).exception_class, kInvalidFamily);
  remove.set_column_name("cf");
  EXPECT_EQ(Fails("DeleteColumn", remove).exception_class, kInvalidFamily) << "the last family";

  auto missing = ForTable<pb::DeleteColumnRequest>("missing");
  missing.set_column_name("cf");
  EXPECT_EQ(Fails("DeleteColumn", missing).exception_class, kTableNotFound);
}

TEST_F(MasterServiceTest, ListingsFilterByNamespaceRegexAndSystemTables) {
  pb::CreateNamespaceRequest ns;
  ns.mutable_namespacedescriptor()->set_name("ns1");
  ExpectFinished(Ok<pb::CreateNamespaceResponse>("CreateNamespace", ns).proc_id());
  Create("default", "alpha");
  Create("default", "beta");
  Create("ns1", "alpha");

  pb::GetTableNamesRequest all;
  EXPECT_EQ(Ok<pb::GetTableNamesResponse>("GetTableNames", all).table_names_size(), 3);
  pb::GetTableNamesRequest regex;
  regex.set_regex("ns1:.*|beta");
  EXPECT_EQ(Ok<pb::GetTableNamesResponse>("GetTableNames", regex).table_names_size(), 2);
  pb::GetTableNamesRequest partial;
  partial.set_regex("alph");
  EXPECT_EQ(Ok<pb::GetTableNamesResponse>("GetTableNames", partial).table_names_size(), 0)
      << "a pattern matches the whole name, as Java's matches()";
  pb::GetTableDescriptorsRequest in_ns;
  in_ns.set_namespace_("ns1");
  auto schemas = Ok<pb::GetTableDescriptorsResponse>("GetTableDescriptors", in_ns);
  ASSERT_EQ(schemas.table_schema_size(), 1);
  EXPECT_EQ(schemas.table_schema(0).table_name().namespace_(), "ns1");
  pb::GetTableDescriptorsRequest bad_regex;
  bad_regex.set_regex("(");
  EXPECT_EQ(Fails("GetTableDescriptors", bad_regex).exception_class, kDoNotRetry);

  pb::ListTableNamesByNamespaceRequest names_in;
  names_in.set_namespacename("default");
  EXPECT_EQ(Ok<pb::ListTableNamesByNamespaceResponse>("ListTableNamesByNamespace", names_in)
                .tablename_size(),
            2);
  pb::ListTableDescriptorsByNamespaceRequest schemas_in;
  schemas_in.set_namespacename("nowhere");
  EXPECT_EQ(Fails("ListTableDescriptorsByNamespace", schemas_in).exception_class,
            kNamespaceNotFound);
}

TEST_F(MasterServiceTest, NamespaceCalls) {
  pb::CreateNamespaceRequest create;
  create.mutable_namespacedescriptor()->set_name("ns1");
  auto* conf = create.mutable_namespacedescriptor()->add_configuration();
  conf->set_name("k");
  conf->set_value("v");
  ExpectFinished(Ok<pb::CreateNamespaceResponse>("CreateNamespace", create).proc_id());
  EXPECT_EQ(Fails("CreateNamespace", create).exception_class, kNamespaceExist);

  pb::GetNamespaceDescriptorRequest get;
  get.set_namespacename("ns1");
  auto got = Ok<pb::GetNamespaceDescriptorResponse>("GetNamespaceDescriptor", get);
  EXPECT_EQ(got.namespacedescriptor().name(), "ns1");
  ASSERT_EQ(got.namespacedescriptor().configuration_size(), 1);
  get.set_namespacename("nowhere");
  EXPECT_EQ(Fails("GetNamespaceDescriptor", get).exception_class, kNamespaceNotFound);

  auto listed = Ok<pb::ListNamespacesResponse>("ListNamespaces", pb::ListNamespacesRequest());
  std::vector<std::string> names(listed.namespacename().begin(), listed.namespacename().end());
  EXPECT_NE(std::find(names.begin(), names.end(), "ns1"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "default"), names.end());
  EXPECT_EQ(Ok<pb::ListNamespaceDescriptorsResponse>("ListNamespaceDescriptors",
                                                     pb::ListNamespaceDescriptorsRequest())
                .namespacedescriptor_size(),
            listed.namespacename_size());

  pb::ModifyNamespaceRequest same;
  *same.mutable_namespacedescriptor() = create.namespacedescriptor();
  ExpectFinished(Ok<pb::ModifyNamespaceResponse>("ModifyNamespace", same).proc_id());
  pb::ModifyNamespaceRequest changed = same;
  changed.mutable_namespacedescriptor()->mutable_configuration(0)->set_value("w");
  RpcError refused = Fails("ModifyNamespace", changed);
  EXPECT_EQ(refused.exception_class, kDoNotRetry);
  EXPECT_NE(refused.message.find("cannot change"), std::string::npos);
  changed.mutable_namespacedescriptor()->set_name("nowhere");
  EXPECT_EQ(Fails("ModifyNamespace", changed).exception_class, kNamespaceNotFound);

  Create("ns1", "t");
  pb::DeleteNamespaceRequest remove;
  remove.set_namespacename("ns1");
  EXPECT_EQ(Fails("DeleteNamespace", remove).exception_class, kConstraint) << "it holds a table";
  remove.set_namespacename("default");
  EXPECT_EQ(Fails("DeleteNamespace", remove).exception_class, kConstraint);
  remove.set_namespacename("nowhere");
  EXPECT_EQ(Fails("DeleteNamespace", remove).exception_class, kNamespaceNotFound);
  ASSERT_TRUE(conn_->admin().DisableTable(TableName("ns1", "t")).ok());
  ASSERT_TRUE(conn_->admin().DeleteTable(TableName("ns1", "t")).ok());
  remove.set_namespacename("ns1");
  ExpectFinished(Ok<pb::DeleteNamespaceResponse>("DeleteNamespace", remove).proc_id());
}

TEST_F(MasterServiceTest, ReservedNamespacesAreAccessDenied) {
  pb::CreateNamespaceRequest create;
  create.mutable_namespacedescriptor()->set_name("app");
  EXPECT_EQ(Fails("CreateNamespace", create).exception_class, kAccessDenied);
  pb::GetTableStateRequest state;
  *state.mutable_table_name() = Name("app", "users");
  EXPECT_EQ(Fails("GetTableState", state).exception_class, kAccessDenied);
  ASSERT_TRUE(conn_->admin().CreateNamespace(NamespaceDescriptor{"app", {}}).ok());
  TableDescriptor users(TableName("app", "users"));
  users.AddFamily(FamilyDescriptor("cf"));
  ASSERT_TRUE(conn_->admin().CreateTable(users).ok());
  Create("default", "t");
  auto names = Ok<pb::GetTableNamesResponse>("GetTableNames", pb::GetTableNamesRequest());
  ASSERT_EQ(names.table_names_size(), 1);
  EXPECT_EQ(names.table_names(0).qualifier(), "t");
  EXPECT_EQ(
      Ok<pb::GetTableDescriptorsResponse>("GetTableDescriptors", pb::GetTableDescriptorsRequest())
          .table_schema_size(),
      1);
  pb::GetTableDescriptorsRequest by_name;
  *by_name.add_table_names() = Name("app", "users");
  EXPECT_EQ(Fails("GetTableDescriptors", by_name).exception_class, kAccessDenied);
  pb::ListTableNamesByNamespaceRequest in_app;
  in_app.set_namespacename("app");
  EXPECT_EQ(Fails("ListTableNamesByNamespace", in_app).exception_class, kAccessDenied);
  pb::DeleteTableRequest drop;
  *drop.mutable_table_name() = Name("app", "users");
  EXPECT_EQ(Fails("DeleteTable", drop).exception_class, kAccessDenied);
  EXPECT_TRUE(*conn_->admin().TableExists(TableName("app", "users")));
}

TEST_F(MasterServiceTest, ConstantAnswers) {
  EXPECT_TRUE(Ok<pb::IsMasterRunningResponse>("IsMasterRunning", pb::IsMasterRunningRequest())
                  .is_master_running());
  EXPECT_FALSE(Ok<pb::IsInMaintenanceModeResponse>("IsMasterInMaintenanceMode",
                                                   pb::IsInMaintenanceModeRequest())
                   .inmaintenancemode());
  EXPECT_FALSE(
      Ok<pb::IsBalancerEnabledResponse>("IsBalancerEnabled", pb::IsBalancerEnabledRequest())
          .enabled());
  EXPECT_FALSE(Ok<pb::BalanceResponse>("Balance", pb::BalanceRequest()).balancer_ran());
  EXPECT_EQ(Ok<pb::SecurityCapabilitiesResponse>("getSecurityCapabilities",
                                                 pb::SecurityCapabilitiesRequest())
                .capabilities_size(),
            0);
  pb::GetTableStateRequest meta;
  *meta.mutable_table_name() = Name("hbase", "meta");
  EXPECT_EQ(Ok<pb::GetTableStateResponse>("GetTableState", meta).table_state().state(),
            pb::TableState::ENABLED);

  Create("default", "t");
  ExpectFinished(
      Ok<pb::FlushTableResponse>("FlushTable", ForTable<pb::FlushTableRequest>("t")).proc_id());
  EXPECT_EQ(Fails("FlushTable", ForTable<pb::FlushTableRequest>("missing")).exception_class,
            kTableNotFound);
}

TEST_F(MasterServiceTest, UnknownMethodsAndGarbageAreDoNotRetry) {
  RpcError unknown = Fails("MergeTableRegions", pb::IsMasterRunningRequest());
  EXPECT_EQ(unknown.exception_class, kDoNotRetry);
  EXPECT_EQ(unknown.message, "method MergeTableRegions of MasterService is not served by basalt");
  // Method names are HBase's, case and all.
  EXPECT_EQ(Fails("TruncateTable", pb::IsMasterRunningRequest()).exception_class, kDoNotRetry);

  for (const std::string method : {"CreateTable", "DeleteTable", "GetTableDescriptors",
                                   "getProcedureResult", "CreateNamespace"}) {
    auto reply = CallBytes(method, std::string("\xff\xff\xff\xff garbage", 12));
    ASSERT_TRUE(std::holds_alternative<RpcError>(reply)) << method;
    EXPECT_EQ(std::get<RpcError>(reply).exception_class, kDoNotRetry) << method;
  }
  // A valid encoding lacking a required field.
  auto reply = CallBytes("DeleteTable", "");
  ASSERT_TRUE(std::holds_alternative<RpcError>(reply));
  EXPECT_EQ(std::get<RpcError>(reply).exception_class, kDoNotRetry);
}

TEST(ProcedureResultsTest, OldestOutcomesAreEvictedPastTheCap) {
  ProcedureResults results(2);
  const uint64_t first = results.Record({1, std::nullopt});
  const uint64_t second = results.Record({2, ProcedureFailure{"x.Y", "m"}});
  const uint64_t third = results.Record({3, std::nullopt});
  EXPECT_EQ(first, 1u);
  EXPECT_EQ(third, 3u);
  EXPECT_FALSE(results.Find(first).has_value());
  ASSERT_TRUE(results.Find(second).has_value());
  EXPECT_EQ(results.Find(second)->failure->exception_class, "x.Y");
  EXPECT_EQ(results.Find(third)->finished_ms, 3u);
  EXPECT_FALSE(results.Find(99).has_value());
}

TEST(ProcedureResultsTest, NoncesFindTheirProcedureUntilItIsEvicted) {
  ProcedureResults results(2);
  const uint64_t first = results.Record({1, std::nullopt}, NonceKey{1, 10});
  results.Record({2, std::nullopt});
  EXPECT_EQ(results.FindByNonce(NonceKey{1, 10}), first);
  EXPECT_FALSE(results.FindByNonce(NonceKey{2, 10}).has_value());
  results.Record({3, std::nullopt}, NonceKey{1, 11});
  EXPECT_FALSE(results.FindByNonce(NonceKey{1, 10}).has_value()) << "evicted with its outcome";
  EXPECT_TRUE(results.FindByNonce(NonceKey{1, 11}).has_value());
}

}  // namespace
}  // namespace basalt::server::hbase_rpc
