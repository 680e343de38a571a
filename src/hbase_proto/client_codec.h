// HBase's ClientService messages (Client.proto: Get, Scan, MutationProto, Condition, Result) and
// basalt's public types, as HBase 2.6's region server reads and writes them.
//
// What a request carries that basalt cannot honour is InvalidArgument naming it (the server
// answers DoNotRetryIOException): a column-family time range, closestRowBefore, a mutation's
// tags, a filter condition or a comparator other than BinaryComparator (and NullComparator,
// "the column is absent") in checkAndMutate. What basalt has no use for is accepted and
// ignored: consistency, cache_blocks, load_column_families_on_demand, mvcc read points, read
// types, nonces (a retried Increment or Append whose answer was lost is applied twice, as in
// HBase without its nonce cache).
//
// Thread safety: pure functions.

#ifndef BASALT_HBASE_PROTO_CLIENT_CODEC_H_
#define BASALT_HBASE_PROTO_CLIENT_CODEC_H_

#include <span>

#include "basalt/cell.h"
#include "basalt/check_and_mutate.h"
#include "basalt/get.h"
#include "basalt/mutation.h"
#include "basalt/row_result.h"
#include "basalt/scan.h"
#include "basalt/status.h"
#include "hbase_proto/proto/Client.pb.h"

namespace basalt::hbase_proto {

Result<Get> GetFromProto(const ::hbase::pb::Get& get);

// Everything of the scan but what the server applies across calls: caching, max_result_size,
// allow_partial_results and the limit (ScanRequest.limit_of_rows).
Result<Scan> ScanFromProto(const ::hbase::pb::Scan& scan);

// A mutation with its cells: those of `mutation.column_value`, or, when it has an
// associated_cell_count, the `cells` the caller took for it from the call's cell block (each must
// be of the mutation's row, and of a type its kind allows). Put, Delete, Increment or Append.
Result<Mutation> MutationFromProto(const ::hbase::pb::MutationProto& mutation,
                                   std::span<const Cell> cells);

// The check of a checkAndMutate, without its action.
Result<CheckAndMutate> ConditionFromProto(const ::hbase::pb::Condition& condition);

// `row`'s cells into `*out` (cells inline, not in a cell block). `partial`: more of the row
// follows (a batch or size cut).
void ResultToProto(const RowResult& row, ::hbase::pb::Result* out);

// The Cell.proto form of a cell.
void CellToProto(const Cell& cell, ::hbase::pb::Cell* out);

}  // namespace basalt::hbase_proto

#endif  // BASALT_HBASE_PROTO_CLIENT_CODEC_H_
