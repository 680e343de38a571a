// The activity log's two layouts. Byte layouts are in docs/recipes.md; every key and qualifier
// is built with KeyBuilder and read back with KeyParser.

#include "basalt/recipes/activity_log.h"

#include <algorithm>
#include <climits>
#include <memory>
#include <utility>

#include "basalt/filter.h"
#include "basalt/keys.h"
#include "basalt/paging.h"
#include "basalt/table.h"
#include "recipes/table_setup.h"

namespace basalt::recipes {
namespace {

constexpr char kEventFamily[] = "e";
constexpr char kTallQualifier[] = "";
constexpr char kSeqFamily[] = "s";
constexpr char kSeqQualifier[] = "n";

// Bytes(user): escaped and terminated, so no user's key is a prefix of another's.
std::string UserKey(std::string_view user) {
  return KeyBuilder().AddBytes(user).Build();
}

// The newest-first position of all events at `time_ms`: BE64(Long.MAX - time).
std::string TimeKey(int64_t time_ms) {
  return KeyBuilder().AddReverseTimestamp(time_ms).Build();
}

// ReverseTimestamp(time) + seq descending: the tall row's suffix and the wide qualifier.
std::string EventKey(EventId id) {
  return KeyBuilder()
      .AddReverseTimestamp(id.time_ms)
      .AddUint64(id.seq, KeyOrder::kDescending)
      .Build();
}

Status ReadEventKey(KeyParser& parser, EventId* id) {
  BASALT_RETURN_IF_ERROR(parser.ReadReverseTimestamp(&id->time_ms));
  BASALT_RETURN_IF_ERROR(parser.ReadUint64(&id->seq, KeyOrder::kDescending));
  return parser.Finish();
}

std::string EncodeValue(std::string_view name, std::string_view payload) {
  return KeyBuilder().AddBytes(name).AddBytes(payload).Build();
}

Status DecodeValue(std::string_view value, ActivityEvent* event) {
  KeyParser parser(value);
  BASALT_RETURN_IF_ERROR(parser.ReadBytes(&event->name));
  BASALT_RETURN_IF_ERROR(parser.ReadBytes(&event->payload));
  return parser.Finish();
}

// The shared half: sequence numbers, validation, the cap.
class LogBase : public ActivityLog {
 public:
  LogBase(ActivityLogOptions options, std::unique_ptr<Table> events, std::unique_ptr<Table> seqs)
      : ActivityLog(std::move(options)), events_(std::move(events)), seqs_(std::move(seqs)) {}

  Result<EventId> Record(std::string_view user, std::string_view name, std::string_view payload,
                         int64_t time_ms) override {
    if (time_ms == -1) time_ms = SystemWallMillis();
    if (time_ms < 0) return Status::InvalidArgument("activity log: negative event time");
    // The counter is the store's, so it is unique across threads, processes and restarts.
    BASALT_ASSIGN_OR_RETURN(
        int64_t seq, seqs_->IncrementColumnValue(UserKey(user), kSeqFamily, kSeqQualifier, 1));
    EventId id{time_ms, static_cast<uint64_t>(seq)};
    BASALT_RETURN_IF_ERROR(Write(user, id, EncodeValue(name, payload)));
    const int64_t cap = options_.max_events_per_user;
    // The sequence counts every event ever recorded, so while it is within the cap the user
    // cannot have more events than the cap and the read is skipped.
    if (cap > 0 && seq > cap) BASALT_RETURN_IF_ERROR(Trim(user, cap));
    return id;
  }

 protected:
  virtual Status Write(std::string_view user, EventId id, std::string value) = 0;
  // Deletes the user's events after the newest `keep`.
  virtual Status Trim(std::string_view user, int64_t keep) = 0;

  std::unique_ptr<Table> events_;
  std::unique_ptr<Table> seqs_;
};

// Tall: a row per event.
class TallLog final : public LogBase {
 public:
  using LogBase::LogBase;

  Result<std::vector<ActivityEvent>> Latest(std::string_view user, int64_t limit,
                                            int64_t offset) override {
    BASALT_ASSIGN_OR_RETURN(auto rows, ReadOffsetPage(*events_, UserScan(user), offset, limit));
    return Decode(rows);
  }

  Result<ActivityPage> Page(std::string_view user, int32_t page_size,
                            std::string_view cursor) override {
    BASALT_ASSIGN_OR_RETURN(basalt::Page page,
                            ReadPage(*events_, UserScan(user), page_size, cursor));
    ActivityPage out;
    BASALT_ASSIGN_OR_RETURN(out.events, Decode(page.rows));
    out.cursor = std::move(page.cursor);
    return out;
  }

  Result<std::vector<ActivityEvent>> Range(std::string_view user, int64_t from_ms, int64_t to_ms,
                                           int64_t limit) override {
    if (from_ms < 0) from_ms = 0;
    if (to_ms <= from_ms) return std::vector<ActivityEvent>{};
    const std::string prefix = UserKey(user);
    // Newest first: the range starts at time to - 1 and stops before the events of from - 1.
    Scan scan = UserScan(user)
                    .WithStartRow(prefix + TimeKey(to_ms - 1))
                    .WithStopRow(prefix + TimeKey(from_ms - 1))
                    .SetLimit(limit);
    return ScanEvents(scan);
  }

  Result<std::vector<ActivityEvent>> At(std::string_view user, int64_t time_ms) override {
    return ScanEvents(
        Scan().SetRowPrefix(UserKey(user) + TimeKey(time_ms)).AddFamily(kEventFamily));
  }

  Result<ActivityEvent> Find(std::string_view user, EventId id) override {
    BASALT_ASSIGN_OR_RETURN(
        RowResult row, events_->Get(Get(UserKey(user) + EventKey(id)).AddFamily(kEventFamily)));
    if (row.empty()) return Status::NotFound("activity log: no such event");
    return DecodeRow(row);
  }

  Result<int64_t> Count(std::string_view user) override {
    Scan scan = UserScan(user).SetFilter(FilterList::And(
        {std::make_shared<FirstKeyOnlyFilter>(), std::make_shared<KeyOnlyFilter>()}));
    BASALT_ASSIGN_OR_RETURN(auto scanner, events_->GetScanner(scan));
    int64_t n = 0;
    RowResult row;
    while (scanner->Next(&row)) ++n;
    BASALT_RETURN_IF_ERROR(scanner->status());
    return n;
  }

 protected:
  Status Write(std::string_view user, EventId id, std::string value) override {
    return events_->Put(basalt::Put(UserKey(user) + EventKey(id))
                            .Add(kEventFamily, kTallQualifier, id.time_ms, std::move(value)));
  }

  Status Trim(std::string_view user, int64_t keep) override {
    Scan scan = UserScan(user).SetFilter(std::make_shared<KeyOnlyFilter>());
    BASALT_ASSIGN_OR_RETURN(auto scanner, events_->GetScanner(scan));
    std::vector<Mutation> deletes;
    int64_t seen = 0;
    RowResult row;
    while (scanner->Next(&row)) {
      if (++seen <= keep || row.empty()) continue;
      // At the cell's own timestamp, so an event with a future time is covered too.
      deletes.emplace_back(basalt::Delete(row.row()).AddColumns(kEventFamily, kTallQualifier,
                                                                row.cells()[0].timestamp));
    }
    BASALT_RETURN_IF_ERROR(scanner->status());
    if (deletes.empty()) return Status::OK();
    return events_->Batch(deletes).status();
  }

 private:
  static Scan UserScan(std::string_view user) {
    return Scan().SetRowPrefix(UserKey(user)).AddFamily(kEventFamily);
  }

  static Result<ActivityEvent> DecodeRow(const RowResult& row) {
    ActivityEvent event;
    KeyParser parser(row.row());
    BASALT_RETURN_IF_ERROR(parser.ReadBytes(&event.user));
    BASALT_RETURN_IF_ERROR(ReadEventKey(parser, &event.id));
    auto value = row.Value(kEventFamily, kTallQualifier);
    if (!value) return Status::Corruption("activity log: event row without its cell");
    BASALT_RETURN_IF_ERROR(DecodeValue(*value, &event));
    return event;
  }

  static Result<std::vector<ActivityEvent>> Decode(const std::vector<RowResult>& rows) {
    std::vector<ActivityEvent> out;
    out.reserve(rows.size());
    for (const RowResult& row : rows) {
      BASALT_ASSIGN_OR_RETURN(ActivityEvent event, DecodeRow(row));
      out.push_back(std::move(event));
    }
    return out;
  }

  Result<std::vector<ActivityEvent>> ScanEvents(const Scan& scan) {
    BASALT_ASSIGN_OR_RETURN(auto scanner, events_->GetScanner(scan));
    std::vector<ActivityEvent> out;
    RowResult row;
    while (scanner->Next(&row)) {
      BASALT_ASSIGN_OR_RETURN(ActivityEvent event, DecodeRow(row));
      out.push_back(std::move(event));
    }
    BASALT_RETURN_IF_ERROR(scanner->status());
    return out;
  }
};

// Wide: a row per user, a column per event.
class WideLog final : public LogBase {
 public:
  using LogBase::LogBase;

  Result<std::vector<ActivityEvent>> Latest(std::string_view user, int64_t limit,
                                            int64_t offset) override {
    if (limit < 0 || offset < 0) {
      return Status::InvalidArgument("activity log: negative limit or offset");
    }
    if (limit == 0) return std::vector<ActivityEvent>{};
    if (offset > INT32_MAX || limit > INT32_MAX) {
      return Status::InvalidArgument("activity log: the wide layout takes offset, limit < 2^31");
    }
    return GetEvents(user, UserGet(user)
                               .SetRowOffsetPerColumnFamily(static_cast<int32_t>(offset))
                               .SetMaxResultsPerColumnFamily(static_cast<int32_t>(limit)));
  }

  Result<ActivityPage> Page(std::string_view user, int32_t page_size,
                            std::string_view cursor) override {
    BASALT_ASSIGN_OR_RETURN(ColumnPage page,
                            ReadColumnPage(*events_, UserGet(user), page_size, cursor));
    ActivityPage out;
    BASALT_ASSIGN_OR_RETURN(out.events, Decode(user, page.row));
    out.cursor = std::move(page.cursor);
    return out;
  }

  Result<std::vector<ActivityEvent>> Range(std::string_view user, int64_t from_ms, int64_t to_ms,
                                           int64_t limit) override {
    if (from_ms < 0) from_ms = 0;
    if (to_ms <= from_ms) return std::vector<ActivityEvent>{};
    Get get = UserGet(user).SetFilter(std::make_shared<ColumnRangeFilter>(
        TimeKey(to_ms - 1), /*min_inclusive=*/true, TimeKey(from_ms - 1), /*max_inclusive=*/false));
    if (limit > 0)
      get.SetMaxResultsPerColumnFamily(static_cast<int32_t>(std::min<int64_t>(limit, INT32_MAX)));
    return GetEvents(user, get);
  }

  Result<std::vector<ActivityEvent>> At(std::string_view user, int64_t time_ms) override {
    return GetEvents(
        user, UserGet(user).SetFilter(std::make_shared<ColumnPrefixFilter>(TimeKey(time_ms))));
  }

  Result<ActivityEvent> Find(std::string_view user, EventId id) override {
    BASALT_ASSIGN_OR_RETURN(
        auto events, GetEvents(user, Get(UserKey(user)).AddColumn(kEventFamily, EventKey(id))));
    if (events.empty()) return Status::NotFound("activity log: no such event");
    return std::move(events[0]);
  }

  Result<int64_t> Count(std::string_view user) override {
    BASALT_ASSIGN_OR_RETURN(
        RowResult row, events_->Get(UserGet(user).SetFilter(std::make_shared<KeyOnlyFilter>())));
    return static_cast<int64_t>(row.size());
  }

 protected:
  Status Write(std::string_view user, EventId id, std::string value) override {
    return events_->Put(
        basalt::Put(UserKey(user)).Add(kEventFamily, EventKey(id), id.time_ms, std::move(value)));
  }

  Status Trim(std::string_view user, int64_t keep) override {
    if (keep > INT32_MAX) return Status::OK();  // a wide row this long is out of reach anyway
    BASALT_ASSIGN_OR_RETURN(
        RowResult row, events_->Get(UserGet(user)
                                        .SetRowOffsetPerColumnFamily(static_cast<int32_t>(keep))
                                        .SetFilter(std::make_shared<KeyOnlyFilter>())));
    if (row.empty()) return Status::OK();
    basalt::Delete del(UserKey(user));
    for (const Cell& cell : row.cells()) {
      del.AddColumns(kEventFamily, cell.qualifier, cell.timestamp);
    }
    return events_->Delete(del);
  }

 private:
  static Get UserGet(std::string_view user) { return Get(UserKey(user)).AddFamily(kEventFamily); }

  static Result<std::vector<ActivityEvent>> Decode(std::string_view user, const RowResult& row) {
    std::vector<ActivityEvent> out;
    out.reserve(row.size());
    for (const Cell& cell : row.cells()) {
      ActivityEvent event;
      event.user = std::string(user);
      KeyParser parser(cell.qualifier);
      BASALT_RETURN_IF_ERROR(ReadEventKey(parser, &event.id));
      BASALT_RETURN_IF_ERROR(DecodeValue(cell.value, &event));
      out.push_back(std::move(event));
    }
    return out;
  }

  Result<std::vector<ActivityEvent>> GetEvents(std::string_view user, const Get& get) {
    BASALT_ASSIGN_OR_RETURN(RowResult row, events_->Get(get));
    return Decode(user, row);
  }
};

}  // namespace

Result<std::unique_ptr<ActivityLog>> ActivityLog::Open(Connection& conn,
                                                       ActivityLogOptions options) {
  if (options.max_events_per_user < 0) {
    return Status::InvalidArgument("activity log: negative max_events_per_user");
  }
  if (options.ttl_seconds < 1) return Status::InvalidArgument("activity log: ttl_seconds < 1");
  const TableName events_name(options.name_space, options.table_prefix + "_events");
  const TableName seq_name(options.name_space, options.table_prefix + "_seq");

  FamilyDescriptor events_family(kEventFamily);
  events_family.ttl_seconds = options.ttl_seconds;
  BASALT_RETURN_IF_ERROR(
      EnsureTable(conn.admin(), TableDescriptor(events_name).AddFamily(events_family)));
  BASALT_RETURN_IF_ERROR(
      EnsureTable(conn.admin(), TableDescriptor(seq_name).AddFamily(FamilyDescriptor(kSeqFamily))));

  BASALT_ASSIGN_OR_RETURN(auto events, conn.GetTable(events_name));
  BASALT_ASSIGN_OR_RETURN(auto seqs, conn.GetTable(seq_name));
  if (options.layout == ActivityLogOptions::Layout::kTall) {
    return std::unique_ptr<ActivityLog>(
        std::make_unique<TallLog>(std::move(options), std::move(events), std::move(seqs)));
  }
  return std::unique_ptr<ActivityLog>(
      std::make_unique<WideLog>(std::move(options), std::move(events), std::move(seqs)));
}

}  // namespace basalt::recipes
