// The Thrift2 server seen by a raw generated client: field ids, enum values and the exceptions
// HBase's Thrift2 clients rely on. (The whole public API over Thrift is the conformance suite's
// `thrift` store kind.)

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TSocket.h>
#include <thrift/transport/TTransportException.h>

#include <chrono>
#include <functional>
#include <set>
#include <stdexcept>
#include <thread>
#include <utility>

#include "server/thrift2/thrift2_server.h"
#include "support/process_memory.h"
#include "support/test_store.h"
#include "thrift/source_address_socket.h"
#include "thrift2/gen/THBaseService.h"

namespace basalt::testing {
namespace {

using namespace ::basalt::thrift2;  // NOLINT: the generated types are this test's vocabulary
using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::protocol::TCompactProtocol;
using apache::thrift::transport::TBufferedTransport;
using apache::thrift::transport::TFramedTransport;
using apache::thrift::transport::TSocket;
using apache::thrift::transport::TTransport;

class Thrift2ServerTest : public ::testing::Test {
 protected:
  void SetUp() override { StartServer({}); }
  void TearDown() override { StopServer(); }

  void StartServer(server::Thrift2ServerOptions options) {
    auto conn = Connection::Open("mem:");
    ASSERT_OK(conn);
    conn_ = std::move(*conn);
    options.bind_address = "127.0.0.1";
    options.port = 0;
    options_ = options;
    server_ = std::make_unique<server::Thrift2Server>(*conn_, options);
    ASSERT_OK(server_->Start());
    ASSERT_GT(server_->port(), 0);
    Connect(options.framed, options.compact);
    TableDescriptor desc(TableName("default", "t"));
    desc.AddFamily(FamilyDescriptor("f")).AddFamily(FamilyDescriptor("g"));
    ASSERT_OK(conn_->admin().CreateTable(desc, {"m"}));
  }

  void Connect(bool framed, bool compact) {
    auto socket = std::make_shared<TSocket>("127.0.0.1", server_->port());
    socket->setRecvTimeout(10000);
    if (framed) {
      transport_ = std::make_shared<TFramedTransport>(socket);
    } else {
      transport_ = std::make_shared<TBufferedTransport>(socket);
    }
    std::shared_ptr<apache::thrift::protocol::TProtocol> protocol;
    if (compact) {
      protocol = std::make_shared<TCompactProtocol>(transport_);
    } else {
      protocol = std::make_shared<TBinaryProtocol>(transport_);
    }
    client_ = std::make_unique<THBaseServiceClient>(protocol);
    transport_->open();
  }

  // A client of its own connecting from `address` (127.0.0.2, ...), kept until StopServer.
  THBaseServiceClient& ClientFrom(const std::string& address) {
    auto socket = SocketFromAddress(address, server_->port());
    if (socket == nullptr) throw std::runtime_error("no socket from " + address);
    auto transport = std::make_shared<TBufferedTransport>(socket);
    address_transports_.push_back(transport);
    address_clients_.push_back(
        std::make_unique<THBaseServiceClient>(std::make_shared<TBinaryProtocol>(transport)));
    return *address_clients_.back();
  }

  void StopServer() {
    address_clients_.clear();
    for (auto& transport : address_transports_) transport->close();
    address_transports_.clear();
    if (transport_) transport_->close();
    client_.reset();
    if (server_) server_->Stop();
    server_.reset();
    if (conn_) EXPECT_OK(conn_->Close());
    conn_.reset();
  }

  // A connection of its own for a hand-written call of `method` on table "t": the call is written
  // up to its first argument (the table), for the test to go on from there.
  struct RawCall {
    std::shared_ptr<TSocket> socket;
    std::shared_ptr<TBufferedTransport> transport;
    std::shared_ptr<apache::thrift::protocol::TProtocol> out;
  };
  RawCall StartRawCall(bool compact, const std::string& method) {
    RawCall call;
    call.socket = std::make_shared<TSocket>("127.0.0.1", server_->port());
    call.socket->setRecvTimeout(5000);
    call.socket->open();
    call.transport = std::make_shared<TBufferedTransport>(call.socket);
    if (compact) {
      call.out = std::make_shared<TCompactProtocol>(call.transport);
    } else {
      call.out = std::make_shared<TBinaryProtocol>(call.transport);
    }
    call.out->writeMessageBegin(method, apache::thrift::protocol::T_CALL, 1);
    call.out->writeStructBegin("args");
    call.out->writeFieldBegin("table", apache::thrift::protocol::T_STRING, 1);
    call.out->writeBinary("t");
    call.out->writeFieldEnd();
    return call;
  }

  static TColumnValue Cv(const std::string& f, const std::string& q, const std::string& v,
                         int64_t ts = -1) {
    TColumnValue cv;
    cv.family = f;
    cv.qualifier = q;
    cv.value = v;
    if (ts >= 0) cv.__set_timestamp(ts);
    return cv;
  }

  void PutCells(const std::string& row, std::vector<TColumnValue> cells) {
    TPut put;
    put.row = row;
    put.columnValues = std::move(cells);
    client_->put("t", put);
  }

  static TGet GetOf(const std::string& row) {
    TGet get;
    get.row = row;
    return get;
  }

  std::vector<std::string> Qualifiers(const std::string& row) {
    TResult r;
    client_->get(r, "t", GetOf(row));
    std::vector<std::string> out;
    for (const auto& cv : r.columnValues) out.push_back(cv.family + ":" + cv.qualifier);
    return out;
  }

  std::unique_ptr<Connection> conn_;
  server::Thrift2ServerOptions options_;
  std::unique_ptr<server::Thrift2Server> server_;
  std::shared_ptr<TTransport> transport_;
  std::unique_ptr<THBaseServiceClient> client_;
  std::vector<std::shared_ptr<TTransport>> address_transports_;
  std::vector<std::unique_ptr<THBaseServiceClient>> address_clients_;
};

TEST_F(Thrift2ServerTest, PutThenGetReturnsCellsWithTimestampAndPutTypeCode) {
  PutCells("r", {Cv("f", "a", "1", 5), Cv("g", "b", "2")});
  TResult r;
  client_->get(r, "t", GetOf("r"));
  ASSERT_TRUE(r.__isset.row);
  EXPECT_EQ(r.row, "r");
  ASSERT_EQ(r.columnValues.size(), 2u);
  EXPECT_EQ(r.columnValues[0].value, "1");
  EXPECT_EQ(r.columnValues[0].timestamp, 5);
  EXPECT_EQ(r.columnValues[0].type, 4);  // KeyValue.Type.Put
  EXPECT_TRUE(r.columnValues[1].__isset.timestamp);
}

TEST_F(Thrift2ServerTest, MissingRowIsAnEmptyResultWithoutRow) {
  TResult r;
  client_->get(r, "t", GetOf("nothing"));
  EXPECT_FALSE(r.__isset.row);
  EXPECT_TRUE(r.columnValues.empty());
}

TEST_F(Thrift2ServerTest, ExistsAndExistsAllAnswerPerGet) {
  PutCells("a", {Cv("f", "q", "1")});
  EXPECT_TRUE(client_->exists("t", GetOf("a")));
  EXPECT_FALSE(client_->exists("t", GetOf("b")));
  std::vector<bool> out;
  client_->existsAll(out, "t", {GetOf("b"), GetOf("a")});
  EXPECT_EQ(out, (std::vector<bool>{false, true}));
}

TEST_F(Thrift2ServerTest, GetMultipleKeepsOrderWithAnEmptyResultPerMissingRow) {
  PutCells("a", {Cv("f", "q", "1")});
  PutCells("c", {Cv("f", "q", "3")});
  std::vector<TResult> out;
  client_->getMultiple(out, "t", {GetOf("c"), GetOf("b"), GetOf("a")});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].row, "c");
  EXPECT_FALSE(out[1].__isset.row);
  EXPECT_TRUE(out[1].columnValues.empty());
  EXPECT_EQ(out[2].row, "a");
}

// getMultiple built every row it named before answering, and took a row named many times as
// many times: with one 10 MiB cell stored, a request naming it 200 times drove the server past
// 3 GiB. The rows are read and counted one at a time, and past the result cap (16 MiB) the call
// is refused before more are built.
TEST_F(Thrift2ServerTest, GetMultiplePastTheResultCapIsRefusedBeforeItIsBuilt) {
  const std::string big(5 << 20, 'x');
  PutCells("big", {Cv("f", "q", big)});
  PutCells("small", {Cv("f", "q", "s")});
  // Under the cap, answered as before: a result per Get, in order, empty for a missing row.
  std::vector<TResult> out;
  client_->getMultiple(out, "t", {GetOf("big"), GetOf("missing"), GetOf("small"), GetOf("big")});
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].row, "big");
  ASSERT_EQ(out[0].columnValues.size(), 1u);
  EXPECT_EQ(out[0].columnValues[0].value, big);
  EXPECT_FALSE(out[1].__isset.row);
  EXPECT_EQ(out[2].columnValues.at(0).value, "s");
  EXPECT_EQ(out[3].columnValues.at(0).value, big);

  const std::vector<TGet> gets(200, GetOf("big"));
  ASSERT_TRUE(ResetPeakRss());
  const int64_t peak_before = PeakRssKb();
  out.clear();
  try {
    client_->getMultiple(out, "t", gets);
    ADD_FAILURE() << out.size() << " rows of 5 MiB were answered in one call";
  } catch (const TIOError& e) {
    EXPECT_NE(e.message.find("getMultiple: the 200 rows asked for take more than 16 MiB; ask "
                             "for fewer rows per call"),
              std::string::npos)
        << e.message;
    EXPECT_FALSE(e.canRetry);
  }
  // 200 x 5 MiB is 1,000 MiB of rows, held at least twice over (read, then converted) before.
  EXPECT_LT(PeakRssKb() - peak_before, 200 * 1024) << "the rows asked for were built";
  // The connection goes on, and existence checks of the same row are answered (one row at a
  // time, none kept).
  std::vector<bool> exist;
  client_->existsAll(exist, "t", gets);
  EXPECT_EQ(exist, std::vector<bool>(200, true));
  EXPECT_LT(PeakRssKb() - peak_before, 200 * 1024) << "existsAll kept the rows it read";
}

// Reference §4.6: with the default DELETE_COLUMNS, a family-only TColumn deletes the column with
// the empty qualifier, not the family (HBase's code, not its IDL comment).
TEST_F(Thrift2ServerTest, FamilyOnlyColumnWithDefaultDeleteTypeDeletesOnlyTheEmptyQualifier) {
  PutCells("r", {Cv("f", "", "empty"), Cv("f", "q", "1"), Cv("g", "q", "2")});
  TDelete del;
  del.row = "r";
  TColumn family;
  family.family = "f";
  del.__set_columns({family});
  // deleteType left unset on the wire: the IDL default DELETE_COLUMNS applies.
  client_->deleteSingle("t", del);
  EXPECT_EQ(Qualifiers("r"), (std::vector<std::string>{"f:q", "g:q"}));
}

TEST_F(Thrift2ServerTest, DeleteFamilyTypeDeletesTheWholeFamily) {
  PutCells("r", {Cv("f", "", "empty"), Cv("f", "q", "1"), Cv("g", "q", "2")});
  TDelete del;
  del.row = "r";
  TColumn family;
  family.family = "f";
  del.__set_columns({family});
  del.__set_deleteType(TDeleteType::DELETE_FAMILY);
  client_->deleteSingle("t", del);
  EXPECT_EQ(Qualifiers("r"), (std::vector<std::string>{"g:q"}));
}

TEST_F(Thrift2ServerTest, DeleteFamilyVersionWithoutTimestampIsAnError) {
  TDelete del;
  del.row = "r";
  TColumn family;
  family.family = "f";
  del.__set_columns({family});
  del.__set_deleteType(TDeleteType::DELETE_FAMILY_VERSION);
  EXPECT_THROW(client_->deleteSingle("t", del), TIOError);
}

TEST_F(Thrift2ServerTest, DeleteWithoutColumnsDeletesTheRow) {
  PutCells("r", {Cv("f", "q", "1"), Cv("g", "q", "2")});
  std::vector<TDelete> left;
  TDelete del;
  del.row = "r";
  client_->deleteMultiple(left, "t", {del});
  EXPECT_TRUE(left.empty());
  EXPECT_TRUE(Qualifiers("r").empty());
}

TEST_F(Thrift2ServerTest, CheckAndMutateComparesExpectedAgainstStored) {
  PutCells("r", {Cv("f", "q", "5")});
  TRowMutations rm;
  rm.row = "r";
  TMutation m;
  TPut put;
  put.row = "r";
  put.columnValues = {Cv("f", "done", "yes")};
  m.__set_put(put);
  rm.mutations = {m};
  // LESS passes when the expected value is less than the stored one ("4" < "5").
  EXPECT_FALSE(client_->checkAndMutate("t", "r", "f", "q", TCompareOperator::GREATER, "4", rm));
  EXPECT_TRUE(Qualifiers("r") == (std::vector<std::string>{"f:q"}));
  EXPECT_TRUE(client_->checkAndMutate("t", "r", "f", "q", TCompareOperator::LESS, "4", rm));
  EXPECT_EQ(Qualifiers("r"), (std::vector<std::string>{"f:done", "f:q"}));
}

TEST_F(Thrift2ServerTest, CheckAndPutWithoutValueMeansTheCellMustNotExist) {
  TPut put;
  put.row = "r";
  put.columnValues = {Cv("f", "q", "first")};
  EXPECT_TRUE(client_->checkAndPut("t", "r", "f", "q", "", put));
  put.columnValues = {Cv("f", "q", "second")};
  EXPECT_FALSE(client_->checkAndPut("t", "r", "f", "q", "", put));
  EXPECT_TRUE(client_->checkAndPut("t", "r", "f", "q", "first", put));
  TResult r;
  client_->get(r, "t", GetOf("r"));
  EXPECT_EQ(r.columnValues.at(0).value, "second");
}

TEST_F(Thrift2ServerTest, IncrementDefaultsToAmountOneAndReturnsEightByteCounter) {
  TIncrement inc;
  inc.row = "r";
  TColumnIncrement c;
  c.family = "f";
  c.qualifier = "n";  // amount left unset: the IDL default 1
  inc.columns = {c};
  TResult r;
  client_->increment(r, "t", inc);
  ASSERT_EQ(r.columnValues.size(), 1u);
  EXPECT_EQ(r.columnValues[0].value, EncodeCounter(1));
}

TEST_F(Thrift2ServerTest, GetScannerResultsOpensReadsAndCloses) {
  for (std::string row : {"a", "b", "c", "d"}) PutCells(row, {Cv("f", "q", row)});
  TScan scan;
  scan.__set_startRow("b");
  std::vector<TResult> out;
  client_->getScannerResults(out, "t", scan, 2);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].row, "b");
  EXPECT_EQ(out[1].row, "c");
}

TEST_F(Thrift2ServerTest, ScannerStreamsRowsThenAnswersEmptyAndUnknownIdsAreIllegal) {
  for (std::string row : {"a", "b", "c"}) PutCells(row, {Cv("f", "q", row)});
  TScan scan;
  scan.__set_filterString("PrefixFilter('b') OR PrefixFilter('c')");
  int32_t id = client_->openScanner("t", scan);
  std::vector<TResult> rows;
  client_->getScannerRows(rows, id, 1);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].row, "b");
  rows.clear();
  client_->getScannerRows(rows, id, 10);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].row, "c");
  rows.clear();
  client_->getScannerRows(rows, id, 10);
  EXPECT_TRUE(rows.empty());
  client_->closeScanner(id);
  try {
    client_->getScannerRows(rows, id, 1);
    FAIL() << "a closed scanner answered";
  } catch (const TIllegalArgument& e) {
    EXPECT_EQ(e.message, "Invalid scanner Id");
  }
  // Closing it again, or an id never handed out, returns quietly, as HBase's handler does (the
  // scanner may simply have expired).
  EXPECT_NO_THROW(client_->closeScanner(id));
  EXPECT_NO_THROW(client_->closeScanner(123456));
}

TEST_F(Thrift2ServerTest, BatchSizeSplitsARowIntoPartialResults) {
  PutCells("r", {Cv("f", "a", "1"), Cv("f", "b", "2"), Cv("f", "c", "3")});
  TScan scan;
  scan.__set_batchSize(2);
  std::vector<TResult> out;
  client_->getScannerResults(out, "t", scan, 10);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_TRUE(out[0].partial);
  EXPECT_FALSE(out[1].__isset.partial && out[1].partial);
}

TEST_F(Thrift2ServerTest, UnknownTableIsATIOErrorThatCannotBeRetried) {
  try {
    client_->put("nosuch", TPut());
    FAIL() << "put to a missing table succeeded";
  } catch (const TIOError& e) {
    EXPECT_NE(e.message.find("NotFound"), std::string::npos) << e.message;
    EXPECT_FALSE(e.canRetry);
  }
}

TEST_F(Thrift2ServerTest, BadFilterStringIsATIOError) {
  TScan scan;
  scan.__set_filterString("NoSuchFilter()");
  EXPECT_THROW(client_->openScanner("t", scan), TIOError);
}

TEST_F(Thrift2ServerTest, AdminCallsDescribeTablesNamespacesAndRegions) {
  EXPECT_EQ(client_->getThriftServerType(), TThriftServerType::TWO);
  TTableName name;
  name.__set_ns("default");
  name.qualifier = "t";
  EXPECT_TRUE(client_->tableExists(name));
  TTableDescriptor desc;
  client_->getTableDescriptor(desc, name);
  ASSERT_EQ(desc.columns.size(), 2u);
  EXPECT_EQ(desc.columns[0].name, "f");
  EXPECT_EQ(desc.columns[0].maxVersions, 1);

  std::vector<THRegionLocation> regions;
  client_->getAllRegionLocations(regions, "t");
  ASSERT_EQ(regions.size(), 2u);  // one split key: two regions
  EXPECT_EQ(regions[0].regionInfo.endKey, "m");
  EXPECT_EQ(regions[1].regionInfo.startKey, "m");
  EXPECT_EQ(regions[0].serverName.port, server_->port());
  THRegionLocation loc;
  client_->getRegionLocation(loc, "t", "x", false);
  EXPECT_EQ(loc.regionInfo.startKey, "m");

  TNamespaceDescriptor ns;
  ns.name = "app";
  client_->createNamespace(ns);
  std::vector<std::string> names;
  client_->listNamespaces(names);
  EXPECT_NE(std::find(names.begin(), names.end(), "app"), names.end());

  TTableDescriptor created;
  created.tableName.__set_ns("app");
  created.tableName.qualifier = "events";
  TColumnFamilyDescriptor family;
  family.name = "e";
  family.__set_maxVersions(3);
  family.__set_timeToLive(3600);
  created.__set_columns({family});
  client_->createTable(created, {});
  std::vector<TTableName> tables;
  client_->getTableNamesByNamespace(tables, "app");
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].qualifier, "events");
  client_->getTableDescriptor(desc, created.tableName);
  EXPECT_EQ(desc.columns.at(0).maxVersions, 3);
  EXPECT_EQ(desc.columns.at(0).timeToLive, 3600);

  // Dropping needs a disabled table, as in HBase.
  EXPECT_THROW(client_->deleteTable(created.tableName), TIOError);
  client_->disableTable(created.tableName);
  EXPECT_TRUE(client_->isTableDisabled(created.tableName));
  client_->deleteTable(created.tableName);
  EXPECT_FALSE(client_->tableExists(created.tableName));
}

TEST_F(Thrift2ServerTest, TableNamePatternsMatchTheWholeNameAsHBaseDoes) {
  ASSERT_OK(conn_->admin().CreateNamespace(NamespaceDescriptor{.name = "ns"}));
  ASSERT_OK(conn_->admin().CreateTable(
      TableDescriptor(TableName("ns", "tt")).AddFamily(FamilyDescriptor("f"))));
  auto names = [&](const std::string& pattern) {
    std::vector<TTableName> out;
    client_->getTableNamesByPattern(out, pattern, false);
    std::vector<std::string> flat;
    for (const auto& n : out) flat.push_back(n.ns + ":" + n.qualifier);
    return flat;
  };
  // The default namespace's tables are matched without their prefix (TableName.getNameAsString).
  EXPECT_EQ(names("t"), std::vector<std::string>{"default:t"});
  EXPECT_EQ(names("ns:.*"), std::vector<std::string>{"ns:tt"});
  EXPECT_EQ(names("t+").size(), 1u);
  EXPECT_TRUE(names("tt").empty());  // a whole-name match, not find()
  EXPECT_EQ(names("").size(), 2u);   // no pattern: every table
  std::vector<TTableDescriptor> descriptors;
  client_->getTableDescriptorsByPattern(descriptors, "ns:t.", false);
  ASSERT_EQ(descriptors.size(), 1u);
  EXPECT_EQ(descriptors[0].tableName.qualifier, "tt");
}

// std::regex ran the caller's pattern: a deeply nested one overflowed the server's stack (the
// process died) and a backtracking one took time exponential in the table name's length.
TEST_F(Thrift2ServerTest, HostileTableNamePatternsAreRefusedOrAnsweredQuickly) {
  const std::string long_name(40, 'a');
  ASSERT_OK(conn_->admin().CreateTable(
      TableDescriptor(TableName("default", long_name)).AddFamily(FamilyDescriptor("f"))));
  auto started = std::chrono::steady_clock::now();
  std::vector<TTableName> out;
  for (const char* backtracking : {"(a*)*b", "(a|a)*b", "(a|aa)+$b"}) {
    client_->getTableNamesByPattern(out, backtracking, true);
    EXPECT_TRUE(out.empty()) << backtracking;
  }
  std::vector<TTableDescriptor> descriptors;
  client_->getTableDescriptorsByPattern(descriptors, "(a*)*b", true);
  EXPECT_TRUE(descriptors.empty());

  auto refused = [&](const std::string& pattern, const std::string& why) {
    try {
      client_->getTableNamesByPattern(out, pattern, false);
      ADD_FAILURE() << "pattern of " << pattern.size() << " bytes accepted";
    } catch (const TIOError& e) {
      EXPECT_NE(e.message.find(why), std::string::npos) << e.message;
      EXPECT_FALSE(e.canRetry);
    }
  };
  refused(std::string(100000, '(') + std::string(100000, ')'), "too long");
  refused("(a)\\1", "bad table name pattern");  // a back reference: not linear, refused
  refused("((((a{100}){100}){100}){100})", "bad table name pattern");
  // Nesting within the length cap is fine.
  client_->getTableNamesByPattern(out, std::string(2000, '(') + "t" + std::string(2000, ')'),
                                  false);
  EXPECT_EQ(out.size(), 1u);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
  // The server is still serving.
  std::vector<std::string> namespaces;
  client_->listNamespaces(namespaces);
  EXPECT_FALSE(namespaces.empty());
}

// The app's accounts and sessions live in a reserved namespace: before, an anonymous Thrift2
// client could forge a session row or disable app:social_sessions (which stops every log-in).
TEST_F(Thrift2ServerTest, ReservedNamespaceIsRefusedByEveryMethodThatNamesIt) {
  StopServer();
  server::Thrift2ServerOptions options;
  options.reserved_namespaces = {"app"};
  StartServer(options);
  // The app creates its tables in process, through the Connection.
  ASSERT_OK(conn_->admin().CreateNamespace(NamespaceDescriptor{.name = "app"}));
  const TableName sessions_name("app", "social_sessions");
  ASSERT_OK(
      conn_->admin().CreateTable(TableDescriptor(sessions_name).AddFamily(FamilyDescriptor("s"))));
  TTableName sessions;
  sessions.__set_ns("app");
  sessions.qualifier = "social_sessions";
  const std::string table = "app:social_sessions";

  auto refused = [](const std::string& what, const std::function<void()>& call) {
    try {
      call();
      ADD_FAILURE() << what << " succeeded";
    } catch (const TIOError& e) {
      EXPECT_NE(e.message.find("PermissionDenied"), std::string::npos) << what << ": " << e.message;
      EXPECT_NE(e.message.find("'app' is reserved"), std::string::npos) << e.message;
      EXPECT_FALSE(e.canRetry);
    }
  };
  TPut forged;
  forged.row = "token-of-my-choosing";
  forged.columnValues = {Cv("s", "user", "alice")};
  TResult result;
  std::vector<TResult> results;
  TTableDescriptor descriptor;
  std::vector<THRegionLocation> regions;
  std::vector<TTableName> names;
  TNamespaceDescriptor ns_descriptor;
  refused("put", [&] { client_->put(table, forged); });
  refused("putMultiple", [&] { client_->putMultiple(table, {forged}); });
  refused("get", [&] { client_->get(result, table, GetOf("token-of-my-choosing")); });
  refused("exists", [&] { client_->exists(table, GetOf("x")); });
  refused("openScanner", [&] { client_->openScanner(table, TScan()); });
  refused("getScannerResults", [&] { client_->getScannerResults(results, table, TScan(), 10); });
  refused("deleteSingle", [&] {
    TDelete d;
    d.row = "x";
    client_->deleteSingle(table, d);
  });
  refused("mutateRow", [&] {
    TRowMutations m;
    m.row = "x";
    client_->mutateRow(table, m);
  });
  refused("checkAndPut", [&] { client_->checkAndPut(table, "x", "s", "user", "", forged); });
  refused("increment", [&] {
    TIncrement inc;
    inc.row = "x";
    client_->increment(result, table, inc);
  });
  refused("getAllRegionLocations", [&] { client_->getAllRegionLocations(regions, table); });
  refused("disableTable", [&] { client_->disableTable(sessions); });
  refused("deleteTable", [&] { client_->deleteTable(sessions); });
  refused("truncateTable", [&] { client_->truncateTable(sessions, false); });
  refused("tableExists", [&] { client_->tableExists(sessions); });
  refused("getTableDescriptor", [&] { client_->getTableDescriptor(descriptor, sessions); });
  refused("deleteColumnFamily", [&] { client_->deleteColumnFamily(sessions, "s"); });
  refused("modifyColumnFamily", [&] {
    TColumnFamilyDescriptor family;
    family.name = "s";
    family.__set_timeToLive(1);
    client_->modifyColumnFamily(sessions, family);
  });
  refused("createTable", [&] {
    TTableDescriptor created;
    created.tableName = sessions;
    created.tableName.qualifier = "other";
    TColumnFamilyDescriptor family;
    family.name = "f";
    created.__set_columns({family});
    client_->createTable(created, {});
  });
  refused("deleteNamespace", [&] { client_->deleteNamespace("app"); });
  refused("getNamespaceDescriptor", [&] { client_->getNamespaceDescriptor(ns_descriptor, "app"); });
  refused("getTableNamesByNamespace", [&] { client_->getTableNamesByNamespace(names, "app"); });

  // Nothing was written or changed.
  auto stored = conn_->GetTable(sessions_name);
  ASSERT_OK(stored);
  auto row = (*stored)->Get(Get("token-of-my-choosing"));
  ASSERT_OK(row);
  EXPECT_TRUE(row->empty());
  auto enabled = conn_->admin().IsTableEnabled(sessions_name);
  ASSERT_OK(enabled);
  EXPECT_TRUE(*enabled);

  // Listings show the names; the tables of `default` work as before.
  client_->getTableNamesByPattern(names, "app:.*", false);
  EXPECT_EQ(names.size(), 1u);
  std::vector<std::string> namespaces;
  client_->listNamespaces(namespaces);
  EXPECT_NE(std::find(namespaces.begin(), namespaces.end(), "app"), namespaces.end());
  PutCells("r", {Cv("f", "a", "1")});
  EXPECT_EQ(Qualifiers("r"), std::vector<std::string>{"f:a"});
}

TEST_F(Thrift2ServerTest, IdleScannerExpires) {
  StopServer();
  server::Thrift2ServerOptions options;
  options.scanner_idle_timeout = std::chrono::milliseconds(100);
  StartServer(options);
  PutCells("a", {Cv("f", "q", "1")});
  int32_t id = client_->openScanner("t", TScan());
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  std::vector<TResult> rows;
  EXPECT_THROW(client_->getScannerRows(rows, id, 1), TIllegalArgument);
}

TEST_F(Thrift2ServerTest, FramedCompactServerServesAFramedCompactClient) {
  StopServer();
  server::Thrift2ServerOptions options;
  options.framed = true;
  options.compact = true;
  StartServer(options);
  PutCells("r", {Cv("f", "q", "v")});
  TResult r;
  client_->get(r, "t", GetOf("r"));
  ASSERT_EQ(r.columnValues.size(), 1u);
  EXPECT_EQ(r.columnValues[0].value, "v");
}

TEST_F(Thrift2ServerTest, FrameLargerThanTheLimitIsRejected) {
  StopServer();
  server::Thrift2ServerOptions options;
  options.framed = true;
  options.max_frame_bytes = 4096;
  StartServer(options);
  PutCells("small", {Cv("f", "q", std::string(100, 'x'))});
  EXPECT_ANY_THROW(PutCells("big", {Cv("f", "q", std::string(10000, 'x'))}));
  // The server dropped that connection; a new one still works and nothing big was written.
  Connect(/*framed=*/true, /*compact=*/false);
  EXPECT_TRUE(client_->exists("t", GetOf("small")));
  EXPECT_FALSE(client_->exists("t", GetOf("big")));
}

// Found while writing thrift2_request_fuzzer: a list header declaring millions of elements made the
// generated code allocate them all before reading one, holding hundreds of MB per connection
// while it waited for the rest of the message.
TEST_F(Thrift2ServerTest, ListDeclaringMoreElementsThanTheLimitClosesTheConnection) {
  for (bool compact : {false, true}) {
    SCOPED_TRACE(compact ? "compact" : "binary");
    StopServer();
    server::Thrift2ServerOptions options;
    options.compact = compact;
    StartServer(options);
    // putMultiple("t", [4 million puts...]) with nothing after the list header.
    RawCall call = StartRawCall(compact, "putMultiple");
    auto socket = call.socket;
    call.out->writeFieldBegin("tputs", apache::thrift::protocol::T_LIST, 2);
    call.out->writeListBegin(apache::thrift::protocol::T_STRUCT, 4000000);
    call.transport->flush();
    // The server refuses the list and closes the connection at once instead of waiting for
    // 4 million puts with their memory allocated.
    uint8_t byte;
    auto started = std::chrono::steady_clock::now();
    size_t got = 0;
    try {
      got = socket->read(&byte, 1);
    } catch (const apache::thrift::transport::TTransportException&) {
      got = 0;  // reset by the server: closed as well
    }
    EXPECT_EQ(got, 0u);
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(4));
    socket->close();
    // A list within the limit still works.
    PutCells("r", {Cv("f", "q", "v")});
    EXPECT_TRUE(client_->exists("t", GetOf("r")));
  }
}

// Each open connection holds a worker thread; without a read timeout, worker_threads idle
// connections would shut every other client out for good.
TEST_F(Thrift2ServerTest, IdleConnectionsAreClosedAfterTheReadTimeoutSoOthersGetServed) {
  StopServer();
  server::Thrift2ServerOptions options;
  options.worker_threads = 1;
  options.read_timeout = std::chrono::milliseconds(300);
  StartServer(options);  // its client_ holds the only worker, idle
  auto socket = std::make_shared<TSocket>("127.0.0.1", server_->port());
  socket->setRecvTimeout(10000);
  auto transport = std::make_shared<TBufferedTransport>(socket);
  THBaseServiceClient other(std::make_shared<TBinaryProtocol>(transport));
  transport->open();
  TGet get;
  get.row = "r";
  EXPECT_FALSE(other.exists("t", get));  // answered once the idle connection timed out
  transport->close();
}

// Found by thrift2_request_fuzzer (UBSan): the generated code stores any i32 in an enum field;
// the codec read it as the enum type, undefined behaviour for a value that names no enumerator.
// Written by hand: a generated client cannot send such a value without the same UB.
TEST_F(Thrift2ServerTest, UnknownCompareOperatorIsATIOError) {
  using apache::thrift::protocol::T_CALL;
  using apache::thrift::protocol::T_I32;
  using apache::thrift::protocol::T_LIST;
  using apache::thrift::protocol::T_STRING;
  using apache::thrift::protocol::T_STRUCT;
  auto out = client_->getOutputProtocol();
  auto string_field = [&](const char* name, int16_t id, const std::string& v) {
    out->writeFieldBegin(name, T_STRING, id);
    out->writeBinary(v);
    out->writeFieldEnd();
  };
  out->writeMessageBegin("checkAndMutate", T_CALL, 0);
  out->writeStructBegin("args");
  string_field("table", 1, "t");
  string_field("row", 2, "r");
  string_field("family", 3, "f");
  string_field("qualifier", 4, "q");
  out->writeFieldBegin("compareOperator", T_I32, 5);
  out->writeI32(99);
  out->writeFieldEnd();
  string_field("value", 6, "v");
  out->writeFieldBegin("rowMutations", T_STRUCT, 7);
  TRowMutations mutations;
  mutations.row = "r";
  TMutation put;
  TPut tput;
  tput.row = "r";
  tput.columnValues = {Cv("f", "q", "v")};
  put.__set_put(tput);
  mutations.mutations = {put};
  mutations.write(out.get());
  out->writeFieldEnd();
  out->writeFieldStop();
  out->writeStructEnd();
  out->writeMessageEnd();
  out->getTransport()->writeEnd();
  out->getTransport()->flush();
  try {
    client_->recv_checkAndMutate();
    ADD_FAILURE() << "an unknown compare operator was accepted";
  } catch (const TIOError& e) {
    EXPECT_NE(e.message.find("compare operator 99 is unknown"), std::string::npos) << e.message;
  }
  EXPECT_FALSE(client_->exists("t", GetOf("r")));
}

// Found by thrift2_request_fuzzer (out of memory): an old-style binary message whose first four
// bytes declare an 800 MB method name made Thrift allocate and zero all of it before finding the
// message too short.
TEST_F(Thrift2ServerTest, StringDeclaringMoreThanTheMessageLimitIsRejectedBeforeAllocating) {
  StopServer();
  server::Thrift2ServerOptions options;
  options.max_message_bytes = 1 << 20;
  StartServer(options);
  const int64_t peak_before = PeakRssKb();
  auto socket = std::make_shared<TSocket>("127.0.0.1", server_->port());
  socket->setRecvTimeout(5000);
  socket->open();
  const uint8_t header[] = {0x32, 0x21, 0x01, 0x03, 'x'};  // name length 0x32210103
  socket->write(header, sizeof(header));
  uint8_t byte;
  size_t got = 0;
  try {
    got = socket->read(&byte, 1);
  } catch (const apache::thrift::transport::TTransportException&) {
    got = 0;
  }
  EXPECT_EQ(got, 0u);  // closed
  socket->close();
  EXPECT_LT(PeakRssKb() - peak_before, 100 * 1024) << "the declared 800 MB were allocated";
  PutCells("r", {Cv("f", "q", "v")});
  EXPECT_TRUE(client_->exists("t", GetOf("r")));
}

// 300,000 openScanner calls in 15 s took 2.1 GiB before scanners were capped.
TEST_F(Thrift2ServerTest, ScannersAreCappedPerClientAndInAll) {
  StopServer();
  server::Thrift2ServerOptions options;
  options.max_scanners = 5;
  options.max_scanners_per_client = 3;
  StartServer(options);
  std::vector<int32_t> ids;
  for (int i = 0; i < 3; ++i) ids.push_back(client_->openScanner("t", TScan()));
  try {
    client_->openScanner("t", TScan());
    ADD_FAILURE() << "a fourth scanner of one client was opened";
  } catch (const TIOError& e) {
    EXPECT_NE(e.message.find("too many open scanners for client 127.0.0.1 (at most 3 per client)"),
              std::string::npos)
        << e.message;
    EXPECT_TRUE(e.canRetry);
  }
  client_->closeScanner(ids.back());
  ids.pop_back();
  ids.push_back(client_->openScanner("t", TScan()));  // closing one made room

  StopServer();
  options.max_scanners = 2;
  options.max_scanners_per_client = 0;
  StartServer(options);
  client_->openScanner("t", TScan());
  client_->openScanner("t", TScan());
  try {
    client_->openScanner("t", TScan());
    ADD_FAILURE() << "a third scanner was opened on a server capped at two";
  } catch (const TIOError& e) {
    EXPECT_NE(e.message.find("too many open scanners on this server (at most 2)"),
              std::string::npos)
        << e.message;
  }
}

// Scanner ids counted up from 0, and any client could read or close any other's scanner. A
// scanner answers only the address that opened it (on any of its connections); to any other it
// is an unknown id, with the same error as an id never handed out, so an id tells nothing about
// other clients' scanners.
TEST_F(Thrift2ServerTest, AScannerAnswersOnlyTheAddressThatOpenedIt) {
  for (std::string row : {"a", "b", "c"}) PutCells(row, {Cv("f", "q", row)});
  int32_t id = client_->openScanner("t", TScan());
  THBaseServiceClient& other = ClientFrom("127.0.0.2");
  std::vector<TResult> rows;
  for (int32_t asked : {id, 123456}) {
    try {
      other.getScannerRows(rows, asked, 10);
      ADD_FAILURE() << "scanner " << asked << " answered another address";
    } catch (const TIllegalArgument& e) {
      EXPECT_EQ(e.message, "Invalid scanner Id");
    }
  }
  EXPECT_TRUE(rows.empty());
  EXPECT_NO_THROW(
      other.closeScanner(id));  // answered as an unknown id is: quietly, closing nothing
  // Untouched: the owner reads from the first row, on another connection of its address too.
  client_->getScannerRows(rows, id, 1);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].row, "a");
  rows.clear();
  THBaseServiceClient& same_address = ClientFrom("127.0.0.1");
  same_address.getScannerRows(rows, id, 1);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].row, "b");
  same_address.closeScanner(id);
  EXPECT_THROW(client_->getScannerRows(rows, id, 1), TIllegalArgument);
}

// Consecutive opens had consecutive ids from 0: anyone could name everyone's scanners.
TEST_F(Thrift2ServerTest, ScannerIdsAreDrawnAtRandom) {
  std::vector<int32_t> ids;
  for (int i = 0; i < 32; ++i) ids.push_back(client_->openScanner("t", TScan()));
  const std::set<int32_t> distinct(ids.begin(), ids.end());
  EXPECT_EQ(distinct.size(), ids.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    EXPECT_GT(ids[i], 0);
    if (i > 0) {
      EXPECT_NE(ids[i], ids[i - 1] + 1) << "consecutive opens had consecutive ids";
    }
  }
  // Spread over the 31 bits (32 draws all below 2^20 has odds of 2^-352).
  EXPECT_GT(*distinct.rbegin(), 1 << 20);
}

// With caps per address alone, ten addresses at their share (1,000 of 10,000) filled the server
// for every other client as long as they kept their scanners. A full server shares its scanners
// out: an eleventh address still opens them, the idlest scanner of a client holding the most
// making room, and goes on up to an even share; the addresses that filled it keep the scanners
// they use.
TEST_F(Thrift2ServerTest, TenAddressesAtTheirCapStillLeaveScannersForAnother) {
  StopServer();
  server::Thrift2ServerOptions options;
  options.max_scanners = 20;
  options.max_scanners_per_client = 2;
  StartServer(options);
  PutCells("a", {Cv("f", "q", "1")});
  std::vector<THBaseServiceClient*> clients;
  std::vector<std::vector<int32_t>> ids;
  for (int i = 0; i < 10; ++i) {
    clients.push_back(&ClientFrom("127.0.0." + std::to_string(i + 2)));
    ids.push_back({clients[i]->openScanner("t", TScan()), clients[i]->openScanner("t", TScan())});
  }
  std::vector<TResult> rows;
  // Each address uses its second scanner: the first ones are idler, the very first the idlest.
  for (int i = 0; i < 10; ++i) clients[i]->getScannerRows(rows, ids[i][1], 1);

  int32_t mine = client_->openScanner("t", TScan());  // was: too many open scanners
  EXPECT_THROW(clients[0]->getScannerRows(rows, ids[0][0], 1), TIllegalArgument);
  for (int i = 0; i < 10; ++i) {
    EXPECT_NO_THROW(clients[i]->getScannerRows(rows, ids[i][1], 1)) << "address " << i + 2;
  }
  // Another address gets one too; then each of the twelve holds one or two, and a client that
  // holds one fewer than the most is refused (taking one would only move the imbalance).
  THBaseServiceClient& twelfth = ClientFrom("127.0.0.12");
  EXPECT_NO_THROW(twelfth.openScanner("t", TScan()));
  try {
    client_->openScanner("t", TScan());
    ADD_FAILURE() << "a client took a scanner from one holding one more";
  } catch (const TIOError& e) {
    EXPECT_NE(e.message.find("too many open scanners on this server (at most 20), and client "
                             "127.0.0.1 holds 1"),
              std::string::npos)
        << e.message;
    EXPECT_TRUE(e.canRetry);
  }
  rows.clear();
  client_->getScannerRows(rows, mine, 1);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].row, "a");
}

// Expired scanners give their place back.
TEST_F(Thrift2ServerTest, ExpiredScannersNoLongerCountAgainstTheCap) {
  StopServer();
  server::Thrift2ServerOptions options;
  options.max_scanners_per_client = 2;
  options.scanner_idle_timeout = std::chrono::milliseconds(100);
  StartServer(options);
  client_->openScanner("t", TScan());
  client_->openScanner("t", TScan());
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // the reaper runs every 50 ms
  EXPECT_NO_THROW(client_->openScanner("t", TScan()));
}

// One client could take every worker thread before; a connection past its share is closed
// before its first request, so it holds no thread.
TEST_F(Thrift2ServerTest, ConnectionsPastTheClientsShareAreClosedAtOnce) {
  StopServer();
  server::Thrift2ServerOptions options;
  options.max_connections_per_client = 2;
  StartServer(options);  // client_ holds one
  auto open_client = [this](std::shared_ptr<TTransport>* transport) {
    auto socket = std::make_shared<TSocket>("127.0.0.1", server_->port());
    socket->setRecvTimeout(5000);
    *transport = std::make_shared<TBufferedTransport>(socket);
    (*transport)->open();
    return std::make_unique<THBaseServiceClient>(std::make_shared<TBinaryProtocol>(*transport));
  };
  std::shared_ptr<TTransport> second_transport, third_transport, fourth_transport;
  // A call answered means its connection was accepted (and counted): the server accepts in its
  // own time.
  EXPECT_FALSE(client_->exists("t", GetOf("r")));
  auto second = open_client(&second_transport);
  EXPECT_FALSE(second->exists("t", GetOf("r")));
  auto third = open_client(&third_transport);
  auto started = std::chrono::steady_clock::now();
  EXPECT_THROW(third->exists("t", GetOf("r")), apache::thrift::transport::TTransportException);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(4));
  third_transport->close();
  // The first two are still served, and a closed one makes room.
  EXPECT_FALSE(client_->exists("t", GetOf("r")));
  second_transport->close();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the server sees the close
  auto fourth = open_client(&fourth_transport);
  EXPECT_FALSE(fourth->exists("t", GetOf("r")));
  fourth_transport->close();
}

// Thrift allocated a declared string before reading it: 32 connections each declaring a value
// just under the 100 MiB message limit, and sending nothing more, held 3.45 GiB. A field the
// server does not know (id 99) is skipped, and a skipped string grows as it arrives too.
TEST_F(Thrift2ServerTest, DeclaredStringsTakeMemoryOnlyAsTheirBytesArrive) {
  for (auto [compact, field] :
       {std::pair<bool, int16_t>{false, 1}, {true, 1}, {false, 99}, {true, 99}}) {
    SCOPED_TRACE(std::string(compact ? "compact" : "binary") + ", field " + std::to_string(field));
    StopServer();
    server::Thrift2ServerOptions options;
    options.compact = compact;
    StartServer(options);
    const int64_t rss_before = RssKb();
    std::vector<std::shared_ptr<TSocket>> sockets;
    for (int i = 0; i < 6; ++i) {
      // put("t", TPut{row: <a 90 MiB string, of which 3 bytes are sent>})
      RawCall call = StartRawCall(compact, "put");
      auto socket = call.socket;
      call.out->writeFieldBegin("tput", apache::thrift::protocol::T_STRUCT, 2);
      call.out->writeStructBegin("TPut");
      call.out->writeFieldBegin("row", apache::thrift::protocol::T_STRING, field);
      call.transport->flush();
      const int32_t declared = 90 << 20;
      if (compact) {
        uint8_t varint[5];
        uint32_t n = static_cast<uint32_t>(declared), len = 0;
        while (n >= 0x80) {
          varint[len++] = static_cast<uint8_t>(n | 0x80);
          n >>= 7;
        }
        varint[len++] = static_cast<uint8_t>(n);
        socket->write(varint, len);
      } else {
        const uint8_t size[] = {
            static_cast<uint8_t>(declared >> 24), static_cast<uint8_t>(declared >> 16),
            static_cast<uint8_t>(declared >> 8), static_cast<uint8_t>(declared)};
        socket->write(size, sizeof(size));
      }
      socket->write(reinterpret_cast<const uint8_t*>("abc"), 3);
      sockets.push_back(socket);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the server reads what came
    // 6 x 90 MiB = 540 MiB if the declarations were allocated; 6 x 1 MiB chunks now.
    EXPECT_LT(RssKb() - rss_before, 64 * 1024) << "declared strings were allocated";
    for (auto& socket : sockets) socket->close();
    PutCells("r", {Cv("f", "q", "v")});
    EXPECT_TRUE(client_->exists("t", GetOf("r")));
  }
}

// One getScannerRows or getScannerResults call asking for every row built the whole table in
// memory.
TEST_F(Thrift2ServerTest, OneCallReturnsAtMostTheResultByteCap) {
  const std::string mib(1 << 20, 'x');
  for (int i = 0; i < 20; ++i) {
    char row[8];
    std::snprintf(row, sizeof(row), "r%02d", i);
    PutCells(row, {Cv("f", "q", mib)});
  }
  int32_t id = client_->openScanner("t", TScan());
  std::vector<TResult> first, second, third;
  client_->getScannerRows(first, id, 1000);
  EXPECT_EQ(first.size(), 16u);  // the row that reaches 16 MiB is the last
  client_->getScannerRows(second, id, 1000);
  EXPECT_EQ(second.size(), 4u);  // the scanner goes on where the first call stopped
  EXPECT_EQ(second.front().row, "r16");
  client_->getScannerRows(third, id, 1000);
  EXPECT_TRUE(third.empty());
  client_->closeScanner(id);

  std::vector<TResult> all;
  try {
    client_->getScannerResults(all, "t", TScan(), 1000);
    ADD_FAILURE() << "getScannerResults returned " << all.size() << " rows past the cap";
  } catch (const TIOError& e) {
    EXPECT_NE(e.message.find("take more than 16 MiB"), std::string::npos) << e.message;
  }
  std::vector<TResult> ten;
  client_->getScannerResults(ten, "t", TScan(), 10);
  EXPECT_EQ(ten.size(), 10u);
}

// Thrift counts the bytes a transport consumes against its message-size limit and resets the
// count only where a transport says a message ended: the buffered transport never did, so a
// long-lived connection died ("No more data to read") once its requests, or its answers, added
// up to the limit (100 MiB by default; about 2.8 million rows of a batched ingest).
TEST_F(Thrift2ServerTest, ALongLivedConnectionCarriesManyTimesTheMessageLimit) {
  for (bool framed : {false, true}) {
    for (bool compact : {false, true}) {
      SCOPED_TRACE(std::string(framed ? "framed" : "buffered") +
                   (compact ? " compact" : " binary"));
      StopServer();
      server::Thrift2ServerOptions options;
      options.framed = framed;
      options.compact = compact;
      options.max_message_bytes = 256 << 10;
      StartServer(options);
      const std::string value(1000, 'v');
      // 4 MiB of requests, in messages of about 100 KiB, and as much in answers.
      for (int batch = 0; batch < 40; ++batch) {
        std::vector<TPut> puts;
        std::vector<TGet> gets;
        for (int i = 0; i < 100; ++i) {
          TPut put;
          put.row = "r" + std::to_string(i);
          put.columnValues = {Cv("f", "q", value)};
          puts.push_back(put);
          gets.push_back(GetOf(put.row));
        }
        ASSERT_NO_THROW(client_->putMultiple("t", puts)) << "batch " << batch;
        std::vector<TResult> results;
        ASSERT_NO_THROW(client_->getMultiple(results, "t", gets)) << "batch " << batch;
        ASSERT_EQ(results.size(), 100u);
      }
    }
  }
}

TEST_F(Thrift2ServerTest, StopClosesIdleConnectionsAndReturns) {
  PutCells("r", {Cv("f", "q", "v")});
  auto started = std::chrono::steady_clock::now();
  server_->Stop();  // the client's connection is open and idle
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
  EXPECT_ANY_THROW(client_->exists("t", GetOf("r")));
}

TEST(Thrift2ServerLifecycle, StopFinishesAndFreesThePort) {
  auto conn = Connection::Open("mem:");
  ASSERT_OK(conn);
  server::Thrift2ServerOptions options;
  options.bind_address = "127.0.0.1";
  options.port = 0;
  server::Thrift2Server server(**conn, options);
  EXPECT_EQ(server.port(), 0);
  ASSERT_OK(server.Start());
  int port = server.port();
  EXPECT_GT(port, 0);
  EXPECT_TRUE(server.Start().IsFailedPrecondition());
  server.Stop();
  server.Stop();  // idempotent
  // The port is free again: a second server can bind it.
  options.port = port;
  server::Thrift2Server again(**conn, options);
  ASSERT_OK(again.Start());
  EXPECT_EQ(again.port(), port);
  again.Stop();
  EXPECT_OK((*conn)->Close());
}

}  // namespace
}  // namespace basalt::testing
