// InboxMaintenance: what keeps inboxes within FeedOptions::inbox_cap and their bounds honest
// (docs/recipes.md, "Microblog feeds"): the trims a delivery makes due (about one delivery in
// inbox_trim_every), the bound an inbox keeps (past it, home walks read the followees' own
// timelines), and the mark that sends an inbox to a rebuild when a rebuild raced a trim or a
// bound move.
//
// Thread safety: all methods may be called concurrently.

#ifndef BASALT_RECIPES_INBOX_MAINTENANCE_H_
#define BASALT_RECIPES_INBOX_MAINTENANCE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/row_result.h"
#include "basalt/status.h"
#include "recipes/feed_context.h"

namespace basalt::recipes {

class InboxMaintenance {
 public:
  explicit InboxMaintenance(const FeedContext& feed) : feed_(feed) {}

  // Trims the inboxes of `users` whose turn it is, now that `entries` were delivered to them,
  // to inbox_cap, moving their bounds up first.
  Status TrimDelivered(const std::vector<std::string>& users,
                       const std::vector<std::string>& entries);
  // Moves `user`'s inbox bound to `key` when that is before it (CheckAndMutate, so concurrent
  // moves keep the earliest). `reader` is the reader row as read, or null to read it.
  Status NarrowBound(std::string_view user, const std::string& key, const RowResult* reader);
  // After removing entries from the inboxes of `users` or moving their bounds, with `readers`
  // their reader rows read before: marks an inbox for a rebuild when a rebuild of it was running
  // then or started since, as that rebuild may have rewritten what was removed, or overwritten
  // the bound.
  Status MarkDirtyIfRebuilt(const std::vector<std::string>& users,
                            const std::vector<RowResult>& readers);

 private:
  // How far a trim reads an inbox. Entries a trim removes are the oldest, so every earlier
  // trim's delete markers sort at or after the inbox's bound: kBelowBound reads only the entries
  // before it, and removes of those after it only the ones just delivered. kWhole reads past it
  // too, for entries delivered after a trim had moved the bound above them (home timelines never
  // read them) by deliveries that did not trim.
  enum class TrimPass : uint8_t { kNone, kBelowBound, kWhole };
  struct DueTrim {
    std::string user;
    TrimPass pass;
    const std::vector<std::string>* delivered;  // the entries just written; not owned
  };
  // Whether delivering `entries` to `user` trims the inbox (FeedOptions::inbox_trim_every), and
  // how far: one trim in kWholeTrimEvery reads the whole inbox.
  TrimPass TrimDue(std::string_view user, const std::vector<std::string>& entries) const;
  static constexpr uint64_t kWholeTrimEvery = 16;
  // Trims the inboxes of `due` to inbox_cap, moving their bounds up first.
  Status Trim(const std::vector<DueTrim>& due);

  FeedContext feed_;
};

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_INBOX_MAINTENANCE_H_
