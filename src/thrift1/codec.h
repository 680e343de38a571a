// Conversions between basalt's public value types and the Thrift1 structs generated from
// src/thrift1/Hbase.thrift (service Hbase), with the rules of HBase's Thrift1 gateway
// (ThriftHBaseServiceHandler and ThriftUtilities): columns are "family:qualifier" byte strings,
// a "Ts" method's timestamp is an exclusive upper bound for reads ([0, ts)) and the timestamp of
// every cell it writes or deletes, a missing row is left out of an answer rather than answered
// empty, and a column family's name ends with ':'.
//
// A request basalt cannot represent exactly is InvalidArgument, never a silent approximation.

#ifndef BASALT_THRIFT1_CODEC_H_
#define BASALT_THRIFT1_CODEC_H_

#include <cstdint>
#include <string>
#include <vector>

#include "basalt/cell.h"
#include "basalt/get.h"
#include "basalt/mutation.h"
#include "basalt/row_result.h"
#include "basalt/scan.h"
#include "basalt/schema.h"
#include "basalt/status.h"
#include "thrift1/gen/Hbase_types.h"

namespace basalt::thrift1 {

// ---- Columns ----
// "f:q" → {f, q}; "f:" → {f, ""} (the empty qualifier); "f" → {f, nullopt} (the whole family),
// as HBase's CellUtil.parseColumn. InvalidArgument when the family is empty.
Result<ColumnName> ParseColumn(const std::string& column);
// A column that must name a qualifier (a put, an increment, an append, a check).
Result<ColumnName> ParseQualifiedColumn(const std::string& column);
// "family:qualifier", as HBase's KeyValue.makeColumn.
std::string ColumnOf(const Cell& cell);

// Adds each column to the read: a family alone reads the whole family.
Status AddColumns(const std::vector<std::string>& columns, Get* get);
Status AddColumns(const std::vector<std::string>& columns, Scan* scan);

// ---- Schema ----
// The family named by `desc.name` up to its first ':'. maxVersions, compression (any case),
// bloomFilterType and timeToLive (<= 0: forever) are kept; inMemory and blockCacheEnabled have
// no basalt setting and are kept as the family's IN_MEMORY and BLOCKCACHE attributes, to be
// answered back; the bloom filter sizes are ignored, as HBase does.
Result<FamilyDescriptor> FromThrift(const ColumnDescriptor& desc);
// `name` is "family:"; inMemory and blockCacheEnabled are the family's IN_MEMORY and BLOCKCACHE
// attributes, HBase's defaults (false, true) without them.
ColumnDescriptor ToThrift(const FamilyDescriptor& family);
// Region `index` of a table with `split_keys` (N keys give N + 1 regions), on `host:port`.
// The name is HBase's "table,startKey,id".
TRegionInfo RegionInfo(const TableName& table, const std::vector<std::string>& split_keys,
                       size_t index, const std::string& host, int32_t port);

// ---- Reads ----
// A row's cells as a TRowResult: the `columns` map (newest version of each column), or, with
// `sorted`, the `sortedColumns` list in HBase's cell order.
TRowResult ToThrift(const RowResult& result, bool sorted = false);
// Every cell of the result, in order, as HBase's cellFromHBase.
std::vector<TCell> ToCells(const RowResult& result);
// A TScan's parameters (sortColumns is the caller's to keep: it shapes the answers).
Result<Scan> FromThrift(const TScan& scan);

// Sets the scan's row range as HBase's Thrift1 handler does (the deprecated Scan.setStopRow): the
// stop row is exclusive, except that a non-empty start equal to the stop makes it a one-row scan
// that includes it.
void SetRowRange(const std::string& start_row, const std::string& stop_row, Scan* scan);

// ---- Writes ----
// The mutations of one row with HBase's rules for mutateRow(Ts) and mutateRows(Ts): a delete of
// "f" deletes the family, of "f:q" every version of the column, at or before `timestamp`; a put
// writes `timestamp` (kLatestTimestamp: the server's time); writeToWAL false skips the log.
// A put naming a family alone is InvalidArgument when `strict` (mutateRows), and ignored
// otherwise (mutateRow), as HBase does. Either part may come back empty.
struct RowChange {
  Put put;
  Delete del;
};
Result<RowChange> FromThrift(const std::string& row, const std::vector<Mutation>& mutations,
                             int64_t timestamp, bool strict);
// TIncrement's one counter. InvalidArgument without a table, a row or a qualified column.
Result<Increment> FromThrift(const TIncrement& increment);
// TAppend's columns and values, pairwise. InvalidArgument when their counts differ, or without
// a table, a row or a qualified column.
Result<Append> FromThrift(const TAppend& append);

}  // namespace basalt::thrift1

#endif  // BASALT_THRIFT1_CODEC_H_
