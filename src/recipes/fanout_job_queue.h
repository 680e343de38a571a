// FanoutJobQueue: a feed's fan-out and retract jobs (docs/recipes.md, "Microblog feeds"): the
// job rows a post or a delete queues, the writes that hand a job to the workers and move it on
// under its lease, and the backlog. It is the FanoutJobs its workers run (fanout_worker.h).
//
// Thread safety: all methods may be called concurrently.

#ifndef BASALT_RECIPES_FANOUT_JOB_QUEUE_H_
#define BASALT_RECIPES_FANOUT_JOB_QUEUE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/check_and_mutate.h"
#include "basalt/recipes/feed.h"
#include "basalt/status.h"
#include "recipes/atomic_row_writes.h"
#include "recipes/fanout_jobs.h"
#include "recipes/feed_context.h"
#include "recipes/inbox_delivery.h"
#include "recipes/reader_activity.h"

namespace basalt::recipes {

class FanoutJobQueue final : public FanoutJobs {
 public:
  FanoutJobQueue(const FeedContext& feed, InboxDelivery& delivery, ReaderActivity& activity,
                 AtomicRowWrites& atomic)
      : feed_(feed), delivery_(delivery), activity_(activity), atomic_(atomic) {}

  // The job row `job_row` (feed_layout.h::JobRow) of `author`'s post `post_id`, under `lease`.
  static basalt::Put JobPut(const std::string& job_row, std::string_view author,
                            std::string_view post_id, std::string_view lease);
  // Hands the job in `job_row` to the workers (the unclaimed lease) if it still holds
  // `poster_lease`, the lease Post wrote it under; returns whether it did.
  Result<bool> HandOver(const std::string& job_row, const std::string& poster_lease);

  // Jobs not finished yet, and when the oldest of them was last written (Feed::FanoutBacklog).
  Result<Feed::Backlog> Backlog();

  // FanoutJobs.
  Table& posts() override { return feed_.posts; }
  FollowGraph& graph() override { return feed_.graph; }
  bool rows_atomic() const override { return atomic_.supported(); }
  Result<std::vector<std::string>> ActiveReaders(const std::vector<std::string>& users,
                                                 int64_t* skipped) override;
  Result<bool> DeliverJobPage(const std::vector<std::string>& users,
                              const std::vector<std::string>& entries, const std::string& job_row,
                              const std::string& lease, const JobAdvance& next) override;
  Result<bool> AdvanceJob(const std::string& job_row, const std::string& lease,
                          const JobAdvance& next) override;
  Status Retract(const std::vector<std::string>& users, const std::string& entry) override;

 private:
  // The write that applies `next` to the job row.
  static CheckAndMutate::Action JobAdvanceAction(const std::string& job_row,
                                                 const JobAdvance& next);

  FeedContext feed_;
  InboxDelivery& delivery_;
  ReaderActivity& activity_;
  AtomicRowWrites& atomic_;
};

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_FANOUT_JOB_QUEUE_H_
