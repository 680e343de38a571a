// The reader row of an inbox (feed_layout.h: last read, bound, rebuild epoch and stale mark,
// unfollowed mark) as its parts read it, and the eight-byte longs its times are written as.

#ifndef BASALT_RECIPES_READER_ROW_H_
#define BASALT_RECIPES_READER_ROW_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "basalt/get.h"
#include "basalt/row_result.h"
#include "recipes/feed_layout.h"

namespace basalt::recipes {

// HBase's Bytes.toBytes(long): eight bytes, big-endian two's complement, which is what the key
// codec writes for a uint64 field.
std::string LongBytes(int64_t v);
// The long of the first eight bytes of `b`. REQUIRES: b.size() >= 8.
int64_t LongFromBytes(std::string_view b);

// A reader row's cells.
struct ReaderState {
  std::optional<int64_t> last_read;
  std::string bound = std::string(feed_layout::kNoBound);
  std::string epoch;
  std::string stale;
  // The reader has unfollowed someone (Feed::Unfollow): their inbox may hold entries of an author
  // they no longer follow, delivered by a fan-out page that read the followers before.
  bool unfollowed = false;
};

ReaderState ParseReader(const RowResult& row);

// The Get of `user`'s reader row, all of its cells.
basalt::Get ReaderGet(std::string_view user);

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_READER_ROW_H_
