// Test support: opens basalt stores in the configurations every API test runs under, and small
// helpers for building tables and reading results.
//
// Configurations (one suite, many configurations, as LevelDB's ChangeOptions):
//   mem      in-memory store;
//   disk     on-disk store in a fresh temporary directory;
//   reopen   on disk, and Reopen() really closes and reopens the store (tests call it between
//            steps to prove nothing lives only in memory);
//   tiny     on disk with a 64 KiB write buffer, so data is flushed and compacted constantly;
//   thrift   an on-disk store served by an in-process Thrift2Server on a free loopback port, used
//            through the remote backend (thrift://127.0.0.1:PORT): every test runs over the wire;
//   thrift_target  only when BASALT_TEST_THRIFT_TARGET is set (e.g. thrift://hbase-host:9090):
//            the remote backend against that server, such as an HBase cluster's Thrift2 gateway.
//            Tables and namespaces a test creates are dropped when it ends; use a scratch cluster.
//            scripts/hbase.sh starts one (docs/hbase.md), and CTest's `hbase` label runs the suite
//            on it. Where a real HBase answers otherwise on purpose (docs/data-model.md, "Where
//            basalt differs from HBase"), a test asserts HBase's answer when IsRealHBase().

#ifndef BASALT_TESTS_SUPPORT_TEST_STORE_H_
#define BASALT_TESTS_SUPPORT_TEST_STORE_H_

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "basalt/basalt.h"
#include "server/thrift2/thrift2_server.h"

namespace basalt::testing {

// Assertions on Status and Result<T>.
inline Status ToStatus(const Status& s) {
  return s;
}
template <class T>
Status ToStatus(const Result<T>& r) {
  return r.status();
}
#define ASSERT_OK(expr)                                                                       \
  do {                                                                                        \
    ::basalt::Status basalt_test_status_ = ::basalt::testing::ToStatus((expr));               \
    ASSERT_TRUE(basalt_test_status_.ok()) << #expr << ": " << basalt_test_status_.ToString(); \
  } while (0)
#define EXPECT_OK(expr)                                                                       \
  do {                                                                                        \
    ::basalt::Status basalt_test_status_ = ::basalt::testing::ToStatus((expr));               \
    EXPECT_TRUE(basalt_test_status_.ok()) << #expr << ": " << basalt_test_status_.ToString(); \
  } while (0)

enum class StoreKind { kMem, kDisk, kReopen, kTiny, kThrift, kThriftTarget };
std::string StoreKindName(StoreKind kind);
std::vector<StoreKind> AllStoreKinds();
// True for the kinds that go through the Thrift2 remote backend.
bool IsRemote(StoreKind kind);

// Skips the current test on remote kinds, with the reason.
#define BASALT_SKIP_IF_REMOTE(kind, reason)                                            \
  do {                                                                                 \
    if (::basalt::testing::IsRemote(kind)) GTEST_SKIP() << "over Thrift2: " << reason; \
  } while (0)

// A fresh, empty directory under the system temp dir, removed on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// A store for one test.
class TestStore {
 public:
  explicit TestStore(StoreKind kind);
  ~TestStore();

  Connection& conn() { return *conn_; }
  Admin& admin() { return conn_->admin(); }
  StoreKind kind() const { return kind_; }

  // Closes and reopens the store for kReopen; a no-op for the other kinds. Tables obtained
  // before must be fetched again (use table()).
  void Reopen();

  // Flush and major compaction. Thrift2 has no method for either, so on `thrift` they run on the
  // server's own store, as an operator would; on `thrift_target` they are NotSupported (tests
  // that need them skip there: see SupportsMaintenance).
  Status Flush(const TableName& name);
  Status MajorCompact(const TableName& name);
  bool SupportsMaintenance() const { return kind_ != StoreKind::kThriftTarget; }

  // True when the store is an Apache HBase: the thrift_target kind whose server has HBase's
  // catalog table, hbase:meta (a basalt server has no such table).
  bool IsRealHBase() const { return is_hbase_; }

  // Creates `name` with the given families (default settings) and returns it.
  Table& CreateTable(const std::string& name, const std::vector<std::string>& families);
  Table& CreateTable(const TableDescriptor& desc, const std::vector<std::string>& splits = {});
  // The table, reopened if the store was reopened since.
  Table& table(const std::string& name);

 private:
  void Open();

  void DropCreatedObjects();

  StoreKind kind_;
  bool is_hbase_ = false;
  std::unique_ptr<TempDir> dir_;
  // kThrift: the embedded store behind the server, and the server.
  std::unique_ptr<Connection> backing_;
  std::unique_ptr<server::Thrift2Server> server_;
  // kThriftTarget: what existed before the test, so only the test's own objects are dropped.
  std::vector<TableName> tables_before_;
  std::vector<std::string> namespaces_before_;
  std::unique_ptr<Connection> conn_;
  std::map<std::string, std::unique_ptr<Table>> tables_;
};

// Fixture: a TestStore per test, parameterized by StoreKind.
class StoreTest : public ::testing::TestWithParam<StoreKind> {
 protected:
  void SetUp() override { store_ = std::make_unique<TestStore>(GetParam()); }
  void TearDown() override { store_.reset(); }
  TestStore& store() { return *store_; }

  std::unique_ptr<TestStore> store_;
};

#define BASALT_INSTANTIATE_STORE_TEST(suite)                                     \
  INSTANTIATE_TEST_SUITE_P(                                                      \
      AllStores, suite, ::testing::ValuesIn(::basalt::testing::AllStoreKinds()), \
      [](const auto& info) { return ::basalt::testing::StoreKindName(info.param); })

// Reads every row of a scan (fails the test on error).
std::vector<RowResult> ScanAll(Table& table, const Scan& scan = Scan());
// The row keys of a scan.
std::vector<std::string> ScanRows(Table& table, const Scan& scan = Scan());
// How a scan ends: the status of GetScanner, or else of the scanner after reading every row.
Status ScanStatus(Table& table, const Scan& scan);
// "family:qualifier@ts=value" for each cell, for compact expectations.
std::vector<std::string> Describe(const RowResult& r);
std::string Describe(const Cell& c);

}  // namespace basalt::testing

#endif  // BASALT_TESTS_SUPPORT_TEST_STORE_H_
