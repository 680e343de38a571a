// The activity log's two layouts. Byte layouts are in docs/recipes.md; every key and qualifier
// is built with KeyBuilder and read back with KeyParser.

#include "basalt/recipes/activity_log.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <utility>
#include <variant>

#include "basalt/filter.h"
#include "basalt/keys.h"
#include "basalt/paging.h"
#include "basalt/table.h"
#include "recipes/big_endian.h"
#include "recipes/recipe_format.h"
#include "recipes/table_setup.h"
#include "recipes/trim_hash.h"
#include "util/mutex.h"

namespace basalt::recipes {
namespace {

constexpr char kEventFamily[] = "e";
// The meta row's family: not the events', whose TTL would expire the version cell.
constexpr char kMetaFamily[] = "m";
// The version of the layouts in activity_log.h, in the meta row (recipe_format.h); bump it with
// any change of either. Never reuse a number.
constexpr int kActivityLogFormatVersion = 1;
constexpr int kOldestReadableActivityLogFormatVersion = 1;
constexpr char kTallQualifier[] = "";

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

std::string EncodeValue(std::string_view name, std::string_view payload) {
  return KeyBuilder().AddBytes(name).AddBytes(payload).Build();
}

// A latest page decodes ten events a query, and KeyParser's general path was about a tenth of
// it. The common event puts its id's two fields at fixed places (an event key of 16 bytes) and
// has a name and payload with no zero byte (no escapes); those are read in place as KeyParser
// would read them, and anything else takes KeyParser's path, which words the errors.
Status DecodeEventKey(std::string_view key, EventId* id) {
  if (key.size() == 16) {
    id->time_ms = TimestampFromReverse(static_cast<int64_t>(BigEndianAt(key, 0, 8)));
    id->seq = ~BigEndianAt(key, 8, 8);
    return Status::OK();
  }
  KeyParser parser(key);
  BASALT_RETURN_IF_ERROR(parser.ReadReverseTimestamp(&id->time_ms));
  BASALT_RETURN_IF_ERROR(parser.ReadUint64(&id->seq, KeyOrder::kDescending));
  return parser.Finish();
}

bool DecodeCommonValue(std::string_view value, ActivityEvent* event) {
  const size_t name_end = value.find('\0');
  if (name_end == std::string_view::npos || name_end + 1 >= value.size() ||
      value[name_end + 1] != '\x01') {
    return false;
  }
  const std::string_view rest = value.substr(name_end + 2);
  const size_t payload_end = rest.find('\0');
  if (payload_end == std::string_view::npos || payload_end + 2 != rest.size() ||
      rest[payload_end + 1] != '\x01') {
    return false;
  }
  event->name.assign(value.substr(0, name_end));
  event->payload.assign(rest.substr(0, payload_end));
  return true;
}

Status DecodeValue(std::string_view value, ActivityEvent* event) {
  if (DecodeCommonValue(value, event)) return Status::OK();
  KeyParser parser(value);
  BASALT_RETURN_IF_ERROR(parser.ReadBytes(&event->name));
  BASALT_RETURN_IF_ERROR(parser.ReadBytes(&event->payload));
  return parser.Finish();
}

// Where a log's sequence starts: random in [2^32, 2^62), so that two logs (processes, restarts)
// overlap only with odds of about (their events) / 2^62, and the counter cannot wrap in practice.
uint64_t RandomSequenceStart() {
  std::random_device device;
  const uint64_t r = (static_cast<uint64_t>(device()) << 32) ^ device();
  return (uint64_t{1} << 32) + r % ((uint64_t{1} << 62) - (uint64_t{1} << 32));
}

// Whether recording `id` for `user` trims the user's events (ActivityLogOptions::trim_every),
// and how far: a hash of both, so a user's trims come about one event in trim_every whatever the
// interleaving of users on the log's sequence, and one trim in kWholeTrimEvery reads all of the
// user's events instead of stopping where the user's last trim began to delete (TallLog::Trim).
enum class TrimPass { kNone, kBounded, kWhole };
constexpr uint64_t kWholeTrimEvery = 16;

TrimPass TrimDue(std::string_view user, EventId id, int32_t trim_every) {
  // The time and the sequence are mixed in one after the other: with their sum, events whose
  // times fall by 1 ms as their sequence rises by 1 (a history imported newest first) all
  // hashed alike, and either all trimmed or none did.
  const uint64_t h = TrimHash()
                         .AddBytes(user)
                         .MixNumber(static_cast<uint64_t>(id.time_ms))
                         .MixNumber(id.seq)
                         .value();
  const uint64_t every = static_cast<uint64_t>(std::max(trim_every, 1));
  if (h % (every * kWholeTrimEvery) == 0) return TrimPass::kWhole;
  return h % every == 0 ? TrimPass::kBounded : TrimPass::kNone;
}

// The shared half: sequence numbers, validation, the cap.
class LogBase : public ActivityLog {
 public:
  LogBase(ActivityLogOptions options, std::unique_ptr<Table> events)
      : ActivityLog(std::move(options)),
        events_(std::move(events)),
        sequence_(RandomSequenceStart()) {}

  Result<EventId> Record(std::string_view user, std::string_view name, std::string_view payload,
                         int64_t time_ms) override {
    if (time_ms == -1) time_ms = SystemWallMillis();
    if (time_ms < 0) return Status::InvalidArgument("activity log: negative event time");
    const EventId id{time_ms, sequence_.fetch_add(1, std::memory_order_relaxed)};
    BASALT_RETURN_IF_ERROR(events_->Put(MakePut(user, id, EncodeValue(name, payload))));
    const int64_t cap = options_.max_events_per_user;
    const TrimPass pass = cap > 0 ? TrimDue(user, id, options_.trim_every) : TrimPass::kNone;
    if (pass != TrimPass::kNone) {
      BASALT_RETURN_IF_ERROR(Trim(user, cap, pass == TrimPass::kWhole, {&id, 1}));
    }
    return id;
  }

  Result<std::vector<EventId>> RecordMany(const std::vector<NewEvent>& events) override {
    for (const NewEvent& e : events) {
      if (e.time_ms < -1) return Status::InvalidArgument("activity log: negative event time");
    }
    std::vector<EventId> ids;
    ids.reserve(events.size());
    std::vector<basalt::Put> puts;
    puts.reserve(events.size());
    const int64_t now = SystemWallMillis();
    // One block of the sequence for the batch: its events keep their order within a millisecond.
    uint64_t seq = sequence_.fetch_add(events.size(), std::memory_order_relaxed);
    std::map<std::string_view, TrimPass> due;  // the users whose trim is due, and how far
    for (const NewEvent& e : events) {
      const EventId id{e.time_ms == -1 ? now : e.time_ms, seq++};
      puts.push_back(MakePut(e.user, id, EncodeValue(e.name, e.payload)));
      ids.push_back(id);
      if (options_.max_events_per_user > 0) {
        const TrimPass pass = TrimDue(e.user, id, options_.trim_every);
        if (pass != TrimPass::kNone) due[e.user] = std::max(due[e.user], pass);
      }
    }
    if (puts.empty()) return ids;
    BASALT_RETURN_IF_ERROR(events_->Put(puts));
    std::vector<EventId> recorded;
    for (const auto& [user, pass] : due) {
      recorded.clear();  // the user's events of the batch, for Trim
      for (size_t i = 0; i < events.size(); ++i) {
        if (events[i].user == user) recorded.push_back(ids[i]);
      }
      BASALT_RETURN_IF_ERROR(
          Trim(user, options_.max_events_per_user, pass == TrimPass::kWhole, recorded));
    }
    return ids;
  }

 protected:
  // The Put that stores one event.
  virtual basalt::Put MakePut(std::string_view user, EventId id, std::string value) const = 0;
  // Deletes the user's events after the newest `keep`. Unless `whole`, a layout may skip the
  // events that an earlier trim already deleted; `recorded` are the user's events just written.
  virtual Status Trim(std::string_view user, int64_t keep, bool whole,
                      std::span<const EventId> recorded) = 0;

  // Where this log's last trim of `user` began to delete: the row (tall) or qualifier (wide) of
  // the newest event it deleted. Every event at or after it is deleted from then on, save one
  // recorded later with an older time, which is past the cap for good (newer events and TTL only
  // push it further). Kept in memory, for at most kMostTrimmedUsers users.
  std::optional<std::string> TrimmedFrom(std::string_view user) {
    util::MutexLock lock(trim_mu_);
    auto it = trimmed_from_.find(user);
    if (it == trimmed_from_.end()) return std::nullopt;
    return it->second;
  }
  void SetTrimmedFrom(std::string_view user, std::string key) {
    util::MutexLock lock(trim_mu_);
    constexpr size_t kMostTrimmedUsers = 65536;
    if (trimmed_from_.size() >= kMostTrimmedUsers) trimmed_from_.clear();  // a bound
    trimmed_from_.insert_or_assign(std::string(user), std::move(key));
  }

  std::unique_ptr<Table> events_;

 private:
  std::atomic<uint64_t> sequence_;
  util::Mutex trim_mu_;
  std::map<std::string, std::string, std::less<>> trimmed_from_ BASALT_GUARDED_BY(trim_mu_);
};

// Tall: a row per event.
class TallLog final : public LogBase {
 public:
  using LogBase::LogBase;

  // What ReadOffsetPage does for this scan (a row per event, one cell per row, no batch), without
  // its page of RowResults: the rows are read into one RowResult, which the embedded scanner
  // refills in place, and decoded straight into the events. The scan's limit is offset + limit,
  // so a remote backend still asks for the whole window in one call.
  Result<std::vector<ActivityEvent>> Latest(std::string_view user, int64_t limit,
                                            int64_t offset) override {
    if (limit < 0 || offset < 0) {
      return Status::InvalidArgument("activity log: negative limit or offset");
    }
    std::vector<ActivityEvent> out;
    if (limit == 0) return out;
    const std::string prefix = UserKey(user);
    Scan scan = UserScan(user);
    // offset + limit overflowing means "no limit": the user's events end first.
    scan.SetLimit(offset > INT64_MAX - limit ? 0 : offset + limit);
    BASALT_ASSIGN_OR_RETURN(auto scanner, events_->GetScanner(scan));
    if (offset > 0 && scanner->SkipRows(offset) < offset) {
      BASALT_RETURN_IF_ERROR(scanner->status());
      return out;
    }
    out.reserve(static_cast<size_t>(std::min<int64_t>(limit, 64)));
    RowResult row;
    while (static_cast<int64_t>(out.size()) < limit && scanner->Next(&row)) {
      ActivityEvent& event = out.emplace_back();
      // Every row of the scan starts with the user's key: only the event key after it is read.
      event.user = std::string(user);
      BASALT_RETURN_IF_ERROR(DecodeEventRow(row, prefix.size(), &event));
    }
    BASALT_RETURN_IF_ERROR(scanner->status());
    return out;
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
  basalt::Put MakePut(std::string_view user, EventId id, std::string value) const override {
    basalt::Put put(UserKey(user) + EventKey(id));
    put.Add(kEventFamily, kTallQualifier, id.time_ms, std::move(value));
    return put;
  }

  // The events after the newest `keep` are deleted. Deleted events keep their rows and gain
  // delete markers until a compaction drops both, and a scan steps over them: so a trim stops
  // where the log's previous trim of the user began to delete (TrimmedFrom). An event recorded
  // past that point is deleted by the trim its own Record makes, and one trim in kWholeTrimEvery
  // reads on to the end for those whose Record did not trim.
  Status Trim(std::string_view user, int64_t keep, bool whole,
              std::span<const EventId> recorded) override {
    Scan scan = UserScan(user).SetFilter(std::make_shared<KeyOnlyFilter>());
    std::vector<Mutation> deletes;
    if (std::optional<std::string> from = whole ? std::nullopt : TrimmedFrom(user)) {
      const std::string user_key = UserKey(user);
      for (const EventId& id : recorded) {
        std::string row = user_key + EventKey(id);
        if (row < *from) continue;
        deletes.emplace_back(
            basalt::Delete(std::move(row)).AddColumns(kEventFamily, kTallQualifier, id.time_ms));
      }
      scan.WithStopRow(std::move(*from));
    }
    const size_t late = deletes.size();
    BASALT_ASSIGN_OR_RETURN(auto scanner, events_->GetScanner(scan));
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
    BASALT_RETURN_IF_ERROR(events_->Batch(deletes).status());
    if (deletes.size() > late) SetTrimmedFrom(user, std::get<basalt::Delete>(deletes[late]).row());
    return Status::OK();
  }

 private:
  static Scan UserScan(std::string_view user) {
    Scan scan;  // built in place: the builders return references, which a return would copy
    scan.SetRowPrefix(UserKey(user)).AddFamily(kEventFamily);
    return scan;
  }

  static Status DecodeRowInto(const RowResult& row, ActivityEvent* event) {
    KeyParser parser(row.row());
    BASALT_RETURN_IF_ERROR(parser.ReadBytes(&event->user));
    BASALT_RETURN_IF_ERROR(DecodeEventKey(parser.rest(), &event->id));
    auto value = row.Value(kEventFamily, kTallQualifier);
    if (!value) return Status::Corruption("activity log: event row without its cell");
    return DecodeValue(*value, event);
  }

  // The id and value of an event row whose key starts with a user key of `user_key_size` bytes;
  // the user is the caller's to fill.
  static Status DecodeEventRow(const RowResult& row, size_t user_key_size, ActivityEvent* event) {
    if (row.row().size() < user_key_size) {
      return Status::Corruption("activity log: event row shorter than its user key");
    }
    BASALT_RETURN_IF_ERROR(
        DecodeEventKey(std::string_view(row.row()).substr(user_key_size), &event->id));
    auto value = row.Value(kEventFamily, kTallQualifier);
    if (!value) return Status::Corruption("activity log: event row without its cell");
    return DecodeValue(*value, event);
  }

  static Result<ActivityEvent> DecodeRow(const RowResult& row) {
    ActivityEvent event;
    BASALT_RETURN_IF_ERROR(DecodeRowInto(row, &event));
    return event;
  }

  // Decodes in place: a page's events are built where they end up, not moved there.
  static Result<std::vector<ActivityEvent>> Decode(const std::vector<RowResult>& rows) {
    std::vector<ActivityEvent> out;
    out.reserve(rows.size());
    for (const RowResult& row : rows) {
      BASALT_RETURN_IF_ERROR(DecodeRowInto(row, &out.emplace_back()));
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
  basalt::Put MakePut(std::string_view user, EventId id, std::string value) const override {
    basalt::Put put(UserKey(user));
    put.Add(kEventFamily, EventKey(id), id.time_ms, std::move(value));
    return put;
  }

  // As the tall log's: the read ends where the previous trim began to delete, a ceiling the
  // engine stops walking the row at (a ColumnRangeFilter without a minimum).
  Status Trim(std::string_view user, int64_t keep, bool whole,
              std::span<const EventId> recorded) override {
    if (keep > INT32_MAX) return Status::OK();  // a wide row this long is out of reach anyway
    Get get = UserGet(user).SetRowOffsetPerColumnFamily(static_cast<int32_t>(keep));
    basalt::Delete del(UserKey(user));
    if (std::optional<std::string> from = whole ? std::nullopt : TrimmedFrom(user)) {
      for (const EventId& id : recorded) {
        std::string qualifier = EventKey(id);
        if (qualifier >= *from) del.AddColumns(kEventFamily, std::move(qualifier), id.time_ms);
      }
      get.SetFilter(
          FilterList::And({std::make_shared<ColumnRangeFilter>("", false, std::move(*from), false),
                           std::make_shared<KeyOnlyFilter>()}));
    } else {
      get.SetFilter(std::make_shared<KeyOnlyFilter>());
    }
    BASALT_ASSIGN_OR_RETURN(RowResult row, events_->Get(get));
    for (const Cell& cell : row.cells()) {
      del.AddColumns(kEventFamily, cell.qualifier, cell.timestamp);
    }
    if (del.entries().empty()) return Status::OK();  // (an empty Delete removes the whole row)
    BASALT_RETURN_IF_ERROR(events_->Delete(del));
    // Qualifiers sort newest first: the row's first cell is the newest event deleted.
    if (!row.empty()) SetTrimmedFrom(user, row.cells().front().qualifier);
    return Status::OK();
  }

 private:
  static Get UserGet(std::string_view user) { return Get(UserKey(user)).AddFamily(kEventFamily); }

  static Result<std::vector<ActivityEvent>> Decode(std::string_view user, const RowResult& row) {
    std::vector<ActivityEvent> out;
    out.reserve(row.size());
    for (const Cell& cell : row.cells()) {
      ActivityEvent event;
      event.user = std::string(user);
      BASALT_RETURN_IF_ERROR(DecodeEventKey(cell.qualifier, &event.id));
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
  if (options.trim_every < 1) return Status::InvalidArgument("activity log: trim_every < 1");
  const TableName events_name(options.name_space, options.table_prefix + "_events");

  FamilyDescriptor events_family(kEventFamily);
  events_family.ttl_seconds = options.ttl_seconds;
  events_family.compression = options.compression;
  FamilyDescriptor meta_family(kMetaFamily);
  meta_family.compression = options.compression;
  BASALT_RETURN_IF_ERROR(EnsureTable(
      conn.admin(), TableDescriptor(events_name).AddFamily(events_family).AddFamily(meta_family)));
  BASALT_ASSIGN_OR_RETURN(auto events, conn.GetTable(events_name));
  BASALT_RETURN_IF_ERROR(
      CheckRecipeFormat(*events, RecipeFormat{"activity log", kActivityLogFormatVersion,
                                              kOldestReadableActivityLogFormatVersion,
                                              std::string(kRecipeMetaRow), kMetaFamily}));
  if (options.layout == ActivityLogOptions::Layout::kTall) {
    return std::unique_ptr<ActivityLog>(
        std::make_unique<TallLog>(std::move(options), std::move(events)));
  }
  return std::unique_ptr<ActivityLog>(
      std::make_unique<WideLog>(std::move(options), std::move(events)));
}

}  // namespace basalt::recipes
