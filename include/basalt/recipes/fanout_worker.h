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

#include <chrono>
#include <climits>
#include <cstdint>
#include <memory>
#include <string_view>

#include "basalt/recipes/feed.h"
#include "basalt/status.h"

namespace basalt::recipes {

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
  // The threads, the pool's view of the job queue, its locks and counters (fanout_worker.cc).
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_FANOUT_WORKER_H_
