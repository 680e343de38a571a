// Thrift2's TGet/TScan.filterBytes against a running basalt Thrift2 server, through a generated
// client: the bytes are those HBase's own Java client writes for each filter
// (tests/data/hbase_filters/, scripts/hbase-filter-vectors.sh), as HBase's Java ThriftConnection
// and YCSB's HBase binding send them.

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TSocket.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "server/thrift2/thrift2_server.h"
#include "support/test_store.h"
#include "thrift2/gen/THBaseService.h"

namespace basalt::testing {
namespace {

using namespace ::basalt::thrift2;  // NOLINT: the generated types are this test's vocabulary
using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::transport::TBufferedTransport;
using apache::thrift::transport::TSocket;
using Strings = std::vector<std::string>;

std::string HBaseFilterBytes(const std::string& name) {
  const auto path = std::filesystem::path(BASALT_HBASE_FILTER_VECTORS) / (name + ".bin");
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "no vector " << path;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class Thrift2FilterBytesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto conn = Connection::Open("mem:");
    ASSERT_OK(conn);
    conn_ = std::move(*conn);
    server::Thrift2ServerOptions options;
    options.bind_address = "127.0.0.1";
    options.port = 0;
    server_ = std::make_unique<server::Thrift2Server>(*conn_, options);
    ASSERT_OK(server_->Start());
    auto socket = std::make_shared<TSocket>("127.0.0.1", server_->port());
    socket->setRecvTimeout(10000);
    transport_ = std::make_shared<TBufferedTransport>(socket);
    client_ = std::make_unique<THBaseServiceClient>(std::make_shared<TBinaryProtocol>(transport_));
    transport_->open();

    TableDescriptor desc(TableName("default", "t"));
    desc.AddFamily(FamilyDescriptor("f")).AddFamily(FamilyDescriptor("g"));
    ASSERT_OK(conn_->admin().CreateTable(desc));
    Put("row1", {{"f", "a", "v1"}, {"f", "b", "alpha"}, {"f", "c", "x"}});
    Put("row2", {{"f", "a", "v2"}, {"f", "b", "ALUMINIUM"}});
    Put("row3", {{"f", "a", "v1"}, {"f", "b", "beta"}, {"g", "a", "y"}});
    Put("row4", {{"f", "b", "gamma"}});
  }

  void TearDown() override {
    if (transport_) transport_->close();
    client_.reset();
    if (server_) server_->Stop();
    server_.reset();
    if (conn_) EXPECT_OK(conn_->Close());
  }

  struct Column {
    std::string family, qualifier, value;
  };
  void Put(const std::string& row, const std::vector<Column>& columns) {
    TPut put;
    put.row = row;
    for (const Column& c : columns) {
      TColumnValue cv;
      cv.family = c.family;
      cv.qualifier = c.qualifier;
      cv.value = c.value;
      put.columnValues.push_back(cv);
    }
    client_->put("t", put);
  }

  // Every result as "row: family:qualifier=value ...".
  static Strings Describe(const std::vector<TResult>& results) {
    Strings out;
    for (const TResult& r : results) {
      std::string line = r.row + ":";
      for (const TColumnValue& cv : r.columnValues) {
        line += " " + cv.family + ":" + cv.qualifier + "=" + cv.value;
      }
      out.push_back(line);
    }
    return out;
  }

  Strings ScanWith(TScan scan) {
    std::vector<TResult> results;
    client_->getScannerResults(results, "t", scan, 100);
    return Describe(results);
  }

  static TScan ScanOf(const std::string& vector) {
    TScan scan;
    scan.__set_filterBytes(HBaseFilterBytes(vector));
    return scan;
  }

  // The message of the TIOError a scan with `scan` answers ("" if it succeeds).
  std::string ScanError(const TScan& scan) {
    try {
      ScanWith(scan);
    } catch (const TIOError& e) {
      EXPECT_FALSE(e.canRetry) << e.message;
      return e.message;
    }
    return "";
  }

  std::unique_ptr<Connection> conn_;
  std::unique_ptr<server::Thrift2Server> server_;
  std::shared_ptr<TBufferedTransport> transport_;
  std::unique_ptr<THBaseServiceClient> client_;
};

// YCSB's HBase binding scans with a PageFilter (and a start row) through ThriftConnection.
TEST_F(Thrift2FilterBytesTest, PageFilterLimitsAScanFromItsStartRow) {
  TScan scan = ScanOf("page");
  scan.__set_startRow("row2");
  std::vector<TResult> results;
  client_->getScannerResults(results, "t", scan, 100);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].row, "row2");
  EXPECT_EQ(results[1].row, "row3");
}

TEST_F(Thrift2FilterBytesTest, FilterListOfPrefixAndKeyOnlyStripsValues) {
  EXPECT_EQ(
      ScanWith(ScanOf("list_and")),
      (Strings{"row1: f:a= f:b= f:c=", "row2: f:a= f:b=", "row3: f:a= f:b= g:a=", "row4: f:b="}));
}

TEST_F(Thrift2FilterBytesTest, OpenScannerStreamsAFilteredScan) {
  int32_t id = client_->openScanner("t", ScanOf("fuzzy_row_processed"));
  std::vector<TResult> rows;
  client_->getScannerRows(rows, id, 10);
  client_->closeScanner(id);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].row, "row1");
}

TEST_F(Thrift2FilterBytesTest, SingleColumnValueExcludeLeavesTheTestedColumnOut) {
  EXPECT_EQ(ScanWith(ScanOf("single_column_value_exclude")),
            (Strings{"row1: f:b=alpha f:c=x", "row3: f:b=beta g:a=y", "row4: f:b=gamma"}));
}

TEST_F(Thrift2FilterBytesTest, GetAppliesFilterBytes) {
  TGet get;
  get.row = "row1";
  get.__set_filterBytes(HBaseFilterBytes("column_pagination"));  // 2 columns from the 2nd
  TResult result;
  client_->get(result, "t", get);
  EXPECT_EQ(Describe({result}), (Strings{"row1: f:b=alpha f:c=x"}));

  std::vector<TGet> gets(2, get);
  gets[1].row = "row3";
  std::vector<TResult> results;
  client_->getMultiple(results, "t", gets);
  EXPECT_EQ(Describe(results), (Strings{"row1: f:b=alpha f:c=x", "row3: f:b=beta g:a=y"}));
}

// HBase's ThriftUtilities parses filterString, then lets filterBytes replace it.
TEST_F(Thrift2FilterBytesTest, FilterBytesWinsOverFilterString) {
  TScan scan = ScanOf("prefix");  // row1
  scan.__set_filterString("PrefixFilter('row3')");
  EXPECT_EQ(ScanWith(scan), (Strings{"row1: f:a=v1 f:b=alpha f:c=x"}));

  TGet get;
  get.row = "row1";
  get.__set_filterString("KeyOnlyFilter()");
  get.__set_filterBytes(HBaseFilterBytes("column_prefix"));  // f:b only, values kept
  TResult result;
  client_->get(result, "t", get);
  EXPECT_EQ(Describe({result}), (Strings{"row1: f:b=alpha"}));
}

// ... and so a filterString it cannot parse fails the call even beside valid filterBytes.
TEST_F(Thrift2FilterBytesTest, ABadFilterStringFailsEvenWithFilterBytes) {
  TScan scan = ScanOf("prefix");
  scan.__set_filterString("NoSuchFilter()");
  EXPECT_NE(ScanError(scan).find("filterString: unknown filter 'NoSuchFilter'"), std::string::npos);
}

TEST_F(Thrift2FilterBytesTest, AnUnsupportedFilterIsATIOErrorNamingIt) {
  EXPECT_NE(ScanError(ScanOf("unsupported_multi_row_range"))
                .find("InvalidArgument: filterBytes: filter "
                      "org.apache.hadoop.hbase.filter.MultiRowRangeFilter is not supported"),
            std::string::npos);
  EXPECT_NE(ScanError(ScanOf("unsupported_null_comparator"))
                .find("comparator org.apache.hadoop.hbase.filter.NullComparator is not supported"),
            std::string::npos);
  TGet get;
  get.row = "row1";
  get.__set_filterBytes(HBaseFilterBytes("unsupported_random_row"));
  TResult result;
  try {
    client_->get(result, "t", get);
    FAIL() << "a get with a RandomRowFilter succeeded";
  } catch (const TIOError& e) {
    EXPECT_NE(e.message.find("RandomRowFilter is not supported"), std::string::npos) << e.message;
  }
}

TEST_F(Thrift2FilterBytesTest, HostileFilterBytesAreRefusedAndTheServerGoesOn) {
  TScan scan;
  scan.__set_filterBytes("");  // set but empty: no filter name, as HBase refuses too
  EXPECT_NE(ScanError(scan).find("filterBytes: hbase.pb.Filter lacks a required field"),
            std::string::npos);
  scan.__set_filterBytes(std::string("\x0a\xff\xff\xff\xff\x0f", 6));  // a length past the end
  EXPECT_NE(ScanError(scan).find("not a valid hbase.pb.Filter"), std::string::npos);
  // Filters nested 200 deep: each level is a SkipFilter around the one below.
  std::string bytes = HBaseFilterBytes("page");
  const std::string name = "org.apache.hadoop.hbase.filter.SkipFilter";
  for (int i = 0; i < 200; ++i) {
    // SkipFilter{filter = 1: bytes}, in Filter{name = 1, serialized_filter = 2}.
    auto field = [](int tag, const std::string& value) {
      std::string out(1, static_cast<char>(tag));
      for (size_t n = value.size();; n >>= 7) {
        if (n < 0x80) {
          out += static_cast<char>(n);
          break;
        }
        out += static_cast<char>((n & 0x7f) | 0x80);
      }
      return out + value;
    };
    bytes = field(0x0a, name) + field(0x12, field(0x0a, bytes));
  }
  scan.__set_filterBytes(bytes);
  EXPECT_NE(ScanError(scan).find("filters are nested more than 100 deep"), std::string::npos);
  EXPECT_EQ(ScanWith(ScanOf("page")).size(), 2u);
}

}  // namespace
}  // namespace basalt::testing
