// Hbase (HBase's Thrift1 service) over a basalt Connection: each method converts its arguments
// with the codec (src/thrift1/codec.h), calls the public API, and converts the answer back, with
// the rules of HBase's Thrift1 gateway (ThriftHBaseServiceHandler). Failures leave through
// errors.h only. Operation attributes (every method's `attributes` map) have no basalt
// counterpart and are ignored, as HBase ignores the ones it does not know.

#ifndef BASALT_SERVER_THRIFT1_HANDLER_H_
#define BASALT_SERVER_THRIFT1_HANDLER_H_

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/connection.h"
#include "server/thrift/scanner_registry.h"
#include "thrift1/gen/Hbase.h"

namespace basalt::server {

// Thread safety: a handler may serve many threads at once (the server makes one per connection).
class Thrift1Handler : public thrift1::HbaseIf {
 public:
  using Text = thrift1::Text;
  using Attributes = std::map<Text, Text>;

  // `conn`, `scanners` and `port` must outlive the handler. `host` and `*port` are what region
  // infos report as the server. Every method naming a table of `reserved_namespaces` throws a
  // permission-denied IOError (errors.h). `client` (the peer's address) owns the scanners this
  // handler opens: only handlers of the same client read or close them, and they count against
  // its share of the registry's caps.
  Thrift1Handler(Connection& conn, ScannerRegistry& scanners, std::string host,
                 const std::atomic<int>* port, std::vector<std::string> reserved_namespaces = {},
                 std::string client = {});

  // The most bytes of rows one scannerGetList or multi-row read (getRows and its variants)
  // returns (cell bytes, roughly what goes on the wire). A Thrift1 client takes an answer shorter
  // than it asked for as the end of the scan (happybase stops there), and a getRows answer
  // leaves out only missing rows, so the server may not return fewer rows to stay under it as
  // Thrift2's getScannerRows does: past it, the call is an IOError saying to ask for fewer rows,
  // and a scanner cannot go on. The rows are read one at a time and counted as they come, so
  // the cap bounds what the call holds too, however many times a request names one row. One row
  // is always returned whole, however large.
  static constexpr size_t kMaxResultBytes = 16 << 20;

  // Tables.
  void enableTable(const Text& table) override;
  void disableTable(const Text& table) override;
  bool isTableEnabled(const Text& table) override;
  void compact(const Text& table_or_region) override;
  void majorCompact(const Text& table_or_region) override;
  void getTableNames(std::vector<Text>& out) override;
  void getTableNamesWithIsTableEnabled(std::map<Text, bool>& out) override;
  void getColumnDescriptors(std::map<Text, thrift1::ColumnDescriptor>& out,
                            const Text& table) override;
  void getTableRegions(std::vector<thrift1::TRegionInfo>& out, const Text& table) override;
  void createTable(const Text& table,
                   const std::vector<thrift1::ColumnDescriptor>& families) override;
  void deleteTable(const Text& table) override;

  // Reads.
  void get(std::vector<thrift1::TCell>& out, const Text& table, const Text& row, const Text& column,
           const Attributes& attributes) override;
  void getVer(std::vector<thrift1::TCell>& out, const Text& table, const Text& row,
              const Text& column, int32_t versions, const Attributes& attributes) override;
  void getVerTs(std::vector<thrift1::TCell>& out, const Text& table, const Text& row,
                const Text& column, int64_t timestamp, int32_t versions,
                const Attributes& attributes) override;
  void getRow(std::vector<thrift1::TRowResult>& out, const Text& table, const Text& row,
              const Attributes& attributes) override;
  void getRowWithColumns(std::vector<thrift1::TRowResult>& out, const Text& table, const Text& row,
                         const std::vector<Text>& columns, const Attributes& attributes) override;
  void getRowTs(std::vector<thrift1::TRowResult>& out, const Text& table, const Text& row,
                int64_t timestamp, const Attributes& attributes) override;
  void getRowWithColumnsTs(std::vector<thrift1::TRowResult>& out, const Text& table,
                           const Text& row, const std::vector<Text>& columns, int64_t timestamp,
                           const Attributes& attributes) override;
  void getRows(std::vector<thrift1::TRowResult>& out, const Text& table,
               const std::vector<Text>& rows, const Attributes& attributes) override;
  void getRowsWithColumns(std::vector<thrift1::TRowResult>& out, const Text& table,
                          const std::vector<Text>& rows, const std::vector<Text>& columns,
                          const Attributes& attributes) override;
  void getRowsTs(std::vector<thrift1::TRowResult>& out, const Text& table,
                 const std::vector<Text>& rows, int64_t timestamp,
                 const Attributes& attributes) override;
  void getRowsWithColumnsTs(std::vector<thrift1::TRowResult>& out, const Text& table,
                            const std::vector<Text>& rows, const std::vector<Text>& columns,
                            int64_t timestamp, const Attributes& attributes) override;

  // Writes.
  void mutateRow(const Text& table, const Text& row,
                 const std::vector<thrift1::Mutation>& mutations,
                 const Attributes& attributes) override;
  void mutateRowTs(const Text& table, const Text& row,
                   const std::vector<thrift1::Mutation>& mutations, int64_t timestamp,
                   const Attributes& attributes) override;
  void mutateRows(const Text& table, const std::vector<thrift1::BatchMutation>& batches,
                  const Attributes& attributes) override;
  void mutateRowsTs(const Text& table, const std::vector<thrift1::BatchMutation>& batches,
                    int64_t timestamp, const Attributes& attributes) override;
  int64_t atomicIncrement(const Text& table, const Text& row, const Text& column,
                          int64_t value) override;
  void deleteAll(const Text& table, const Text& row, const Text& column,
                 const Attributes& attributes) override;
  void deleteAllTs(const Text& table, const Text& row, const Text& column, int64_t timestamp,
                   const Attributes& attributes) override;
  void deleteAllRow(const Text& table, const Text& row, const Attributes& attributes) override;
  void increment(const thrift1::TIncrement& increment) override;
  void incrementRows(const std::vector<thrift1::TIncrement>& increments) override;
  void deleteAllRowTs(const Text& table, const Text& row, int64_t timestamp,
                      const Attributes& attributes) override;

  // Scanners.
  thrift1::ScannerID scannerOpenWithScan(const Text& table, const thrift1::TScan& scan,
                                         const Attributes& attributes) override;
  thrift1::ScannerID scannerOpen(const Text& table, const Text& start_row,
                                 const std::vector<Text>& columns,
                                 const Attributes& attributes) override;
  thrift1::ScannerID scannerOpenWithStop(const Text& table, const Text& start_row,
                                         const Text& stop_row, const std::vector<Text>& columns,
                                         const Attributes& attributes) override;
  thrift1::ScannerID scannerOpenWithPrefix(const Text& table, const Text& prefix,
                                           const std::vector<Text>& columns,
                                           const Attributes& attributes) override;
  thrift1::ScannerID scannerOpenTs(const Text& table, const Text& start_row,
                                   const std::vector<Text>& columns, int64_t timestamp,
                                   const Attributes& attributes) override;
  thrift1::ScannerID scannerOpenWithStopTs(const Text& table, const Text& start_row,
                                           const Text& stop_row, const std::vector<Text>& columns,
                                           int64_t timestamp,
                                           const Attributes& attributes) override;
  void scannerGet(std::vector<thrift1::TRowResult>& out, thrift1::ScannerID id) override;
  void scannerGetList(std::vector<thrift1::TRowResult>& out, thrift1::ScannerID id,
                      int32_t rows) override;
  void scannerClose(thrift1::ScannerID id) override;

  // Other.
  void getRegionInfo(thrift1::TRegionInfo& out, const Text& row) override;
  void append(std::vector<thrift1::TCell>& out, const thrift1::TAppend& append) override;
  bool checkAndPut(const Text& table, const Text& row, const Text& column, const Text& value,
                   const thrift1::Mutation& put, const Attributes& attributes) override;
  thrift1::TThriftServerType::type getThriftServerType() override;
  void getClusterId(std::string& out) override;
  // Not served: basalt has no users or permissions to grant (an IOError naming the method).
  bool grant(const thrift1::TAccessControlEntity& info) override;
  bool revoke(const thrift1::TAccessControlEntity& info) override;

 private:
  // The table argument as a name; an IOError when it is malformed, permission denied when its
  // namespace is reserved.
  TableName TableNameOrThrow(const Text& table) const;
  std::unique_ptr<Table> OpenTable(const Text& table);
  // Reads one row per Get, leaving out rows that have no cells (HBase's rowResultFromHBase).
  // Past kMaxResultBytes with rows left to answer, an IOError naming `method` and the cap.
  void ReadRows(std::vector<thrift1::TRowResult>& out, const char* method, const Text& table,
                const std::vector<Text>& rows, const std::vector<Text>& columns, int64_t timestamp);
  void ReadCells(std::vector<thrift1::TCell>& out, const Text& table, const Text& row,
                 const Text& column, int32_t versions, int64_t timestamp);
  void ApplyBatches(const Text& table, const std::vector<thrift1::BatchMutation>& batches,
                    int64_t timestamp);
  void DeleteColumn(const Text& table, const Text& row, const Text& column, int64_t timestamp);
  thrift1::ScannerID OpenScanner(const Text& table, const Scan& scan, bool sort_columns);
  std::vector<thrift1::TRegionInfo> Regions(const TableName& name);

  Connection& conn_;
  ScannerRegistry& scanners_;
  const std::string host_;
  const std::atomic<int>* port_;
  const std::vector<std::string> reserved_namespaces_;
  const std::string client_;
};

}  // namespace basalt::server

#endif  // BASALT_SERVER_THRIFT1_HANDLER_H_
