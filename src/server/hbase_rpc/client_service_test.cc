#include "server/hbase_rpc/client_service.h"

#include <gtest/gtest.h>

#include <string>

#include "basalt/connection.h"
#include "hbase_proto/proto/Client.pb.h"
#include "hbase_rpc/cell_block.h"
#include "server/hbase_rpc/exceptions.h"

namespace basalt::server::hbase_rpc {
namespace {

namespace pb = ::hbase::pb;
using ::basalt::hbase_rpc::CallAnswer;
using ::basalt::hbase_rpc::DecodedCall;

class ClientServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto conn = Connection::Open("mem:");
    ASSERT_TRUE(conn.ok()) << conn.status().ToString();
    conn_ = *std::move(conn);
    TableDescriptor desc(TableName("default", "t"));
    desc.AddFamily(FamilyDescriptor("f"));
    ASSERT_TRUE(conn_->admin().CreateTable(desc).ok());
    TableDescriptor secret(TableName("app", "users"));
    secret.AddFamily(FamilyDescriptor("f"));
    ASSERT_TRUE(conn_->admin().CreateNamespace(NamespaceDescriptor{"app", {}}).ok());
    ASSERT_TRUE(conn_->admin().CreateTable(secret).ok());
    ::basalt::hbase_rpc::ServerIdentity identity{"cluster", "localhost", 16020, 77};
    meta_ = std::make_unique<MetaTable>(conn_->admin(), regions_, identity,
                                        std::vector<std::string>{"app"});
    service_ =
        std::make_unique<ClientService>(*conn_, regions_, *meta_, scanners_, ClientServiceOptions{},
                                        std::vector<std::string>{"app"});
  }

  void TearDown() override {
    service_.reset();
    scanners_.ExpireAll();
  }

  pb::RegionSpecifier RegionOf(const std::string& table) {
    pb::RegionSpecifier region;
    region.set_type(pb::RegionSpecifier::REGION_NAME);
    region.set_value(table == "hbase:meta"
                         ? std::string(kMetaRegionName)
                         : regions_.Regions(*TableName::Parse(table), {}).at(0).name);
    return region;
  }

  // Calls `method` with `request` (and a cell block); the answer, or the error.
  std::variant<CallAnswer, RpcError> CallWith(const std::string& method,
                                              const google::protobuf::MessageLite& request,
                                              const std::string& cell_block = "") {
    DecodedCall call;
    call.header.set_call_id(1);
    call.header.set_method_name(method);
    param_ = request.SerializeAsString();
    call.has_param = true;
    call.param = param_;
    cells_ = cell_block;
    call.cell_block = cells_;
    return service_->Call(call, ::basalt::hbase_rpc::Caller{"127.0.0.1"});
  }

  template <class Response>
  Response Answer(const std::string& method, const google::protobuf::MessageLite& request,
                  const std::string& cell_block = "") {
    auto answer = CallWith(method, request, cell_block);
    Response response;
    if (auto* error = std::get_if<RpcError>(&answer)) {
      ADD_FAILURE() << method << ": " << error->exception_class << ": " << error->message;
      return response;
    }
    EXPECT_TRUE(response.ParseFromString(std::get<CallAnswer>(answer).message));
    return response;
  }

  std::string ErrorClass(const std::string& method, const google::protobuf::MessageLite& request) {
    auto answer = CallWith(method, request);
    auto* error = std::get_if<RpcError>(&answer);
    return error ? error->exception_class : "(no error)";
  }

  void PutValue(const std::string& row, const std::string& qualifier, const std::string& value) {
    pb::MutateRequest request;
    *request.mutable_region() = RegionOf("t");
    pb::MutationProto* m = request.mutable_mutation();
    m->set_row(row);
    m->set_mutate_type(pb::MutationProto::PUT);
    auto* column = m->add_column_value();
    column->set_family("f");
    auto* qv = column->add_qualifier_value();
    qv->set_qualifier(qualifier);
    qv->set_value(value);
    EXPECT_TRUE(Answer<pb::MutateResponse>("Mutate", request).processed());
  }

  pb::GetResponse GetRow(const std::string& row) {
    pb::GetRequest request;
    *request.mutable_region() = RegionOf("t");
    request.mutable_get()->set_row(row);
    return Answer<pb::GetResponse>("Get", request);
  }

  std::unique_ptr<Connection> conn_;
  RegionDirectory regions_{1000};
  ScannerRegistry scanners_{std::chrono::seconds(60), 100, 10};
  std::unique_ptr<MetaTable> meta_;
  std::unique_ptr<ClientService> service_;
  std::string param_, cells_;
};

TEST_F(ClientServiceTest, PutThenGetReturnsTheCell) {
  PutValue("r1", "q", "v1");
  pb::GetResponse got = GetRow("r1");
  ASSERT_EQ(got.result().cell_size(), 1);
  EXPECT_EQ(got.result().cell(0).value(), "v1");
  EXPECT_EQ(got.result().cell(0).cell_type(), pb::PUT);
}

TEST_F(ClientServiceTest, MultiTakesMutationsFromTheCellBlock) {
  pb::MultiRequest request;
  pb::RegionAction* action = request.add_regionaction();
  *action->mutable_region() = RegionOf("t");
  std::string block;
  for (int i = 0; i < 3; ++i) {
    pb::Action* a = action->add_action();
    a->set_index(i);
    pb::MutationProto* m = a->mutable_mutation();
    m->set_row("row" + std::to_string(i));
    m->set_mutate_type(pb::MutationProto::PUT);
    m->set_associated_cell_count(1);
    ::basalt::hbase_rpc::AppendKeyValue(
        {"row" + std::to_string(i), "f", "q", kLatestTimestamp, CellType::kPut, "v"}, &block);
  }
  // A fourth action names a family the table lacks: its own error, the others applied.
  pb::Action* bad = action->add_action();
  bad->set_index(3);
  bad->mutable_mutation()->set_row("row3");
  bad->mutable_mutation()->set_mutate_type(pb::MutationProto::PUT);
  bad->mutable_mutation()->set_associated_cell_count(1);
  ::basalt::hbase_rpc::AppendKeyValue({"row3", "nope", "q", 5, CellType::kPut, "v"}, &block);
  auto response = Answer<pb::MultiResponse>("Multi", request, block);
  ASSERT_EQ(response.regionactionresult_size(), 1);
  const pb::RegionActionResult& result = response.regionactionresult(0);
  ASSERT_EQ(result.resultorexception_size(), 4);
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(result.resultorexception(i).has_exception()) << i;
  EXPECT_EQ(result.resultorexception(3).exception().name(), kNoSuchColumnFamilyException);
  EXPECT_EQ(GetRow("row2").result().cell_size(), 1);
  EXPECT_EQ(GetRow("row3").result().cell_size(), 0);
}

TEST_F(ClientServiceTest, ScanPagesThroughRowsWithCallSequence) {
  for (int i = 0; i < 5; ++i) PutValue("r" + std::to_string(i), "q", "v");
  pb::ScanRequest open;
  *open.mutable_region() = RegionOf("t");
  open.mutable_scan();
  open.set_number_of_rows(2);
  auto first = Answer<pb::ScanResponse>("Scan", open);
  ASSERT_EQ(first.results_size(), 2);
  EXPECT_TRUE(first.more_results_in_region());
  pb::ScanRequest next;
  next.set_scanner_id(first.scanner_id());
  next.set_number_of_rows(2);
  next.set_next_call_seq(1);
  auto second = Answer<pb::ScanResponse>("Scan", next);
  ASSERT_EQ(second.results_size(), 2);
  EXPECT_EQ(second.results(0).cell(0).row(), "r2");
  // A retried call (the same sequence number again) is out of order, and ends the scanner.
  EXPECT_EQ(ErrorClass("Scan", next), kOutOfOrderScannerNextException);
  EXPECT_EQ(ErrorClass("Scan", next), kUnknownScannerException);
}

TEST_F(ClientServiceTest, ScanToTheEndSaysNoMoreResults) {
  PutValue("a", "q", "v");
  pb::ScanRequest open;
  *open.mutable_region() = RegionOf("t");
  open.mutable_scan()->set_reversed(true);
  open.set_number_of_rows(10);
  auto answer = Answer<pb::ScanResponse>("Scan", open);
  EXPECT_EQ(answer.results_size(), 1);
  EXPECT_FALSE(answer.more_results_in_region());
  EXPECT_FALSE(answer.more_results());
  EXPECT_EQ(scanners_.size(), 0u);
}

TEST_F(ClientServiceTest, ScanThatReachesItsLimitSaysNoMoreResults) {
  for (int i = 0; i < 5; ++i) PutValue("r" + std::to_string(i), "q", "v");
  pb::ScanRequest open;
  *open.mutable_region() = RegionOf("t");
  open.mutable_scan();
  open.set_number_of_rows(3);
  open.set_limit_of_rows(3);
  auto answer = Answer<pb::ScanResponse>("Scan", open);
  EXPECT_EQ(answer.results_size(), 3);
  EXPECT_FALSE(answer.more_results());
  EXPECT_EQ(scanners_.size(), 0u);
}

TEST_F(ClientServiceTest, CheckAndPutAppliesOnlyWhenTheCheckPasses) {
  PutValue("r", "q", "old");
  auto check = [&](const std::string& expected) {
    pb::MutateRequest request;
    *request.mutable_region() = RegionOf("t");
    pb::MutationProto* m = request.mutable_mutation();
    m->set_row("r");
    m->set_mutate_type(pb::MutationProto::PUT);
    auto* qv = m->add_column_value();
    qv->set_family("f");
    qv->add_qualifier_value()->set_qualifier("q");
    qv->mutable_qualifier_value(0)->set_value("new");
    pb::Condition* c = request.mutable_condition();
    c->set_row("r");
    c->set_family("f");
    c->set_qualifier("q");
    c->set_compare_type(pb::EQUAL);
    c->mutable_comparator()->set_name("org.apache.hadoop.hbase.filter.BinaryComparator");
    pb::BinaryComparator binary;
    binary.mutable_comparable()->set_value(expected);
    c->mutable_comparator()->set_serialized_comparator(binary.SerializeAsString());
    return Answer<pb::MutateResponse>("Mutate", request).processed();
  };
  EXPECT_FALSE(check("other"));
  EXPECT_EQ(GetRow("r").result().cell(0).value(), "old");
  EXPECT_TRUE(check("old"));
  EXPECT_EQ(GetRow("r").result().cell(0).value(), "new");
}

TEST_F(ClientServiceTest, StaleRegionNameIsNotServing) {
  pb::GetRequest request;
  *request.mutable_region() = RegionOf("t");
  request.mutable_get()->set_row("r");
  regions_.Renew(TableName("default", "t"));
  EXPECT_EQ(ErrorClass("Get", request), kNotServingRegionException);
}

TEST_F(ClientServiceTest, ReservedNamespaceIsDeniedAndAbsentFromMeta) {
  pb::GetRequest request;
  *request.mutable_region() = RegionOf("app:users");
  request.mutable_get()->set_row("r");
  EXPECT_EQ(ErrorClass("Get", request), kAccessDeniedException);

  pb::ScanRequest meta_scan;
  *meta_scan.mutable_region() = RegionOf("hbase:meta");
  meta_scan.mutable_scan();
  meta_scan.set_number_of_rows(100);
  auto rows = Answer<pb::ScanResponse>("Scan", meta_scan);
  ASSERT_EQ(rows.results_size(), 2);  // t's state row and region row only
  EXPECT_EQ(rows.results(0).cell(0).row(), "t");
}

TEST_F(ClientServiceTest, LocateScanOfMetaFindsTheRegionWhateverTheRowKey) {
  // The client's locate: reversed, from "<table>,<row>,99999999999999" down to "<table>,,".
  // A row key that sorts below ',' as bytes still lands in the table's one region.
  pb::ScanRequest request;
  *request.mutable_region() = RegionOf("hbase:meta");
  pb::Scan* scan = request.mutable_scan();
  scan->set_reversed(true);
  scan->set_start_row(std::string("t,\x01row,99999999999999\0", 22));
  scan->set_stop_row("t,,");
  scan->set_include_stop_row(true);
  scan->add_column()->set_family("info");
  request.set_number_of_rows(1);
  auto answer = Answer<pb::ScanResponse>("Scan", request);
  ASSERT_EQ(answer.results_size(), 1);
  EXPECT_EQ(answer.results(0).cell(0).row(),
            regions_.Regions(TableName("default", "t"), {}).at(0).name);
}

TEST_F(ClientServiceTest, GarbageRequestIsDoNotRetry) {
  DecodedCall call;
  call.header.set_method_name("Get");
  call.has_param = true;
  call.param = "\xff\xff\xff";
  auto answer = service_->Call(call, ::basalt::hbase_rpc::Caller{"x"});
  ASSERT_TRUE(std::holds_alternative<RpcError>(answer));
  EXPECT_EQ(std::get<RpcError>(answer).exception_class, kDoNotRetryIOException);
}

}  // namespace
}  // namespace basalt::server::hbase_rpc
