// HBase's protobuf schema messages (hbase.pb.TableName, TableSchema, ColumnFamilySchema,
// NamespaceDescriptor: what HBase's Java client writes with ProtobufUtil.toTableSchema and its
// kin) and basalt's schema values (basalt/schema.h), both ways.
//
// A family's settings travel as BytesBytesPair attributes by HBase's names, values as text:
//   VERSIONS, MIN_VERSIONS, TTL, BLOCKSIZE     decimal int32 (TTL also "FOREVER" when decoding)
//   COMPRESSION, BLOOMFILTER, KEEP_DELETED_CELLS   HBase's enum names (schema.h's parsers)
// Any other family attribute (IN_MEMORY, BLOCKCACHE, DATA_BLOCK_ENCODING, REPLICATION_SCOPE, ...,
// which Java sends with their defaults) is kept in FamilyDescriptor::attributes as sent. Names
// are matched as Java matches them, case-sensitively.
//
// A table's DURABILITY attribute is TableDescriptor::durability. basalt keeps no other table
// attribute: the region server tuning HBase keeps there (MAX_FILESIZE, MEMSTORE_FLUSHSIZE,
// REGION_REPLICATION, SPLIT_POLICY, ...) is accepted and dropped, but what would change what the
// table does is refused: READONLY=true (basalt would take the writes) and coprocessors
// (coprocessor$N; basalt runs no Java). The `configuration` NameStringPairs of tables and
// families are per-region-server overrides of HBase's configuration, which basalt has none of:
// accepted and dropped.
//
// Decoding fails with InvalidArgument naming the attribute (or name) at fault, and checks the
// result with Validate(). Encoding writes what Java reads back into the same settings.
//
// Thread safety: pure functions.

#ifndef BASALT_HBASE_PROTO_SCHEMA_CODEC_H_
#define BASALT_HBASE_PROTO_SCHEMA_CODEC_H_

#include "basalt/schema.h"
#include "basalt/status.h"
#include "hbase_proto/proto/HBase.pb.h"

namespace basalt::hbase_proto {

// HBase's "default" namespace is basalt's kDefaultNamespace: the same text, on both sides.
void EncodeTableName(const TableName& name, ::hbase::pb::TableName* out);
// InvalidArgument when either part breaks schema.h's name rules.
Result<TableName> DecodeTableName(const ::hbase::pb::TableName& name);

void EncodeFamily(const FamilyDescriptor& family, ::hbase::pb::ColumnFamilySchema* out);
Result<FamilyDescriptor> DecodeFamily(const ::hbase::pb::ColumnFamilySchema& family);

// Families in the descriptor's order. The table attributes are those Java's own descriptor of
// the same table holds: IS_META=false, and DURABILITY unless it is USE_DEFAULT.
void EncodeTable(const TableDescriptor& table, ::hbase::pb::TableSchema* out);
// InvalidArgument also when the schema has no table_name.
Result<TableDescriptor> DecodeTable(const ::hbase::pb::TableSchema& table);

void EncodeNamespace(const NamespaceDescriptor& ns, ::hbase::pb::NamespaceDescriptor* out);
Result<NamespaceDescriptor> DecodeNamespace(const ::hbase::pb::NamespaceDescriptor& ns);

}  // namespace basalt::hbase_proto

#endif  // BASALT_HBASE_PROTO_SCHEMA_CODEC_H_
