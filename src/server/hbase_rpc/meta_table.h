// A synthetic hbase:meta: the rows HBase's client reads to find a table's regions and state,
// made on demand from the store's catalog and the RegionDirectory. For each table T:
//   row "T" (the table's name as HBase prints it): table:state, a TableState message (ENABLED or
//     DISABLED), which tableExists, isTableEnabled and isTableDisabled read;
//   row "T,,<id>.<md5>." (its one region, region_directory.h): info:regioninfo ("PBUF" and a
//     RegionInfo), info:seqnumDuringOpen (8 bytes), info:server ("host:port"),
//     info:serverstartcode (8 bytes), info:sn ("host,port,startcode") and info:state ("OPEN"),
//     which locating a row's region reads (a reversed scan from "T,<row>,99999999999999").
// Rows are ordered as HBase orders meta rows (CompareMetaRows), not by their bytes: a locate
// scan's start row holds the user's row key, which may sort below the region row's empty start
// key as bytes.
//
// Thread safety: every method from any thread.

#ifndef BASALT_SERVER_HBASE_RPC_META_TABLE_H_
#define BASALT_SERVER_HBASE_RPC_META_TABLE_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/admin.h"
#include "basalt/get.h"
#include "basalt/row_result.h"
#include "basalt/scan.h"
#include "basalt/status.h"
#include "basalt/table.h"
#include "hbase_rpc/client_meta_service.h"
#include "server/hbase_rpc/region_directory.h"

namespace basalt::server::hbase_rpc {

// HBase's order of meta rows (MetaCellComparator): by the table part (before the first ','),
// then the start key (up to the last ','), then the rest (the region id and encoded name); a row
// without a ',' (a table's state row) first among its table's rows.
int CompareMetaRows(std::string_view a, std::string_view b);

class MetaTable {
 public:
  // `admin` and `regions` must outlive it. The tables of `reserved_namespaces` have no rows.
  MetaTable(Admin& admin, RegionDirectory& regions, ::basalt::hbase_rpc::ServerIdentity server,
            std::vector<std::string> reserved_namespaces = {})
      : admin_(admin),
        regions_(regions),
        server_(std::move(server)),
        reserved_namespaces_(std::move(reserved_namespaces)) {}

  // The rows of `scan` (start and stop rows, their inclusiveness, reversed, columns, limit), as
  // a scanner over rows made now. A scan with a filter is InvalidArgument: basalt does not
  // filter its synthetic rows.
  Result<std::unique_ptr<ResultScanner>> Scan(const basalt::Scan& scan);

  // The row `get` names, with its columns; empty when there is no such row.
  Result<RowResult> Get(const basalt::Get& get);

 private:
  // The meta rows of the tables whose names lie in [first, last] (empty: unbounded), sorted.
  Result<std::vector<RowResult>> RowsOfTables(std::string_view first, std::string_view last);
  Status AppendRowsOf(const TableName& table, std::vector<RowResult>* rows);

  Admin& admin_;
  RegionDirectory& regions_;
  const ::basalt::hbase_rpc::ServerIdentity server_;
  const std::vector<std::string> reserved_namespaces_;
};

}  // namespace basalt::server::hbase_rpc

#endif  // BASALT_SERVER_HBASE_RPC_META_TABLE_H_
