#include "recipes/feed_layout.h"

#include <algorithm>

#include "basalt/keys.h"
#include "recipes/big_endian.h"

namespace basalt::recipes::feed_layout {

std::string EncodePostId(const PostId& id) {
  return KeyBuilder()
      .AddBytes(id.author)
      .AddReverseTimestamp(id.timestamp_ms)
      .AddUint32(id.sequence, KeyOrder::kDescending)
      .Build();
}

Result<PostId> DecodePostId(std::string_view bytes) {
  KeyParser parser(bytes);
  PostId id;
  BASALT_RETURN_IF_ERROR(parser.ReadBytes(&id.author).WithContext("post id"));
  BASALT_RETURN_IF_ERROR(parser.ReadReverseTimestamp(&id.timestamp_ms).WithContext("post id"));
  BASALT_RETURN_IF_ERROR(
      parser.ReadUint32(&id.sequence, KeyOrder::kDescending).WithContext("post id"));
  BASALT_RETURN_IF_ERROR(parser.Finish().WithContext("post id"));
  return id;
}

std::string PostRow(std::string_view post_id) {
  // The kind's byte built once: a home page builds twenty post rows a read.
  static const std::string kPrefix = KeyBuilder().AddUint8(kPostRow).Build();
  std::string row;
  row.reserve(kPrefix.size() + post_id.size());
  return row.append(kPrefix).append(post_id);
}

std::string AuthorPostsPrefix(std::string_view author) {
  return KeyBuilder().AddUint8(kPostRow).AddBytes(author).Build();
}

std::string AuthorPostsFrom(std::string_view author, int64_t timestamp_ms) {
  return KeyBuilder().AddUint8(kPostRow).AddBytes(author).AddReverseTimestamp(timestamp_ms).Build();
}

std::string JobRow(int64_t queued_ms, std::string_view post_id, char kind) {
  return JobRowsFrom(queued_ms).append(post_id).append(
      KeyBuilder().AddUint8(static_cast<uint8_t>(kind)).Build());
}

std::string JobRowsPrefix() {
  return KeyBuilder().AddUint8(kJobRow).Build();
}

std::string JobRowsFrom(int64_t queued_ms) {
  return KeyBuilder()
      .AddUint8(kJobRow)
      .AddUint64(static_cast<uint64_t>(std::max<int64_t>(queued_ms, 0)))
      .Build();
}

Result<int64_t> DecodeJobQueuedAt(std::string_view row) {
  KeyParser parser(row);
  uint8_t kind = 0;
  uint64_t queued_ms = 0;
  if (!parser.ReadUint8(&kind).ok() || kind != kJobRow || !parser.ReadUint64(&queued_ms).ok()) {
    return Status::Corruption("feed: a job row that is not one");
  }
  return static_cast<int64_t>(queued_ms);
}

std::string FanoutQueuedMark(int64_t queued_ms) {
  return KeyBuilder().AddUint64(static_cast<uint64_t>(std::max<int64_t>(queued_ms, 0))).Build();
}

std::optional<int64_t> DecodeFanoutQueuedMark(std::string_view mark) {
  KeyParser parser(mark);
  uint64_t queued_ms = 0;
  if (mark.size() != sizeof(uint64_t) || !parser.ReadUint64(&queued_ms).ok()) return std::nullopt;
  return static_cast<int64_t>(queued_ms);
}

std::string MarkRow(std::string_view author) {
  return KeyBuilder().AddUint8(kMarkRow).AddBytes(author).Build();
}

std::string MetaRow() {
  return KeyBuilder().AddUint8(kMetaRow).Build();
}

RecipeFormat Format() {
  return RecipeFormat{"feed",    kFormatVersion,           kOldestReadableFormatVersion,
                      MetaRow(), std::string(kPostFamily), std::string(kFormatVersionQualifier)};
}

std::string MarkRowsPrefix() {
  return KeyBuilder().AddUint8(kMarkRow).Build();
}

Result<std::string> DecodeMarkRow(std::string_view row) {
  KeyParser parser(row);
  uint8_t kind = 0;
  std::string author;
  if (!parser.ReadUint8(&kind).ok() || kind != kMarkRow || !parser.ReadBytes(&author).ok() ||
      !parser.done()) {
    return Status::Corruption("feed: a mark row that is not one");
  }
  return author;
}

std::string InboxRow(std::string_view user) {
  return KeyBuilder().AddBytes(user).Build();
}

std::string ReaderRow(std::string_view user) {
  return KeyBuilder().AddBytes(user).AddUint8(1).Build();
}

std::string TimelineKeysFrom(int64_t timestamp_ms) {
  return KeyBuilder().AddReverseTimestamp(timestamp_ms).Build();
}

std::string TimelineKey(std::string_view post_id, int64_t timestamp_ms) {
  return KeyBuilder().AddReverseTimestamp(timestamp_ms).Build().append(post_id);
}

namespace {

// A home page decodes twenty of these a read, and KeyParser's general path was a few percent of
// it. An author with no zero byte (no escapes) puts the post id's fields at fixed places after its
// 00 01 terminator, decoded here as KeyParser would; any other key (an escaped author, a key that
// does not decode) returns false and takes KeyParser's path, which words the errors.
bool DecodeCommonTimelineKey(std::string_view key, std::string* post_id, PostId* id) {
  constexpr size_t kTime = 8;
  constexpr size_t kAfterAuthor = 2 + 8 + 4;  // terminator, reverse time, descending sequence
  if (key.size() < kTime + kAfterAuthor) return false;
  const std::string_view rest = key.substr(kTime);
  const size_t author_size = rest.find('\0');
  if (author_size == std::string_view::npos || author_size + kAfterAuthor != rest.size() ||
      rest[author_size + 1] != '\x01') {
    return false;
  }
  const int64_t key_time = TimestampFromReverse(static_cast<int64_t>(BigEndianAt(key, 0, 8)));
  const int64_t id_time =
      TimestampFromReverse(static_cast<int64_t>(BigEndianAt(rest, author_size + 2, 8)));
  if (key_time != id_time) return false;
  id->author.assign(rest.substr(0, author_size));
  id->timestamp_ms = id_time;
  id->sequence = static_cast<uint32_t>(~BigEndianAt(rest, author_size + 10, 4));
  if (post_id != nullptr) post_id->assign(rest);
  return true;
}

}  // namespace

Result<PostId> DecodeTimelineKey(std::string_view key, std::string* post_id) {
  PostId common;
  if (DecodeCommonTimelineKey(key, post_id, &common)) return common;
  KeyParser parser(key);
  int64_t ts = 0;
  BASALT_RETURN_IF_ERROR(parser.ReadReverseTimestamp(&ts).WithContext("timeline key"));
  BASALT_ASSIGN_OR_RETURN(PostId id, DecodePostId(parser.rest()));
  if (id.timestamp_ms != ts) return Status::Corruption("timeline key: time does not match post id");
  if (post_id != nullptr) *post_id = std::string(parser.rest());
  return id;
}

}  // namespace basalt::recipes::feed_layout
