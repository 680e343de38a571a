// The REST models (models.h) in XML, with the element and attribute names HBase's REST server
// (its JAXB models) uses, e.g.
//
//   <CellSet><Row key="cm93MQ=="><Cell column="Y2Y6YQ==" timestamp="1">dmFsdWU=</Cell></Row>
//   </CellSet>
//   <TableSchema name="t" IS_META="false"><ColumnSchema name="cf" VERSIONS="1"/></TableSchema>
//
// Bytes are base64; text that is not UTF-8, or holds characters XML 1.0 cannot carry, is written
// with U+FFFD in their place.
//
// Reading is safe on hostile input: the parser (pugixml) expands no entities but XML's five and
// character references, reads no DTD and fetches nothing; documents nested deeper than
// kMaxXmlDepth are refused. Unknown elements and attributes are ignored, as JAXB does. Parsers
// return InvalidArgument naming what is wrong; they never throw.

#ifndef BASALT_SERVER_REST_XML_CODEC_H_
#define BASALT_SERVER_REST_XML_CODEC_H_

#include <string>
#include <vector>

#include "basalt/row_result.h"
#include "basalt/status.h"
#include "server/rest/models.h"

namespace basalt::server::rest {

// The deepest element nesting a request body may have (HBase's bodies need 3).
inline constexpr int kMaxXmlDepth = 16;

std::string ToXml(const VersionModel& m);
std::string ToXml(const ClusterVersionModel& m);
std::string ToXml(const ClusterStatusModel& m);
std::string ToXml(const TableListModel& m);
std::string ToXml(const NamespacesModel& m);
std::string ToXml(const NamespacePropertiesModel& m);
std::string ToXml(const TableSchemaModel& m);
std::string ToXml(const TableInfoModel& m);
// A CellSet of `rows` (rows without cells are left out).
std::string ToXml(const std::vector<RowResult>& rows);

Status FromXml(const std::string& body, TableSchemaModel* out);
Status FromXml(const std::string& body, ScannerModel* out);
Status FromXml(const std::string& body, NamespacePropertiesModel* out);
Status FromXml(const std::string& body, std::vector<RowModel>* out);

}  // namespace basalt::server::rest

#endif  // BASALT_SERVER_REST_XML_CODEC_H_
