// MergeTimelines: the newest posts of several authors' own timelines, in home-timeline order:
// what a home walk reads past the inbox ("pulled" pages) and what a rebuild refills an inbox
// with.

#ifndef BASALT_RECIPES_TIMELINE_MERGE_H_
#define BASALT_RECIPES_TIMELINE_MERGE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "basalt/status.h"
#include "basalt/table.h"

namespace basalt::recipes {

// Up to `limit` timeline keys (feed_layout.h) after `position` (exclusive; empty: from the
// newest), newest first, from the own timelines of `authors` in `posts`: a k-way merge that
// reads each author's posts lazily, a few at a time.
Result<std::vector<std::string>> MergeTimelines(Table& posts,
                                                const std::vector<std::string>& authors,
                                                const std::string& position, int32_t limit);

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_TIMELINE_MERGE_H_
