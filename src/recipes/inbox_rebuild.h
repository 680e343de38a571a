// RebuildInbox: an inbox refilled from the followees' own timelines, for a reader who was
// inactive (fan-out skipped them, FeedOptions::inactive_after_ms) or whose inbox a race left
// untrusted (InboxMaintenance::MarkDirtyIfRebuilt). The reader row's epoch and stale mark let
// trims and follows that race a rebuild see it (docs/recipes.md, "Microblog feeds").

#ifndef BASALT_RECIPES_INBOX_REBUILD_H_
#define BASALT_RECIPES_INBOX_REBUILD_H_

#include <string_view>

#include "basalt/status.h"
#include "recipes/feed_context.h"
#include "recipes/high_follower_marks.h"

namespace basalt::recipes {

// Rebuilds `user`'s inbox from the timelines of the users they follow (not the high-follower
// ones) and their own: the newest inbox_cap posts, and the bound after them. Returns false when
// a trim or a follow raced it: the inbox is then not to be trusted until the next read rebuilds
// it again.
Result<bool> RebuildInbox(const FeedContext& feed, HighFollowerMarks& marks, std::string_view user);

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_INBOX_REBUILD_H_
