// The regions basalt's native RPC server reports, all on the one server: a table's split keys
// (TableInfo::split_keys) bound its regions as they bound HBase's, so that a pre-split table
// shows the regions it was created with (RegionLocator, getRegions, the splits of MapReduce and
// Spark jobs); a table without split keys is one region. basalt serves every row of a table from
// any of its regions: a scan opened in one region runs to the scan's own end and then says the
// scan is over, so a client never walks the regions one by one.
//
// HBase's client caches a region by its name and sends the name back with every call, so the
// name must change when the table it named is gone: a table created or truncated through the
// server gets a new region id (HBase's region ids are creation times, in ms), and a call naming
// an old region is answered NotServingRegionException, on which the client looks the table up
// again. A region name is served once hbase:meta has shown it (Regions).
//
// A table first seen otherwise (it existed when the server started, or another protocol made it)
// gets the id the directory was made with. A table deleted and created again through another
// protocol keeps its id: its cached name still reaches it, as the same table would.
//
// Thread safety: every method from any thread.

#ifndef BASALT_SERVER_HBASE_RPC_REGION_DIRECTORY_H_
#define BASALT_SERVER_HBASE_RPC_REGION_DIRECTORY_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/schema.h"
#include "hbase_proto/proto/HBase.pb.h"
#include "util/mutex.h"

namespace basalt::server::hbase_rpc {

// hbase:meta's region name as the client builds it from the meta location's RegionInfo (id 1,
// and no encoded-name suffix: HBase's old format, which meta keeps).
inline constexpr std::string_view kMetaRegionName = "hbase:meta,,1";

struct Region {
  TableName table;
  uint64_t id = 0;
  // The region's rows: [start_key, end_key); an empty end key is the table's end.
  std::string start_key;
  std::string end_key;
  // "<table>,<start key>,<id>.<md5 hex of '<table>,<start key>,<id>'>.", HBase's region name.
  std::string name;
};

class RegionDirectory {
 public:
  // `first_region_id`: the id of every table the directory has not seen created (the server's
  // start time in ms is what HBase would show).
  explicit RegionDirectory(uint64_t first_region_id) : first_region_id_(first_region_id) {}

  // The table's regions now, bounded by `split_keys` (sorted, distinct, non-empty), which their
  // names then resolve to.
  std::vector<Region> Regions(const TableName& table, const std::vector<std::string>& split_keys);
  // A table just created or truncated: its regions get an id above every id given before.
  void Renew(const TableName& table);
  // The table is gone: its next region, if it comes back, is a new one.
  void Forget(const TableName& table);

  // The table of a region name the client sent, when it names one of the table's current
  // regions that hbase:meta has shown; nullopt otherwise (an old region, garbage):
  // NotServingRegionException.
  std::optional<TableName> Resolve(std::string_view region_name);

 private:
  struct Incarnation {
    uint64_t id = 0;
    std::set<std::string, std::less<>> names;  // the regions shown
  };
  static Region Named(const TableName& table, uint64_t id, std::string start_key,
                      std::string end_key);
  uint64_t NextId() BASALT_REQUIRES(mu_);

  const uint64_t first_region_id_;
  util::Mutex mu_;
  std::map<TableName, Incarnation> tables_ BASALT_GUARDED_BY(mu_);
  uint64_t last_id_ BASALT_GUARDED_BY(mu_) = 0;
};

// The RegionInfo of a region, as hbase:meta's info:regioninfo and region locations carry it.
void FillRegionInfo(const Region& region, ::hbase::pb::RegionInfo* out);

// A region's name as the client shows it in errors: the name with unprintable bytes escaped.
std::string PrintableRegionName(std::string_view name);

}  // namespace basalt::server::hbase_rpc

#endif  // BASALT_SERVER_HBASE_RPC_REGION_DIRECTORY_H_
