#include "recipes/feed_follows.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "basalt/filter.h"
#include "recipes/feed_layout.h"
#include "recipes/reader_row.h"

namespace basalt::recipes {
namespace {

namespace fl = feed_layout;

}  // namespace

Status FeedFollows::Follow(std::string_view follower, std::string_view followed) {
  BASALT_RETURN_IF_ERROR(feed_.graph.Follow(follower, followed));
  // A reader who never read is active from their first follow on (FeedOptions).
  BASALT_RETURN_IF_ERROR(activity_.StartClock(follower));
  BASALT_ASSIGN_OR_RETURN(bool high, marks_.IsMarked(followed));
  if (high) return Status::OK();
  // Read after the graph write: a rebuild that missed this follow started before it, so it is
  // running now (or done, and the bound moved below comes after its).
  BASALT_ASSIGN_OR_RETURN(RowResult reader, feed_.inbox.Get(ReaderGet(follower)));
  Scan scan = Scan()
                  .SetRowPrefix(fl::AuthorPostsPrefix(followed))
                  .AddColumn(std::string(fl::kPostFamily), "t")
                  .SetFilter(std::make_shared<KeyOnlyFilter>())
                  .SetLimit(feed_.options.backfill_posts + 1);
  BASALT_ASSIGN_OR_RETURN(auto scanner, feed_.posts.GetScanner(scan));
  std::vector<std::string> entries;
  RowResult row;
  while (scanner->Next(&row)) {
    std::string_view post_id = std::string_view(row.row()).substr(1);
    BASALT_ASSIGN_OR_RETURN(fl::PostId id, fl::DecodePostId(post_id));
    entries.push_back(fl::TimelineKey(post_id, id.timestamp_ms));
  }
  BASALT_RETURN_IF_ERROR(scanner->status());
  std::string beyond;  // the followed user's newest post not copied, if any
  if (entries.size() > static_cast<size_t>(feed_.options.backfill_posts)) {
    beyond = std::move(entries.back());
    entries.pop_back();
  }
  BASALT_RETURN_IF_ERROR(delivery_.Deliver({std::string(follower)}, entries));
  if (beyond.empty()) return Status::OK();
  // The inbox lacks the followed user's older posts: it holds everything only before this one.
  BASALT_RETURN_IF_ERROR(maintenance_.NarrowBound(follower, beyond, &reader));
  return maintenance_.MarkDirtyIfRebuilt({std::string(follower)}, {reader});
}

Status FeedFollows::Unfollow(std::string_view follower, std::string_view followed) {
  if (follower.empty() || followed.empty() || follower == followed) {
    return feed_.graph.Unfollow(follower, followed);  // InvalidArgument, before anything is written
  }
  // Marked before the edge goes: a fan-out page that read the followers before this may still
  // deliver after the clean-up below, so from now on the follower's home reads check the
  // authors of their inbox entries against the graph (HomeTimeline).
  BASALT_RETURN_IF_ERROR(
      feed_.inbox.Put(basalt::Put(fl::ReaderRow(follower))
                          .Add(std::string(fl::kInboxFamily), std::string(fl::kUnfollowed),
                               LongBytes(SystemWallMillis()))));
  BASALT_RETURN_IF_ERROR(feed_.graph.Unfollow(follower, followed));
  basalt::Get get = basalt::Get(fl::InboxRow(follower)).AddFamily(std::string(fl::kInboxFamily));
  get.SetFilter(std::make_shared<KeyOnlyFilter>());
  BASALT_ASSIGN_OR_RETURN(RowResult row, feed_.inbox.Get(get));
  basalt::Delete del(fl::InboxRow(follower));
  bool any = false;
  for (const Cell& c : row.cells()) {
    auto id = fl::DecodeTimelineKey(c.qualifier, nullptr);
    if (id.ok() && id->author == followed) {
      del.AddColumns(std::string(fl::kInboxFamily), c.qualifier);
      any = true;
    }
  }
  if (!any) return Status::OK();
  return feed_.inbox.Delete(del);
}

}  // namespace basalt::recipes
