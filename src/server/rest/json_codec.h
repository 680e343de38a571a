// The REST models (models.h) in JSON, as HBase's REST server writes and reads them
// (application/json). The CellSet's JSON is cell_set.h's.
//
// Output is byte-for-byte what basalt answered before it had other representations: keys in
// sorted order except in a CellSet, bytes in base64, text that is not UTF-8 replaced.
// Parsers return InvalidArgument naming what is wrong; they never throw.

#ifndef BASALT_SERVER_REST_JSON_CODEC_H_
#define BASALT_SERVER_REST_JSON_CODEC_H_

#include <string>

#include "basalt/status.h"
#include "server/rest/models.h"

namespace basalt::server::rest {

std::string ToJson(const VersionModel& m);
std::string ToJson(const ClusterVersionModel& m);
std::string ToJson(const ClusterStatusModel& m);
std::string ToJson(const TableListModel& m);
std::string ToJson(const NamespacesModel& m);
std::string ToJson(const NamespacePropertiesModel& m);
std::string ToJson(const TableSchemaModel& m);
std::string ToJson(const TableInfoModel& m);

// {"ColumnSchema":[{"name":"cf","VERSIONS":"3",...}]}: attribute values may be strings, integers
// or booleans (kept as text). Top-level table attributes are read too.
Status FromJson(const std::string& body, TableSchemaModel* out);
// {"startRow":"base64",...,"column":["base64"],"filter":"..."}.
Status FromJson(const std::string& body, ScannerModel* out);
// {"properties":{"k":"v"}}.
Status FromJson(const std::string& body, NamespacePropertiesModel* out);
// A CellSet (cell_set.h).
Status FromJson(const std::string& body, std::vector<RowModel>* out);

}  // namespace basalt::server::rest

#endif  // BASALT_SERVER_REST_JSON_CODEC_H_
