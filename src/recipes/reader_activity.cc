#include "recipes/reader_activity.h"

#include <climits>

#include "basalt/check_and_mutate.h"
#include "recipes/feed_layout.h"

namespace basalt::recipes {
namespace {

namespace fl = feed_layout;

}  // namespace

Result<std::vector<std::string>> ReaderActivity::ActiveReaders(
    const std::vector<std::string>& users, int64_t* skipped) {
  if (feed_.options.inactive_after_ms <= 0 || users.empty()) return users;
  const int64_t now = SystemWallMillis();
  // Fan-out pages meet the same readers again and again: read only those not known active.
  std::vector<bool> known(users.size(), false);
  std::vector<basalt::Get> gets;
  {
    util::MutexLock lock(active_mu_);
    for (size_t i = 0; i < users.size(); ++i) {
      auto it = active_until_.find(users[i]);
      known[i] = it != active_until_.end() && now <= it->second;
      if (!known[i]) {
        gets.push_back(basalt::Get(fl::ReaderRow(users[i]))
                           .AddColumn(std::string(fl::kInboxFamily), std::string(fl::kLastRead)));
      }
    }
  }
  if (gets.empty()) return users;
  BASALT_ASSIGN_OR_RETURN(auto rows, feed_.inbox.Get(gets));
  std::vector<std::string> active;
  util::MutexLock lock(active_mu_);
  constexpr size_t kMostCopies = 65536;
  if (active_until_.size() + rows.size() > kMostCopies) active_until_.clear();  // a bound
  for (size_t i = 0, read = 0; i < users.size(); ++i) {
    if (!known[i]) {
      // No last read (a reader from before activity was tracked) counts as one now: if one is
      // written later, it is later than now.
      auto r = rows[read++].Value(fl::kInboxFamily, fl::kLastRead);
      const int64_t last = r && r->size() == 8 ? LongFromBytes(*r) : now;
      const int64_t until = last > INT64_MAX - feed_.options.inactive_after_ms
                                ? INT64_MAX
                                : last + feed_.options.inactive_after_ms;
      if (until < now) {
        ++*skipped;
        continue;
      }
      active_until_.insert_or_assign(users[i], until);
    }
    active.push_back(users[i]);
  }
  return active;
}

Status ReaderActivity::StartClock(std::string_view user) {
  if (feed_.options.inactive_after_ms <= 0) return Status::OK();
  const std::string family(fl::kInboxFamily);
  const std::string row = fl::ReaderRow(user);
  return feed_.inbox
      .CheckAndMutate(CheckAndMutate(row)
                          .IfNotExists(family, std::string(fl::kLastRead))
                          .Then(basalt::Put(row).Add(family, std::string(fl::kLastRead),
                                                     LongBytes(SystemWallMillis()))))
      .status();
}

bool ReaderActivity::IdleAtRead(const ReaderState& reader, int64_t now_ms) const {
  const int64_t inactive_ms = feed_.options.inactive_after_ms;
  return inactive_ms > 0 && reader.last_read && *reader.last_read < now_ms - inactive_ms / 4 * 3;
}

Status ReaderActivity::RecordRead(std::string_view user, const ReaderState& reader,
                                  int64_t now_ms) {
  const int64_t inactive_ms = feed_.options.inactive_after_ms;
  if (inactive_ms <= 0 || (reader.last_read && *reader.last_read >= now_ms - inactive_ms / 8)) {
    return Status::OK();
  }
  return feed_.inbox.Put(
      basalt::Put(fl::ReaderRow(user))
          .Add(std::string(fl::kInboxFamily), std::string(fl::kLastRead), LongBytes(now_ms)));
}

}  // namespace basalt::recipes
