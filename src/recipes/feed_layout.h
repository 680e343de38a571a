// The byte layout of the feed tables (docs/recipes.md, "Microblog feeds"). Internal to the feed
// recipe; every key is built with KeyBuilder and read with KeyParser.
//
// <prefix>_posts, families "p" (posts, marks) and "j" (jobs); the first key byte says the kind:
//   post row       uint8 1 + post id            p:t text, p:o when the post is (or may be) in
//                                               inboxes other than its author's: BE64 time (ms)
//                                               its fan-out job was queued at, which names the
//                                               job row, or "d" (since version 2) when the post
//                                               was delivered in its own write (no job row).
//                                               No p:o: a high-follower author's post, in no
//                                               other inbox. The author and time are the post
//                                               id's.
//   job row        uint8 5 + uint64 queued at (ms) + post id + uint8 kind ('F' fan-out,
//                  'R' retract): the job queue, oldest first
//                  j:a author, j:p post id, j:c follower cursor, j:l lease "<expiry ms>|<worker>"
//                  (written as "0|" with the job, so a claim is always an IfEquals that fails
//                  once the job row is deleted)
//   mark row       uint8 3 + bytes(author)      p:h "1": the author is a high-follower author
//   meta row       uint8 4                      p:v the layout's format version, decimal
//                                               (kFormatVersion; recipe_format.h)
// (kind 2 is retired: never reuse it.)
// post id          = bytes(author) + ReverseTimestamp(time ms) + uint32 sequence, descending
//                    (a later post of the same millisecond sorts first)
// <prefix>_inbox, family "i": one row per reader, bytes(user); one column per entry, qualifier =
//   timeline key = ReverseTimestamp(time ms) + post id, value empty. Qualifiers sort newest first.
//   An inbox holds its reader's own posts as well as their followees'.
//   reader row     bytes(user) + uint8 1 (never an inbox row: those end in 00 01)
//                  i:r BE64 last home read (ms), i:w the inbox bound (a timeline key: the inbox
//                  holds every followee's post that sorts before it, once delivered; kNoBound
//                  or absent: every one), i:e the nonce of the last rebuild, i:s non-empty while
//                  the inbox must be rebuilt (the running rebuild's nonce, or kDirty)

#ifndef BASALT_RECIPES_FEED_LAYOUT_H_
#define BASALT_RECIPES_FEED_LAYOUT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "basalt/status.h"
#include "recipes/recipe_format.h"

namespace basalt::recipes::feed_layout {

// Never renumber: on disk.
inline constexpr uint8_t kPostRow = 1;
inline constexpr uint8_t kMarkRow = 3;
inline constexpr uint8_t kMetaRow = 4;
inline constexpr uint8_t kJobRow = 5;
// The version of the layout above, in the meta row; bump it with any change of the layout
// (recipe_format.h). Never reuse a number. 2 added p:o "d": a basalt that reads only version 1
// would take such a post for one in no other inbox and delete it without retracting it, so it
// must refuse the store; version 1 stores read as version 2 (they hold no "d").
inline constexpr int kFormatVersion = 2;
inline constexpr int kOldestReadableFormatVersion = 1;
inline constexpr char kFanoutJob = 'F';
inline constexpr char kRetractJob = 'R';
// The lease of a job nobody has claimed yet: expired since the epoch.
inline constexpr std::string_view kUnclaimedLease = "0|";
// The same, of a fan-out job written in one atomic write with its post. While such a job row
// lives its post does (DeletePost deletes the job row with the post, and a post without one
// never had it), so its worker does not read the post before each page.
inline constexpr std::string_view kUnclaimedLeaseWithPost = "0|with-post";

inline constexpr std::string_view kPostFamily = "p";
inline constexpr std::string_view kJobFamily = "j";
inline constexpr std::string_view kInboxFamily = "i";
// Reader row qualifiers and values.
inline constexpr std::string_view kLastRead = "r";
inline constexpr std::string_view kBound = "w";
inline constexpr std::string_view kEpoch = "e";
inline constexpr std::string_view kStale = "s";
inline constexpr std::string_view kUnfollowed = "u";
// The bound of an inbox that holds every delivered entry: after every timeline key (those start
// with a reverse timestamp, byte 0x7f or less). An absent bound means the same.
inline constexpr std::string_view kNoBound = "\xff";
// i:s written by a trim or a follow that raced a rebuild: the rebuild does not count, the next
// read redoes it.
inline constexpr std::string_view kDirty = "dirty";

struct PostId {
  std::string author;
  int64_t timestamp_ms = 0;
  uint32_t sequence = 0;
};

std::string EncodePostId(const PostId& id);
// Corruption when `bytes` is not a post id.
Result<PostId> DecodePostId(std::string_view bytes);

std::string PostRow(std::string_view post_id);
// The prefix of every post row of `author`.
std::string AuthorPostsPrefix(std::string_view author);
// The first post row of `author` at or after (older than or as old as) `timestamp_ms`.
std::string AuthorPostsFrom(std::string_view author, int64_t timestamp_ms);
// The job row of `post_id` queued at `queued_ms` (wall clock).
std::string JobRow(int64_t queued_ms, std::string_view post_id, char kind);
std::string JobRowsPrefix();
// The first job row queued at or after `queued_ms`.
std::string JobRowsFrom(int64_t queued_ms);
// The time a job row was queued at; Corruption when `row` is not a job row.
Result<int64_t> DecodeJobQueuedAt(std::string_view row);
// p:o of a post that was fanned out: when its fan-out job was queued, so that DeletePost can
// delete the job row. nullopt when `mark` is not one.
std::string FanoutQueuedMark(int64_t queued_ms);
std::optional<int64_t> DecodeFanoutQueuedMark(std::string_view mark);
// p:o of a post delivered in its own write: in other inboxes, with no job row.
inline constexpr std::string_view kDeliveredInPostMark = "d";
std::string MarkRow(std::string_view author);
// The prefix of every mark row, and the author of one (Corruption when it is not one).
std::string MarkRowsPrefix();
Result<std::string> DecodeMarkRow(std::string_view row);
std::string MetaRow();
// What Feed::Open checks in the posts table's meta row.
RecipeFormat Format();
std::string InboxRow(std::string_view user);
std::string ReaderRow(std::string_view user);

// ReverseTimestamp(time) + post id: sorts newest first, then by post id.
std::string TimelineKey(std::string_view post_id, int64_t timestamp_ms);
// ReverseTimestamp(time): every timeline key of a post at `timestamp_ms` or before sorts at or
// after it, every later one before it.
std::string TimelineKeysFrom(int64_t timestamp_ms);
// The post id inside a timeline key; Corruption when it is not one.
Result<PostId> DecodeTimelineKey(std::string_view key, std::string* post_id);

}  // namespace basalt::recipes::feed_layout

#endif  // BASALT_RECIPES_FEED_LAYOUT_H_
