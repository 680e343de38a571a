// ActivityLog: a per-user log of time-stamped events, newest first (seed notes 000 and 001), on
// the public table API only, so it runs unchanged on every backend.
//
// Layouts (chosen when the log is opened; both give the same answers, docs/recipes.md):
//   kTall  `tall-vs-wide`'s recommended layout, `action-log`'s row per action: table
//   <prefix>_events,
//          row = Bytes(user) + ReverseTimestamp(time) + seq (descending), family "e",
//          qualifier "" (one cell per event).
//   kWide  one row per user in <prefix>_events, row = Bytes(user), family "e",
//          qualifier = ReverseTimestamp(time) + seq (descending).
// Every key is built with KeyBuilder (keys.h): Bytes(user) is the tuple codec's escaped,
// terminated encoding, so one user's keys never start with another user's prefix. The cell
// value holds Bytes(name) + Bytes(payload). The meta row "\0meta" (never a Bytes(user) key: a 00
// byte there is followed by FF or 01) holds "m:v" = the layouts' format version, decimal ("1"),
// in family "m" (no TTL); Open refuses (FailedPrecondition) a table of a version it does not
// read.
//
// Event ids: (time, seq), where seq comes from a counter of the ActivityLog object that starts at
// a random point in [2^32, 2^62): no read-modify-write per event. Ids are unique across threads
// and for any number of events in one millisecond; across processes (and restarts) two logs
// collide only if their random ranges overlap, odds about (events of both) / 2^62. Within one
// millisecond, of two events recorded through the same ActivityLog the later one (the larger
// seq) counts as newer; between two ActivityLog objects the order inside a millisecond is
// arbitrary.
//
// Retention: `ttl_seconds` is the events family's TTL, counted from the event's time (the
// cell's timestamp is the event time); `max_events_per_user` deletes a user's oldest events
// beyond the cap, on about one Record in `trim_every`.
//
// Thread safety: all methods may be called concurrently.

#ifndef BASALT_RECIPES_ACTIVITY_LOG_H_
#define BASALT_RECIPES_ACTIVITY_LOG_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/connection.h"
#include "basalt/schema.h"
#include "basalt/status.h"

namespace basalt::recipes {

// Identifies one event of one user: unique per user.
struct EventId {
  int64_t time_ms = 0;  // the event's time, milliseconds since the Unix epoch
  uint64_t seq = 0;     // the recording log's sequence number, >= 1
  friend auto operator<=>(const EventId&, const EventId&) = default;
};

struct ActivityEvent {
  std::string user;
  EventId id;
  std::string name;
  std::string payload;
  friend bool operator==(const ActivityEvent&, const ActivityEvent&) = default;
};

// An event to record: RecordMany's input.
struct NewEvent {
  std::string user;
  std::string name;
  std::string payload;
  int64_t time_ms = -1;  // -1: now
};

// Events newest first and the cursor of the next page (empty when there is none).
struct ActivityPage {
  std::vector<ActivityEvent> events;
  std::string cursor;
};

struct ActivityLogOptions {
  enum class Layout : uint8_t { kTall, kWide };
  Layout layout = Layout::kTall;
  // The table is "<table_prefix>_events" in `name_space`; created on Open when missing (an
  // existing table is used as it is, whatever its TTL).
  std::string name_space = "default";
  std::string table_prefix = "activity";
  // TTL of the events family, seconds from the event's time. Default: forever.
  int32_t ttl_seconds = kForeverTtl;
  // When > 0, Record deletes the user's events beyond the newest `max_events_per_user`.
  // Default: 0, no cap.
  int64_t max_events_per_user = 0;
  // With a cap, a trim reads the keys of the user's newest cap + 1 events, so trimming on every
  // Record would make each write O(cap). A Record trims on about one event in `trim_every`
  // instead (chosen by a hash of the user and the event id): a user then holds up to about
  // cap + trim_every events between trims (more than cap + 10 x trim_every has odds of e^-10),
  // and every query sees them until the next trim. 1 trims on every Record, keeping the cap
  // exact. Default: 16. REQUIRES: >= 1.
  int32_t trim_every = 16;
  // Compression of the events family, given when Open creates the table; an existing table
  // keeps its own (Admin::ModifyFamily changes it). Default: LZ4 (docs/recipes.md says why).
  Compression compression = Compression::kLz4;
};

class ActivityLog {
 public:
  // Opens (creating the table if needed) a log on `conn`, which must outlive it.
  // InvalidArgument for a negative cap, a ttl_seconds < 1 or a trim_every < 1.
  static Result<std::unique_ptr<ActivityLog>> Open(Connection& conn,
                                                   ActivityLogOptions options = {});
  virtual ~ActivityLog() = default;

  // Records an event at `time_ms` (-1, the default: now) and returns its id. InvalidArgument
  // for another negative time. Cost: one Put; with a cap, on about one Record in trim_every
  // also a key-only read of the user's newest cap + 1 events and a delete of those beyond.
  virtual Result<EventId> Record(std::string_view user, std::string_view name,
                                 std::string_view payload, int64_t time_ms = -1) = 0;

  // Records `events` and returns their ids, in order. Every event is checked first: for a
  // negative time other than -1, InvalidArgument and nothing is written. Cost: one multi-row
  // Put (atomic on the embedded backend, as Table::Put of many is), plus the cap's trims as in
  // Record, at most one per user in the batch.
  virtual Result<std::vector<EventId>> RecordMany(const std::vector<NewEvent>& events) = 0;

  // The `limit` newest events after skipping the `offset` newest (`action-log`'s ORDER BY stamp
  // DESC LIMIT limit OFFSET offset). Cost: O(offset + limit) cells read (the skipped ones are
  // read and dropped); prefer Page to walk a log. InvalidArgument for a negative argument.
  virtual Result<std::vector<ActivityEvent>> Latest(std::string_view user, int64_t limit,
                                                    int64_t offset = 0) = 0;

  // The next `page_size` events, newest first, after the page that returned `cursor` (the
  // first page when empty). No repeats and no skips of events present for the whole walk
  // (paging.h). Cost: page_size + 1 events read.
  virtual Result<ActivityPage> Page(std::string_view user, int32_t page_size,
                                    std::string_view cursor = {}) = 0;

  // Events with from_ms <= time < to_ms, newest first, at most `limit` of them (0: all).
  // Cost: one scan (tall) or Get (wide) bounded by the range.
  virtual Result<std::vector<ActivityEvent>> Range(std::string_view user, int64_t from_ms,
                                                   int64_t to_ms, int64_t limit = 0) = 0;

  // The events at exactly `time_ms` (`tall-vs-wide`'s "record at a timestamp"), newest first.
  virtual Result<std::vector<ActivityEvent>> At(std::string_view user, int64_t time_ms) = 0;

  // One event; NotFound when it does not exist (never recorded, expired or capped away).
  virtual Result<ActivityEvent> Find(std::string_view user, EventId id) = 0;

  // How many events the user has now. Cost: a key-only read of all of them (exact under TTL
  // and caps, which a stored counter would not be).
  virtual Result<int64_t> Count(std::string_view user) = 0;

  const ActivityLogOptions& options() const { return options_; }

 protected:
  explicit ActivityLog(ActivityLogOptions options) : options_(std::move(options)) {}

  ActivityLogOptions options_;
};

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_ACTIVITY_LOG_H_
