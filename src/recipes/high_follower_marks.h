// HighFollowerMarks: which authors a feed does not fan out (docs/recipes.md, "Microblog feeds"):
// those whose follower count was above FeedOptions::fanout_threshold when they posted, marked by
// a sticky mark row. Keeps a copy of the marks (FeedOptions::marks_refresh_ms) and of follower
// counts (follower_count_refresh_ms), so that neither a post nor a home page reads them each.
//
// Thread safety: all methods may be called concurrently.

#ifndef BASALT_RECIPES_HIGH_FOLLOWER_MARKS_H_
#define BASALT_RECIPES_HIGH_FOLLOWER_MARKS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/status.h"
#include "recipes/feed_context.h"
#include "util/mutex.h"

namespace basalt::recipes {

// Whom a user follows, and which of them carry the high-follower mark.
struct FollowedAuthors {
  std::set<std::string> all;      // every author the user follows
  std::vector<std::string> high;  // those that carry the high-follower mark
};

class HighFollowerMarks {
 public:
  explicit HighFollowerMarks(const FeedContext& feed) : feed_(feed) {}

  // The authors that carry the mark, as of at most marks_refresh_ms ago. Marks are sticky, so
  // the copy never claims a mark that is not there.
  Result<std::shared_ptr<const std::set<std::string>>> Marked();
  // Whether `author` carries the mark now: the copy, else the mark row.
  Result<bool> IsMarked(std::string_view author);
  // Writes `author`'s mark, and drops a copy that lacks it.
  Status Mark(std::string_view author);
  // `author`'s follower count as of at most follower_count_refresh_ms ago.
  Result<int64_t> RecentFollowerCount(std::string_view author);
  // Whom `user` follows: read by a home timeline page past the inbox, or when there are too
  // many marked authors to ask about each edge, and by rebuilds.
  Result<FollowedAuthors> FollowedBy(std::string_view user);

 private:
  FeedContext feed_;
  util::Mutex marks_mu_;
  // Null: read again.
  std::shared_ptr<const std::set<std::string>> marks_ BASALT_GUARDED_BY(marks_mu_);
  int64_t marks_read_ms_ BASALT_GUARDED_BY(marks_mu_) = 0;
  struct FollowerCountCopy {
    int64_t count;
    int64_t read_ms;
  };
  util::Mutex counts_mu_;
  std::map<std::string, FollowerCountCopy, std::less<>> counts_ BASALT_GUARDED_BY(counts_mu_);
};

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_HIGH_FOLLOWER_MARKS_H_
