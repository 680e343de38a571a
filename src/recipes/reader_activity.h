// ReaderActivity: which readers are inactive (FeedOptions::inactive_after_ms): fan-out skips
// their inboxes, and their next home read rebuilds the inbox. A reader's last read is the
// reader row's last-read cell, written by home reads (at most one write in inactive_after_ms / 8)
// and started by their first Follow.
//
// Thread safety: all methods may be called concurrently.

#ifndef BASALT_RECIPES_READER_ACTIVITY_H_
#define BASALT_RECIPES_READER_ACTIVITY_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "basalt/status.h"
#include "recipes/feed_context.h"
#include "recipes/reader_row.h"
#include "util/mutex.h"

namespace basalt::recipes {

class ReaderActivity {
 public:
  explicit ReaderActivity(const FeedContext& feed) : feed_(feed) {}

  // The users of `users` fan-out delivers to: those not inactive. Adds the others to
  // `*skipped`.
  Result<std::vector<std::string>> ActiveReaders(const std::vector<std::string>& users,
                                                 int64_t* skipped);
  // Starts `user`'s clock at now unless it has started: a reader who never read is active from
  // their first follow on.
  Status StartClock(std::string_view user);
  // Whether a home read by the reader of `reader` at `now_ms` finds them idle: their inbox is to
  // be rebuilt before it serves. Older than 3/4 of inactive_after_ms, so that clocks of
  // processes may disagree by up to 1/4 of it.
  bool IdleAtRead(const ReaderState& reader, int64_t now_ms) const;
  // Records a home read by the reader of `reader` at `now_ms`, when none is recorded or the
  // recorded one is older than 1/8 of inactive_after_ms (one write per reader per few days by
  // default, not one per page).
  Status RecordRead(std::string_view user, const ReaderState& reader, int64_t now_ms);

 private:
  FeedContext feed_;
  // ActiveReaders' copies: until when a reader is active for certain. A reader whose last read
  // was at T is active until T + inactive_after_ms whatever happens meanwhile (a read only
  // moves T on), so a copy needs no refresh before then.
  util::Mutex active_mu_;
  std::unordered_map<std::string, int64_t> active_until_ BASALT_GUARDED_BY(active_mu_);
};

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_READER_ACTIVITY_H_
