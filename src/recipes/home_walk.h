// HomeWalk: one page of a home timeline (Feed::HomeTimeline). A walk has two phases, and its
// cursor says which one the next page is in:
//   kInbox   the reader's inbox, merged with the recent posts of the followed high-follower
//            authors (not fanned out) and the reader's own; up to the bound the inbox keeps
//            (docs/recipes.md), past which it may lack posts (trimmed, skipped while the reader
//            was inactive, backfilled only in part);
//   kPulled  past that, a k-way merge of every followee's own timeline and the reader's
//            (MergeTimelines), which costs a scan per followee.
// The first inbox read of a page may first rebuild the inbox of an inactive reader, or of one
// whose inbox a race left untrusted; a rebuild that a trim raced sends the walk on pulled.
// Either way the page's candidates are hydrated with one multi-Get and dropped when deleted or
// no longer followed.

#ifndef BASALT_RECIPES_HOME_WALK_H_
#define BASALT_RECIPES_HOME_WALK_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/recipes/feed.h"
#include "basalt/status.h"
#include "recipes/feed_context.h"
#include "recipes/high_follower_marks.h"
#include "recipes/reader_activity.h"

namespace basalt::recipes {

class HomeWalk {
 public:
  // The phase, as the cursor's first byte writes it.
  enum class Phase : char { kInbox = 'i', kPulled = 'p' };

  // A walk of `user`'s home timeline; it reads one page.
  HomeWalk(const FeedContext& feed, HighFollowerMarks& marks, ReaderActivity& activity,
           std::string_view user);

  // The page of `page_size` posts after `cursor` (Feed::HomeTimeline's contract).
  Result<PostPage> Page(int32_t page_size, std::string_view cursor);

 private:
  // Which authors' recent posts the inbox phase merges with the inbox: the followed marked
  // authors (merged_), and with the reader, those a page shows whoever they follow
  // (shown_regardless_).
  Status FindMergedAuthors();
  // Whom the reader follows, read only when a page needs the whole list: past the inbox, or to
  // find the followed marked authors among many marks. An inbox page does without it.
  Status ReadFollowed();
  // Up to `fetch` keys after position_, in the inbox phase. False when the walk is to read
  // again instead: the inbox was rebuilt first. Sets *inbox_ends when the inbox's region ends
  // within the keys, and more_ to false when nothing follows them.
  Result<bool> ReadInbox(int32_t fetch, std::vector<std::string>* keys, bool* inbox_ends);
  // Up to `fetch` keys after position_, in the pulled phase; more_ to false when nothing
  // follows them.
  Status ReadPulled(int32_t fetch, std::vector<std::string>* keys);
  // Appends the posts of `candidates` that still exist and whose authors the reader still
  // follows to page_, and moves position_ past all of them.
  Status Hydrate(std::vector<std::string>& candidates);

  FeedContext feed_;
  HighFollowerMarks& marks_;
  ReaderActivity& activity_;
  const std::string user_;

  Phase phase_ = Phase::kInbox;
  std::string position_;         // the timeline key of the last post read; empty: the start
  std::string last_returned_;    // that of the last post on the page (or of the cursor)
  bool more_ = true;             // the walk has not reached its end
  bool checked_reader_ = false;  // the reader row's activity and stale mark were looked at
  // The reader has unfollowed someone: inbox authors are checked against the graph.
  bool reader_unfollowed_ = false;
  std::optional<FollowedAuthors> followed_;
  std::vector<std::string> merged_;
  std::set<std::string> shown_regardless_;  // merged_ and the reader
  std::vector<std::string> pulled_;         // every followee, and the reader
  // Whether an inbox author the reader may have unfollowed is still followed (asked once each).
  std::map<std::string, bool> still_followed_;
  PostPage page_;
};

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_HOME_WALK_H_
