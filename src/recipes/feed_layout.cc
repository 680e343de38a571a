#include "recipes/feed_layout.h"

#include <algorithm>

#include "basalt/keys.h"

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
  return KeyBuilder().AddUint8(kPostRow).Build().append(post_id);
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

std::string OldJobRow(std::string_view post_id, char kind) {
  return KeyBuilder()
      .AddUint8(kOldJobRow)
      .Build()
      .append(post_id)
      .append(KeyBuilder().AddUint8(static_cast<uint8_t>(kind)).Build());
}

std::string OldJobRowsPrefix() {
  return KeyBuilder().AddUint8(kOldJobRow).Build();
}

std::string MarkRow(std::string_view author) {
  return KeyBuilder().AddUint8(kMarkRow).AddBytes(author).Build();
}

std::string MetaRow() {
  return KeyBuilder().AddUint8(kMetaRow).Build();
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

Result<PostId> DecodeTimelineKey(std::string_view key, std::string* post_id) {
  KeyParser parser(key);
  int64_t ts = 0;
  BASALT_RETURN_IF_ERROR(parser.ReadReverseTimestamp(&ts).WithContext("timeline key"));
  BASALT_ASSIGN_OR_RETURN(PostId id, DecodePostId(parser.rest()));
  if (id.timestamp_ms != ts) return Status::Corruption("timeline key: time does not match post id");
  if (post_id != nullptr) *post_id = std::string(parser.rest());
  return id;
}

}  // namespace basalt::recipes::feed_layout
