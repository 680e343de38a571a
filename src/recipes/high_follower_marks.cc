#include "recipes/high_follower_marks.h"

#include <utility>

#include "basalt/filter.h"
#include "recipes/feed_layout.h"

namespace basalt::recipes {
namespace {

namespace fl = feed_layout;

}  // namespace

Result<std::shared_ptr<const std::set<std::string>>> HighFollowerMarks::Marked() {
  const int64_t now = SystemWallMillis();
  {
    util::MutexLock lock(marks_mu_);
    if (marks_ != nullptr && now - marks_read_ms_ < feed_.options.marks_refresh_ms) return marks_;
  }
  auto marks = std::make_shared<std::set<std::string>>();
  Scan scan = Scan()
                  .SetRowPrefix(fl::MarkRowsPrefix())
                  .AddColumn(std::string(fl::kPostFamily), "h")
                  .SetFilter(std::make_shared<KeyOnlyFilter>())
                  .SetCaching(1000);
  BASALT_ASSIGN_OR_RETURN(auto scanner, feed_.posts.GetScanner(scan));
  RowResult row;
  while (scanner->Next(&row)) {
    BASALT_ASSIGN_OR_RETURN(std::string author, fl::DecodeMarkRow(row.row()));
    marks->insert(std::move(author));
  }
  BASALT_RETURN_IF_ERROR(scanner->status());
  util::MutexLock lock(marks_mu_);
  marks_ = marks;
  marks_read_ms_ = now;
  return std::shared_ptr<const std::set<std::string>>(std::move(marks));
}

Result<bool> HighFollowerMarks::IsMarked(std::string_view author) {
  // Marks are sticky: one in the copy is there. One missing may be newer than the copy.
  BASALT_ASSIGN_OR_RETURN(auto marks, Marked());
  if (marks->contains(std::string(author))) return true;
  return feed_.posts.Exists(
      basalt::Get(fl::MarkRow(author)).AddColumn(std::string(fl::kPostFamily), "h"));
}

Status HighFollowerMarks::Mark(std::string_view author) {
  BASALT_RETURN_IF_ERROR(feed_.posts.Put(
      basalt::Put(fl::MarkRow(author)).Add(std::string(fl::kPostFamily), "h", "1")));
  util::MutexLock lock(marks_mu_);
  if (marks_ != nullptr && !marks_->contains(std::string(author))) marks_ = nullptr;
  return Status::OK();
}

Result<int64_t> HighFollowerMarks::RecentFollowerCount(std::string_view author) {
  const int64_t now = SystemWallMillis();
  const int64_t refresh_ms = feed_.options.follower_count_refresh_ms;
  if (refresh_ms > 0) {
    util::MutexLock lock(counts_mu_);
    auto it = counts_.find(author);
    if (it != counts_.end() && now - it->second.read_ms < refresh_ms) return it->second.count;
  }
  BASALT_ASSIGN_OR_RETURN(int64_t count, feed_.graph.FollowerCount(author));
  if (refresh_ms > 0) {
    util::MutexLock lock(counts_mu_);
    constexpr size_t kMostCopies = 65536;
    if (counts_.size() >= kMostCopies) counts_.clear();  // a bound, not an LRU: refills cheaply
    counts_.insert_or_assign(std::string(author), FollowerCountCopy{count, now});
  }
  return count;
}

Result<FollowedAuthors> HighFollowerMarks::FollowedBy(std::string_view user) {
  FollowedAuthors out;
  std::string cursor;
  do {
    BASALT_ASSIGN_OR_RETURN(UserPage page, feed_.graph.Following(user, 500, cursor));
    for (auto& u : page.users) out.all.insert(std::move(u));
    cursor = std::move(page.cursor);
  } while (!cursor.empty());
  if (out.all.empty()) return out;
  BASALT_ASSIGN_OR_RETURN(auto marks, Marked());
  // Walk the smaller set, look up in the larger.
  if (marks->size() < out.all.size()) {
    for (const auto& author : *marks) {
      if (out.all.contains(author)) out.high.push_back(author);
    }
  } else {
    for (const auto& author : out.all) {
      if (marks->contains(author)) out.high.push_back(author);
    }
  }
  return out;
}

}  // namespace basalt::recipes
