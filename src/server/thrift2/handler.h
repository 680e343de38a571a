// THBaseService over a basalt Connection: each Thrift2 method converts its arguments with the
// codec (src/thrift2/codec.h), calls the public API, and converts the answer back. Failures leave
// through errors.h only.

#ifndef BASALT_SERVER_THRIFT2_HANDLER_H_
#define BASALT_SERVER_THRIFT2_HANDLER_H_

#include <atomic>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/connection.h"
#include "server/thrift/scanner_registry.h"
#include "thrift2/gen/THBaseService.h"

namespace basalt::server {

// Thread safety: a handler may serve many threads at once (the server makes one per
// connection, the fuzzer one for all).
class Thrift2Handler : public thrift2::THBaseServiceIf {
 public:
  // `conn`, `scanners` and `port` must outlive the handler. `host` and `*port` are what region
  // locations report as the server. Every method naming a table or namespace of
  // `reserved_namespaces` throws a permission-denied TIOError (errors.h). `client` (the peer's
  // address) owns the scanners this handler opens: only handlers of the same client read or
  // close them, and they count against its share of the registry's caps.
  Thrift2Handler(Connection& conn, ScannerRegistry& scanners, std::string host,
                 const std::atomic<int>* port, std::vector<std::string> reserved_namespaces = {},
                 std::string client = {});

  // The most bytes of results one call returns (cell bytes, roughly what goes on the wire):
  // getScannerRows returns fewer rows than asked once past it (the scanner goes on from there,
  // as HBase's does past hbase.server.scanner.max.result.size), and getScannerResults and
  // getMultiple, which have no next call to continue in, refuse. Without it one call of any of
  // them built every row it named in memory. Rows are read one at a time and counted as they
  // come, so the cap bounds what the call holds too. One row is always returned whole, however
  // large.
  static constexpr size_t kMaxResultBytes = 16 << 20;

  // Data methods.
  bool exists(const std::string& table, const thrift2::TGet& tget) override;
  void existsAll(std::vector<bool>& out, const std::string& table,
                 const std::vector<thrift2::TGet>& tgets) override;
  void get(thrift2::TResult& out, const std::string& table, const thrift2::TGet& tget) override;
  void getMultiple(std::vector<thrift2::TResult>& out, const std::string& table,
                   const std::vector<thrift2::TGet>& tgets) override;
  void put(const std::string& table, const thrift2::TPut& tput) override;
  bool checkAndPut(const std::string& table, const std::string& row, const std::string& family,
                   const std::string& qualifier, const std::string& value,
                   const thrift2::TPut& tput) override;
  void putMultiple(const std::string& table, const std::vector<thrift2::TPut>& tputs) override;
  void deleteSingle(const std::string& table, const thrift2::TDelete& tdelete) override;
  void deleteMultiple(std::vector<thrift2::TDelete>& out, const std::string& table,
                      const std::vector<thrift2::TDelete>& tdeletes) override;
  bool checkAndDelete(const std::string& table, const std::string& row, const std::string& family,
                      const std::string& qualifier, const std::string& value,
                      const thrift2::TDelete& tdelete) override;
  void increment(thrift2::TResult& out, const std::string& table,
                 const thrift2::TIncrement& tincrement) override;
  void append(thrift2::TResult& out, const std::string& table,
              const thrift2::TAppend& tappend) override;
  int32_t openScanner(const std::string& table, const thrift2::TScan& tscan) override;
  void getScannerRows(std::vector<thrift2::TResult>& out, int32_t scanner_id,
                      int32_t num_rows) override;
  void closeScanner(int32_t scanner_id) override;
  void mutateRow(const std::string& table, const thrift2::TRowMutations& trow_mutations) override;
  void getScannerResults(std::vector<thrift2::TResult>& out, const std::string& table,
                         const thrift2::TScan& tscan, int32_t num_rows) override;
  void getRegionLocation(thrift2::THRegionLocation& out, const std::string& table,
                         const std::string& row, bool reload) override;
  void getAllRegionLocations(std::vector<thrift2::THRegionLocation>& out,
                             const std::string& table) override;
  bool checkAndMutate(const std::string& table, const std::string& row, const std::string& family,
                      const std::string& qualifier,
                      thrift2::TCompareOperator::type compare_operator, const std::string& value,
                      const thrift2::TRowMutations& row_mutations) override;

  // Admin methods.
  void getTableDescriptor(thrift2::TTableDescriptor& out,
                          const thrift2::TTableName& table) override;
  void getTableDescriptors(std::vector<thrift2::TTableDescriptor>& out,
                           const std::vector<thrift2::TTableName>& tables) override;
  bool tableExists(const thrift2::TTableName& table_name) override;
  void getTableDescriptorsByPattern(std::vector<thrift2::TTableDescriptor>& out,
                                    const std::string& regex, bool include_sys_tables) override;
  void getTableDescriptorsByNamespace(std::vector<thrift2::TTableDescriptor>& out,
                                      const std::string& name) override;
  void getTableNamesByPattern(std::vector<thrift2::TTableName>& out, const std::string& regex,
                              bool include_sys_tables) override;
  void getTableNamesByNamespace(std::vector<thrift2::TTableName>& out,
                                const std::string& name) override;
  void createTable(const thrift2::TTableDescriptor& desc,
                   const std::vector<std::string>& split_keys) override;
  void deleteTable(const thrift2::TTableName& table_name) override;
  void truncateTable(const thrift2::TTableName& table_name, bool preserve_splits) override;
  void enableTable(const thrift2::TTableName& table_name) override;
  void disableTable(const thrift2::TTableName& table_name) override;
  bool isTableEnabled(const thrift2::TTableName& table_name) override;
  bool isTableDisabled(const thrift2::TTableName& table_name) override;
  bool isTableAvailable(const thrift2::TTableName& table_name) override;
  bool isTableAvailableWithSplit(const thrift2::TTableName& table_name,
                                 const std::vector<std::string>& split_keys) override;
  void addColumnFamily(const thrift2::TTableName& table_name,
                       const thrift2::TColumnFamilyDescriptor& column) override;
  void deleteColumnFamily(const thrift2::TTableName& table_name,
                          const std::string& column) override;
  void modifyColumnFamily(const thrift2::TTableName& table_name,
                          const thrift2::TColumnFamilyDescriptor& column) override;
  void modifyTable(const thrift2::TTableDescriptor& desc) override;
  void createNamespace(const thrift2::TNamespaceDescriptor& namespace_desc) override;
  void modifyNamespace(const thrift2::TNamespaceDescriptor& namespace_desc) override;
  void deleteNamespace(const std::string& name) override;
  void getNamespaceDescriptor(thrift2::TNamespaceDescriptor& out, const std::string& name) override;
  void listNamespaceDescriptors(std::vector<thrift2::TNamespaceDescriptor>& out) override;
  void listNamespaces(std::vector<std::string>& out) override;
  thrift2::TThriftServerType::type getThriftServerType() override;
  void getClusterId(std::string& out) override;

  // Answered as an HBase without a slow log buffer (the default) answers: no records, and
  // nothing cleared on any server named.
  void getSlowLogResponses(std::vector<thrift2::TOnlineLogRecord>& out,
                           const std::set<thrift2::TServerName>& server_names,
                           const thrift2::TLogQueryFilter& log_query_filter) override;
  void clearSlowLogResponses(std::vector<bool>& out,
                             const std::set<thrift2::TServerName>& server_names) override;
  // Answered as an HBase without its access controller (the default) answers: a TIOError that
  // cannot be retried, "... AccessController is not loaded". A reserved namespace or table is
  // refused as everywhere; a table scope needs a valid table name.
  bool grant(const thrift2::TAccessControlEntity& info) override;
  bool revoke(const thrift2::TAccessControlEntity& info) override;

 private:
  // Throws the permission-denied TIOError when `ns` is reserved.
  void RefuseReserved(std::string_view ns) const;
  // The same for the namespace or table a grant or revoke names (a table's name must parse).
  void RefuseReservedScope(const thrift2::TAccessControlEntity& info) const;
  // A table argument as a name, refused when reserved.
  TableName TableNameOrThrow(const thrift2::TTableName& name) const;
  TableName TableNameOrThrow(const std::string& table) const;
  std::unique_ptr<Table> OpenTable(const std::string& table);
  std::vector<TableName> MatchingTables(const std::string& regex, bool include_sys_tables);
  std::vector<thrift2::THRegionLocation> RegionLocations(const std::string& table);

  Connection& conn_;
  ScannerRegistry& scanners_;
  const std::string host_;
  const std::atomic<int>* port_;
  const std::vector<std::string> reserved_namespaces_;
  const std::string client_;
};

}  // namespace basalt::server

#endif  // BASALT_SERVER_THRIFT2_HANDLER_H_
