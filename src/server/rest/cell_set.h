// HBase REST's CellSet in JSON: rows of cells, bytes in base64.
//
//   {"Row":[{"key":"cm93MQ==","Cell":[{"column":"Y2Y6YQ==","timestamp":1700000000000,
//                                      "$":"dmFsdWU="}]}]}
//
// `column` is "family:qualifier" ("family" or "family:" name the family).

#ifndef BASALT_SERVER_REST_CELL_SET_H_
#define BASALT_SERVER_REST_CELL_SET_H_

#include <string>
#include <vector>

#include "basalt/row_result.h"
#include "basalt/status.h"
#include "server/rest/models.h"

namespace basalt::server::rest {

// Parses a CellSet body. InvalidArgument on malformed JSON, a wrong shape, bad base64 or a
// negative timestamp.
Result<std::vector<RowModel>> ParseCellSet(const std::string& body);

// The JSON of `rows` (rows without cells are left out).
std::string CellSetJson(const std::vector<RowResult>& rows);

}  // namespace basalt::server::rest

#endif  // BASALT_SERVER_REST_CELL_SET_H_
