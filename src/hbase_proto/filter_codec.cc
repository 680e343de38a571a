#include "hbase_proto/filter_codec.h"

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "hbase_proto/comparator_codec.h"
#include "hbase_proto/message_parse.h"
#include "hbase_proto/proto/Filter.pb.h"

namespace basalt::hbase_proto {
namespace {

namespace pb = ::hbase::pb;

// FuzzyRowFilter's masks on the wire: Java's constructor turns the user's mask (0 fixed, 1 any)
// into 0xFF fixed and 2 any (v2, marked is_mask_v2) or 0 any (v1, older clients).
constexpr char kProcessedFixed = static_cast<char>(0xFF);
constexpr char kV2Wildcard = 2;
constexpr char kV1Wildcard = 0;

std::string JavaName(Filter::Type type) {
  return std::string(kJavaFilterPackage) + std::string(Filter::TypeName(type));
}

template <class T, class... Args>
FilterPtr New(Args&&... args) {
  return std::make_shared<T>(std::forward<Args>(args)...);
}

Result<CompareOp> OpFromProto(pb::CompareType type) {
  switch (type) {
    case pb::LESS:
      return CompareOp::kLess;
    case pb::LESS_OR_EQUAL:
      return CompareOp::kLessOrEqual;
    case pb::EQUAL:
      return CompareOp::kEqual;
    case pb::NOT_EQUAL:
      return CompareOp::kNotEqual;
    case pb::GREATER_OR_EQUAL:
      return CompareOp::kGreaterOrEqual;
    case pb::GREATER:
      return CompareOp::kGreater;
    case pb::NO_OP:
      return CompareOp::kNoOp;
  }
  return Status::InvalidArgument("unknown CompareType " + std::to_string(type));
}

Result<pb::CompareType> OpToProto(CompareOp op) {
  switch (op) {
    case CompareOp::kLess:
      return pb::LESS;
    case CompareOp::kLessOrEqual:
      return pb::LESS_OR_EQUAL;
    case CompareOp::kEqual:
      return pb::EQUAL;
    case CompareOp::kNotEqual:
      return pb::NOT_EQUAL;
    case CompareOp::kGreaterOrEqual:
      return pb::GREATER_OR_EQUAL;
    case CompareOp::kGreater:
      return pb::GREATER;
    case CompareOp::kNoOp:
      return pb::NO_OP;
  }
  return Status::InvalidArgument("compare operator " + std::to_string(static_cast<int>(op)) +
                                 " has no HBase CompareType");
}

Status Negative(Filter::Type type, std::string_view what, int64_t value) {
  return Status::InvalidArgument(std::string(Filter::TypeName(type)) + ": " + std::string(what) +
                                 " must not be negative, not " + std::to_string(value));
}

Status Missing(Filter::Type type, std::string_view what) {
  return Status::InvalidArgument(std::string(Filter::TypeName(type)) + " without " +
                                 std::string(what) + " is not supported");
}

// ---- Decoding ----

// The decoder takes each nested Filter's bytes out of its parent's message before going down,
// so that the whole chain holds the input about once, however deep it nests.
Result<FilterPtr> DecodeAt(pb::Filter* filter, int depth);

// Frees `*bytes`' memory (assigning an empty string would keep its capacity).
void Release(std::string* bytes) {
  std::string().swap(*bytes);
}

template <class Message>
Result<Message> Parse(const std::string& body) {
  Message m;
  BASALT_RETURN_IF_ERROR(ParseStrict(body, &m));
  return m;
}

// The op and comparator of a CompareFilter, the comparator optional (DependentColumnFilter).
struct Comparison {
  CompareOp op;
  std::optional<ByteComparator> comparator;
};

Result<Comparison> DecodeComparison(const pb::CompareFilter& m, Filter::Type type) {
  BASALT_RETURN_IF_ERROR(CheckKnownFields(m));
  Comparison out;
  BASALT_ASSIGN_OR_RETURN(out.op, OpFromProto(m.compare_op()));
  if (m.has_comparator()) {
    BASALT_ASSIGN_OR_RETURN(ByteComparator c, DecodeComparator(m.comparator()));
    BASALT_RETURN_IF_ERROR(CheckComparatorOp(c, out.op, Filter::TypeName(type)));
    out.comparator = std::move(c);
  }
  return out;
}

template <class T, class Message>
Result<FilterPtr> DecodeCompare(const std::string& body, Filter::Type type) {
  BASALT_ASSIGN_OR_RETURN(Message m, Parse<Message>(body));
  BASALT_ASSIGN_OR_RETURN(Comparison c, DecodeComparison(m.compare_filter(), type));
  if (!c.comparator) return Missing(type, "a comparator");
  return New<T>(c.op, std::move(*c.comparator));
}

template <class T>
Result<FilterPtr> DecodeSingleColumnValue(const pb::SingleColumnValueFilter& m, Filter::Type type) {
  BASALT_RETURN_IF_ERROR(CheckKnownFields(m));
  if (!m.has_column_family()) return Missing(type, "a column family");
  if (!m.has_column_qualifier()) return Missing(type, "a column qualifier");
  BASALT_ASSIGN_OR_RETURN(CompareOp op, OpFromProto(m.compare_op()));
  BASALT_ASSIGN_OR_RETURN(ByteComparator c, DecodeComparator(m.comparator()));
  BASALT_RETURN_IF_ERROR(CheckComparatorOp(c, op, Filter::TypeName(type)));
  // Absent booleans read as false, as Java's getters do.
  return New<T>(m.column_family(), m.column_qualifier(), op, std::move(c), m.filter_if_missing(),
                m.latest_version_only());
}

// One fuzzy key's mask in basalt's form, read as Java's FuzzyRowFilter does: a mask made only
// of 0xFF and the wildcard byte of its version was processed by the sender's constructor; any
// other is the user's own (0 fixed, 1 any). HBase 3.0.0-beta-1's client processes to v2's bytes
// but predates is_mask_v2, so a mask without the flag made only of 0xFF and 2 is v2's too.
Result<std::string> FuzzyMask(const std::string& wire, bool v2, size_t key) {
  const auto processed_with = [&](char wildcard) {
    return std::all_of(wire.begin(), wire.end(),
                       [&](char b) { return b == kProcessedFixed || b == wildcard; });
  };
  const char wildcard = v2 || processed_with(kV2Wildcard) ? kV2Wildcard : kV1Wildcard;
  const bool processed = processed_with(wildcard);
  std::string mask(wire.size(), '\0');
  for (size_t i = 0; i < wire.size(); ++i) {
    if (processed) {
      mask[i] = wire[i] == kProcessedFixed ? '\0' : '\1';
    } else if (wire[i] == '\0' || wire[i] == '\1') {
      mask[i] = wire[i];
    } else {
      return Status::InvalidArgument(
          "FuzzyRowFilter key " + std::to_string(key + 1) + ": mask byte " + std::to_string(i) +
          " is " + std::to_string(static_cast<unsigned char>(wire[i])) +
          "; masks are 0 (fixed) and 1 (any), or Java's processed 0xFF and " +
          std::to_string(wildcard));
    }
  }
  return mask;
}

Result<FilterPtr> DecodeFuzzyRow(const std::string& body) {
  BASALT_ASSIGN_OR_RETURN(auto m, Parse<pb::FuzzyRowFilter>(body));
  std::vector<FuzzyRowFilter::FuzzyKey> keys;
  for (int i = 0; i < m.fuzzy_keys_data_size(); ++i) {
    const pb::BytesBytesPair& pair = m.fuzzy_keys_data(i);
    BASALT_RETURN_IF_ERROR(CheckKnownFields(pair));
    const auto k = static_cast<size_t>(i);
    if (pair.first().size() != pair.second().size()) {
      return Status::InvalidArgument("FuzzyRowFilter key " + std::to_string(k + 1) + ": mask has " +
                                     std::to_string(pair.second().size()) + " bytes, its pattern " +
                                     std::to_string(pair.first().size()));
    }
    BASALT_ASSIGN_OR_RETURN(std::string mask, FuzzyMask(pair.second(), m.is_mask_v2(), k));
    keys.push_back({pair.first(), std::move(mask)});
  }
  if (keys.empty()) return Missing(Filter::Type::kFuzzyRow, "fuzzy keys");
  return New<FuzzyRowFilter>(std::move(keys));
}

Result<FilterPtr> DecodeFilterList(std::string* body, int depth) {
  BASALT_ASSIGN_OR_RETURN(auto m, Parse<pb::FilterList>(*body));
  Release(body);  // the children's bytes now live in `m`
  const auto op = m.operator_() == pb::FilterList::MUST_PASS_ALL
                      ? FilterList::Operator::kMustPassAll
                      : FilterList::Operator::kMustPassOne;
  std::vector<FilterPtr> children;
  children.reserve(static_cast<size_t>(m.filters_size()));
  for (int i = 0; i < m.filters_size(); ++i) {
    BASALT_ASSIGN_OR_RETURN(FilterPtr child, DecodeAt(m.mutable_filters(i), depth + 1));
    children.push_back(std::move(child));
  }
  return New<FilterList>(op, std::move(children));
}

template <class T, class Message>
Result<FilterPtr> DecodeWrapper(std::string* body, int depth) {
  BASALT_ASSIGN_OR_RETURN(Message m, Parse<Message>(*body));
  Release(body);
  BASALT_ASSIGN_OR_RETURN(FilterPtr inner, DecodeAt(m.mutable_filter(), depth + 1));
  return New<T>(std::move(inner));
}

Result<FilterPtr> DecodeBody(Filter::Type type, std::string* body, int depth) {
  using T = Filter::Type;
  switch (type) {
    case T::kPrefix: {
      BASALT_ASSIGN_OR_RETURN(auto m, Parse<pb::PrefixFilter>(*body));
      // Java's PrefixFilter keeps no row without a prefix; an empty one keeps every row.
      if (!m.has_prefix()) return Missing(type, "a prefix");
      return New<PrefixFilter>(m.prefix());
    }
    case T::kPage: {
      BASALT_ASSIGN_OR_RETURN(auto m, Parse<pb::PageFilter>(*body));
      if (m.page_size() < 0) return Negative(type, "the page size", m.page_size());
      return New<PageFilter>(m.page_size());
    }
    case T::kColumnPrefix: {
      BASALT_ASSIGN_OR_RETURN(auto m, Parse<pb::ColumnPrefixFilter>(*body));
      return New<ColumnPrefixFilter>(m.prefix());
    }
    case T::kMultipleColumnPrefix: {
      BASALT_ASSIGN_OR_RETURN(auto m, Parse<pb::MultipleColumnPrefixFilter>(*body));
      std::set<std::string> seen;
      for (const std::string& prefix : m.sorted_prefixes()) {
        if (!seen.insert(prefix).second) {
          return Status::InvalidArgument("MultipleColumnPrefixFilter: prefix " + Printable(prefix) +
                                         " is given twice");
        }
      }
      return New<MultipleColumnPrefixFilter>(
          std::vector<std::string>(m.sorted_prefixes().begin(), m.sorted_prefixes().end()));
    }
    case T::kColumnCountGet: {
      BASALT_ASSIGN_OR_RETURN(auto m, Parse<pb::ColumnCountGetFilter>(*body));
      if (m.limit() < 0) return Negative(type, "the limit", m.limit());
      return New<ColumnCountGetFilter>(m.limit());
    }
    case T::kColumnPagination: {
      BASALT_ASSIGN_OR_RETURN(auto m, Parse<pb::ColumnPaginationFilter>(*body));
      if (m.has_column_offset()) {
        return Status::InvalidArgument(
            "ColumnPaginationFilter with a column offset (column_offset) is not supported; give "
            "a numeric offset");
      }
      if (m.limit() < 0) return Negative(type, "the limit", m.limit());
      if (m.offset() < 0) return Negative(type, "the offset", m.offset());
      return New<ColumnPaginationFilter>(m.limit(), m.offset());
    }
    case T::kColumnRange: {
      BASALT_ASSIGN_OR_RETURN(auto m, Parse<pb::ColumnRangeFilter>(*body));
      return New<ColumnRangeFilter>(m.min_column(), m.min_column_inclusive(), m.max_column(),
                                    m.max_column_inclusive());
    }
    case T::kFirstKeyOnly: {
      BASALT_ASSIGN_OR_RETURN(auto m, Parse<pb::FirstKeyOnlyFilter>(*body));
      return New<FirstKeyOnlyFilter>();
    }
    case T::kKeyOnly: {
      BASALT_ASSIGN_OR_RETURN(auto m, Parse<pb::KeyOnlyFilter>(*body));
      return New<KeyOnlyFilter>(m.len_as_val());
    }
    case T::kInclusiveStop: {
      BASALT_ASSIGN_OR_RETURN(auto m, Parse<pb::InclusiveStopFilter>(*body));
      if (!m.has_stop_row_key()) return Missing(type, "a stop row");
      return New<InclusiveStopFilter>(m.stop_row_key());
    }
    case T::kTimestamps: {
      BASALT_ASSIGN_OR_RETURN(auto m, Parse<pb::TimestampsFilter>(*body));
      // can_hint only lets HBase seek between the timestamps; the cells kept are the same.
      for (int64_t ts : m.timestamps()) {
        if (ts < 0) return Negative(type, "a timestamp", ts);
      }
      return New<TimestampsFilter>(
          std::vector<int64_t>(m.timestamps().begin(), m.timestamps().end()));
    }
    case T::kRow:
      return DecodeCompare<RowFilter, pb::RowFilter>(*body, type);
    case T::kFamily:
      return DecodeCompare<FamilyFilter, pb::FamilyFilter>(*body, type);
    case T::kQualifier:
      return DecodeCompare<QualifierFilter, pb::QualifierFilter>(*body, type);
    case T::kValue:
      return DecodeCompare<ValueFilter, pb::ValueFilter>(*body, type);
    case T::kSingleColumnValue: {
      BASALT_ASSIGN_OR_RETURN(auto m, Parse<pb::SingleColumnValueFilter>(*body));
      return DecodeSingleColumnValue<SingleColumnValueFilter>(m, type);
    }
    case T::kSingleColumnValueExclude: {
      BASALT_ASSIGN_OR_RETURN(auto m, Parse<pb::SingleColumnValueExcludeFilter>(*body));
      return DecodeSingleColumnValue<SingleColumnValueExcludeFilter>(m.single_column_value_filter(),
                                                                     type);
    }
    case T::kDependentColumn: {
      BASALT_ASSIGN_OR_RETURN(auto m, Parse<pb::DependentColumnFilter>(*body));
      if (!m.has_column_family()) return Missing(type, "a column family");
      if (!m.has_column_qualifier()) return Missing(type, "a column qualifier");
      BASALT_ASSIGN_OR_RETURN(Comparison c, DecodeComparison(m.compare_filter(), type));
      return New<DependentColumnFilter>(m.column_family(), m.column_qualifier(),
                                        m.drop_dependent_column(), c.op, std::move(c.comparator));
    }
    case T::kFuzzyRow:
      return DecodeFuzzyRow(*body);
    case T::kSkip:
      return DecodeWrapper<SkipFilter, pb::SkipFilter>(body, depth);
    case T::kWhileMatch:
      return DecodeWrapper<WhileMatchFilter, pb::WhileMatchFilter>(body, depth);
    case T::kFilterList:
      return DecodeFilterList(body, depth);
  }
  return Status::Internal("no decoder for " + std::string(Filter::TypeName(type)));
}

// Every type of filter.h, by its Java class name.
constexpr std::array<Filter::Type, 22> kTypes = {
    Filter::Type::kPrefix,
    Filter::Type::kPage,
    Filter::Type::kColumnPrefix,
    Filter::Type::kMultipleColumnPrefix,
    Filter::Type::kColumnCountGet,
    Filter::Type::kColumnPagination,
    Filter::Type::kColumnRange,
    Filter::Type::kFirstKeyOnly,
    Filter::Type::kKeyOnly,
    Filter::Type::kInclusiveStop,
    Filter::Type::kTimestamps,
    Filter::Type::kRow,
    Filter::Type::kFamily,
    Filter::Type::kQualifier,
    Filter::Type::kValue,
    Filter::Type::kSingleColumnValue,
    Filter::Type::kSingleColumnValueExclude,
    Filter::Type::kDependentColumn,
    Filter::Type::kFuzzyRow,
    Filter::Type::kSkip,
    Filter::Type::kWhileMatch,
    Filter::Type::kFilterList,
};

std::optional<Filter::Type> TypeOfJavaName(std::string_view name) {
  if (!name.starts_with(kJavaFilterPackage)) return std::nullopt;
  name.remove_prefix(kJavaFilterPackage.size());
  for (Filter::Type type : kTypes) {
    if (Filter::TypeName(type) == name) return type;
  }
  return std::nullopt;
}

Result<FilterPtr> DecodeAt(pb::Filter* filter, int depth) {
  if (depth > kMaxFilterNesting) {
    return Status::InvalidArgument("filters are nested more than " +
                                   std::to_string(kMaxFilterNesting) + " deep");
  }
  BASALT_RETURN_IF_ERROR(CheckKnownFields(*filter));
  const std::optional<Filter::Type> type = TypeOfJavaName(filter->name());
  if (!type)
    return Status::InvalidArgument("filter " + Printable(filter->name()) + " is not supported");
  std::string body = std::move(*filter->mutable_serialized_filter());
  filter->Clear();
  return DecodeBody(*type, &body, depth);
}

// ---- Encoding ----

Result<std::string> EncodeAt(const Filter& filter, int depth);

Result<pb::Filter> EncodeChild(const FilterPtr& child, const Filter& parent, int depth) {
  if (child == nullptr) {
    return Status::InvalidArgument(std::string(Filter::TypeName(parent.type())) +
                                   " has a null filter inside");
  }
  pb::Filter out;
  out.set_name(JavaName(child->type()));
  BASALT_ASSIGN_OR_RETURN(*out.mutable_serialized_filter(), EncodeAt(*child, depth + 1));
  return out;
}

Result<pb::CompareFilter> EncodeComparison(CompareOp op,
                                           const std::optional<ByteComparator>& comparator) {
  pb::CompareFilter out;
  BASALT_ASSIGN_OR_RETURN(pb::CompareType type, OpToProto(op));
  out.set_compare_op(type);
  if (comparator) *out.mutable_comparator() = EncodeComparator(*comparator);
  return out;
}

template <class Message>
Result<std::string> EncodeCompare(const Filter& filter) {
  const auto& f = static_cast<const CompareFilter&>(filter);
  Message m;
  BASALT_ASSIGN_OR_RETURN(*m.mutable_compare_filter(), EncodeComparison(f.op(), f.comparator()));
  return m.SerializeAsString();
}

Result<pb::SingleColumnValueFilter> EncodeSingleColumnValue(const SingleColumnValueFilter& f) {
  pb::SingleColumnValueFilter m;
  m.set_column_family(f.family());
  m.set_column_qualifier(f.qualifier());
  BASALT_ASSIGN_OR_RETURN(pb::CompareType type, OpToProto(f.op()));
  m.set_compare_op(type);
  *m.mutable_comparator() = EncodeComparator(f.comparator());
  m.set_filter_if_missing(f.filter_if_missing());
  m.set_latest_version_only(f.latest_version_only());
  return m;
}

// Each case writes the fields Java's toByteArray writes, so that the bytes are Java's.
Result<std::string> EncodeAt(const Filter& filter, int depth) {
  if (depth > kMaxFilterNesting) {
    return Status::InvalidArgument("filters are nested more than " +
                                   std::to_string(kMaxFilterNesting) + " deep");
  }
  using T = Filter::Type;
  switch (filter.type()) {
    case T::kPrefix: {
      pb::PrefixFilter m;
      m.set_prefix(static_cast<const PrefixFilter&>(filter).prefix());
      return m.SerializeAsString();
    }
    case T::kPage: {
      pb::PageFilter m;
      m.set_page_size(static_cast<const PageFilter&>(filter).page_size());
      return m.SerializeAsString();
    }
    case T::kColumnPrefix: {
      pb::ColumnPrefixFilter m;
      m.set_prefix(static_cast<const ColumnPrefixFilter&>(filter).prefix());
      return m.SerializeAsString();
    }
    case T::kMultipleColumnPrefix: {
      pb::MultipleColumnPrefixFilter m;
      for (const std::string& p :
           static_cast<const MultipleColumnPrefixFilter&>(filter).prefixes()) {
        m.add_sorted_prefixes(p);
      }
      return m.SerializeAsString();
    }
    case T::kColumnCountGet: {
      pb::ColumnCountGetFilter m;
      m.set_limit(static_cast<const ColumnCountGetFilter&>(filter).limit());
      return m.SerializeAsString();
    }
    case T::kColumnPagination: {
      const auto& f = static_cast<const ColumnPaginationFilter&>(filter);
      pb::ColumnPaginationFilter m;
      m.set_limit(f.limit());
      if (f.offset() >= 0) m.set_offset(f.offset());
      return m.SerializeAsString();
    }
    case T::kColumnRange: {
      const auto& f = static_cast<const ColumnRangeFilter&>(filter);
      pb::ColumnRangeFilter m;
      if (!f.min().empty()) m.set_min_column(f.min());
      m.set_min_column_inclusive(f.min_inclusive());
      if (!f.max().empty()) m.set_max_column(f.max());
      m.set_max_column_inclusive(f.max_inclusive());
      return m.SerializeAsString();
    }
    case T::kFirstKeyOnly:
      return pb::FirstKeyOnlyFilter().SerializeAsString();
    case T::kKeyOnly: {
      pb::KeyOnlyFilter m;
      m.set_len_as_val(static_cast<const KeyOnlyFilter&>(filter).length_as_value());
      return m.SerializeAsString();
    }
    case T::kInclusiveStop: {
      pb::InclusiveStopFilter m;
      m.set_stop_row_key(static_cast<const InclusiveStopFilter&>(filter).stop_row());
      return m.SerializeAsString();
    }
    case T::kTimestamps: {
      pb::TimestampsFilter m;
      for (int64_t ts : static_cast<const TimestampsFilter&>(filter).timestamps()) {
        m.add_timestamps(ts);
      }
      m.set_can_hint(false);
      return m.SerializeAsString();
    }
    case T::kRow:
      return EncodeCompare<pb::RowFilter>(filter);
    case T::kFamily:
      return EncodeCompare<pb::FamilyFilter>(filter);
    case T::kQualifier:
      return EncodeCompare<pb::QualifierFilter>(filter);
    case T::kValue:
      return EncodeCompare<pb::ValueFilter>(filter);
    case T::kSingleColumnValue: {
      BASALT_ASSIGN_OR_RETURN(
          auto m, EncodeSingleColumnValue(static_cast<const SingleColumnValueFilter&>(filter)));
      return m.SerializeAsString();
    }
    case T::kSingleColumnValueExclude: {
      pb::SingleColumnValueExcludeFilter m;
      BASALT_ASSIGN_OR_RETURN(
          *m.mutable_single_column_value_filter(),
          EncodeSingleColumnValue(static_cast<const SingleColumnValueFilter&>(filter)));
      return m.SerializeAsString();
    }
    case T::kDependentColumn: {
      const auto& f = static_cast<const DependentColumnFilter&>(filter);
      pb::DependentColumnFilter m;
      BASALT_ASSIGN_OR_RETURN(*m.mutable_compare_filter(),
                              EncodeComparison(f.op(), f.comparator()));
      m.set_column_family(f.family());
      m.set_column_qualifier(f.qualifier());
      m.set_drop_dependent_column(f.drop_dependent_column());
      return m.SerializeAsString();
    }
    case T::kFuzzyRow: {
      pb::FuzzyRowFilter m;
      for (const auto& key : static_cast<const FuzzyRowFilter&>(filter).keys()) {
        // Java's v2 form: 0xFF fixed, 2 any, the pattern's wildcard bytes zeroed.
        pb::BytesBytesPair* pair = m.add_fuzzy_keys_data();
        std::string pattern = key.pattern;
        std::string mask = key.mask;
        for (size_t i = 0; i < mask.size(); ++i) {
          const bool any = mask[i] == '\1';
          mask[i] = any ? kV2Wildcard : kProcessedFixed;
          if (any && i < pattern.size()) pattern[i] = '\0';
        }
        pair->set_first(std::move(pattern));
        pair->set_second(std::move(mask));
      }
      m.set_is_mask_v2(true);
      return m.SerializeAsString();
    }
    case T::kSkip: {
      const auto& f = static_cast<const SkipFilter&>(filter);
      pb::SkipFilter m;
      BASALT_ASSIGN_OR_RETURN(*m.mutable_filter(), EncodeChild(f.filter(), f, depth));
      return m.SerializeAsString();
    }
    case T::kWhileMatch: {
      const auto& f = static_cast<const WhileMatchFilter&>(filter);
      pb::WhileMatchFilter m;
      BASALT_ASSIGN_OR_RETURN(*m.mutable_filter(), EncodeChild(f.filter(), f, depth));
      return m.SerializeAsString();
    }
    case T::kFilterList: {
      const auto& f = static_cast<const FilterList&>(filter);
      pb::FilterList m;
      switch (f.op()) {
        case FilterList::Operator::kMustPassAll:
          m.set_operator_(pb::FilterList::MUST_PASS_ALL);
          break;
        case FilterList::Operator::kMustPassOne:
          m.set_operator_(pb::FilterList::MUST_PASS_ONE);
          break;
        default:
          return Status::InvalidArgument("FilterList operator " +
                                         std::to_string(static_cast<int>(f.op())) +
                                         " has no HBase form");
      }
      for (const FilterPtr& child : f.filters()) {
        BASALT_ASSIGN_OR_RETURN(*m.add_filters(), EncodeChild(child, f, depth));
      }
      return m.SerializeAsString();
    }
  }
  return Status::InvalidArgument("filter type " + std::to_string(static_cast<int>(filter.type())) +
                                 " has no HBase form");
}

}  // namespace

Result<FilterPtr> DecodeFilter(std::string_view bytes) {
  if (bytes.size() > kMaxFilterBytes) {
    return Status::InvalidArgument("a serialized filter of " + std::to_string(bytes.size()) +
                                   " bytes is longer than the " + std::to_string(kMaxFilterBytes) +
                                   " bytes allowed");
  }
  pb::Filter filter;
  BASALT_RETURN_IF_ERROR(ParseStrict(bytes, &filter));
  return DecodeAt(&filter, 0);
}

Result<std::string> EncodeFilter(const Filter& filter) {
  pb::Filter out;
  out.set_name(JavaName(filter.type()));
  BASALT_ASSIGN_OR_RETURN(*out.mutable_serialized_filter(), EncodeAt(filter, 0));
  return out.SerializeAsString();
}

}  // namespace basalt::hbase_proto
