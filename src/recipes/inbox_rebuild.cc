#include "recipes/inbox_rebuild.h"

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "basalt/check_and_mutate.h"
#include "recipes/feed_layout.h"
#include "recipes/reader_row.h"
#include "recipes/timeline_merge.h"

namespace basalt::recipes {
namespace {

namespace fl = feed_layout;

std::string Nonce() {
  std::random_device rd;
  return std::to_string(rd()) + "." + std::to_string(rd());
}

}  // namespace

Result<bool> RebuildInbox(const FeedContext& feed, HighFollowerMarks& marks,
                          std::string_view user) {
  const std::string family(fl::kInboxFamily);
  const std::string row = fl::ReaderRow(user);
  const std::string nonce = Nonce();
  // Marked first, so that a crash part-way leaves an inbox the next read rebuilds again, and
  // active from now on, so that fan-out delivers what this rebuild's reads come too early for.
  BASALT_RETURN_IF_ERROR(
      feed.inbox.Put(basalt::Put(row)
                         .Add(family, std::string(fl::kLastRead), LongBytes(SystemWallMillis()))
                         .Add(family, std::string(fl::kEpoch), nonce)
                         .Add(family, std::string(fl::kStale), nonce)));
  // The followees are read after the mark: a Follow whose graph write comes later sees the
  // rebuild running and marks the inbox dirty (Follow).
  BASALT_ASSIGN_OR_RETURN(FollowedAuthors followed, marks.FollowedBy(user));
  const std::set<std::string> high(followed.high.begin(), followed.high.end());
  std::vector<std::string> authors;
  for (const auto& a : followed.all) {
    if (!high.contains(a)) authors.push_back(a);
  }
  // And the reader's own posts, which Post writes into this inbox too.
  if (!followed.all.contains(std::string(user))) authors.emplace_back(user);
  BASALT_ASSIGN_OR_RETURN(std::vector<std::string> keys,
                          MergeTimelines(feed.posts, authors, "", feed.options.inbox_cap + 1));
  const size_t kept = std::min(keys.size(), static_cast<size_t>(feed.options.inbox_cap));
  if (kept > 0) {
    basalt::Put put(fl::InboxRow(user));
    for (size_t i = 0; i < kept; ++i) put.Add(family, keys[i], "");
    BASALT_RETURN_IF_ERROR(feed.inbox.Put(put));
  }
  const std::string bound = keys.size() > kept ? keys[kept] : std::string(fl::kNoBound);
  return feed.inbox.CheckAndMutate(CheckAndMutate(row)
                                       .IfEquals(family, std::string(fl::kStale), nonce)
                                       .Then(basalt::Put(row)
                                                 .Add(family, std::string(fl::kBound), bound)
                                                 .Add(family, std::string(fl::kStale), "")));
}

}  // namespace basalt::recipes
