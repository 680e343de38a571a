#include "server/rest/protobuf_codec.h"

#include <algorithm>
#include <charconv>
#include <climits>

#include "server/rest/proto/CellMessage.pb.h"
#include "server/rest/proto/CellSetMessage.pb.h"
#include "server/rest/proto/ColumnSchemaMessage.pb.h"
#include "server/rest/proto/NamespacePropertiesMessage.pb.h"
#include "server/rest/proto/NamespacesMessage.pb.h"
#include "server/rest/proto/ScannerMessage.pb.h"
#include "server/rest/proto/StorageClusterStatusMessage.pb.h"
#include "server/rest/proto/TableInfoMessage.pb.h"
#include "server/rest/proto/TableListMessage.pb.h"
#include "server/rest/proto/TableSchemaMessage.pb.h"
#include "server/rest/proto/VersionMessage.pb.h"

namespace basalt::server::rest {

namespace pb = org::apache::hadoop::hbase::rest::protobuf::generated;

namespace {

std::string Serialize(const google::protobuf::MessageLite& message) {
  std::string out;
  message.SerializeToString(&out);
  return out;
}

// Parses `body` into `message`: InvalidArgument when it is not one (or lacks a required field).
// ParseFromString would also log the missing fields to stderr, which a client could flood.
Status Parse(const std::string& body, google::protobuf::MessageLite* message, const char* what) {
  if (!message->ParsePartialFromString(body) || !message->IsInitialized()) {
    return Status::InvalidArgument(std::string("malformed protobuf in the request body: not a ") +
                                   what + " message");
  }
  return Status::OK();
}

// The int32 in `text`, if it is one.
std::optional<int32_t> Int32Of(const std::string& text) {
  int32_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

}  // namespace

std::string ToProtobuf(const VersionModel& m) {
  pb::Version v;
  v.set_restversion(m.rest);
  v.set_jvmversion(m.jvm);
  v.set_osversion(m.os);
  v.set_serverversion(m.server);
  v.set_jerseyversion(m.jersey);
  v.set_version(m.version);
  return Serialize(v);
}

std::string ToProtobuf(const ClusterStatusModel& m) {
  pb::StorageClusterStatus s;
  for (const auto& n : m.live_nodes) {
    pb::StorageClusterStatus::Node* node = s.add_livenodes();
    node->set_name(n.name);
    node->set_startcode(n.start_code);
    node->set_requests(0);
    node->set_heapsizemb(0);
    node->set_maxheapsizemb(0);
    for (const auto& r : n.regions) {
      pb::StorageClusterStatus::Region* region = node->add_regions();
      region->set_name(r.name);
      region->set_stores(r.stores);
      region->set_storefiles(0);
      region->set_storefilesizemb(0);
      region->set_memstoresizemb(0);
      region->set_storefileindexsizekb(0);
      region->set_readrequestscount(0);
      region->set_writerequestscount(0);
      region->set_rootindexsizekb(0);
      region->set_totalstaticindexsizekb(0);
      region->set_totalstaticbloomsizekb(0);
      region->set_totalcompactingkvs(0);
      region->set_currentcompactedkvs(0);
    }
  }
  s.set_regions(m.regions);
  s.set_requests(0);
  s.set_averageload(m.average_load);
  return Serialize(s);
}

std::string ToProtobuf(const TableListModel& m) {
  pb::TableList list;
  for (const auto& name : m.names) list.add_name(name);
  return Serialize(list);
}

std::string ToProtobuf(const NamespacesModel& m) {
  pb::Namespaces list;
  for (const auto& name : m.names) list.add_namespace_(name);
  return Serialize(list);
}

std::string ToProtobuf(const NamespacePropertiesModel& m) {
  pb::NamespaceProperties props;
  for (const auto& [k, v] : m.properties) {
    pb::NamespaceProperties::Property* p = props.add_props();
    p->set_key(k);
    p->set_value(v);
  }
  return Serialize(props);
}

std::string ToProtobuf(const TableSchemaModel& m) {
  pb::TableSchema schema;
  schema.set_name(m.name);
  for (const auto& [k, v] : m.attributes) {
    pb::TableSchema::Attribute* a = schema.add_attrs();
    a->set_name(k);
    a->set_value(v);
  }
  for (const auto& c : m.columns) {
    pb::ColumnSchema* column = schema.add_columns();
    column->set_name(c.name);
    for (const auto& [k, v] : c.attributes) {
      pb::ColumnSchema::Attribute* a = column->add_attrs();
      a->set_name(k);
      a->set_value(v);
    }
    if (auto it = c.attributes.find("TTL"); it != c.attributes.end()) {
      if (auto ttl = Int32Of(it->second)) column->set_ttl(*ttl);
    }
    if (auto it = c.attributes.find("VERSIONS"); it != c.attributes.end()) {
      if (auto versions = Int32Of(it->second)) column->set_maxversions(*versions);
    }
    if (auto it = c.attributes.find("COMPRESSION"); it != c.attributes.end()) {
      column->set_compression(it->second);
    }
  }
  if (auto it = m.attributes.find("READONLY"); it != m.attributes.end()) {
    schema.set_readonly(it->second == "true");
  }
  return Serialize(schema);
}

std::string ToProtobuf(const TableInfoModel& m) {
  pb::TableInfo info;
  info.set_name(m.name);
  for (const auto& r : m.regions) {
    pb::TableInfo::Region* region = info.add_regions();
    region->set_name(r.name);
    region->set_startkey(r.start_key);
    region->set_endkey(r.end_key);
    region->set_id(r.id);
    region->set_location(r.location);
  }
  return Serialize(info);
}

std::string ToProtobuf(const std::vector<RowResult>& rows) {
  pb::CellSet set;
  for (const RowResult& r : rows) {
    if (r.empty()) continue;
    pb::CellSet::Row* row = set.add_rows();
    row->set_key(r.row());
    for (const Cell& c : r.cells()) {
      pb::Cell* cell = row->add_values();
      cell->set_column(c.family + ":" + c.qualifier);
      cell->set_timestamp(c.timestamp);
      cell->set_data(c.value);
    }
  }
  return Serialize(set);
}

namespace {

// Appends rows[begin, end) as framed CellSets, halving the span until each fits the frame.
Status AppendScanChunk(const std::vector<RowResult>& rows, size_t begin, size_t end,
                       std::string* out) {
  std::vector<RowResult> chunk(rows.begin() + static_cast<std::ptrdiff_t>(begin),
                               rows.begin() + static_cast<std::ptrdiff_t>(end));
  std::string message = ToProtobuf(chunk);
  constexpr size_t kMaxFrame = 0xFFFF;
  if (message.size() > kMaxFrame) {
    if (end - begin == 1) {
      return Status::InvalidArgument(
          "row of " + std::to_string(message.size()) +
          " bytes is more than the protobuf scan stream can frame (65535); read it as JSON or "
          "XML, or with a scanner");
    }
    size_t middle = begin + (end - begin) / 2;
    BASALT_RETURN_IF_ERROR(AppendScanChunk(rows, begin, middle, out));
    return AppendScanChunk(rows, middle, end, out);
  }
  out->push_back(static_cast<char>(message.size() >> 8));
  out->push_back(static_cast<char>(message.size() & 0xFF));
  *out += message;
  return Status::OK();
}

}  // namespace

Result<std::string> ToProtobufScanStream(const std::vector<RowResult>& rows, int64_t limit) {
  std::string out;
  if (limit < static_cast<int64_t>(kScanChunkRows)) {
    BASALT_RETURN_IF_ERROR(AppendScanChunk(rows, 0, rows.size(), &out));
    return out;
  }
  for (size_t begin = 0; begin < rows.size(); begin += kScanChunkRows) {
    BASALT_RETURN_IF_ERROR(
        AppendScanChunk(rows, begin, std::min(rows.size(), begin + kScanChunkRows), &out));
  }
  return out;
}

Status FromProtobuf(const std::string& body, TableSchemaModel* out) {
  pb::TableSchema schema;
  BASALT_RETURN_IF_ERROR(Parse(body, &schema, "TableSchema"));
  out->name = schema.name();
  for (const auto& a : schema.attrs()) out->attributes[a.name()] = a.value();
  if (schema.has_inmemory()) out->attributes["IN_MEMORY"] = schema.inmemory() ? "true" : "false";
  if (schema.has_readonly()) out->attributes["READONLY"] = schema.readonly() ? "true" : "false";
  for (const auto& c : schema.columns()) {
    if (!c.has_name()) return Status::InvalidArgument("each ColumnSchema needs a \"name\"");
    ColumnSchemaModel column;
    column.name = c.name();
    for (const auto& a : c.attrs()) column.attributes[a.name()] = a.value();
    if (c.has_ttl()) column.attributes["TTL"] = std::to_string(c.ttl());
    if (c.has_maxversions()) column.attributes["VERSIONS"] = std::to_string(c.maxversions());
    if (c.has_compression()) column.attributes["COMPRESSION"] = c.compression();
    out->columns.push_back(std::move(column));
  }
  return Status::OK();
}

Status FromProtobuf(const std::string& body, ScannerModel* m) {
  pb::Scanner s;
  BASALT_RETURN_IF_ERROR(Parse(body, &s, "Scanner"));
  if (s.has_startrow()) m->start_row = s.startrow();
  if (s.has_endrow()) m->end_row = s.endrow();
  for (const auto& c : s.columns()) m->columns.push_back(c);
  if (s.has_batch()) m->batch = s.batch();
  if (s.has_starttime()) m->start_time = s.starttime();
  if (s.has_endtime()) m->end_time = s.endtime();
  if (s.has_maxversions()) m->max_versions = s.maxversions();
  if (s.has_filter()) m->filter = s.filter();
  if (s.has_caching()) m->caching = s.caching();
  if (s.has_limit()) m->limit = s.limit();
  // labels (visibility) and cacheBlocks: no setting in basalt.
  return Status::OK();
}

Status FromProtobuf(const std::string& body, NamespacePropertiesModel* out) {
  pb::NamespaceProperties props;
  BASALT_RETURN_IF_ERROR(Parse(body, &props, "NamespaceProperties"));
  for (const auto& p : props.props()) out->properties[p.key()] = p.value();
  return Status::OK();
}

Status FromProtobuf(const std::string& body, std::vector<RowModel>* out) {
  pb::CellSet set;
  BASALT_RETURN_IF_ERROR(Parse(body, &set, "CellSet"));
  for (const auto& r : set.rows()) {
    RowModel row;
    // Empty bytes name no row: the path's, as when JSON or XML leave the key out.
    if (!r.key().empty()) row.key = r.key();
    for (const auto& c : r.values()) {
      CellModel cell;
      if (c.has_column()) cell.column = c.column();
      if (c.has_timestamp()) {
        if (c.timestamp() < 0) {
          return Status::InvalidArgument("timestamp must be a non-negative integer");
        }
        cell.timestamp = c.timestamp();
      }
      cell.value = c.data();
      row.cells.push_back(std::move(cell));
    }
    out->push_back(std::move(row));
  }
  return Status::OK();
}

}  // namespace basalt::server::rest
