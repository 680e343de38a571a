#include "recipes/inbox_maintenance.h"

#include <algorithm>
#include <memory>
#include <optional>

#include "basalt/check_and_mutate.h"
#include "basalt/filter.h"
#include "recipes/feed_layout.h"
#include "recipes/reader_row.h"
#include "recipes/trim_hash.h"

namespace basalt::recipes {
namespace {

namespace fl = feed_layout;

}  // namespace

InboxMaintenance::TrimPass InboxMaintenance::TrimDue(
    std::string_view user, const std::vector<std::string>& entries) const {
  const auto every = static_cast<uint64_t>(feed_.options.inbox_trim_every);
  TrimPass pass = TrimPass::kNone;
  for (const std::string& entry : entries) {
    const uint64_t h = TrimHash().AddBytes(user).EndField().AddBytes(entry).EndField().value();
    if (h % (every * kWholeTrimEvery) == 0) return TrimPass::kWhole;
    if (h % every == 0) pass = TrimPass::kBelowBound;
  }
  return pass;
}

Status InboxMaintenance::TrimDelivered(const std::vector<std::string>& users,
                                       const std::vector<std::string>& entries) {
  // Trim the inboxes whose turn it is (FeedOptions::inbox_trim_every).
  std::vector<DueTrim> due;
  for (const auto& u : users) {
    const TrimPass pass = TrimDue(u, entries);
    if (pass != TrimPass::kNone) due.push_back({u, pass, &entries});
  }
  return Trim(due);
}

Status InboxMaintenance::Trim(const std::vector<DueTrim>& due) {
  // The columns after the first inbox_cap (the oldest entries) are removed.
  if (due.empty()) return Status::OK();
  // The reader rows before the inboxes: MarkDirtyIfRebuilt compares against them, and the
  // bounds say where a kBelowBound read stops.
  std::vector<basalt::Get> reader_gets;
  for (const auto& d : due) reader_gets.push_back(ReaderGet(d.user));
  BASALT_ASSIGN_OR_RETURN(auto readers, feed_.inbox.Get(reader_gets));
  std::vector<basalt::Get> gets;
  std::vector<std::string> bounds;  // empty: the read is not bounded
  for (size_t i = 0; i < due.size(); ++i) {
    basalt::Get get =
        basalt::Get(fl::InboxRow(due[i].user)).AddFamily(std::string(fl::kInboxFamily));
    get.SetRowOffsetPerColumnFamily(feed_.options.inbox_cap);
    auto bound = readers[i].Value(fl::kInboxFamily, fl::kBound);
    // Entries have empty values: no KeyOnlyFilter, whose cells the engine would build only to
    // skip the first inbox_cap of them.
    if (due[i].pass == TrimPass::kBelowBound && bound && !bound->empty() &&
        *bound != fl::kNoBound) {
      // The read ends at the bound: a ColumnRangeFilter without a minimum is a ceiling the
      // engine stops walking the row at (filter_state.h).
      bounds.emplace_back(*bound);
      get.SetFilter(std::make_shared<ColumnRangeFilter>("", false, bounds.back(), false));
    } else {
      bounds.emplace_back();
    }
    gets.push_back(std::move(get));
  }
  BASALT_ASSIGN_OR_RETURN(auto rows, feed_.inbox.Get(gets));
  std::vector<Mutation> trims;
  std::vector<std::string> trimmed;
  std::vector<RowResult> trimmed_readers;
  for (size_t i = 0; i < rows.size(); ++i) {
    basalt::Delete del(fl::InboxRow(due[i].user));
    // Entries just delivered at or past the bound, which the bounded read does not see.
    if (!bounds[i].empty()) {
      for (const std::string& e : *due[i].delivered) {
        if (e >= bounds[i]) del.AddColumns(std::string(fl::kInboxFamily), e);
      }
    }
    if (!rows[i].empty()) {
      // The bound moves up to the newest entry removed before it goes, so that the inbox never
      // claims an entry it lost: past the bound, home timelines read the followees' timelines.
      std::string first = rows[i].cells().front().qualifier;
      for (const Cell& c : rows[i].cells()) {
        first = std::min(first, c.qualifier);
        del.AddColumns(std::string(fl::kInboxFamily), c.qualifier);
      }
      BASALT_RETURN_IF_ERROR(NarrowBound(due[i].user, first, &readers[i]));
    }
    if (del.entries().empty()) continue;  // (an empty Delete removes the whole row)
    trims.emplace_back(std::move(del));
    trimmed.push_back(due[i].user);
    trimmed_readers.push_back(std::move(readers[i]));
  }
  if (trims.empty()) return Status::OK();
  BASALT_RETURN_IF_ERROR(feed_.inbox.Batch(trims).status());
  return MarkDirtyIfRebuilt(trimmed, trimmed_readers);
}

Status InboxMaintenance::NarrowBound(std::string_view user, const std::string& key,
                                     const RowResult* reader) {
  const std::string family(fl::kInboxFamily);
  const std::string row = fl::ReaderRow(user);
  std::optional<RowResult> read;
  for (int round = 0; round < 16; ++round) {
    if (reader == nullptr) {
      BASALT_ASSIGN_OR_RETURN(read, feed_.inbox.Get(ReaderGet(user)));
      reader = &*read;
    }
    auto current = reader->Value(family, fl::kBound);
    const std::string bound =
        current && !current->empty() ? std::string(*current) : std::string(fl::kNoBound);
    if (bound <= key) return Status::OK();
    CheckAndMutate cam(row);
    if (current) {
      cam.IfEquals(family, std::string(fl::kBound), std::string(*current));
    } else {
      cam.IfNotExists(family, std::string(fl::kBound));
    }
    cam.Then(basalt::Put(row).Add(family, std::string(fl::kBound), key));
    BASALT_ASSIGN_OR_RETURN(bool moved, feed_.inbox.CheckAndMutate(cam));
    if (moved) return Status::OK();
    reader = nullptr;
  }
  return Status::Busy("feed: the inbox bound of " + std::string(user) + " kept changing");
}

Status InboxMaintenance::MarkDirtyIfRebuilt(const std::vector<std::string>& users,
                                            const std::vector<RowResult>& readers) {
  if (users.empty()) return Status::OK();
  std::vector<basalt::Get> gets;
  for (const auto& u : users) gets.push_back(ReaderGet(u));
  BASALT_ASSIGN_OR_RETURN(auto now, feed_.inbox.Get(gets));
  std::vector<basalt::Put> marks;
  for (size_t i = 0; i < users.size(); ++i) {
    const ReaderState before = ParseReader(readers[i]);
    const ReaderState after = ParseReader(now[i]);
    if (before.stale.empty() && before.epoch == after.epoch) continue;
    marks.push_back(
        basalt::Put(fl::ReaderRow(users[i]))
            .Add(std::string(fl::kInboxFamily), std::string(fl::kStale), std::string(fl::kDirty)));
  }
  if (marks.empty()) return Status::OK();
  return feed_.inbox.Put(marks);
}

}  // namespace basalt::recipes
