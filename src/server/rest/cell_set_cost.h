// What a CellSet body (a write's cells) costs in memory once read, before it is read: the
// parser's tree of it (nlohmann's JSON values, pugixml's nodes, protobuf's messages), the
// decoded RowModels, and the Puts made of them. A body of many small cells takes many times its
// size: each empty protobuf Cell is 2 bytes on the wire and a few hundred in memory. The write
// handler reserves this much of the server's memory budget (RequestContext::ReserveMemory)
// before decoding, so such a body is refused (413, or 503 while the server is full) instead of
// allocated.
//
// One pass over the body that allocates nothing that grows with it; an estimate from above
// (every JSON object or XML element counted as a cell, every string as copied at each step), not
// an exact figure. A body its representation cannot read costs what was counted before the
// point where it breaks (decoding it then fails with 400).

#ifndef BASALT_SERVER_REST_CELL_SET_COST_H_
#define BASALT_SERVER_REST_CELL_SET_COST_H_

#include <cstdint>
#include <string_view>

#include "server/rest/representation.h"

namespace basalt::server::rest {

// The bytes `body`, read as `r`, takes in memory as a CellSet, beyond the body itself
// (kOctetStream: the body is one cell's value).
uint64_t CellSetMemoryCost(Representation r, std::string_view body);

}  // namespace basalt::server::rest

#endif  // BASALT_SERVER_REST_CELL_SET_COST_H_
