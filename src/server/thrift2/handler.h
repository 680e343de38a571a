// THBaseService over a basalt Connection: each Thrift2 method converts its arguments with the
// codec (src/thrift2/codec.h), calls the public API, and converts the answer back. Failures leave
// through errors.h only.

#ifndef BASALT_SERVER_THRIFT2_HANDLER_H_
#define BASALT_SERVER_THRIFT2_HANDLER_H_

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "basalt/connection.h"
#include "server/thrift2/scanner_registry.h"
#include "thrift2/gen/THBaseService.h"

namespace basalt::server {

using namespace ::basalt::thrift2;  // NOLINT: the generated types are this file's vocabulary

// Thread safety: one handler serves every worker thread.
class Thrift2Handler final : public THBaseServiceIf {
 public:
  // `conn`, `scanners` and `port` must outlive the handler. `host` and `*port` are what region
  // locations report as the server.
  Thrift2Handler(Connection& conn, ScannerRegistry& scanners, std::string host,
                 const std::atomic<int>* port);

  // Data methods.
  bool exists(const std::string& table, const TGet& tget) override;
  void existsAll(std::vector<bool>& out, const std::string& table,
                 const std::vector<TGet>& tgets) override;
  void get(TResult& out, const std::string& table, const TGet& tget) override;
  void getMultiple(std::vector<TResult>& out, const std::string& table,
                   const std::vector<TGet>& tgets) override;
  void put(const std::string& table, const TPut& tput) override;
  bool checkAndPut(const std::string& table, const std::string& row, const std::string& family,
                   const std::string& qualifier, const std::string& value,
                   const TPut& tput) override;
  void putMultiple(const std::string& table, const std::vector<TPut>& tputs) override;
  void deleteSingle(const std::string& table, const TDelete& tdelete) override;
  void deleteMultiple(std::vector<TDelete>& out, const std::string& table,
                      const std::vector<TDelete>& tdeletes) override;
  bool checkAndDelete(const std::string& table, const std::string& row, const std::string& family,
                      const std::string& qualifier, const std::string& value,
                      const TDelete& tdelete) override;
  void increment(TResult& out, const std::string& table, const TIncrement& tincrement) override;
  void append(TResult& out, const std::string& table, const TAppend& tappend) override;
  int32_t openScanner(const std::string& table, const TScan& tscan) override;
  void getScannerRows(std::vector<TResult>& out, int32_t scanner_id, int32_t num_rows) override;
  void closeScanner(int32_t scanner_id) override;
  void mutateRow(const std::string& table, const TRowMutations& trow_mutations) override;
  void getScannerResults(std::vector<TResult>& out, const std::string& table, const TScan& tscan,
                         int32_t num_rows) override;
  void getRegionLocation(THRegionLocation& out, const std::string& table, const std::string& row,
                         bool reload) override;
  void getAllRegionLocations(std::vector<THRegionLocation>& out, const std::string& table) override;
  bool checkAndMutate(const std::string& table, const std::string& row, const std::string& family,
                      const std::string& qualifier, TCompareOperator::type compare_operator,
                      const std::string& value, const TRowMutations& row_mutations) override;

  // Admin methods.
  void getTableDescriptor(TTableDescriptor& out, const TTableName& table) override;
  void getTableDescriptors(std::vector<TTableDescriptor>& out,
                           const std::vector<TTableName>& tables) override;
  bool tableExists(const TTableName& table_name) override;
  void getTableDescriptorsByPattern(std::vector<TTableDescriptor>& out, const std::string& regex,
                                    bool include_sys_tables) override;
  void getTableDescriptorsByNamespace(std::vector<TTableDescriptor>& out,
                                      const std::string& name) override;
  void getTableNamesByPattern(std::vector<TTableName>& out, const std::string& regex,
                              bool include_sys_tables) override;
  void getTableNamesByNamespace(std::vector<TTableName>& out, const std::string& name) override;
  void createTable(const TTableDescriptor& desc,
                   const std::vector<std::string>& split_keys) override;
  void deleteTable(const TTableName& table_name) override;
  void truncateTable(const TTableName& table_name, bool preserve_splits) override;
  void enableTable(const TTableName& table_name) override;
  void disableTable(const TTableName& table_name) override;
  bool isTableEnabled(const TTableName& table_name) override;
  bool isTableDisabled(const TTableName& table_name) override;
  bool isTableAvailable(const TTableName& table_name) override;
  bool isTableAvailableWithSplit(const TTableName& table_name,
                                 const std::vector<std::string>& split_keys) override;
  void addColumnFamily(const TTableName& table_name,
                       const TColumnFamilyDescriptor& column) override;
  void deleteColumnFamily(const TTableName& table_name, const std::string& column) override;
  void modifyColumnFamily(const TTableName& table_name,
                          const TColumnFamilyDescriptor& column) override;
  void modifyTable(const TTableDescriptor& desc) override;
  void createNamespace(const TNamespaceDescriptor& namespace_desc) override;
  void modifyNamespace(const TNamespaceDescriptor& namespace_desc) override;
  void deleteNamespace(const std::string& name) override;
  void getNamespaceDescriptor(TNamespaceDescriptor& out, const std::string& name) override;
  void listNamespaceDescriptors(std::vector<TNamespaceDescriptor>& out) override;
  void listNamespaces(std::vector<std::string>& out) override;
  TThriftServerType::type getThriftServerType() override;
  void getClusterId(std::string& out) override;

  // Methods that do not apply to basalt: each throws a TIOError naming itself.
  void getSlowLogResponses(std::vector<TOnlineLogRecord>& out,
                           const std::set<TServerName>& server_names,
                           const TLogQueryFilter& log_query_filter) override;
  void clearSlowLogResponses(std::vector<bool>& out,
                             const std::set<TServerName>& server_names) override;
  bool grant(const TAccessControlEntity& info) override;
  bool revoke(const TAccessControlEntity& info) override;

 private:
  std::unique_ptr<Table> OpenTable(const std::string& table);
  std::vector<TableName> MatchingTables(const std::string& regex, bool include_sys_tables);
  std::vector<THRegionLocation> RegionLocations(const std::string& table);

  Connection& conn_;
  ScannerRegistry& scanners_;
  const std::string host_;
  const std::atomic<int>* port_;
};

}  // namespace basalt::server

#endif  // BASALT_SERVER_THRIFT2_HANDLER_H_
