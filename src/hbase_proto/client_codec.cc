#include "hbase_proto/client_codec.h"

#include <string>

#include "hbase_proto/comparator_codec.h"
#include "hbase_proto/filter_codec.h"
#include "hbase_proto/message_parse.h"

namespace basalt::hbase_proto {
namespace {

namespace pb = ::hbase::pb;

// HBase's Mutation.RETURN_RESULTS attribute: Increment and Append answer their new values unless
// it holds false (Bytes.toBytes(false), one zero byte).
constexpr std::string_view kReturnResultsAttribute = "_rr_";
constexpr std::string_view kNullComparator = "org.apache.hadoop.hbase.filter.NullComparator";
constexpr std::string_view kBinaryComparator = "org.apache.hadoop.hbase.filter.BinaryComparator";

Result<TimeRange> TimeRangeFromProto(const pb::TimeRange& range) {
  TimeRange out;
  if (range.has_from()) out.min = static_cast<int64_t>(range.from());
  if (range.has_to()) out.max = static_cast<int64_t>(range.to());
  if (out.min < 0 || out.max < 0 || out.min > out.max) {
    return Status::InvalidArgument("the time range [" + std::to_string(out.min) + ", " +
                                   std::to_string(out.max) + ") is not a valid one");
  }
  return out;
}

// A column selection of Get.column / Scan.column: a family alone, or its qualifiers.
template <class Request>
void AddColumns(const google::protobuf::RepeatedPtrField<pb::Column>& columns, Request* request) {
  for (const pb::Column& column : columns) {
    if (column.qualifier_size() == 0) {
      request->AddFamily(column.family());
    } else {
      for (const std::string& qualifier : column.qualifier()) {
        request->AddColumn(column.family(), qualifier);
      }
    }
  }
}

Result<FilterPtr> FilterFromProto(const pb::Filter& filter) {
  return DecodeFilter(filter.SerializeAsString());
}

Status CheckReadOptions(const google::protobuf::RepeatedPtrField<pb::ColumnFamilyTimeRange>& ranges,
                        std::string_view what) {
  if (!ranges.empty()) {
    return Status::InvalidArgument(std::string(what) +
                                   " with a per-family time range (cf_time_range, Java's "
                                   "setColumnFamilyTimeRange) is not supported");
  }
  return Status::OK();
}

int32_t VersionsFromProto(uint32_t max_versions) {
  return max_versions > static_cast<uint32_t>(INT32_MAX) ? INT32_MAX
                                                         : static_cast<int32_t>(max_versions);
}

bool ReturnResults(const pb::MutationProto& mutation) {
  for (const pb::NameBytesPair& attribute : mutation.attribute()) {
    if (attribute.name() == kReturnResultsAttribute && attribute.has_value()) {
      return attribute.value().empty() || attribute.value()[0] != 0;
    }
  }
  return true;
}

// One cell of a mutation, wherever it came from: the protobuf's QualifierValue or a cell block.
struct MutationCell {
  std::string_view family;
  std::string_view qualifier;
  std::string_view value;
  int64_t timestamp;
  // Deletes: the kind of marker; puts, increments and appends: kPut.
  CellType type;
};

Result<CellType> DeleteTypeFromProto(pb::MutationProto::DeleteType type) {
  switch (type) {
    case pb::MutationProto::DELETE_ONE_VERSION:
      return CellType::kDelete;
    case pb::MutationProto::DELETE_MULTIPLE_VERSIONS:
      return CellType::kDeleteColumn;
    case pb::MutationProto::DELETE_FAMILY:
      return CellType::kDeleteFamily;
    case pb::MutationProto::DELETE_FAMILY_VERSION:
      return CellType::kDeleteFamilyVersion;
  }
  return Status::InvalidArgument("delete type " + std::to_string(type) + " is not HBase's");
}

Result<std::vector<MutationCell>> CellsOf(const pb::MutationProto& mutation,
                                          std::span<const Cell> cells, int64_t timestamp) {
  std::vector<MutationCell> out;
  const bool is_delete = mutation.mutate_type() == pb::MutationProto::DELETE;
  for (const Cell& cell : cells) {
    if (cell.row != mutation.row()) {
      return Status::InvalidArgument(
          "a cell of the cell block is of another row than its mutation");
    }
    if (!is_delete && cell.type != CellType::kPut) {
      return Status::InvalidArgument("a " + std::string(CellTypeName(cell.type)) +
                                     " cell in a mutation that deletes nothing");
    }
    if (is_delete && cell.type == CellType::kPut) {
      return Status::InvalidArgument("a Put cell in a Delete");
    }
    out.push_back({cell.family, cell.qualifier, cell.value, cell.timestamp, cell.type});
  }
  for (const pb::MutationProto::ColumnValue& column : mutation.column_value()) {
    for (const pb::MutationProto::ColumnValue::QualifierValue& qv : column.qualifier_value()) {
      if (!qv.tags().empty()) return Status::InvalidArgument("cell tags are not supported");
      MutationCell cell{column.family(), qv.qualifier(), qv.value(),
                        qv.has_timestamp() ? static_cast<int64_t>(qv.timestamp()) : timestamp,
                        CellType::kPut};
      if (is_delete) {
        BASALT_ASSIGN_OR_RETURN(cell.type, DeleteTypeFromProto(qv.delete_type()));
      } else if (!qv.has_value()) {
        return Status::InvalidArgument("a cell of the mutation has no value");
      }
      out.push_back(cell);
    }
  }
  return out;
}

Result<int64_t> AmountOf(const MutationCell& cell) {
  if (cell.value.size() != 8) {
    return Status::InvalidArgument("an increment amount must be 8 bytes (a long), not " +
                                   std::to_string(cell.value.size()));
  }
  uint64_t v = 0;
  for (unsigned char c : cell.value) v = (v << 8) | c;
  return static_cast<int64_t>(v);
}

}  // namespace

Result<Get> GetFromProto(const pb::Get& proto) {
  if (proto.closest_row_before()) {
    return Status::InvalidArgument("closestRowBefore is not supported (a reversed scan does it)");
  }
  BASALT_RETURN_IF_ERROR(CheckReadOptions(proto.cf_time_range(), "a Get"));
  Get get(proto.row());
  AddColumns(proto.column(), &get);
  get.ReadVersions(VersionsFromProto(proto.max_versions()));
  if (proto.has_time_range()) {
    BASALT_ASSIGN_OR_RETURN(TimeRange range, TimeRangeFromProto(proto.time_range()));
    get.SetTimeRange(range.min, range.max);
  }
  if (proto.has_store_limit()) {
    get.SetMaxResultsPerColumnFamily(VersionsFromProto(proto.store_limit()));
  }
  if (proto.has_store_offset()) {
    get.SetRowOffsetPerColumnFamily(VersionsFromProto(proto.store_offset()));
  }
  if (proto.has_filter()) {
    BASALT_ASSIGN_OR_RETURN(FilterPtr filter, FilterFromProto(proto.filter()));
    get.SetFilter(std::move(filter));
  }
  return get;
}

Result<Scan> ScanFromProto(const pb::Scan& proto) {
  BASALT_RETURN_IF_ERROR(CheckReadOptions(proto.cf_time_range(), "a Scan"));
  Scan scan;
  scan.WithStartRow(proto.start_row(), proto.include_start_row());
  scan.WithStopRow(proto.stop_row(), proto.include_stop_row());
  scan.SetReversed(proto.reversed());
  AddColumns(proto.column(), &scan);
  scan.ReadVersions(VersionsFromProto(proto.max_versions()));
  if (proto.has_time_range()) {
    BASALT_ASSIGN_OR_RETURN(TimeRange range, TimeRangeFromProto(proto.time_range()));
    scan.SetTimeRange(range.min, range.max);
  }
  if (proto.batch_size() > 0) scan.SetBatch(VersionsFromProto(proto.batch_size()));
  if (proto.has_store_limit()) {
    scan.SetMaxResultsPerColumnFamily(VersionsFromProto(proto.store_limit()));
  }
  if (proto.has_store_offset()) {
    scan.SetRowOffsetPerColumnFamily(VersionsFromProto(proto.store_offset()));
  }
  for (const pb::NameBytesPair& attribute : proto.attribute()) {
    // Scan.setRaw: HBase's "_raw_" attribute, Bytes.toBytes(true).
    if (attribute.name() == "_raw_" && !attribute.value().empty() && attribute.value()[0] != 0) {
      scan.SetRaw(true);
    }
  }
  if (proto.has_filter()) {
    BASALT_ASSIGN_OR_RETURN(FilterPtr filter, FilterFromProto(proto.filter()));
    scan.SetFilter(std::move(filter));
  }
  return scan;
}

Result<Mutation> MutationFromProto(const pb::MutationProto& proto, std::span<const Cell> cells) {
  if (!proto.has_row()) return Status::InvalidArgument("a mutation without a row");
  if (!proto.has_mutate_type()) return Status::InvalidArgument("a mutation without a type");
  const int64_t timestamp =
      proto.has_timestamp() ? static_cast<int64_t>(proto.timestamp()) : kLatestTimestamp;
  if (timestamp < 0) return Status::InvalidArgument("a negative timestamp");
  BASALT_ASSIGN_OR_RETURN(std::vector<MutationCell> parts, CellsOf(proto, cells, timestamp));
  const auto durability = static_cast<Durability>(proto.durability());
  switch (proto.mutate_type()) {
    case pb::MutationProto::PUT: {
      if (parts.empty()) return Status::InvalidArgument("a Put without cells");
      Put put(proto.row(), timestamp);
      for (const MutationCell& cell : parts) {
        if (cell.timestamp < 0) return Status::InvalidArgument("a negative timestamp");
        put.Add(std::string(cell.family), std::string(cell.qualifier), cell.timestamp,
                std::string(cell.value));
      }
      put.SetDurability(durability);
      return Mutation(std::move(put));
    }
    case pb::MutationProto::DELETE: {
      Delete del(proto.row(), timestamp);
      for (const MutationCell& cell : parts) {
        std::string family(cell.family);
        switch (cell.type) {
          case CellType::kDelete:
            del.AddColumn(std::move(family), std::string(cell.qualifier), cell.timestamp);
            break;
          case CellType::kDeleteColumn:
            del.AddColumns(std::move(family), std::string(cell.qualifier), cell.timestamp);
            break;
          case CellType::kDeleteFamily:
            del.AddFamily(std::move(family), cell.timestamp);
            break;
          case CellType::kDeleteFamilyVersion:
            del.AddFamilyVersion(std::move(family), cell.timestamp);
            break;
          case CellType::kPut:
            return Status::InvalidArgument("a Put cell in a Delete");
        }
      }
      del.SetDurability(durability);
      return Mutation(std::move(del));
    }
    case pb::MutationProto::INCREMENT: {
      if (parts.empty()) return Status::InvalidArgument("an Increment without columns");
      Increment inc(proto.row());
      for (const MutationCell& cell : parts) {
        BASALT_ASSIGN_OR_RETURN(int64_t amount, AmountOf(cell));
        inc.AddColumn(std::string(cell.family), std::string(cell.qualifier), amount);
      }
      if (proto.has_time_range()) {
        BASALT_ASSIGN_OR_RETURN(TimeRange range, TimeRangeFromProto(proto.time_range()));
        inc.SetTimeRange(range);
      }
      inc.SetReturnResults(ReturnResults(proto));
      inc.SetDurability(durability);
      return Mutation(std::move(inc));
    }
    case pb::MutationProto::APPEND: {
      if (parts.empty()) return Status::InvalidArgument("an Append without columns");
      if (proto.has_time_range() &&
          (proto.time_range().from() != 0 ||
           (proto.time_range().has_to() &&
            proto.time_range().to() != static_cast<uint64_t>(kLatestTimestamp)))) {
        return Status::InvalidArgument("an Append with a time range is not supported");
      }
      Append app(proto.row());
      for (const MutationCell& cell : parts) {
        app.Add(std::string(cell.family), std::string(cell.qualifier), std::string(cell.value));
      }
      app.SetReturnResults(ReturnResults(proto));
      app.SetDurability(durability);
      return Mutation(std::move(app));
    }
  }
  return Status::InvalidArgument("mutation type " + std::to_string(proto.mutate_type()) +
                                 " is not HBase's");
}

Result<CheckAndMutate> ConditionFromProto(const pb::Condition& condition) {
  if (condition.has_filter()) {
    return Status::InvalidArgument("checkAndMutate with a filter condition is not supported");
  }
  if (!condition.has_family() || !condition.has_qualifier() || !condition.has_compare_type() ||
      !condition.has_comparator()) {
    return Status::InvalidArgument(
        "a checkAndMutate condition without its column, operator or "
        "comparator");
  }
  CheckAndMutate cam(condition.row());
  const auto op = static_cast<CompareOp>(condition.compare_type());
  std::optional<std::string> expected;
  const pb::Comparator& comparator = condition.comparator();
  if (comparator.name() == kBinaryComparator) {
    pb::BinaryComparator binary;
    BASALT_RETURN_IF_ERROR(ParseStrict(comparator.serialized_comparator(), &binary));
    expected = binary.comparable().value();
  } else if (comparator.name() != kNullComparator) {
    return Status::InvalidArgument("checkAndMutate with comparator " +
                                   Printable(comparator.name()) +
                                   " is not supported (BinaryComparator and NullComparator are)");
  }
  cam.IfMatches(condition.family(), condition.qualifier(), op, std::move(expected));
  if (condition.has_time_range()) {
    BASALT_ASSIGN_OR_RETURN(TimeRange range, TimeRangeFromProto(condition.time_range()));
    cam.SetTimeRange(range);
  }
  return cam;
}

void CellToProto(const Cell& cell, pb::Cell* out) {
  out->set_row(cell.row);
  out->set_family(cell.family);
  out->set_qualifier(cell.qualifier);
  out->set_timestamp(static_cast<uint64_t>(cell.timestamp));
  out->set_cell_type(static_cast<pb::CellType>(cell.type));
  out->set_value(cell.value);
}

void ResultToProto(const RowResult& row, pb::Result* out) {
  for (const Cell& cell : row.cells()) CellToProto(cell, out->add_cell());
  if (row.partial()) out->set_partial(true);
}

}  // namespace basalt::hbase_proto
