#include "thrift1/codec.h"

#include <map>
#include <utility>

#include "basalt/filter_language.h"

namespace basalt::thrift1 {

namespace {

// HBase's Thrift1 cell: the value and the timestamp, nothing of the row or column.
TCell CellOf(const Cell& cell) {
  TCell t;
  t.__set_value(cell.value);
  t.__set_timestamp(cell.timestamp);
  return t;
}

template <class Read>
Status AddColumnsTo(const std::vector<std::string>& columns, Read* read) {
  for (const auto& column : columns) {
    BASALT_ASSIGN_OR_RETURN(ColumnName name, ParseColumn(column));
    if (name.qualifier) {
      read->AddColumn(std::move(name.family), std::move(*name.qualifier));
    } else {
      read->AddFamily(std::move(name.family));
    }
  }
  return Status::OK();
}

// FamilyDescriptor::attributes that Thrift1's ColumnDescriptor carries in typed fields, by
// HBase's names (as the Thrift2 codec and the REST schema keep them), with HBase's defaults for a
// family that was created without them.
constexpr const char* kInMemory = "IN_MEMORY";
constexpr const char* kBlockCache = "BLOCKCACHE";

bool BoolAttribute(const FamilyDescriptor& family, const char* name, bool default_value) {
  auto it = family.attributes.find(name);
  return it == family.attributes.end() ? default_value : it->second == "true";
}

Durability DurabilityOf(bool write_to_wal) {
  return write_to_wal ? Durability::kSyncWal : Durability::kSkipWal;
}

}  // namespace

// ---- Columns ----

Result<ColumnName> ParseColumn(const std::string& column) {
  ColumnName name = ParseColumnName(column);
  if (name.family.empty()) {
    return Status::InvalidArgument("column '" + column + "' names no family");
  }
  return name;
}

Result<ColumnName> ParseQualifiedColumn(const std::string& column) {
  BASALT_ASSIGN_OR_RETURN(ColumnName name, ParseColumn(column));
  if (!name.qualifier) {
    return Status::InvalidArgument("column '" + column +
                                   "' must be family:qualifier (the qualifier may be empty: '" +
                                   column + ":')");
  }
  return name;
}

std::string ColumnOf(const Cell& cell) {
  std::string column;
  column.reserve(cell.family.size() + 1 + cell.qualifier.size());
  column.append(cell.family).append(1, ':').append(cell.qualifier);
  return column;
}

Status AddColumns(const std::vector<std::string>& columns, Get* get) {
  return AddColumnsTo(columns, get);
}

Status AddColumns(const std::vector<std::string>& columns, Scan* scan) {
  return AddColumnsTo(columns, scan);
}

// ---- Schema ----

Result<FamilyDescriptor> FromThrift(const ColumnDescriptor& desc) {
  if (desc.name.empty()) return Status::InvalidArgument("column name is empty");
  FamilyDescriptor f(ParseColumnName(desc.name).family);
  f.max_versions = desc.maxVersions;
  BASALT_ASSIGN_OR_RETURN(f.compression, ParseCompression(desc.compression));
  BASALT_ASSIGN_OR_RETURN(f.bloom_filter, ParseBloomFilter(desc.bloomFilterType));
  f.ttl_seconds = desc.timeToLive > 0 ? desc.timeToLive : kForeverTtl;
  // HBase's colDescFromThrift sets both from the struct whether or not the client set them (the
  // IDL's defaults are false and false), and getColumnDescriptors answers them back.
  f.attributes[kInMemory] = desc.inMemory ? "true" : "false";
  f.attributes[kBlockCache] = desc.blockCacheEnabled ? "true" : "false";
  BASALT_RETURN_IF_ERROR(f.Validate());
  return f;
}

ColumnDescriptor ToThrift(const FamilyDescriptor& family) {
  ColumnDescriptor d;
  d.__set_name(family.name + ":");
  d.__set_maxVersions(family.max_versions);
  d.__set_compression(std::string(CompressionName(family.compression)));
  // Kept and answered back, not acted on: RocksDB's block cache decides what stays in memory.
  d.__set_inMemory(BoolAttribute(family, kInMemory, false));
  d.__set_bloomFilterType(std::string(BloomFilterName(family.bloom_filter)));
  d.__set_bloomFilterVectorSize(0);
  d.__set_bloomFilterNbHashes(0);
  d.__set_blockCacheEnabled(BoolAttribute(family, kBlockCache, true));
  d.__set_timeToLive(family.ttl_seconds);
  return d;
}

TRegionInfo RegionInfo(const TableName& table, const std::vector<std::string>& split_keys,
                       size_t index, const std::string& host, int32_t port) {
  TRegionInfo r;
  std::string start = index == 0 ? std::string() : split_keys[index - 1];
  r.__set_endKey(index == split_keys.size() ? std::string() : split_keys[index]);
  r.__set_id(static_cast<int64_t>(index));
  r.__set_name(table.ToString() + "," + start + "," + std::to_string(index));
  r.__set_startKey(std::move(start));
  // HBase's HREGION_VERSION: region infos are no longer versioned.
  r.__set_version(1);
  r.__set_serverName(host);
  r.__set_port(port);
  return r;
}

// ---- Reads ----

TRowResult ToThrift(const RowResult& result, bool sorted) {
  TRowResult t;
  t.__set_row(result.row());
  if (sorted) {
    std::vector<TColumn> columns;
    columns.reserve(result.size());
    for (const Cell& cell : result.cells()) {
      TColumn c;
      c.__set_columnName(ColumnOf(cell));
      c.__set_cell(CellOf(cell));
      columns.push_back(std::move(c));
    }
    t.__set_sortedColumns(std::move(columns));
  } else {
    // Cells come newest first within a column: the first one of each column is kept. (HBase's
    // map keeps the last, which is the same cell for its Thrift1 reads: they read one version.)
    std::map<std::string, TCell> columns;
    for (const Cell& cell : result.cells()) columns.emplace(ColumnOf(cell), CellOf(cell));
    t.__set_columns(std::move(columns));
  }
  return t;
}

std::vector<TCell> ToCells(const RowResult& result) {
  std::vector<TCell> cells;
  cells.reserve(result.size());
  for (const Cell& cell : result.cells()) cells.push_back(CellOf(cell));
  return cells;
}

void SetRowRange(const std::string& start_row, const std::string& stop_row, Scan* scan) {
  scan->WithStartRow(start_row);
  scan->WithStopRow(stop_row, !start_row.empty() && start_row == stop_row);
}

Result<Scan> FromThrift(const TScan& scan) {
  Scan s;
  if (scan.__isset.startRow) s.WithStartRow(scan.startRow);
  if (scan.__isset.stopRow) {
    SetRowRange(scan.__isset.startRow ? scan.startRow : std::string(), scan.stopRow, &s);
  }
  if (scan.__isset.timestamp) s.SetTimeRange(0, scan.timestamp);
  if (scan.__isset.caching) s.SetCaching(scan.caching);
  if (scan.__isset.batchSize) s.SetBatch(scan.batchSize);
  if (scan.__isset.columns) BASALT_RETURN_IF_ERROR(AddColumns(scan.columns, &s));
  if (scan.__isset.filterString && !scan.filterString.empty()) {
    auto filter = ParseFilter(scan.filterString);
    if (!filter.ok()) return filter.status().WithContext("filterString");
    s.SetFilter(std::move(*filter));
  }
  if (scan.__isset.reversed) s.SetReversed(scan.reversed);
  // cacheBlocks: RocksDB decides what its block cache keeps.
  return s;
}

// ---- Writes ----

Result<RowChange> FromThrift(const std::string& row, const std::vector<Mutation>& mutations,
                             int64_t timestamp, bool strict) {
  RowChange change{Put(row, timestamp), Delete(row)};
  for (const Mutation& m : mutations) {
    BASALT_ASSIGN_OR_RETURN(ColumnName name, ParseColumn(m.column));
    if (m.isDelete) {
      if (name.qualifier) {
        change.del.AddColumns(std::move(name.family), std::move(*name.qualifier), timestamp);
      } else {
        change.del.AddFamily(std::move(name.family), timestamp);
      }
      change.del.SetDurability(DurabilityOf(m.writeToWAL));
      continue;
    }
    if (!name.qualifier) {
      // HBase's mutateRow logs "Delete is the only mutation supported over the whole column
      // family" and goes on; its mutateRows refuses the batch.
      if (strict) {
        return Status::InvalidArgument("a put needs family:qualifier, not the family '" + m.column +
                                       "' alone");
      }
      continue;
    }
    change.put.Add(std::move(name.family), std::move(*name.qualifier), m.value);
    change.put.SetDurability(DurabilityOf(m.writeToWAL));
  }
  return change;
}

Result<Increment> FromThrift(const TIncrement& increment) {
  if (increment.table.empty() || increment.row.empty()) {
    return Status::InvalidArgument("Must supply a table and a row key; can't increment");
  }
  BASALT_ASSIGN_OR_RETURN(ColumnName name, ParseQualifiedColumn(increment.column));
  Increment inc(increment.row);
  inc.AddColumn(std::move(name.family), std::move(*name.qualifier), increment.ammount);
  return inc;
}

Result<Append> FromThrift(const TAppend& append) {
  if (append.table.empty() || append.row.empty()) {
    return Status::InvalidArgument("Must supply a table and a row key; can't append");
  }
  if (append.columns.size() != append.values.size()) {
    return Status::InvalidArgument(
        "Sizes of columns and values in tappend object are not matching");
  }
  Append app(append.row);
  for (size_t i = 0; i < append.columns.size(); ++i) {
    BASALT_ASSIGN_OR_RETURN(ColumnName name, ParseQualifiedColumn(append.columns[i]));
    app.Add(std::move(name.family), std::move(*name.qualifier), append.values[i]);
  }
  return app;
}

}  // namespace basalt::thrift1
