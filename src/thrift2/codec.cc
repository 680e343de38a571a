#include "thrift2/codec.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <utility>

#include "basalt/filter_language.h"
#include "hbase_proto/filter_codec.h"

namespace basalt::thrift2 {

namespace {

// FamilyDescriptor::attributes that Thrift2 carries in typed fields.
constexpr const char* kInMemory = "IN_MEMORY";
constexpr const char* kBlockCache = "BLOCKCACHE";
constexpr const char* kReplicationScope = "REPLICATION_SCOPE";

bool IsDecimal(const std::string& text) {
  if (text.empty() || text.size() > 9) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// The integer a client sent for an enum field. The generated code stores any i32 from the wire in
// the enum-typed field, which may name no enumerator; reading the field as its enum type would
// then be undefined behaviour (UBSan's enum check, found by thrift2_request_fuzzer), so its bytes
// are read as the int they are.
template <class E>
int32_t WireInt(const E& field) {
  static_assert(sizeof(E) == sizeof(int32_t));
  int32_t v;
  std::memcpy(&v, &field, sizeof v);
  return v;
}

void AddColumns(const ColumnSelection& columns, std::vector<TColumn>* out) {
  for (const auto& [family, qualifiers] : columns) {
    if (qualifiers.empty()) {
      TColumn c;
      c.__set_family(family);
      out->push_back(std::move(c));
      continue;
    }
    for (const auto& q : qualifiers) {
      TColumn c;
      c.__set_family(family);
      c.__set_qualifier(q);
      out->push_back(std::move(c));
    }
  }
}

// TColumn without a qualifier means the whole family (§2.2); TColumn.timestamp is ignored.
template <class Read>
void SelectColumns(const std::vector<TColumn>& columns, Read* read) {
  for (const auto& c : columns) {
    if (c.__isset.qualifier) {
      read->AddColumn(c.family, c.qualifier);
    } else {
      read->AddFamily(c.family);
    }
  }
}

// The filter string of a filter. An empty FilterList keeps everything (as no filter does) but
// has no form in the filter language, so it is sent as no filter at all.
std::optional<std::string> FilterString(const FilterPtr& filter) {
  if (!filter) return std::nullopt;
  if (filter->type() == Filter::Type::kFilterList &&
      static_cast<const FilterList&>(*filter).filters().empty()) {
    return std::nullopt;
  }
  return FilterToString(*filter);
}

Result<FilterPtr> ParseFilterField(const std::string& text) {
  auto filter = ParseFilter(text);
  if (!filter.ok()) return filter.status().WithContext("filterString");
  return std::move(*filter);
}

// The filter of a TGet or TScan, in HBase's order: filterString is parsed (and must parse), then
// filterBytes, HBase's protobuf form (Java's ThriftConnection sends every filter so), replaces it.
template <class Thrift, class Read>
Status SetFilterFields(const Thrift& t, Read* read) {
  if (t.__isset.filterString && !t.filterString.empty()) {
    BASALT_ASSIGN_OR_RETURN(FilterPtr filter, ParseFilterField(t.filterString));
    read->SetFilter(std::move(filter));
  }
  if (t.__isset.filterBytes) {
    auto filter = hbase_proto::DecodeFilter(t.filterBytes);
    if (!filter.ok()) return filter.status().WithContext("filterBytes");
    read->SetFilter(std::move(*filter));
  }
  return Status::OK();
}

}  // namespace

// ---- Names and schema ----

TTableName ToThrift(const TableName& name) {
  TTableName t;
  t.__set_ns(name.ns);
  t.__set_qualifier(name.qualifier);
  return t;
}

Result<TableName> FromThrift(const TTableName& name) {
  std::string ns = name.__isset.ns && !name.ns.empty() ? name.ns : std::string(kDefaultNamespace);
  BASALT_RETURN_IF_ERROR(ValidateNamespaceName(ns));
  BASALT_RETURN_IF_ERROR(ValidateTableQualifier(name.qualifier));
  return TableName(std::move(ns), name.qualifier);
}

Result<TableName> ParseTableArgument(const std::string& table) {
  return TableName::Parse(table);
}

namespace {

TCompressionAlgorithm::type CompressionToThrift(Compression c) {
  switch (c) {
    case Compression::kNone:
      return TCompressionAlgorithm::NONE;
    case Compression::kSnappy:
      return TCompressionAlgorithm::SNAPPY;
    case Compression::kLz4:
      return TCompressionAlgorithm::LZ4;
    case Compression::kZstd:
      return TCompressionAlgorithm::ZSTD;
    case Compression::kGz:
      return TCompressionAlgorithm::GZ;
  }
  return TCompressionAlgorithm::NONE;
}

Result<Compression> CompressionFromThrift(const TCompressionAlgorithm::type& field) {
  const int32_t c = WireInt(field);
  switch (c) {
    case TCompressionAlgorithm::NONE:
      return Compression::kNone;
    case TCompressionAlgorithm::SNAPPY:
      return Compression::kSnappy;
    case TCompressionAlgorithm::LZ4:
      return Compression::kLz4;
    case TCompressionAlgorithm::ZSTD:
      return Compression::kZstd;
    case TCompressionAlgorithm::GZ:
      return Compression::kGz;
    default:
      return Status::InvalidArgument("compression " + std::to_string(c) +
                                     " is not supported (NONE, GZ, SNAPPY, LZ4, ZSTD are)");
  }
}

TBloomFilterType::type BloomToThrift(BloomFilter b) {
  switch (b) {
    case BloomFilter::kNone:
      return TBloomFilterType::NONE;
    case BloomFilter::kRow:
      return TBloomFilterType::ROW;
    case BloomFilter::kRowCol:
      return TBloomFilterType::ROWCOL;
  }
  return TBloomFilterType::ROW;
}

Result<BloomFilter> BloomFromThrift(const TBloomFilterType::type& field) {
  const int32_t b = WireInt(field);
  switch (b) {
    case TBloomFilterType::NONE:
      return BloomFilter::kNone;
    case TBloomFilterType::ROW:
      return BloomFilter::kRow;
    case TBloomFilterType::ROWCOL:
      return BloomFilter::kRowCol;
    default:
      return Status::InvalidArgument("bloom filter type " + std::to_string(b) +
                                     " is not supported (NONE, ROW, ROWCOL are)");
  }
}

}  // namespace

TColumnFamilyDescriptor ToThrift(const FamilyDescriptor& family) {
  TColumnFamilyDescriptor t;
  t.__set_name(family.name);
  t.__set_maxVersions(family.max_versions);
  t.__set_minVersions(family.min_versions);
  t.__set_timeToLive(family.ttl_seconds);
  t.__set_keepDeletedCells(static_cast<TKeepDeletedCells::type>(family.keep_deleted_cells));
  t.__set_compressionType(CompressionToThrift(family.compression));
  t.__set_bloomnFilterType(BloomToThrift(family.bloom_filter));
  t.__set_blockSize(family.block_size);
  // The attributes HBase gives typed fields travel in them; the others in `attributes`, as
  // HBase's descriptor values.
  std::map<std::string, std::string> rest;
  for (const auto& [key, value] : family.attributes) {
    if (key == kInMemory) {
      t.__set_inMemory(value == "true");
    } else if (key == kBlockCache) {
      t.__set_blockCacheEnabled(value == "true");
    } else if (key == kReplicationScope && IsDecimal(value)) {
      t.__set_scope(std::stoi(value));
    } else {
      rest[key] = value;
    }
  }
  if (!rest.empty()) t.__set_attributes(std::move(rest));
  return t;
}

Result<FamilyDescriptor> FromThrift(const TColumnFamilyDescriptor& family) {
  FamilyDescriptor f(family.name);
  if (family.__isset.maxVersions) f.max_versions = family.maxVersions;
  if (family.__isset.minVersions) f.min_versions = family.minVersions;
  if (family.__isset.timeToLive) f.ttl_seconds = family.timeToLive;
  if (family.__isset.keepDeletedCells) {
    const int32_t k = WireInt(family.keepDeletedCells);
    if (k < 0 || k > 2) {
      return Status::InvalidArgument("keepDeletedCells " + std::to_string(k) + " is unknown");
    }
    f.keep_deleted_cells = static_cast<KeepDeletedCells>(k);
  }
  if (family.__isset.compressionType) {
    BASALT_ASSIGN_OR_RETURN(f.compression, CompressionFromThrift(family.compressionType));
  }
  if (family.__isset.bloomnFilterType) {
    BASALT_ASSIGN_OR_RETURN(f.bloom_filter, BloomFromThrift(family.bloomnFilterType));
  }
  if (family.__isset.blockSize) f.block_size = family.blockSize;
  if (family.__isset.attributes) {
    // HBase's descriptor values may repeat the settings the typed fields carry (VERSIONS, TTL,
    // ...): those are the fields' business.
    static constexpr std::string_view kSettings[] = {
        "NAME",        "VERSIONS",    "MIN_VERSIONS", "TTL", "KEEP_DELETED_CELLS",
        "COMPRESSION", "BLOOMFILTER", "BLOCKSIZE"};
    for (const auto& [key, value] : family.attributes) {
      if (std::find(std::begin(kSettings), std::end(kSettings), key) == std::end(kSettings)) {
        f.attributes[key] = value;
      }
    }
  }
  if (family.__isset.inMemory) f.attributes[kInMemory] = family.inMemory ? "true" : "false";
  if (family.__isset.blockCacheEnabled) {
    f.attributes[kBlockCache] = family.blockCacheEnabled ? "true" : "false";
  }
  if (family.__isset.scope) f.attributes[kReplicationScope] = std::to_string(family.scope);
  return f;
}

TTableDescriptor ToThrift(const TableDescriptor& desc) {
  TTableDescriptor t;
  t.__set_tableName(ToThrift(desc.name));
  std::vector<TColumnFamilyDescriptor> families;
  for (const auto& f : desc.families) families.push_back(ToThrift(f));
  t.__set_columns(std::move(families));
  t.__set_durability(ToThrift(desc.durability));
  return t;
}

Result<TableDescriptor> FromThrift(const TTableDescriptor& desc) {
  BASALT_ASSIGN_OR_RETURN(TableName name, FromThrift(desc.tableName));
  TableDescriptor d(std::move(name));
  for (const auto& f : desc.columns) {
    BASALT_ASSIGN_OR_RETURN(FamilyDescriptor family, FromThrift(f));
    d.AddFamily(std::move(family));
  }
  if (desc.__isset.durability) {
    BASALT_ASSIGN_OR_RETURN(d.durability, FromThrift(desc.durability));
  }
  return d;
}

TNamespaceDescriptor ToThrift(const NamespaceDescriptor& ns) {
  TNamespaceDescriptor t;
  t.__set_name(ns.name);
  t.__set_configuration(ns.configuration);
  return t;
}

NamespaceDescriptor FromThrift(const TNamespaceDescriptor& ns) {
  return NamespaceDescriptor{ns.name, ns.configuration};
}

TDurability::type ToThrift(Durability d) {
  return static_cast<TDurability::type>(d);
}

Result<Durability> FromThrift(const TDurability::type& d) {
  const int32_t v = WireInt(d);
  if (v < 0 || v > 4)
    return Status::InvalidArgument("durability " + std::to_string(v) + " is unknown");
  return static_cast<Durability>(v);
}

// ---- Reads ----

Result<TGet> ToThrift(const Get& get) {
  TGet t;
  t.__set_row(get.row());
  if (!get.columns().empty()) {
    std::vector<TColumn> columns;
    AddColumns(get.columns(), &columns);
    t.__set_columns(std::move(columns));
  }
  if (!get.time_range().IsAll()) {
    TTimeRange range;
    range.minStamp = get.time_range().min;
    range.maxStamp = get.time_range().max;
    t.__set_timeRange(range);
  }
  t.__set_maxVersions(get.max_versions());
  if (auto text = FilterString(get.filter())) t.__set_filterString(*text);
  if (get.max_results_per_family() >= 0) t.__set_storeLimit(get.max_results_per_family());
  if (get.row_offset_per_family() > 0) t.__set_storeOffset(get.row_offset_per_family());
  return t;
}

Result<Get> FromThrift(const TGet& get) {
  Get g(get.row);
  SelectColumns(get.columns, &g);
  if (get.__isset.timestamp) {
    g.SetTimestamp(get.timestamp);
  } else if (get.__isset.timeRange) {
    g.SetTimeRange(get.timeRange.minStamp, get.timeRange.maxStamp);
  }
  if (get.__isset.maxVersions) g.ReadVersions(get.maxVersions);
  BASALT_RETURN_IF_ERROR(SetFilterFields(get, &g));
  if (get.__isset.storeLimit) g.SetMaxResultsPerColumnFamily(get.storeLimit);
  if (get.__isset.storeOffset) g.SetRowOffsetPerColumnFamily(get.storeOffset);
  return g;
}

Result<TScan> ToThrift(const Scan& scan) {
  if (scan.raw())
    return Status::NotSupported("Thrift2 cannot express a raw scan (TScan has no raw)");
  if (scan.max_results_per_family() >= 0 || scan.row_offset_per_family() > 0) {
    return Status::NotSupported(
        "Thrift2 cannot express per-family limits or offsets on a scan (only TGet has them)");
  }
  TScan t;
  if (!scan.start_row().empty()) t.__set_startRow(scan.start_row());
  if (!scan.stop_row().empty()) t.__set_stopRow(scan.stop_row());
  if (!scan.columns().empty()) {
    std::vector<TColumn> columns;
    AddColumns(scan.columns(), &columns);
    t.__set_columns(std::move(columns));
  }
  if (scan.caching() > 0) t.__set_caching(scan.caching());
  t.__set_maxVersions(scan.max_versions());
  if (!scan.time_range().IsAll()) {
    TTimeRange range;
    range.minStamp = scan.time_range().min;
    range.maxStamp = scan.time_range().max;
    t.__set_timeRange(range);
  }
  if (auto text = FilterString(scan.filter())) t.__set_filterString(*text);
  if (scan.batch() > 0) t.__set_batchSize(scan.batch());
  if (scan.reversed()) t.__set_reversed(true);
  if (scan.limit() > 0) {
    t.__set_limit(
        static_cast<int32_t>(std::min<int64_t>(scan.limit(), std::numeric_limits<int32_t>::max())));
  }
  return t;
}

Result<Scan> FromThrift(const TScan& scan) {
  Scan s;
  if (scan.__isset.startRow) s.WithStartRow(scan.startRow);
  if (scan.__isset.stopRow) s.WithStopRow(scan.stopRow);
  SelectColumns(scan.columns, &s);
  if (scan.__isset.caching) s.SetCaching(scan.caching);
  // The IDL default (1) applies when maxVersions is absent; read the member, not __isset.
  s.ReadVersions(scan.maxVersions);
  if (scan.__isset.timeRange) s.SetTimeRange(scan.timeRange.minStamp, scan.timeRange.maxStamp);
  BASALT_RETURN_IF_ERROR(SetFilterFields(scan, &s));
  if (scan.__isset.batchSize) s.SetBatch(scan.batchSize);
  if (scan.__isset.reversed) s.SetReversed(scan.reversed);
  if (scan.__isset.limit) s.SetLimit(scan.limit);
  if (scan.__isset.colFamTimeRangeMap && !scan.colFamTimeRangeMap.empty()) {
    return Status::NotSupported("colFamTimeRangeMap (per-family time ranges) is not supported");
  }
  return s;
}

TResult ToThrift(const RowResult& result) {
  TResult t;
  ToThrift(result, &t);
  return t;
}

void ToThrift(const RowResult& result, TResult* out) {
  TResult& t = *out;
  if (!result.empty()) t.__set_row(result.row());
  // Sized first and filled in place: see codec.h.
  t.columnValues.resize(result.size());
  for (size_t i = 0; i < result.size(); ++i) {
    const Cell& cell = result.cells()[i];
    TColumnValue& cv = t.columnValues[i];
    cv.family = cell.family;
    cv.qualifier = cell.qualifier;
    cv.value = cell.value;
    cv.__set_timestamp(cell.timestamp);
    cv.__set_type(static_cast<int8_t>(cell.type));
  }
  if (result.partial()) t.__set_partial(true);
}

RowResult FromThrift(const TResult& result) {
  return FromThrift(TResult(result));
}

RowResult FromThrift(TResult&& result) {
  std::vector<Cell> cells;
  cells.reserve(result.columnValues.size());
  for (auto& cv : result.columnValues) {
    Cell c;
    c.row = result.row;
    c.family = std::move(cv.family);
    c.qualifier = std::move(cv.qualifier);
    c.value = std::move(cv.value);
    c.timestamp = cv.__isset.timestamp ? cv.timestamp : 0;
    c.type =
        cv.__isset.type ? static_cast<CellType>(static_cast<uint8_t>(cv.type)) : CellType::kPut;
    cells.push_back(std::move(c));
  }
  const bool partial = result.__isset.partial && result.partial;
  return RowResult(std::move(result.row), std::move(cells), partial);
}

// ---- Writes ----

Result<TPut> ToThrift(const Put& put) {
  TPut t;
  t.__set_row(put.row());
  if (put.timestamp() != kLatestTimestamp) t.__set_timestamp(put.timestamp());
  for (const auto& e : put.entries()) {
    TColumnValue cv;
    cv.family = e.family;
    cv.qualifier = e.qualifier;
    cv.value = e.value;
    if (e.timestamp != kLatestTimestamp) cv.__set_timestamp(e.timestamp);
    t.columnValues.push_back(std::move(cv));
  }
  if (put.durability() != Durability::kUseDefault) t.__set_durability(ToThrift(put.durability()));
  return t;
}

Result<Put> FromThrift(const TPut& put) {
  Put p(put.row, put.__isset.timestamp ? put.timestamp : kLatestTimestamp);
  for (const auto& cv : put.columnValues) {
    // A TColumnValue timestamp overrides TPut.timestamp; tags and type are ignored (§4.5).
    if (cv.__isset.timestamp) {
      p.Add(cv.family, cv.qualifier, cv.timestamp, cv.value);
    } else {
      p.Add(cv.family, cv.qualifier, cv.value);
    }
  }
  if (put.__isset.durability) {
    BASALT_ASSIGN_OR_RETURN(Durability d, FromThrift(put.durability));
    p.SetDurability(d);
  }
  return p;
}

Result<std::vector<TDelete>> ToThrift(const Delete& del) {
  std::vector<TDelete> out;
  auto base = [&] {
    TDelete t;
    t.__set_row(del.row());
    if (del.durability() != Durability::kUseDefault) {
      t.__set_durability(ToThrift(del.durability()));
    }
    return t;
  };
  if (del.entries().empty()) {
    TDelete t = base();
    if (del.timestamp() != kLatestTimestamp) t.__set_timestamp(del.timestamp());
    out.push_back(std::move(t));
    return out;
  }
  // One TDelete per run of entries of the same kind, in order.
  for (const auto& e : del.entries()) {
    TDeleteType::type type;
    switch (e.type) {
      case CellType::kDelete:
        type = TDeleteType::DELETE_COLUMN;
        break;
      case CellType::kDeleteColumn:
        type = TDeleteType::DELETE_COLUMNS;
        break;
      case CellType::kDeleteFamily:
        type = TDeleteType::DELETE_FAMILY;
        break;
      case CellType::kDeleteFamilyVersion:
        type = TDeleteType::DELETE_FAMILY_VERSION;
        break;
      default:
        return Status::InvalidArgument("a Delete entry must be a delete kind");
    }
    if (out.empty() || out.back().deleteType != type) {
      TDelete t = base();
      t.__set_deleteType(type);
      out.push_back(std::move(t));
    }
    TColumn c;
    c.__set_family(e.family);
    if (type == TDeleteType::DELETE_COLUMN || type == TDeleteType::DELETE_COLUMNS) {
      c.__set_qualifier(e.qualifier);
    }
    int64_t ts = e.timestamp == kLatestTimestamp ? del.timestamp() : e.timestamp;
    if (ts != kLatestTimestamp) c.__set_timestamp(ts);
    out.back().columns.push_back(std::move(c));
    out.back().__isset.columns = true;
  }
  return out;
}

Result<Delete> FromThrift(const TDelete& del) {
  if (del.columns.empty()) {
    Delete d(del.row, del.__isset.timestamp ? del.timestamp : kLatestTimestamp);
    if (del.__isset.durability) {
      BASALT_ASSIGN_OR_RETURN(Durability dur, FromThrift(del.durability));
      d.SetDurability(dur);
    }
    return d;
  }
  Delete d(del.row);
  // deleteType applies to every column; its IDL default DELETE_COLUMNS holds when it is absent.
  // As HBase's code does (not its IDL comment), a family-only TColumn with DELETE_COLUMN(S)
  // means the column with the empty qualifier (reference §4.6).
  for (const auto& c : del.columns) {
    int64_t ts = c.__isset.timestamp ? c.timestamp : kLatestTimestamp;
    const std::string qualifier = c.__isset.qualifier ? c.qualifier : std::string();
    switch (WireInt(del.deleteType)) {
      case TDeleteType::DELETE_COLUMN:
        d.AddColumn(c.family, qualifier, ts);
        break;
      case TDeleteType::DELETE_COLUMNS:
        d.AddColumns(c.family, qualifier, ts);
        break;
      case TDeleteType::DELETE_FAMILY:
        d.AddFamily(c.family, ts);
        break;
      case TDeleteType::DELETE_FAMILY_VERSION:
        if (!c.__isset.timestamp) {
          return Status::InvalidArgument(
              "Timestamp is required for TDelete with DeleteFamilyVersion type");
        }
        d.AddFamilyVersion(c.family, ts);
        break;
      default:
        return Status::InvalidArgument("deleteType " + std::to_string(WireInt(del.deleteType)) +
                                       " is unknown");
    }
  }
  if (del.__isset.durability) {
    BASALT_ASSIGN_OR_RETURN(Durability dur, FromThrift(del.durability));
    d.SetDurability(dur);
  }
  return d;
}

Result<TIncrement> ToThrift(const Increment& inc) {
  if (!inc.time_range().IsAll()) {
    return Status::NotSupported("Thrift2 cannot express an Increment's time range");
  }
  TIncrement t;
  t.__set_row(inc.row());
  for (const auto& e : inc.entries()) {
    TColumnIncrement c;
    c.family = e.family;
    c.qualifier = e.qualifier;
    c.__set_amount(e.amount);
    t.columns.push_back(std::move(c));
  }
  if (inc.durability() != Durability::kUseDefault) t.__set_durability(ToThrift(inc.durability()));
  t.__set_returnResults(inc.return_results());
  return t;
}

Result<Increment> FromThrift(const TIncrement& inc) {
  Increment i(inc.row);
  // The IDL default amount (1) applies when it is absent: read the member.
  for (const auto& c : inc.columns) i.AddColumn(c.family, c.qualifier, c.amount);
  if (inc.__isset.durability) {
    BASALT_ASSIGN_OR_RETURN(Durability d, FromThrift(inc.durability));
    i.SetDurability(d);
  }
  if (inc.__isset.returnResults) i.SetReturnResults(inc.returnResults);
  return i;
}

TAppend ToThrift(const Append& app) {
  TAppend t;
  t.__set_row(app.row());
  for (const auto& e : app.entries()) {
    TColumnValue cv;
    cv.family = e.family;
    cv.qualifier = e.qualifier;
    cv.value = e.value;
    t.columns.push_back(std::move(cv));
  }
  if (app.durability() != Durability::kUseDefault) t.__set_durability(ToThrift(app.durability()));
  t.__set_returnResults(app.return_results());
  return t;
}

Result<Append> FromThrift(const TAppend& app) {
  Append a(app.row);
  for (const auto& cv : app.columns) a.Add(cv.family, cv.qualifier, cv.value);
  if (app.__isset.durability) {
    BASALT_ASSIGN_OR_RETURN(Durability d, FromThrift(app.durability));
    a.SetDurability(d);
  }
  if (app.__isset.returnResults) a.SetReturnResults(app.returnResults);
  return a;
}

namespace {

Status AppendItem(const RowMutations::Item& item, std::vector<TMutation>* out) {
  if (const auto* put = std::get_if<Put>(&item)) {
    BASALT_ASSIGN_OR_RETURN(TPut tput, ToThrift(*put));
    TMutation m;
    m.__set_put(std::move(tput));
    out->push_back(std::move(m));
    return Status::OK();
  }
  BASALT_ASSIGN_OR_RETURN(std::vector<TDelete> deletes, ToThrift(std::get<Delete>(item)));
  for (auto& d : deletes) {
    TMutation m;
    m.__set_deleteSingle(std::move(d));
    out->push_back(std::move(m));
  }
  return Status::OK();
}

}  // namespace

Result<TRowMutations> ToThrift(const RowMutations& mutations) {
  TRowMutations t;
  t.__set_row(mutations.row());
  for (const auto& item : mutations.items()) {
    BASALT_RETURN_IF_ERROR(AppendItem(item, &t.mutations));
  }
  return t;
}

Result<RowMutations> FromThrift(const TRowMutations& mutations) {
  RowMutations rm(mutations.row);
  for (const auto& m : mutations.mutations) {
    if (m.__isset.put) {
      BASALT_ASSIGN_OR_RETURN(Put p, FromThrift(m.put));
      rm.Add(std::move(p));
    } else if (m.__isset.deleteSingle) {
      BASALT_ASSIGN_OR_RETURN(Delete d, FromThrift(m.deleteSingle));
      rm.Add(std::move(d));
    } else {
      return Status::InvalidArgument("a TMutation sets neither put nor deleteSingle");
    }
  }
  return rm;
}

Result<TRowMutations> ActionToThrift(const std::string& row, const CheckAndMutate::Action& action) {
  if (const auto* rm = std::get_if<RowMutations>(&action)) return ToThrift(*rm);
  TRowMutations t;
  t.__set_row(row);
  if (const auto* put = std::get_if<Put>(&action)) {
    BASALT_RETURN_IF_ERROR(AppendItem(*put, &t.mutations));
  } else {
    BASALT_RETURN_IF_ERROR(AppendItem(std::get<Delete>(action), &t.mutations));
  }
  return t;
}

TCompareOperator::type ToThrift(CompareOp op) {
  return static_cast<TCompareOperator::type>(op);
}

Result<CompareOp> FromThrift(const TCompareOperator::type& op) {
  const int32_t v = WireInt(op);
  if (v < 0 || v > 6) {
    return Status::InvalidArgument("compare operator " + std::to_string(v) + " is unknown");
  }
  return static_cast<CompareOp>(v);
}

}  // namespace basalt::thrift2
