// The REST models (models.h) as text/plain, byte for byte as HBase's REST server writes them: the
// toString() of its models, which it answers to `Accept: text/plain` and to a wildcard on the
// resources that list text/plain first (the table list, versions, the cluster status, namespaces,
// schemas and regions). E.g. the table list is each name and a newline; a schema is
//
//   { NAME=> 't', IS_META => 'false', COLUMNS => [ { NAME => 'cf', VERSIONS => '1', ... } ] }
//
// Bytes (region keys and names) are written as UTF-8 text, each byte that is not part of a valid
// sequence replaced by U+FFFD, as Java's Bytes.toString decodes them. Only written, never read:
// HBase reads no text/plain body.

#ifndef BASALT_SERVER_REST_TEXT_CODEC_H_
#define BASALT_SERVER_REST_TEXT_CODEC_H_

#include <string>

#include "server/rest/models.h"

namespace basalt::server::rest {

std::string ToText(const VersionModel& m);
std::string ToText(const ClusterVersionModel& m);
std::string ToText(const ClusterStatusModel& m);
std::string ToText(const TableListModel& m);
std::string ToText(const NamespacesModel& m);
std::string ToText(const NamespacePropertiesModel& m);
std::string ToText(const TableSchemaModel& m);
std::string ToText(const TableInfoModel& m);

}  // namespace basalt::server::rest

#endif  // BASALT_SERVER_REST_TEXT_CODEC_H_
