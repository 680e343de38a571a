#include "server/hbase_rpc/meta_table.h"

#include <algorithm>
#include <utility>

#include "hbase_proto/proto/HBase.pb.h"
#include "server/reserved_namespaces.h"

namespace basalt::server::hbase_rpc {
namespace {

namespace pb = ::hbase::pb;

constexpr std::string_view kInfoFamily = "info";
constexpr std::string_view kTableFamily = "table";

std::string_view TablePart(std::string_view row) {
  return row.substr(0, row.find(','));
}

std::string BigEndian64(uint64_t v) {
  std::string out(8, '\0');
  for (int i = 7; i >= 0; --i, v >>= 8) out[i] = static_cast<char>(v & 0xff);
  return out;
}

// Keeps the cells of `row` that `columns` selects (all when it is empty).
void SelectColumns(const ColumnSelection& columns, RowResult* row) {
  if (columns.empty()) return;
  std::vector<Cell>& cells = row->mutable_cells();
  cells.erase(std::remove_if(cells.begin(), cells.end(),
                             [&columns](const Cell& cell) {
                               auto it = columns.find(cell.family);
                               return it == columns.end() ||
                                      (!it->second.empty() && !it->second.count(cell.qualifier));
                             }),
              cells.end());
}

// Rows made in advance, served in order.
class RowsScanner : public ResultScanner {
 public:
  explicit RowsScanner(std::vector<RowResult> rows) : rows_(std::move(rows)) {}
  bool Next(RowResult* out) override {
    if (next_ >= rows_.size()) return false;
    *out = std::move(rows_[next_++]);
    return true;
  }
  Status status() const override { return Status::OK(); }
  void Close() override { next_ = rows_.size(); }

 private:
  std::vector<RowResult> rows_;
  size_t next_ = 0;
};

}  // namespace

int CompareMetaRows(std::string_view a, std::string_view b) {
  auto sign = [](int c) { return c < 0 ? -1 : c > 0 ? 1 : 0; };
  const std::string_view table_a = TablePart(a), table_b = TablePart(b);
  if (int c = table_a.compare(table_b)) return sign(c);
  const bool region_a = table_a.size() < a.size(), region_b = table_b.size() < b.size();
  if (region_a != region_b) return region_a ? 1 : -1;
  if (!region_a) return 0;
  a.remove_prefix(table_a.size() + 1);
  b.remove_prefix(table_b.size() + 1);
  // The start key runs to the last ',' (a start key may hold ',', a region id may not).
  const size_t end_a = std::min(a.rfind(','), a.size()), end_b = std::min(b.rfind(','), b.size());
  if (int c = a.substr(0, end_a).compare(b.substr(0, end_b))) return sign(c);
  return sign(a.substr(end_a).compare(b.substr(end_b)));
}

Status MetaTable::AppendRowsOf(const TableName& table, std::vector<RowResult>* rows) {
  Result<TableInfo> info = admin_.DescribeTable(table);
  if (info.status().IsNotFound()) return Status::OK();  // dropped meanwhile
  BASALT_RETURN_IF_ERROR(info.status());
  const std::vector<Region> regions = regions_.Regions(table, info->split_keys);
  const auto ts = static_cast<int64_t>(regions.front().id);

  pb::TableState state;
  state.set_state(info->enabled ? pb::TableState::ENABLED : pb::TableState::DISABLED);
  const std::string table_row = table.ToString();
  rows->emplace_back(table_row, std::vector<Cell>{{table_row, std::string(kTableFamily), "state",
                                                   ts, CellType::kPut, state.SerializeAsString()}});

  const std::string host_port = server_.host + ":" + std::to_string(server_.port);
  const std::string server_name =
      server_.host + "," + std::to_string(server_.port) + "," + std::to_string(server_.start_code);
  for (const Region& region : regions) {
    pb::RegionInfo region_info;
    FillRegionInfo(region, &region_info);
    std::vector<Cell> cells;
    auto add = [&](std::string qualifier, std::string value) {
      cells.push_back({region.name, std::string(kInfoFamily), std::move(qualifier), ts,
                       CellType::kPut, std::move(value)});
    };
    // In qualifier order, as a row's cells are.
    add("regioninfo", "PBUF" + region_info.SerializeAsString());
    add("seqnumDuringOpen", BigEndian64(1));
    add("server", host_port);
    add("serverstartcode", BigEndian64(server_.start_code));
    add("sn", server_name);
    add("state", "OPEN");
    rows->emplace_back(region.name, std::move(cells));
  }
  return Status::OK();
}

Result<std::vector<RowResult>> MetaTable::RowsOfTables(std::string_view first,
                                                       std::string_view last) {
  BASALT_ASSIGN_OR_RETURN(std::vector<TableName> tables, admin_.ListTables());
  std::vector<RowResult> rows;
  for (const TableName& table : tables) {
    if (IsReservedNamespace(reserved_namespaces_, table.ns)) continue;
    const std::string name = table.ToString();
    if (!first.empty() && name < first) continue;
    if (!last.empty() && name > last) continue;
    BASALT_RETURN_IF_ERROR(AppendRowsOf(table, &rows));
  }
  std::sort(rows.begin(), rows.end(), [](const RowResult& a, const RowResult& b) {
    return CompareMetaRows(a.row(), b.row()) < 0;
  });
  return rows;
}

Result<std::unique_ptr<ResultScanner>> MetaTable::Scan(const basalt::Scan& scan) {
  if (scan.filter()) {
    return Status::InvalidArgument("a scan of hbase:meta with a filter is not supported");
  }
  if (!scan.row_prefix().empty()) {
    return Status::InvalidArgument("a scan of hbase:meta with a row prefix is not supported");
  }
  // Forward scans run from the start row up to the stop row; reversed ones from the start row
  // down to it.
  std::string_view low = scan.start_row(), high = scan.stop_row();
  bool low_inclusive = scan.start_inclusive(), high_inclusive = scan.stop_inclusive();
  if (scan.reversed()) {
    std::swap(low, high);
    std::swap(low_inclusive, high_inclusive);
  }
  BASALT_ASSIGN_OR_RETURN(std::vector<RowResult> rows,
                          RowsOfTables(TablePart(low), high.empty() ? "" : TablePart(high)));
  std::vector<RowResult> kept;
  for (RowResult& row : rows) {
    if (!low.empty()) {
      const int c = CompareMetaRows(row.row(), low);
      if (c < 0 || (c == 0 && !low_inclusive)) continue;
    }
    if (!high.empty()) {
      const int c = CompareMetaRows(row.row(), high);
      if (c > 0 || (c == 0 && !high_inclusive)) continue;
    }
    SelectColumns(scan.columns(), &row);
    if (!row.empty()) kept.push_back(std::move(row));
  }
  if (scan.reversed()) std::reverse(kept.begin(), kept.end());
  if (scan.limit() > 0 && kept.size() > static_cast<size_t>(scan.limit())) {
    kept.resize(static_cast<size_t>(scan.limit()));
  }
  return std::unique_ptr<ResultScanner>(std::make_unique<RowsScanner>(std::move(kept)));
}

Result<RowResult> MetaTable::Get(const basalt::Get& get) {
  const std::string_view table = TablePart(get.row());
  BASALT_ASSIGN_OR_RETURN(std::vector<RowResult> rows, RowsOfTables(table, table));
  for (RowResult& row : rows) {
    if (row.row() != get.row()) continue;
    SelectColumns(get.columns(), &row);
    return std::move(row);
  }
  return RowResult();
}

}  // namespace basalt::server::hbase_rpc
