// FanoutJobs: what a fan-out worker (fanout_worker.h) needs of a Feed to run its jobs, and no
// more: the table the job rows live in, the author's followers, which of them fan-out delivers
// to, and the writes that deliver a page and move a job on under its lease. The job rows'
// bytes are feed_layout.h's; the job life cycle is fanout_worker.h's file comment.

#ifndef BASALT_RECIPES_FANOUT_JOBS_H_
#define BASALT_RECIPES_FANOUT_JOBS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "basalt/recipes/feed.h"
#include "basalt/recipes/follow_graph.h"
#include "basalt/status.h"
#include "basalt/table.h"

namespace basalt::recipes {

// What a fan-out job's page does to its job row: ends the job (deletes the row), or records
// the follower cursor the next page starts at and a renewed lease.
struct JobAdvance {
  bool end = true;
  std::string cursor;
  std::string lease;
};

class FanoutJobs {
 public:
  virtual ~FanoutJobs() = default;

  // The posts table: the job rows, and the posts they deliver.
  virtual Table& posts() = 0;
  virtual FollowGraph& graph() = 0;
  // False once Connection::MutateRows answered NotSupported (thrift://): DeliverJobPage is then
  // two writes, and a worker claims a job before its first page.
  virtual bool rows_atomic() const = 0;

  // The users of `users` fan-out delivers to: those not inactive (FeedOptions::
  // inactive_after_ms). Adds the others to `*skipped`.
  virtual Result<std::vector<std::string>> ActiveReaders(const std::vector<std::string>& users,
                                                         int64_t* skipped) = 0;
  // Delivers `entries` (timeline keys, see feed_layout.h) to the inboxes of `users` and applies
  // `next` to the job in `job_row`, if its lease is still `lease`: one atomic write where the
  // store has one (nothing written when the lease changed), else the delivery, then a
  // CheckAndMutate of the job row. Returns whether the job row was written.
  virtual Result<bool> DeliverJobPage(const std::vector<std::string>& users,
                                      const std::vector<std::string>& entries,
                                      const std::string& job_row, const std::string& lease,
                                      const JobAdvance& next) = 0;
  // `next` applied to the job in `job_row` if its lease is still `lease` (a CheckAndMutate);
  // returns whether it was.
  virtual Result<bool> AdvanceJob(const std::string& job_row, const std::string& lease,
                                  const JobAdvance& next) = 0;
  // Removes `entry` from the inboxes of `users`.
  virtual Status Retract(const std::vector<std::string>& users, const std::string& entry) = 0;
};

// The fan-out jobs of `feed`; null when `feed` was not made by Feed::Open.
FanoutJobs* FanoutJobsOf(Feed& feed);

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_FANOUT_JOBS_H_
