#include "client/thrift2/request_checks.h"

#include <set>
#include <variant>

#include "basalt/filter_language.h"
#include "basalt/types.h"
#include "client/thrift2/errors.h"
#include "engine/cell_checks.h"
#include "thrift2/codec.h"

namespace basalt::client::remote {

namespace {

using engine::CheckQualifier;
using engine::CheckRow;
using engine::CheckTimestamp;
using engine::CheckValueSize;

Status CheckGivenTimestamp(int64_t ts) {
  return ts == kLatestTimestamp ? Status::OK() : CheckTimestamp(ts);
}

// The engine's words (engine/read_path.cc), so both backends refuse alike.
Status CheckReadVersions(int32_t max_versions) {
  if (max_versions < 1) {
    return Status::InvalidArgument("max versions must be at least 1, not " +
                                   std::to_string(max_versions));
  }
  return Status::OK();
}

Status CheckTimeRange(const TimeRange& r) {
  if (r.min < 0 || r.max < r.min) {
    return Status::InvalidArgument("bad time range [" + std::to_string(r.min) + ", " +
                                   std::to_string(r.max) + ")");
  }
  return Status::OK();
}

// HBase's Filter.hasFilterRow: the filters that decide on whole rows (docs/data-model.md).
bool NeedsWholeRows(const Filter& f) {
  switch (f.type()) {
    case Filter::Type::kPage:
    case Filter::Type::kSingleColumnValue:
    case Filter::Type::kSingleColumnValueExclude:
    case Filter::Type::kDependentColumn:
    case Filter::Type::kSkip:
    case Filter::Type::kWhileMatch:
      return true;
    case Filter::Type::kFilterList:
      for (const FilterPtr& child : static_cast<const FilterList&>(f).filters()) {
        if (child != nullptr && NeedsWholeRows(*child)) return true;
      }
      return false;
    default:
      return false;
  }
}

std::optional<std::string> ComparatorExtension(const ByteComparator& c) {
  if (c.kind() == ByteComparator::Kind::kLong) return std::string("the long: comparator");
  return std::nullopt;
}

}  // namespace

Status CheckRequest(const Put& put, size_t max_value_bytes) {
  BASALT_RETURN_IF_ERROR(CheckRow(put.row()));
  if (put.entries().empty()) return Status::InvalidArgument("Put has no cells");
  BASALT_RETURN_IF_ERROR(CheckGivenTimestamp(put.timestamp()));
  for (const auto& e : put.entries()) {
    BASALT_RETURN_IF_ERROR(CheckQualifier(e.qualifier));
    BASALT_RETURN_IF_ERROR(CheckGivenTimestamp(e.timestamp));
    BASALT_RETURN_IF_ERROR(CheckValueSize(e.family, e.qualifier, e.value.size(), max_value_bytes));
  }
  return Status::OK();
}

Status CheckRequest(const Delete& del) {
  BASALT_RETURN_IF_ERROR(CheckRow(del.row()));
  BASALT_RETURN_IF_ERROR(CheckGivenTimestamp(del.timestamp()));
  for (const auto& e : del.entries()) {
    BASALT_RETURN_IF_ERROR(CheckQualifier(e.qualifier));
    BASALT_RETURN_IF_ERROR(CheckGivenTimestamp(e.timestamp));
  }
  return Status::OK();
}

Status CheckRequest(const Increment& inc) {
  BASALT_RETURN_IF_ERROR(CheckRow(inc.row()));
  if (inc.entries().empty()) return Status::InvalidArgument("Increment has no columns");
  for (const auto& e : inc.entries()) BASALT_RETURN_IF_ERROR(CheckQualifier(e.qualifier));
  return Status::OK();
}

Status CheckRequest(const Append& app, size_t max_value_bytes) {
  BASALT_RETURN_IF_ERROR(CheckRow(app.row()));
  if (app.entries().empty()) return Status::InvalidArgument("Append has no columns");
  for (const auto& e : app.entries()) {
    BASALT_RETURN_IF_ERROR(CheckQualifier(e.qualifier));
    if (e.value.size() > max_value_bytes) {
      return Status::InvalidArgument("appended value is over the value size limit");
    }
  }
  return Status::OK();
}

Status CheckRequest(const RowMutations& rm, size_t max_value_bytes) {
  BASALT_RETURN_IF_ERROR(CheckRow(rm.row()));
  if (rm.items().empty()) return Status::InvalidArgument("RowMutations has no mutations");
  for (const auto& item : rm.items()) {
    const std::string& row =
        std::visit([](const auto& m) -> const std::string& { return m.row(); }, item);
    if (row != rm.row()) {
      return Status::InvalidArgument("a mutation in RowMutations names another row");
    }
    BASALT_RETURN_IF_ERROR(std::visit(
        [&](const auto& m) -> Status {
          using T = std::decay_t<decltype(m)>;
          if constexpr (std::is_same_v<T, Delete>) {
            return CheckRequest(m);
          } else {
            return CheckRequest(m, max_value_bytes);
          }
        },
        item));
  }
  return Status::OK();
}

Status CheckRequest(const CheckAndMutate& cam, size_t max_value_bytes) {
  BASALT_RETURN_IF_ERROR(CheckRow(cam.row()));
  BASALT_RETURN_IF_ERROR(CheckQualifier(cam.qualifier()));
  if (!cam.action().has_value()) return Status::OK();  // the caller says what is missing
  return std::visit(
      [&](const auto& m) -> Status {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, Delete>) {
          return CheckRequest(m);
        } else {
          return CheckRequest(m, max_value_bytes);
        }
      },
      *cam.action());
}

Status CheckRequest(const Get& get) {
  BASALT_RETURN_IF_ERROR(CheckRow(get.row()));
  BASALT_RETURN_IF_ERROR(CheckReadVersions(get.max_versions()));
  BASALT_RETURN_IF_ERROR(CheckTimeRange(get.time_range()));
  return CheckFilter(get.filter());
}

Status CheckRequest(const Scan& scan) {
  BASALT_RETURN_IF_ERROR(CheckReadVersions(scan.max_versions()));
  BASALT_RETURN_IF_ERROR(CheckTimeRange(scan.time_range()));
  BASALT_RETURN_IF_ERROR(CheckFilter(scan.filter()));
  if (scan.batch() > 0 && scan.filter() != nullptr && NeedsWholeRows(*scan.filter())) {
    return Status::InvalidArgument(std::string(Filter::TypeName(scan.filter()->type())) +
                                   " needs whole rows, so a scan with it cannot set a batch size");
  }
  return Status::OK();
}

Status CheckFilter(const FilterPtr& filter) {
  if (filter == nullptr) return Status::OK();
  // An empty FilterList keeps everything and travels as no filter (thrift2/codec.h).
  if (filter->type() == Filter::Type::kFilterList &&
      static_cast<const FilterList&>(*filter).filters().empty()) {
    return Status::OK();
  }
  return ParseFilter(FilterToString(*filter)).status();
}

std::optional<std::string> FilterLanguageExtension(const FilterPtr& filter) {
  if (filter == nullptr) return std::nullopt;
  switch (filter->type()) {
    case Filter::Type::kFuzzyRow:
      return std::string("FuzzyRowFilter");
    case Filter::Type::kRow:
    case Filter::Type::kFamily:
    case Filter::Type::kQualifier:
    case Filter::Type::kValue:
      return ComparatorExtension(static_cast<const CompareFilter&>(*filter).comparator());
    case Filter::Type::kSingleColumnValue:
    case Filter::Type::kSingleColumnValueExclude:
      return ComparatorExtension(static_cast<const SingleColumnValueFilter&>(*filter).comparator());
    case Filter::Type::kDependentColumn: {
      const auto& c = static_cast<const DependentColumnFilter&>(*filter).comparator();
      return c ? ComparatorExtension(*c) : std::nullopt;
    }
    case Filter::Type::kSkip:
      return FilterLanguageExtension(static_cast<const SkipFilter&>(*filter).filter());
    case Filter::Type::kWhileMatch:
      return FilterLanguageExtension(static_cast<const WhileMatchFilter&>(*filter).filter());
    case Filter::Type::kFilterList:
      for (const FilterPtr& child : static_cast<const FilterList&>(*filter).filters()) {
        if (auto e = FilterLanguageExtension(child)) return e;
      }
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

Status CheckSplitKeys(const std::vector<std::string>& split_keys) {
  std::set<std::string> seen;
  for (const auto& key : split_keys) {
    if (key.empty()) return Status::InvalidArgument("a split key is empty");
    if (key.size() > kMaxRowKeyLength) {
      return Status::InvalidArgument("split key longer than the row key limit");
    }
    if (!seen.insert(key).second) return Status::InvalidArgument("split key repeated");
  }
  return Status::OK();
}

Status ExplainFilterFailure(Status failure, const FilterPtr& filter) {
  if (!IsServerFailure(failure)) return failure;
  auto extension = FilterLanguageExtension(filter);
  if (!extension) return failure;
  return Status::NotSupported(
      "the filter uses " + *extension +
      ", a basalt extension of the filter language that this Thrift2 server does not parse "
      "(HBase's gateway knows only HBase's language: docs/filters.md); the server said: " +
      failure.message());
}

Status ExplainTableFailure(ClientPool& pool, const TableName& table, Status failure) {
  if (!failure.IsIOError() || IsTransportFailure(failure)) return failure;
  const ::basalt::thrift2::TTableName t = ::basalt::thrift2::ToThrift(table);
  bool exists = true;
  bool enabled = true;
  Status s = pool.Call(
      [&](ThriftClient& c) {
        exists = c.tableExists(t);
        if (exists) enabled = c.isTableEnabled(t);
      },
      ClientPool::Idempotence::kYes);
  if (!s.ok()) return failure;
  if (!exists) {
    return Status::NotFound("table '" + table.ToString() +
                            "' does not exist; the server said: " + failure.message());
  }
  if (!enabled) {
    return Status::FailedPrecondition("table '" + table.ToString() +
                                      "' is disabled; the server said: " + failure.message());
  }
  return failure;
}

}  // namespace basalt::client::remote
