// happybase's calls against a real `basalt serve`, played call by call from C++ (happybase itself,
// from PyPI, runs in tests/python/happybase): `HappyConnection` and `HappyTable` below make the
// Thrift1 calls that happybase 1.3's Connection, Table and Batch make for each of their methods,
// with the arguments happybase passes (unset optional fields left unset, None lists sent as
// nothing), through a client generated from basalt's src/thrift1/Hbase.thrift. Each method names
// the happybase method it plays. The server is the `basalt` binary, started on a fresh data
// directory with its Thrift1 server on a free port, buffered binary as happybase's defaults.

#include <thrift/TApplicationException.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TSocket.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "crash/server_process.h"
#include "support/test_store.h"
#include "thrift1/gen/Hbase.h"
#include "thrift2/gen/THBaseService.h"

namespace basalt::testing {
namespace {

namespace t1 = ::basalt::thrift1;
using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::protocol::TCompactProtocol;
using apache::thrift::protocol::TProtocol;
using apache::thrift::transport::TBufferedTransport;
using apache::thrift::transport::TFramedTransport;
using apache::thrift::transport::TSocket;
using apache::thrift::transport::TTransport;

using Row = std::map<std::string, std::string>;  // happybase's row dict: column -> value
using Rows = std::vector<std::pair<std::string, Row>>;

// happybase's make_row: the TRowResult's columns map as {column: value}.
Row MakeRow(const t1::TRowResult& r) {
  Row row;
  for (const auto& [column, cell] : r.columns) row[column] = cell.value;
  return row;
}

// happybase's pack_i64: a counter's 8 big-endian bytes.
std::string PackI64(int64_t v) {
  std::string out(8, '\0');
  for (int i = 7; i >= 0; --i) {
    out[static_cast<size_t>(i)] = static_cast<char>(v & 0xff);
    v >>= 8;
  }
  return out;
}

// happybase's str_increment: the prefix scan's stop row.
std::string StrIncrement(std::string s) {
  for (size_t i = s.size(); i-- > 0;) {
    if (static_cast<unsigned char>(s[i]) != 0xff) {
      s[i] = static_cast<char>(static_cast<unsigned char>(s[i]) + 1);
      s.resize(i + 1);
      return s;
    }
  }
  return "";
}

// happybase.Connection(host, port, transport='buffered', protocol='binary').
class HappyConnection {
 public:
  HappyConnection(int port, bool framed = false, bool compact = false) {
    auto socket = std::make_shared<TSocket>("127.0.0.1", port);
    socket->setRecvTimeout(20000);
    if (framed) {
      transport_ = std::make_shared<TFramedTransport>(socket);
    } else {
      transport_ = std::make_shared<TBufferedTransport>(socket);
    }
    std::shared_ptr<TProtocol> protocol;
    if (compact) {
      protocol = std::make_shared<TCompactProtocol>(transport_);
    } else {
      protocol = std::make_shared<TBinaryProtocol>(transport_);
    }
    client = std::make_unique<t1::HbaseClient>(protocol);
    transport_->open();  // autoconnect=True
  }
  ~HappyConnection() { transport_->close(); }

  // Connection.tables()
  std::vector<std::string> tables() {
    std::vector<std::string> names;
    client->getTableNames(names);
    return names;
  }

  // Connection.create_table(name, families): each family's options become a ColumnDescriptor
  // named "family:" (happybase appends the colon); unset options keep the IDL's defaults.
  void create_table(const std::string& name,
                    const std::vector<std::pair<std::string, std::optional<int32_t>>>& families) {
    std::vector<t1::ColumnDescriptor> descriptors;
    for (const auto& [family, max_versions] : families) {
      t1::ColumnDescriptor d;
      d.__set_name(family + ":");
      if (max_versions) d.__set_maxVersions(*max_versions);
      descriptors.push_back(d);
    }
    client->createTable(name, descriptors);
  }

  // Connection.is_table_enabled, enable_table, disable_table.
  bool is_table_enabled(const std::string& name) { return client->isTableEnabled(name); }
  void enable_table(const std::string& name) { client->enableTable(name); }
  void disable_table(const std::string& name) { client->disableTable(name); }

  // Connection.delete_table(name, disable=False).
  void delete_table(const std::string& name, bool disable) {
    if (disable && is_table_enabled(name)) disable_table(name);
    client->deleteTable(name);
  }

  // Connection.compact_table(name, major=False).
  void compact_table(const std::string& name, bool major) {
    if (major) {
      client->majorCompact(name);
    } else {
      client->compact(name);
    }
  }

  std::unique_ptr<t1::HbaseClient> client;

 private:
  std::shared_ptr<TTransport> transport_;
};

class HappyBatch;

// happybase.Table.
class HappyTable {
 public:
  HappyTable(HappyConnection& conn, std::string name) : conn_(conn), name_(std::move(name)) {}

  t1::HbaseClient& client() { return *conn_.client; }
  const std::string& name() const { return name_; }

  // Table.families(): {family (the ':' dropped): descriptor}.
  std::map<std::string, t1::ColumnDescriptor> families() {
    std::map<std::string, t1::ColumnDescriptor> descriptors, out;
    client().getColumnDescriptors(descriptors, name_);
    for (auto& [name, d] : descriptors) out[name.substr(0, name.size() - 1)] = d;
    return out;
  }

  // Table._column_family_names(): the families' names, their ':' stripped.
  std::vector<std::string> column_family_names() {
    std::vector<std::string> names;
    for (const auto& entry : families()) names.push_back(entry.first);
    return names;
  }

  // Table.regions()
  std::vector<t1::TRegionInfo> regions() {
    std::vector<t1::TRegionInfo> out;
    client().getTableRegions(out, name_);
    return out;
  }

  // Table.row(row, columns=None, timestamp=None): getRowWithColumns(Ts); {} when missing.
  Row row(const std::string& key, const std::vector<std::string>& columns = {},
          std::optional<int64_t> timestamp = std::nullopt) {
    std::vector<t1::TRowResult> rows;
    if (timestamp) {
      client().getRowWithColumnsTs(rows, name_, key, columns, *timestamp, {});
    } else {
      client().getRowWithColumns(rows, name_, key, columns, {});
    }
    if (rows.empty()) return {};
    return MakeRow(rows[0]);
  }

  // Table.rows(rows, columns=None, timestamp=None). With a timestamp and no columns, happybase
  // asks getColumnDescriptors for the families and sends their names ("cf": whole families).
  Rows rows(const std::vector<std::string>& keys, const std::vector<std::string>& columns = {},
            std::optional<int64_t> timestamp = std::nullopt) {
    if (keys.empty()) return {};
    std::vector<t1::TRowResult> results;
    if (timestamp) {
      std::vector<std::string> cols = columns;
      if (cols.empty()) cols = column_family_names();
      client().getRowsWithColumnsTs(results, name_, keys, cols, *timestamp, {});
    } else {
      client().getRowsWithColumns(results, name_, keys, columns, {});
    }
    Rows out;
    for (const auto& r : results) out.emplace_back(r.row, MakeRow(r));
    return out;
  }

  // Table.cells(row, column, versions=None, timestamp=None): getVer(Ts), versions 2^31-1.
  std::vector<std::string> cells(const std::string& key, const std::string& column,
                                 std::optional<int32_t> versions = std::nullopt,
                                 std::optional<int64_t> timestamp = std::nullopt) {
    std::vector<t1::TCell> cells;
    int32_t n = versions.value_or(2147483647);
    if (timestamp) {
      client().getVerTs(cells, name_, key, column, *timestamp, n, {});
    } else {
      client().getVer(cells, name_, key, column, n, {});
    }
    std::vector<std::string> values;
    for (const auto& c : cells) values.push_back(c.value);
    return values;
  }

  struct ScanArgs {
    std::optional<std::string> row_start, row_stop, row_prefix;
    std::vector<std::string> columns;
    std::optional<std::string> filter;
    std::optional<int64_t> timestamp;
    int32_t batch_size = 1000;
    std::optional<int32_t> scan_batching;
    std::optional<int64_t> limit;
    bool sorted_columns = false;
    bool reverse = false;
  };

  // Table.scan(...): scannerOpenWithScan with a TScan of happybase's fields (caching is the
  // batch size), then scannerGet when one row is wanted, scannerGetList otherwise, stopping at
  // an empty or short answer or at the limit; scannerClose in any case. Every scannerGetList
  // call's row count is recorded in `calls` when given.
  Rows scan(const ScanArgs& a, std::vector<size_t>* calls = nullptr) {
    std::optional<std::string> start = a.row_start, stop = a.row_stop;
    if (a.row_prefix) {
      start = *a.row_prefix;
      stop = StrIncrement(*a.row_prefix);
    }
    if (!start) start = "";
    t1::TScan scan;
    scan.__set_startRow(*start);
    if (stop) scan.__set_stopRow(*stop);
    if (a.timestamp) scan.__set_timestamp(*a.timestamp);
    if (!a.columns.empty()) scan.__set_columns(a.columns);
    scan.__set_caching(a.batch_size);
    if (a.filter) scan.__set_filterString(*a.filter);
    if (a.scan_batching) scan.__set_batchSize(*a.scan_batching);
    if (a.sorted_columns) scan.__set_sortColumns(true);
    if (a.reverse) scan.__set_reversed(true);
    t1::ScannerID id = client().scannerOpenWithScan(name_, scan, {});
    Rows out;
    int64_t returned = 0;
    while (true) {
      int64_t how_many =
          a.limit ? std::min<int64_t>(a.batch_size, *a.limit - returned) : a.batch_size;
      std::vector<t1::TRowResult> items;
      if (how_many == 1) {
        client().scannerGet(items, id);
      } else {
        client().scannerGetList(items, id, static_cast<int32_t>(how_many));
      }
      if (calls != nullptr) calls->push_back(items.size());
      bool done = false;
      for (const auto& item : items) {
        ++returned;
        Row row;
        if (a.sorted_columns) {
          for (const auto& c : item.sortedColumns) row[c.columnName] = c.cell.value;
        } else {
          row = MakeRow(item);
        }
        out.emplace_back(item.row, std::move(row));
        if (a.limit && returned == *a.limit) {
          done = true;
          break;
        }
      }
      if (done || static_cast<int64_t>(items.size()) < how_many) break;
    }
    client().scannerClose(id);
    return out;
  }

  // Table.put(row, data, timestamp=None): a one-put Batch.
  void put(const std::string& key, const Row& data, std::optional<int64_t> timestamp = {});
  // Table.delete(row, columns=None, timestamp=None): a one-delete Batch; without columns, one
  // delete Mutation per family name.
  void del(const std::string& key, const std::vector<std::string>& columns = {},
           std::optional<int64_t> timestamp = {});

  // Table.counter_get / counter_inc / counter_dec / counter_set.
  int64_t counter_get(const std::string& key, const std::string& column) {
    return client().atomicIncrement(name_, key, column, 0);
  }
  int64_t counter_inc(const std::string& key, const std::string& column, int64_t value = 1) {
    return client().atomicIncrement(name_, key, column, value);
  }
  int64_t counter_dec(const std::string& key, const std::string& column, int64_t value = 1) {
    return counter_inc(key, column, -value);
  }
  void counter_set(const std::string& key, const std::string& column, int64_t value) {
    put(key, {{column, PackI64(value)}});
  }

 private:
  HappyConnection& conn_;
  const std::string name_;
};

// happybase.Batch(table, timestamp=None, batch_size=None, transaction=False, wal=True): the
// mutations of each row gathered in order, sent as one mutateRows(Ts) whenever batch_size of
// them are pending and at send() (the end of a `with` block; with transaction=True, not when
// the block raised).
class HappyBatch {
 public:
  HappyBatch(HappyTable& table, std::optional<int64_t> timestamp = {},
             std::optional<size_t> batch_size = {}, bool wal = true)
      : table_(table), timestamp_(timestamp), batch_size_(batch_size), wal_(wal) {}

  void put(const std::string& key, const Row& data) {
    for (const auto& [column, value] : data) {
      t1::Mutation m;
      m.__set_isDelete(false);
      m.__set_column(column);
      m.__set_value(value);
      m.__set_writeToWAL(wal_);
      Add(key, std::move(m));
    }
  }

  // Batch.delete(row, columns): each column is a delete Mutation (Table::del names the families
  // when there are no columns).
  void del(const std::string& key, const std::vector<std::string>& columns) {
    for (const auto& column : columns) {
      t1::Mutation m;
      m.__set_isDelete(true);
      m.__set_column(column);
      m.__set_writeToWAL(wal_);
      Add(key, std::move(m));
    }
  }

  void send() {
    if (pending_ == 0) return;
    std::vector<t1::BatchMutation> batches;
    for (const auto& key : order_) {
      t1::BatchMutation b;
      b.__set_row(key);
      b.__set_mutations(mutations_[key]);
      batches.push_back(std::move(b));
    }
    if (timestamp_) {
      table_.client().mutateRowsTs(table_.name(), batches, *timestamp_, {});
    } else {
      table_.client().mutateRows(table_.name(), batches, {});
    }
    ++sends;
    mutations_.clear();
    order_.clear();
    pending_ = 0;
  }

  int sends = 0;

 private:
  void Add(const std::string& key, t1::Mutation m) {
    if (!mutations_.count(key)) order_.push_back(key);
    mutations_[key].push_back(std::move(m));
    ++pending_;
    if (batch_size_ && pending_ >= *batch_size_) send();
  }

  HappyTable& table_;
  std::optional<int64_t> timestamp_;
  std::optional<size_t> batch_size_;
  bool wal_;
  std::map<std::string, std::vector<t1::Mutation>> mutations_;
  std::vector<std::string> order_;
  size_t pending_ = 0;
};

void HappyTable::put(const std::string& key, const Row& data, std::optional<int64_t> timestamp) {
  HappyBatch b(*this, timestamp);
  b.put(key, data);
  b.send();
}

void HappyTable::del(const std::string& key, const std::vector<std::string>& columns,
                     std::optional<int64_t> timestamp) {
  HappyBatch b(*this, timestamp);
  b.del(key, columns.empty() ? column_family_names() : columns);
  b.send();
}

// A `basalt serve` on a fresh data directory, with its ports free.
class HappybaseTest : public ::testing::Test {
 protected:
  void SetUp() override { Start({}); }
  void TearDown() override {
    if (server_ && server_->running()) EXPECT_OK(server_->Stop());
    std::filesystem::remove_all(dir_);
  }

  void Start(std::vector<std::string> extra_args) {
    if (server_ && server_->running()) ASSERT_OK(server_->Stop());
    if (dir_.empty()) {
      dir_ = std::filesystem::temp_directory_path() /
             ("basalt-happybase-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name());
      std::filesystem::remove_all(dir_);
      std::filesystem::create_directories(dir_);
    }
    server_ = std::make_unique<crash::ServerProcess>(BASALT_BINARY, (dir_ / "data").string(),
                                                     (dir_ / "serve.log").string(),
                                                     std::move(extra_args));
    ASSERT_OK(server_->Start());
    ASSERT_GT(server_->thrift1_port(), 0);
  }

  std::filesystem::path dir_;
  std::unique_ptr<crash::ServerProcess> server_;
};

// happybase's tutorial, start to end: tables, create_table, put, row, rows, scan (prefix,
// filter, batch size, limit), counters, delete, a Batch, and the table admin calls.
TEST_F(HappybaseTest, TheTutorialsCallsWorkWithHBasesSemantics) {
  HappyConnection connection(server_->thrift1_port());
  // The listing shows the app's tables too (their names are no secret; docs/security.md).
  auto user_tables = [&connection] {
    std::vector<std::string> names;
    for (auto& name : connection.tables()) {
      if (name.rfind("app:", 0) != 0) names.push_back(std::move(name));
    }
    return names;
  };
  std::vector<std::string> all = connection.tables();
  EXPECT_NE(std::find(all.begin(), all.end(), "app:social_users"), all.end());
  EXPECT_TRUE(user_tables().empty());
  connection.create_table("mytable", {{"cf1", 10}, {"cf2", 1}, {"cf3", std::nullopt}});
  EXPECT_EQ(user_tables(), (std::vector<std::string>{"mytable"}));
  HappyTable table(connection, "mytable");
  auto families = table.families();
  ASSERT_EQ(families.size(), 3u);
  EXPECT_EQ(families["cf1"].maxVersions, 10);
  EXPECT_EQ(families["cf3"].maxVersions, 3);  // the IDL's default, as HBase's gateway
  EXPECT_EQ(table.regions().size(), 1u);

  // put and row.
  table.put("row-key", {{"cf1:col1", "value1"}, {"cf1:col2", "value2"}});
  EXPECT_EQ(table.row("row-key"), (Row{{"cf1:col1", "value1"}, {"cf1:col2", "value2"}}));
  EXPECT_EQ(table.row("row-key", {"cf1:col1"}), (Row{{"cf1:col1", "value1"}}));
  EXPECT_EQ(table.row("row-key", {"cf1"}).size(), 2u);
  EXPECT_TRUE(table.row("no-such-row").empty());

  // Timestamps: put at 100 and 200; row(timestamp=200) sees versions before 200.
  table.put("versioned", {{"cf1:v", "old"}}, 100);
  table.put("versioned", {{"cf1:v", "new"}}, 200);
  EXPECT_EQ(table.row("versioned"), (Row{{"cf1:v", "new"}}));
  EXPECT_EQ(table.row("versioned", {}, 200), (Row{{"cf1:v", "old"}}));
  EXPECT_EQ(table.cells("versioned", "cf1:v"), (std::vector<std::string>{"new", "old"}));
  EXPECT_EQ(table.cells("versioned", "cf1:v", 1), (std::vector<std::string>{"new"}));
  EXPECT_EQ(table.cells("versioned", "cf1:v", std::nullopt, 200),
            (std::vector<std::string>{"old"}));

  // rows: the rows that exist, in the order asked.
  table.put("row-key-1", {{"cf1:a", "1"}});
  table.put("row-key-2", {{"cf1:a", "2"}, {"cf2:b", "x"}});
  Rows got = table.rows({"row-key-2", "missing", "row-key-1"});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].first, "row-key-2");
  EXPECT_EQ(got[0].second, (Row{{"cf1:a", "2"}, {"cf2:b", "x"}}));
  EXPECT_EQ(got[1].first, "row-key-1");
  EXPECT_EQ(table.rows({"row-key-2"}, {"cf2"}).at(0).second, (Row{{"cf2:b", "x"}}));
  // With a timestamp and no columns happybase sends each family's name: whole families.
  EXPECT_EQ(table.rows({"versioned"}, {}, 200).at(0).second, (Row{{"cf1:v", "old"}}));
  EXPECT_EQ(table.rows({"versioned"}, {"cf1"}, 200).at(0).second, (Row{{"cf1:v", "old"}}));

  // scan with row_prefix, filter, batch_size and limit.
  for (int i = 0; i < 25; ++i) {
    char key[16];
    std::snprintf(key, sizeof(key), "user-%02d", i);
    table.put(key, {{"cf1:name", std::string("n") + key}, {"cf2:age", std::to_string(i)}});
  }
  table.put("userX", {{"cf1:name", "not a user- row"}});
  HappyTable::ScanArgs all_users;
  all_users.row_prefix = "user-";
  std::vector<size_t> calls;
  Rows users = table.scan(all_users, &calls);
  ASSERT_EQ(users.size(), 25u);
  EXPECT_EQ(users.front().first, "user-00");
  EXPECT_EQ(users.back().first, "user-24");
  EXPECT_EQ(calls, (std::vector<size_t>{25}));  // one short answer: the end

  HappyTable::ScanArgs paged = all_users;
  paged.batch_size = 10;
  calls.clear();
  EXPECT_EQ(table.scan(paged, &calls).size(), 25u);
  EXPECT_EQ(calls, (std::vector<size_t>{10, 10, 5}));

  HappyTable::ScanArgs limited = paged;
  limited.limit = 12;
  calls.clear();
  Rows first12 = table.scan(limited, &calls);
  ASSERT_EQ(first12.size(), 12u);
  EXPECT_EQ(first12.back().first, "user-11");
  EXPECT_EQ(calls, (std::vector<size_t>{10, 2}));

  HappyTable::ScanArgs one = all_users;
  one.limit = 1;  // how_many == 1: scannerGet
  EXPECT_EQ(table.scan(one).at(0).first, "user-00");

  HappyTable::ScanArgs filtered = all_users;
  filtered.filter = "SingleColumnValueFilter('cf2', 'age', =, 'binary:7')";
  Rows seven = table.scan(filtered);
  ASSERT_EQ(seven.size(), 1u);
  EXPECT_EQ(seven[0].first, "user-07");
  EXPECT_EQ(seven[0].second, (Row{{"cf1:name", "nuser-07"}, {"cf2:age", "7"}}));
  HappyTable::ScanArgs names_only = all_users;
  names_only.columns = {"cf1:name"};
  names_only.limit = 2;
  EXPECT_EQ(table.scan(names_only).at(1).second, (Row{{"cf1:name", "nuser-01"}}));

  HappyTable::ScanArgs keys_only;
  keys_only.row_start = "user-20";
  keys_only.row_stop = "user-23";
  keys_only.filter = "KeyOnlyFilter()";
  Rows keys = table.scan(keys_only);
  ASSERT_EQ(keys.size(), 3u);
  EXPECT_EQ(keys[0].second.at("cf1:name"), "");

  HappyTable::ScanArgs wide;  // scan_batching: a row's cells in pieces
  wide.row_prefix = "user-03";
  wide.scan_batching = 1;
  Rows pieces = table.scan(wide);
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(pieces[0].first, pieces[1].first);

  HappyTable::ScanArgs backwards = all_users;
  backwards.reverse = true;
  backwards.row_start = "user-02";
  backwards.row_prefix.reset();
  backwards.row_stop = "user-";
  Rows reversed = table.scan(backwards);
  ASSERT_EQ(reversed.size(), 3u);
  EXPECT_EQ(reversed[0].first, "user-02");

  HappyTable::ScanArgs sorted = all_users;
  sorted.sorted_columns = true;
  sorted.limit = 1;
  EXPECT_EQ(table.scan(sorted).at(0).second, (Row{{"cf1:name", "nuser-00"}, {"cf2:age", "0"}}));

  // Counters.
  EXPECT_EQ(table.counter_get("counters", "cf1:hits"), 0);
  EXPECT_EQ(table.counter_inc("counters", "cf1:hits"), 1);
  EXPECT_EQ(table.counter_inc("counters", "cf1:hits", 10), 11);
  EXPECT_EQ(table.counter_dec("counters", "cf1:hits", 3), 8);
  table.counter_set("counters", "cf1:hits", 100);
  EXPECT_EQ(table.counter_get("counters", "cf1:hits"), 100);
  EXPECT_EQ(table.row("counters").at("cf1:hits"), PackI64(100));

  // delete: columns, then the whole row.
  table.del("row-key", {"cf1:col1"});
  EXPECT_EQ(table.row("row-key"), (Row{{"cf1:col2", "value2"}}));
  table.del("row-key");
  EXPECT_TRUE(table.row("row-key").empty());
  table.del("versioned", {}, 150);  // every family's versions at or before 150
  EXPECT_EQ(table.cells("versioned", "cf1:v"), (std::vector<std::string>{"new"}));

  // A Batch of puts and deletes on several rows, sent every 4 mutations and at the end.
  {
    HappyBatch b(table, std::nullopt, 4);
    b.put("b1", {{"cf1:a", "1"}, {"cf1:b", "2"}});
    b.put("b2", {{"cf1:a", "3"}});
    b.del("b1", {"cf1:b"});  // the 4th mutation: sent, b1's put then its delete
    b.put("b3", {{"cf1:a", "4"}, {"cf2:c", "5"}});
    b.del("b2", {"cf1"});  // a whole family
    b.send();
    EXPECT_EQ(b.sends, 2);
  }
  EXPECT_EQ(table.row("b1"), (Row{{"cf1:a", "1"}}));
  EXPECT_TRUE(table.row("b2").empty());
  EXPECT_EQ(table.row("b3"), (Row{{"cf1:a", "4"}, {"cf2:c", "5"}}));
  {
    HappyBatch b(table, 5000, std::nullopt, /*wal=*/false);
    b.put("b4", {{"cf1:a", "ts"}});
    b.send();
  }
  std::vector<t1::TCell> cells;
  table.client().get(cells, "mytable", "b4", "cf1:a", {});
  EXPECT_EQ(cells.at(0).timestamp, 5000);

  // Table admin: compaction, disable, enable, delete.
  connection.compact_table("mytable", /*major=*/true);
  connection.compact_table("mytable", /*major=*/false);
  EXPECT_EQ(table.row("b1"), (Row{{"cf1:a", "1"}}));
  EXPECT_TRUE(connection.is_table_enabled("mytable"));
  connection.disable_table("mytable");
  EXPECT_FALSE(connection.is_table_enabled("mytable"));
  connection.enable_table("mytable");
  connection.delete_table("mytable", /*disable=*/true);
  EXPECT_TRUE(user_tables().empty());
}

// The calls fail the way happybase surfaces them: a Thrift exception of the IDL's types.
TEST_F(HappybaseTest, ErrorsAreTheIdlsExceptions) {
  HappyConnection connection(server_->thrift1_port());
  connection.create_table("t", {{"cf", std::nullopt}});
  EXPECT_THROW(connection.create_table("t", {{"cf", std::nullopt}}), t1::AlreadyExists);
  HappyTable table(connection, "t");
  EXPECT_THROW(table.put("r", {{"nofamily:q", "v"}}), t1::IOError);
  EXPECT_THROW(table.row("r", {"nofamily"}), t1::IOError);
  EXPECT_THROW(connection.delete_table("t", /*disable=*/false), t1::IOError);  // enabled
  HappyTable missing(connection, "missing");
  EXPECT_THROW(missing.row("r"), t1::IOError);
  std::vector<t1::TRowResult> rows;
  EXPECT_THROW(connection.client->scannerGetList(rows, 999, 1), t1::IllegalArgument);
  // The app's namespace is refused to Thrift1, which has no credentials (docs/security.md).
  HappyTable app(connection, "app:social_users");
  try {
    app.row("alice");
    ADD_FAILURE() << "Thrift1 read the app's users";
  } catch (const t1::IOError& e) {
    EXPECT_EQ(e.message.rfind("PermissionDenied: ", 0), 0u) << e.message;
  }
}

// happybase's transport='framed' and protocol='compact' against `basalt serve
// --thrift1-framed --thrift1-compact`.
TEST_F(HappybaseTest, FramedCompactServerServesAFramedCompactClient) {
  Start({"--thrift1-framed", "--thrift1-compact"});
  HappyConnection connection(server_->thrift1_port(), /*framed=*/true, /*compact=*/true);
  connection.create_table("t", {{"cf", std::nullopt}});
  HappyTable table(connection, "t");
  table.put("r", {{"cf:q", "v"}});
  EXPECT_EQ(table.row("r"), (Row{{"cf:q", "v"}}));
  // happybase's defaults (buffered, binary) on that port fail at once, without a hang.
  HappyConnection wrong(server_->thrift1_port());
  auto started = std::chrono::steady_clock::now();
  EXPECT_ANY_THROW(wrong.tables());
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
}

// The two Thrift ports of one `basalt serve`: a happybase (Thrift1) call on the Thrift2 port,
// and a Thrift2 call on the Thrift1 port, are each an unknown method at once.
TEST_F(HappybaseTest, EachThriftPortRefusesTheOtherProtocolAtOnce) {
  HappyConnection on_thrift2(server_->thrift_port());
  try {
    on_thrift2.tables();
    ADD_FAILURE() << "getTableNames was answered on the Thrift2 port";
  } catch (const apache::thrift::TApplicationException& e) {
    EXPECT_EQ(e.getType(), apache::thrift::TApplicationException::UNKNOWN_METHOD);
  }
  auto socket = std::make_shared<TSocket>("127.0.0.1", server_->thrift1_port());
  socket->setRecvTimeout(5000);
  auto transport = std::make_shared<TBufferedTransport>(socket);
  thrift2::THBaseServiceClient thrift2_client(std::make_shared<TBinaryProtocol>(transport));
  transport->open();
  std::vector<std::string> namespaces;
  try {
    thrift2_client.listNamespaces(namespaces);
    ADD_FAILURE() << "listNamespaces was answered on the Thrift1 port";
  } catch (const apache::thrift::TApplicationException& e) {
    EXPECT_EQ(e.getType(), apache::thrift::TApplicationException::UNKNOWN_METHOD);
  }
  transport->close();
}

}  // namespace
}  // namespace basalt::testing
