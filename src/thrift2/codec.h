// Conversions between basalt's public value types and the Thrift2 structs generated from
// src/server/thrift2/hbase.thrift, in both directions. The server reads requests with the
// From* functions and answers with the To* functions; the remote client does the reverse, so both
// sides share one definition of every mapping (reference digest §4.3, §4.5, §4.6).
//
// Conversions that a value cannot survive (a Thrift2 field basalt has no use for, a basalt option
// Thrift2 cannot carry) return InvalidArgument or NotSupported, never a silent approximation.

#ifndef BASALT_THRIFT2_CODEC_H_
#define BASALT_THRIFT2_CODEC_H_

#include <string>
#include <vector>

#include "basalt/check_and_mutate.h"
#include "basalt/get.h"
#include "basalt/mutation.h"
#include "basalt/row_result.h"
#include "basalt/scan.h"
#include "basalt/schema.h"
#include "basalt/status.h"
#include "thrift2/gen/hbase_types.h"

namespace basalt::thrift2 {

// ---- Names and schema ----
TTableName ToThrift(const TableName& name);
Result<TableName> FromThrift(const TTableName& name);
// A data method's `binary table` argument: "ns:qualifier" or "qualifier".
Result<TableName> ParseTableArgument(const std::string& table);

TColumnFamilyDescriptor ToThrift(const FamilyDescriptor& family);
Result<FamilyDescriptor> FromThrift(const TColumnFamilyDescriptor& family);
TTableDescriptor ToThrift(const TableDescriptor& desc);
Result<TableDescriptor> FromThrift(const TTableDescriptor& desc);
TNamespaceDescriptor ToThrift(const NamespaceDescriptor& ns);
NamespaceDescriptor FromThrift(const TNamespaceDescriptor& ns);

TDurability::type ToThrift(Durability d);
Result<Durability> FromThrift(const TDurability::type& d);

// ---- Reads ----
// A TGet's filterString is parsed with the filter language; a Get's filter is printed with it.
Result<TGet> ToThrift(const Get& get);
Result<Get> FromThrift(const TGet& get);
// Only what TScan can express exactly: the caller (the remote client) handles exclusive starts,
// inclusive stops and prefixes first (see src/client/thrift2/remote_scanner.cc).
Result<TScan> ToThrift(const Scan& scan);
Result<Scan> FromThrift(const TScan& scan);

TResult ToThrift(const RowResult& result);
// The same, into `*out`, which must be default-constructed. Thrift's generated types have no move
// constructor (a TResult returned, pushed into a vector or assigned is copied string by string),
// so a server answering many rows builds each in its place in the answer.
void ToThrift(const RowResult& result, TResult* out);
RowResult FromThrift(const TResult& result);
// The same, taking the strings of `result` (one copy fewer of every value and qualifier).
RowResult FromThrift(TResult&& result);

// ---- Writes ----
Result<TPut> ToThrift(const Put& put);
Result<Put> FromThrift(const TPut& put);
// A TDelete has one delete type for all its columns, so a basalt Delete that mixes kinds becomes
// several TDeletes (apply them atomically with mutateRow).
Result<std::vector<TDelete>> ToThrift(const Delete& del);
Result<Delete> FromThrift(const TDelete& del);
Result<TIncrement> ToThrift(const Increment& inc);
Result<Increment> FromThrift(const TIncrement& inc);
TAppend ToThrift(const Append& app);
Result<Append> FromThrift(const TAppend& app);
Result<TRowMutations> ToThrift(const RowMutations& mutations);
Result<RowMutations> FromThrift(const TRowMutations& mutations);
// The action of a CheckAndMutate as the TRowMutations of Thrift2's checkAndMutate.
Result<TRowMutations> ActionToThrift(const std::string& row, const CheckAndMutate::Action& action);

TCompareOperator::type ToThrift(CompareOp op);
Result<CompareOp> FromThrift(const TCompareOperator::type& op);

}  // namespace basalt::thrift2

#endif  // BASALT_THRIFT2_CODEC_H_
