#include "recipes/home_walk.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "basalt/base64.h"
#include "basalt/filter.h"
#include "recipes/feed_layout.h"
#include "recipes/inbox_rebuild.h"
#include "recipes/reader_row.h"
#include "recipes/timeline_merge.h"

namespace basalt::recipes {
namespace {

namespace fl = feed_layout;

using Phase = HomeWalk::Phase;

// A home read finds which marked authors the reader follows with one multi-Get of those edges
// while there are at most this many marks; past that, reading the whole following list is the
// cheaper way.
constexpr size_t kMostMarksCheckedByEdge = 64;

// The home-timeline cursor: base64url of the phase ('i': in the inbox, 'p': pulled from the
// followees' timelines) + the timeline key of the last post returned. Cursors of earlier versions
// are base64url of BE64(posts returned so far, >= 1) + that key: their first byte is 0, and they
// go on in the inbox.
std::string EncodeHomeCursor(Phase phase, std::string_view last_key) {
  return Base64UrlEncode(std::string(1, static_cast<char>(phase)) + std::string(last_key));
}

Status DecodeHomeCursor(std::string_view cursor, Phase* phase, std::string* last_key) {
  auto bytes = Base64UrlDecode(cursor);
  if (!bytes || bytes->empty()) return Status::InvalidArgument("feed: malformed home cursor");
  const char first = (*bytes)[0];
  if (first == static_cast<char>(Phase::kInbox) || first == static_cast<char>(Phase::kPulled)) {
    *phase = static_cast<Phase>(first);
    *last_key = bytes->substr(1);
  } else if (bytes->size() >= 8 && LongFromBytes(*bytes) >= 1) {
    *phase = Phase::kInbox;
    *last_key = bytes->substr(8);
  } else {
    return Status::InvalidArgument("feed: malformed home cursor");
  }
  if (!fl::DecodeTimelineKey(*last_key, nullptr).ok()) {
    return Status::InvalidArgument("feed: malformed home cursor");
  }
  return Status::OK();
}

}  // namespace

HomeWalk::HomeWalk(const FeedContext& feed, HighFollowerMarks& marks, ReaderActivity& activity,
                   std::string_view user)
    : feed_(feed), marks_(marks), activity_(activity), user_(user) {}

Result<PostPage> HomeWalk::Page(int32_t page_size, std::string_view cursor) {
  if (page_size < 1) return Status::InvalidArgument("feed: page_size must be >= 1");
  if (!cursor.empty()) BASALT_RETURN_IF_ERROR(DecodeHomeCursor(cursor, &phase_, &position_));
  last_returned_ = position_;
  BASALT_RETURN_IF_ERROR(FindMergedAuthors());
  while (more_ && static_cast<int32_t>(page_.posts.size()) < page_size) {
    const int32_t want = page_size - static_cast<int32_t>(page_.posts.size());
    const int32_t fetch = want + 1;
    std::vector<std::string> candidates;
    bool inbox_ends = false;  // the inbox region ends within these candidates
    if (phase_ == Phase::kInbox) {
      BASALT_ASSIGN_OR_RETURN(bool read, ReadInbox(fetch, &candidates, &inbox_ends));
      if (!read) continue;
    } else {
      BASALT_RETURN_IF_ERROR(ReadPulled(fetch, &candidates));
    }
    if (static_cast<int32_t>(candidates.size()) > want) candidates.resize(want);
    if (inbox_ends) phase_ = Phase::kPulled;
    if (candidates.empty()) continue;
    BASALT_RETURN_IF_ERROR(Hydrate(candidates));
  }
  if (more_ && !page_.posts.empty()) page_.cursor = EncodeHomeCursor(phase_, last_returned_);
  return std::move(page_);
}

Status HomeWalk::FindMergedAuthors() {
  // Merged at read time: the followed high-follower authors, whose posts are not fanned out.
  // The reader's own posts are in their inbox (Post), save those of a store older than that.
  BASALT_ASSIGN_OR_RETURN(auto marks, marks_.Marked());
  if (!marks->empty()) {
    std::vector<std::string> others;
    for (const std::string& author : *marks) {
      if (author != user_) others.push_back(author);
    }
    if (others.size() > kMostMarksCheckedByEdge) {
      BASALT_RETURN_IF_ERROR(ReadFollowed());
      merged_ = followed_->high;
    } else if (!others.empty()) {
      BASALT_ASSIGN_OR_RETURN(std::vector<bool> follows,
                              feed_.graph.IsFollowingEach(user_, others));
      for (size_t i = 0; i < others.size(); ++i) {
        if (follows[i]) merged_.push_back(std::move(others[i]));
      }
    }
  }
  std::erase(merged_, user_);
  shown_regardless_.insert(merged_.begin(), merged_.end());
  shown_regardless_.emplace(user_);  // followed or not, the reader's own posts are on their page
  return Status::OK();
}

Status HomeWalk::ReadFollowed() {
  if (followed_) return Status::OK();
  BASALT_ASSIGN_OR_RETURN(FollowedAuthors f, marks_.FollowedBy(user_));
  followed_ = std::move(f);
  return Status::OK();
}

Result<bool> HomeWalk::ReadInbox(int32_t fetch, std::vector<std::string>* keys, bool* inbox_ends) {
  // The reader row (activity, bound) and the inbox's next keys after `position_`, in one call.
  basalt::Get get = basalt::Get(fl::InboxRow(user_)).AddFamily(std::string(fl::kInboxFamily));
  get.SetMaxResultsPerColumnFamily(fetch);
  // No KeyOnlyFilter: entries hold empty values, and a first page without a filter is read
  // by the engine's shortest path (a column's first key, emitted as it is).
  if (!position_.empty()) {
    get.SetFilter(std::make_shared<ColumnRangeFilter>(position_, false, "", false));
  }
  // Moved in: an initializer list would copy both Gets, their column maps and the filter.
  std::vector<basalt::Get> reads;
  reads.reserve(2);
  reads.push_back(ReaderGet(user_));
  reads.push_back(std::move(get));
  BASALT_ASSIGN_OR_RETURN(auto rows, feed_.inbox.Get(reads));
  const ReaderState reader = ParseReader(rows[0]);
  reader_unfollowed_ = reader_unfollowed_ || reader.unfollowed;
  if (!checked_reader_) {
    checked_reader_ = true;
    const int64_t now = SystemWallMillis();
    if (!reader.stale.empty() || activity_.IdleAtRead(reader, now)) {
      BASALT_ASSIGN_OR_RETURN(bool rebuilt, RebuildInbox(feed_, marks_, user_));
      // A rebuild that a trim raced leaves the inbox untrusted: this walk goes on pulled.
      if (!rebuilt) phase_ = Phase::kPulled;
      return false;
    }
    BASALT_RETURN_IF_ERROR(activity_.RecordRead(user_, reader, now));
  }
  const std::string& bound = reader.bound;
  // The merge of the inbox's keys and the pulled ones, in order, each once. The inbox's come
  // in order (a row's columns), moved out of its row.
  for (Cell& c : rows[1].mutable_cells()) {
    if (c.qualifier < bound) keys->push_back(std::move(c.qualifier));
  }
  BASALT_ASSIGN_OR_RETURN(std::vector<std::string> own,
                          MergeTimelines(feed_.posts, merged_, position_, fetch));
  if (!own.empty()) {
    for (auto& k : own) {
      if (k < bound) keys->push_back(std::move(k));
    }
    std::sort(keys->begin(), keys->end());
    keys->erase(std::unique(keys->begin(), keys->end()), keys->end());
  }
  // Every source gave fewer than `fetch` keys before the bound exactly when the merge did.
  if (static_cast<int32_t>(keys->size()) < fetch) {
    // Past here the inbox may lack posts (trimmed, skipped while the reader was inactive,
    // backfilled only in part): the walk goes on pulled. With no bound it holds them all.
    if (bound == fl::kNoBound) {
      more_ = false;
    } else {
      *inbox_ends = true;
    }
  }
  return true;
}

Status HomeWalk::ReadPulled(int32_t fetch, std::vector<std::string>* keys) {
  // Filled on the first pulled read, also when the merge above has read the followees already.
  if (pulled_.empty()) {
    BASALT_RETURN_IF_ERROR(ReadFollowed());
    pulled_.assign(followed_->all.begin(), followed_->all.end());
    if (!followed_->all.contains(user_)) pulled_.push_back(user_);
  }
  BASALT_ASSIGN_OR_RETURN(*keys, MergeTimelines(feed_.posts, pulled_, position_, fetch));
  if (static_cast<int32_t>(keys->size()) < fetch) more_ = false;
  return Status::OK();
}

Status HomeWalk::Hydrate(std::vector<std::string>& candidates) {
  // One read of the posts' texts; deleted posts and authors no longer followed are dropped. The
  // text alone: a fanned-out post's mark (p:o, before it) is read past, not copied.
  std::vector<std::string> ids(candidates.size());
  std::vector<fl::PostId> decoded(candidates.size());
  std::vector<std::string> post_rows;
  post_rows.reserve(candidates.size());
  for (size_t i = 0; i < candidates.size(); ++i) {
    BASALT_ASSIGN_OR_RETURN(decoded[i], fl::DecodeTimelineKey(candidates[i], &ids[i]));
    post_rows.push_back(fl::PostRow(ids[i]));
  }
  BASALT_ASSIGN_OR_RETURN(std::vector<std::optional<std::string>> texts,
                          feed_.posts.GetColumnValues(fl::kPostFamily, "t", post_rows));
  // Inbox entries come from fan-out to followers, backfills of follows and rebuilds from the
  // followees, so only a reader who has unfollowed someone can hold an entry of an author
  // they no longer follow; theirs are checked against the graph, one multi-Get a batch.
  if (reader_unfollowed_ && !followed_) {
    std::vector<std::string> ask;
    for (size_t i = 0; i < candidates.size(); ++i) {
      const std::string& author = decoded[i].author;
      if (!texts[i] || shown_regardless_.contains(author) || still_followed_.contains(author) ||
          std::find(ask.begin(), ask.end(), author) != ask.end()) {
        continue;
      }
      ask.push_back(author);
    }
    if (!ask.empty()) {
      BASALT_ASSIGN_OR_RETURN(std::vector<bool> follows, feed_.graph.IsFollowingEach(user_, ask));
      for (size_t i = 0; i < ask.size(); ++i) still_followed_[ask[i]] = follows[i];
    }
  }
  for (size_t i = 0; i < candidates.size(); ++i) {
    position_ = candidates[i];
    if (!texts[i]) continue;  // deleted; the retract job cleans the inboxes
    const std::string& author = decoded[i].author;
    const bool follows = shown_regardless_.contains(author) ||
                         (followed_ ? followed_->all.contains(author)
                                    : !reader_unfollowed_ || still_followed_[author]);
    if (!follows) continue;  // unfollowed; Unfollow cleans the inbox
    page_.posts.push_back(PostView{std::move(ids[i]), std::move(decoded[i].author),
                                   decoded[i].timestamp_ms, std::move(*texts[i])});
    last_returned_ = candidates[i];
  }
  return Status::OK();
}

}  // namespace basalt::recipes
