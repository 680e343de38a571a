// The REST models (models.h) as HBase's REST protobuf messages (package
// org.apache.hadoop.hbase.rest.protobuf.generated; basalt's own .proto files in proto/, compiled
// by protoc into the server layer). application/x-protobuf, and application/protobuf.
//
// Bytes travel raw. Parsers return InvalidArgument for bytes that are no such message (or lack a
// required field); they never throw.

#ifndef BASALT_SERVER_REST_PROTOBUF_CODEC_H_
#define BASALT_SERVER_REST_PROTOBUF_CODEC_H_

#include <string>
#include <vector>

#include "basalt/row_result.h"
#include "basalt/status.h"
#include "server/rest/models.h"

namespace basalt::server::rest {

std::string ToProtobuf(const VersionModel& m);
std::string ToProtobuf(const ClusterStatusModel& m);
std::string ToProtobuf(const TableListModel& m);
std::string ToProtobuf(const NamespacesModel& m);
std::string ToProtobuf(const NamespacePropertiesModel& m);
// ColumnSchema's ttl, maxVersions and compression repeat the TTL, VERSIONS and COMPRESSION
// attributes when they are numbers (ttl, maxVersions) or present (compression).
std::string ToProtobuf(const TableSchemaModel& m);
std::string ToProtobuf(const TableInfoModel& m);
// A CellSet of `rows` (rows without cells are left out).
std::string ToProtobuf(const std::vector<RowResult>& rows);

// The stateless scan's answer (GET /{table}/{prefix}*) as HBase's TableScanResource streams it:
// CellSets of up to kScanChunkRows rows, each behind its length as 2 bytes, big-endian. A scan
// asked for fewer rows than that (`limit`) is one CellSet even when empty; a longer one ends at
// its last row, so no rows is no bytes. A CellSet the 2 bytes cannot frame is split in two (HBase
// writes the length's low 16 bits, which a reader cannot tell from a short message); one row
// alone larger than 65535 bytes is an InvalidArgument.
inline constexpr size_t kScanChunkRows = 10;  // HBase's hbase.rest.scan.fetchsize
Result<std::string> ToProtobufScanStream(const std::vector<RowResult>& rows, int64_t limit);

// ttl, maxVersions, compression, inMemory and readOnly become the TTL, VERSIONS, COMPRESSION,
// IN_MEMORY and READONLY attributes, as HBase reads them.
Status FromProtobuf(const std::string& body, TableSchemaModel* out);
Status FromProtobuf(const std::string& body, ScannerModel* out);
Status FromProtobuf(const std::string& body, NamespacePropertiesModel* out);
Status FromProtobuf(const std::string& body, std::vector<RowModel>* out);

}  // namespace basalt::server::rest

#endif  // BASALT_SERVER_REST_PROTOBUF_CODEC_H_
