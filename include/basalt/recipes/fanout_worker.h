// FanoutWorkerPool: background threads that run a Feed's fan-out and retract jobs (feed.h).
//
// Job life cycle (docs/recipes.md, "Microblog feeds"): Feed::Post queues a job row beside the
// post (job rows sort by the time they were queued). A worker takes a job with a free lease, reads
// the author's followers one FollowGraph::Followers page (chunk_size users) at a time and delivers
// to their inboxes. Each page is one write with the job's progress, conditioned on the lease the
// worker knows (as read, for the first page): the page's entries and either the follower cursor
// with the worker's lease (expiring after lease_ms), or, after the last page, the job row's
// delete. If another worker claimed or ended the job meanwhile, nothing is written and this one
// lets go; a job of one page takes no lease at all. A retract job (and any job where
// MutateRows is NotSupported) is claimed with a CheckAndMutate before its first write, and its
// progress recorded by a CheckAndMutate after each page. A worker that dies leaves its lease to
// expire; another worker then takes the job over and resumes after the last recorded page.
// Delivery is idempotent (an inbox entry is keyed by the post id), so a page redone after a crash
// never duplicates an entry.
//
// Looking for jobs: a pool's look reads up to 64 job rows into a list its workers take from, so
// that no two of them take the same job. It reads the queue on from the last row a look read,
// then from the pool's low-water mark (before it, every job is finished or the pool's), and every
// kFullLookEveryMs from the queue's start, for a job that became visible more than
// kLateJobMarginMs after it was queued. Finished jobs are deleted rows, read by every scan that
// passes them until a compaction drops them; the mark keeps the looks off them.
//
// Thread safety: Start, Stop and Drain may be called from any thread, not concurrently with
// the destructor.

#ifndef BASALT_RECIPES_FANOUT_WORKER_H_
#define BASALT_RECIPES_FANOUT_WORKER_H_

#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "basalt/recipes/feed.h"
#include "basalt/status.h"

namespace basalt::recipes {

class FanoutJobs;

struct FanoutWorkerOptions {
  // Worker threads. Default: 2.
  int threads = 2;
  // Followers read, and inboxes written, per step. Default: 200.
  int32_t chunk_size = 200;
  // How long a claim lasts without progress before another worker may take the job over.
  // Default: 30 s.
  int64_t lease_ms = 30000;
  // Pause between looks at the job table when it is empty. Default: 10 ms.
  int64_t poll_interval_ms = 10;
};

// What the pool did since it was made.
struct FanoutStats {
  int64_t jobs_finished = 0;
  int64_t inbox_writes = 0;  // entries delivered or retracted (one per follower and job step)
  // Deliveries skipped because the follower is inactive (FeedOptions::inactive_after_ms).
  int64_t skipped_inactive = 0;
};

class FanoutWorkerPool {
 public:
  // `feed` must outlive the pool. A feed not made by Feed::Open has no jobs to run: every
  // worker step then fails with InvalidArgument (last_error).
  explicit FanoutWorkerPool(Feed& feed, FanoutWorkerOptions options = {});
  // Stops the threads (as Stop).
  ~FanoutWorkerPool();

  // Starts the threads. Idempotent.
  void Start();
  // Stops the threads after their current step. A job in progress keeps its recorded progress
  // and its lease, which expires; it resumes when a worker (of any pool) takes it over.
  void Stop();

  // Waits until no job is left (OK) or `timeout` passes (Busy). Needs running workers: it counts
  // the jobs at the start, then each time a worker has found no job to claim (and at least every
  // second), not while the workers are busy.
  Status Drain(std::chrono::milliseconds timeout);

  FanoutStats stats() const;
  // The last error a worker met (OK when none); workers retry after an error.
  Status last_error() const;

  // Claims at most one job whose lease is free or expired and runs at most `max_steps` steps of
  // it as worker `worker_id`. A job left unfinished keeps its lease until it expires, as if the
  // worker had crashed. Returns whether a job was claimed. For tests and single-threaded tools.
  // InvalidArgument for a feed not made by Feed::Open.
  static Result<bool> RunOnce(Feed& feed, const FanoutWorkerOptions& options,
                              std::string_view worker_id, int max_steps = INT_MAX,
                              FanoutStats* stats = nullptr);

 private:
  void Loop(int index);
  // A full look from the queue's start at most this often, and the low-water mark this far
  // behind a look that read to the queue's end.
  static constexpr int64_t kFullLookEveryMs = 5000;
  static constexpr int64_t kLateJobMarginMs = 1000;

  // The pool's view of the job queue, shared by its workers (the file comment).
  struct QueueView {
    std::mutex mu;
    std::string pool_id;  // the pool's workers' ids start with it
    // Jobs with a free lease that a look read, not yet taken by a worker. guarded by mu
    std::deque<RowResult> seen;
    // The job rows workers took from `seen` and run. guarded by mu
    std::set<std::string> running;
    // The last job row a look read. guarded by mu
    std::string after;
    // Every job queued before this time (ms) is finished or the pool's (in `seen`, running, or
    // held by a worker's lease), unless it became visible more than kLateJobMarginMs after it
    // was queued. guarded by mu
    int64_t low_water_ms = 0;
    int64_t last_full_look_ms = 0;  // guarded by mu
  };

  // RunOnce, stopping between steps once `*stop` is set. With `view`, takes a job the pool's
  // looks read (claimed only when it has more than one follower page), else claims the first
  // free job of the whole queue.
  static Result<bool> RunJob(FanoutJobs* jobs, const FanoutWorkerOptions& options,
                             std::string_view worker_id, int max_steps, FanoutStats* stats,
                             const std::atomic<bool>* stop, QueueView* view);
  // Moves the next job of `view->seen` to `view->running` and into `*job`, looking at the queue
  // first when `seen` is empty. False when there is none.
  static Result<bool> TakeJob(Table& posts, QueueView* view, RowResult* job);
  // Reads jobs into `view->seen` (the file comment); `view->mu` held.
  static Status Look(Table& posts, QueueView* view);

  Feed& feed_;
  FanoutJobs* jobs_;  // feed_'s; null when feed_ was not made by Feed::Open
  FanoutWorkerOptions options_;
  QueueView view_;
  std::vector<std::thread> threads_;
  std::atomic<bool> stop_{false};
  mutable std::mutex mu_;
  std::condition_variable cv_;
  FanoutStats stats_;  // guarded by mu_
  // Times a worker looked for a job and found none it could claim, and Drain's wake-up for it:
  // the job table is only counted after such a look (counting it scans every job row).
  uint64_t empty_looks_ = 0;  // guarded by mu_
  std::condition_variable looked_;
  Status last_error_;  // guarded by mu_
};

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_FANOUT_WORKER_H_
