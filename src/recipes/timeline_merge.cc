#include "recipes/timeline_merge.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <queue>

#include "basalt/filter.h"
#include "basalt/keys.h"
#include "recipes/feed_layout.h"

namespace basalt::recipes {
namespace {

namespace fl = feed_layout;

}  // namespace

Result<std::vector<std::string>> MergeTimelines(Table& posts,
                                                const std::vector<std::string>& authors,
                                                const std::string& position, int32_t limit) {
  std::vector<std::string> out;
  if (authors.empty() || limit < 1) return out;
  std::string position_id;
  fl::PostId at;
  if (!position.empty()) {
    BASALT_ASSIGN_OR_RETURN(at, fl::DecodeTimelineKey(position, &position_id));
  }
  const std::string at_author = position.empty() ? "" : KeyBuilder().AddBytes(at.author).Build();
  struct Source {
    std::string author;
    std::deque<std::string> keys;  // fetched, not merged yet; keys.front() is the head
    std::string last_row;          // the last row fetched
    bool more = true;              // the last fetch was full: there may be more rows
  };
  // Reads up to `n` keys of `src` from `start` on (a scan with an exact start row and a limit:
  // one call over Thrift2, with no scanner left open on the server).
  auto fetch = [&](Source& src, const std::string& start, bool inclusive, int32_t n) -> Status {
    Scan scan = Scan()
                    .SetRowPrefix(fl::AuthorPostsPrefix(src.author))
                    .AddColumn(std::string(fl::kPostFamily), "t")
                    .SetFilter(std::make_shared<KeyOnlyFilter>())
                    .SetLimit(n)
                    .SetCaching(n);
    if (!start.empty()) scan.WithStartRow(start, inclusive);
    BASALT_ASSIGN_OR_RETURN(auto scanner, posts.GetScanner(scan));
    RowResult row;
    int32_t got = 0;
    while (scanner->Next(&row)) {
      std::string_view post_id = std::string_view(row.row()).substr(1);
      BASALT_ASSIGN_OR_RETURN(fl::PostId id, fl::DecodePostId(post_id));
      src.keys.push_back(fl::TimelineKey(post_id, id.timestamp_ms));
      src.last_row = row.row();
      ++got;
    }
    BASALT_RETURN_IF_ERROR(scanner->status());
    src.more = got >= n;
    return Status::OK();
  };
  // Each author is likely to give about limit / authors keys: read twice that at first, so that
  // a page over many followees does not read a page's worth from each.
  const int32_t share =
      static_cast<int32_t>(2 * int64_t{limit} / static_cast<int64_t>(authors.size()));
  const int32_t first = std::min(limit, std::max<int32_t>(2, share));
  std::vector<Source> sources(authors.size());
  auto later = [&](size_t a, size_t b) {
    return sources[a].keys.front() > sources[b].keys.front();
  };
  std::priority_queue<size_t, std::vector<size_t>, decltype(later)> heap(later);
  for (size_t i = 0; i < authors.size(); ++i) {
    Source& src = sources[i];
    src.author = authors[i];
    // The author's first post after the position, found by its row key: their posts of the
    // position's millisecond come after it when their post ids do (the author's name decides).
    std::string start;
    bool inclusive = true;
    if (!position.empty()) {
      const std::string author_key = KeyBuilder().AddBytes(src.author).Build();
      if (src.author == at.author) {
        start = fl::PostRow(position_id);
        inclusive = false;
      } else if (author_key > at_author) {
        start = fl::AuthorPostsFrom(src.author, at.timestamp_ms);
      } else if (at.timestamp_ms > 0) {
        start = fl::AuthorPostsFrom(src.author, at.timestamp_ms - 1);
      } else {
        continue;  // nothing older than time 0
      }
    }
    BASALT_RETURN_IF_ERROR(fetch(src, start, inclusive, first));
    if (!src.keys.empty()) heap.push(i);
  }
  while (!heap.empty() && static_cast<int32_t>(out.size()) < limit) {
    const size_t i = heap.top();
    heap.pop();
    Source& src = sources[i];
    // Two authors never share a key (the post id holds the author), so no duplicates here.
    out.push_back(std::move(src.keys.front()));
    src.keys.pop_front();
    if (src.keys.empty() && src.more) {
      const int32_t left = limit - static_cast<int32_t>(out.size());
      if (left > 0) BASALT_RETURN_IF_ERROR(fetch(src, src.last_row, false, left));
    }
    if (!src.keys.empty()) heap.push(i);
  }
  return out;
}

}  // namespace basalt::recipes
