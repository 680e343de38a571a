// InboxDelivery: writing timeline keys (feed_layout.h) into inboxes, and taking them out: a
// fan-out page's deliveries, a follow's backfill, a retract job's removals. Entries are keyed by
// the post, so a delivery repeated (a page redone after a crash) never duplicates one. Each
// delivery is followed by the trims it makes due (InboxMaintenance::TrimDelivered), also when it
// went out as part of a larger atomic write (AddTo).

#ifndef BASALT_RECIPES_INBOX_DELIVERY_H_
#define BASALT_RECIPES_INBOX_DELIVERY_H_

#include <string>
#include <vector>

#include "basalt/multi_row_mutation.h"
#include "basalt/status.h"
#include "recipes/feed_context.h"
#include "recipes/inbox_maintenance.h"

namespace basalt::recipes {

class InboxDelivery {
 public:
  InboxDelivery(const FeedContext& feed, InboxMaintenance& maintenance)
      : feed_(feed), maintenance_(maintenance) {}

  // Writes `entries` into the inboxes of `users`, then trims those whose turn it is.
  Status Deliver(const std::vector<std::string>& users, const std::vector<std::string>& entries);
  // Adds the writes of `entries` into the inboxes of `users` to `m`, for a caller that writes
  // them atomically with rows of its own; once `m` is written, the caller calls Delivered.
  void AddTo(MultiRowMutation& m, const std::vector<std::string>& users,
             const std::vector<std::string>& entries) const;
  // The trims that delivering `entries` to `users` made due, after an AddTo was written.
  Status Delivered(const std::vector<std::string>& users, const std::vector<std::string>& entries);
  // Removes `entry` from the inboxes of `users`.
  Status Retract(const std::vector<std::string>& users, const std::string& entry);

 private:
  FeedContext feed_;
  InboxMaintenance& maintenance_;
};

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_INBOX_DELIVERY_H_
