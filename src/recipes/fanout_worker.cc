#include "basalt/recipes/fanout_worker.h"

#include <algorithm>
#include <atomic>
#include <deque>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "basalt/check_and_mutate.h"
#include "basalt/filter.h"
#include "recipes/fanout_jobs.h"
#include "recipes/feed_layout.h"
#include "util/mutex.h"
#include "util/thread_annotations.h"

namespace basalt::recipes {
namespace fanout_worker_internal {

// The pool's view of the job queue, shared by its workers (the file comment). Outside the
// anonymous namespace: FanoutWorkerPool::State holds one.
struct QueueView {
  explicit QueueView(std::string id) : pool_id(std::move(id)) {}

  const std::string pool_id;  // the pool's workers' ids start with it
  util::Mutex mu;
  // Jobs with a free lease that a look read, not yet taken by a worker.
  std::deque<RowResult> seen BASALT_GUARDED_BY(mu);
  // The job rows workers took from `seen` and run.
  std::set<std::string> running BASALT_GUARDED_BY(mu);
  // The last job row a look read.
  std::string after BASALT_GUARDED_BY(mu);
  // Every job queued before this time (ms) is finished or the pool's (in `seen`, running, or held
  // by a worker's lease), unless it became visible more than kLateJobMarginMs after it was queued.
  int64_t low_water_ms BASALT_GUARDED_BY(mu) = 0;
  int64_t last_full_look_ms BASALT_GUARDED_BY(mu) = 0;
};

}  // namespace fanout_worker_internal

namespace {

using fanout_worker_internal::QueueView;

// A full look from the queue's start at most this often, and the low-water mark this far behind a
// look that read to the queue's end.
constexpr int64_t kFullLookEveryMs = 5000;
constexpr int64_t kLateJobMarginMs = 1000;

namespace fl = feed_layout;

// The lease cell's value: "<expiry ms>|<worker id>".
std::string LeaseValue(std::string_view worker_id, int64_t lease_ms) {
  return std::to_string(SystemWallMillis() + lease_ms) + "|" + std::string(worker_id);
}

// True when `lease` (a lease value, or empty) no longer holds anyone's claim.
bool LeaseFree(std::string_view lease) {
  if (lease.empty()) return true;
  size_t bar = lease.find('|');
  if (bar == std::string_view::npos) return true;  // unreadable: treat as expired
  int64_t expiry = 0;
  for (char c : lease.substr(0, bar)) {
    if (c < '0' || c > '9') return true;
    expiry = expiry * 10 + (c - '0');
  }
  return expiry < SystemWallMillis();
}

// Live job rows a look reads at most.
constexpr int kLookRows = 64;

// The live job rows (those with a lease cell; a finished job's row is deleted) of `scan`, at
// most kLookRows.
Result<std::vector<RowResult>> ReadJobs(Table& posts, Scan scan) {
  const std::string family(fl::kJobFamily);
  BASALT_ASSIGN_OR_RETURN(auto scanner,
                          posts.GetScanner(scan.AddFamily(family).SetLimit(kLookRows)));
  std::vector<RowResult> jobs;
  RowResult row;
  while (scanner->Next(&row)) {
    if (row.Value(family, "l")) jobs.push_back(std::move(row));
  }
  BASALT_RETURN_IF_ERROR(scanner->status());
  return jobs;
}

std::string_view LeaseOf(const RowResult& job) {
  return job.Value(fl::kJobFamily, "l").value_or("");
}

std::string_view Holder(std::string_view lease) {
  const size_t bar = lease.find('|');
  return bar == std::string_view::npos ? std::string_view() : lease.substr(bar + 1);
}

// Replaces the lease of job `row` with `next` if it is still `current`: a worker's claim of a job.
Result<bool> SwapLease(Table& posts, const std::string& row, const std::string& current,
                       const std::string& next) {
  const std::string family(fl::kJobFamily);
  return posts.CheckAndMutate(CheckAndMutate(row)
                                  .IfEquals(family, "l", current)
                                  .Then(basalt::Put(row).Add(family, "l", next)));
}

// Claims the first job of `jobs` whose lease is free, or held by `worker_id` (left by an earlier
// call), with a CheckAndMutate on the lease as read. Every job row is written with a lease cell,
// so the claim is always an IfEquals, which fails once another worker has finished and deleted
// the job (an IfNotExists would pass on the deleted row and bring back a row holding only a
// lease). Sets `*job` and `*lease` to the claimed job and its new lease.
Result<bool> ClaimFirstFree(Table& posts, std::vector<RowResult>& jobs, std::string_view worker_id,
                            const FanoutWorkerOptions& options, RowResult* job,
                            std::string* lease) {
  for (RowResult& row : jobs) {
    const std::string current(LeaseOf(row));
    if (Holder(current) != worker_id && !LeaseFree(current)) continue;
    *lease = LeaseValue(worker_id, options.lease_ms);
    BASALT_ASSIGN_OR_RETURN(bool claimed, SwapLease(posts, row.row(), current, *lease));
    if (claimed) {
      *job = std::move(row);
      return true;
    }
  }
  return false;
}

std::string RandomId() {
  std::random_device rd;
  return std::to_string(rd()) + std::to_string(rd());
}

// Moves the jobs of `jobs` with a free lease that no worker of the pool runs to `view->seen`.
void TakeFree(std::vector<RowResult>& jobs, QueueView* view) BASALT_REQUIRES(view->mu) {
  for (RowResult& job : jobs) {
    if (LeaseFree(LeaseOf(job)) && !view->running.contains(job.row())) {
      view->seen.push_back(std::move(job));
    }
  }
}

// Reads jobs into `view->seen` (the file comment).
Status Look(Table& posts, QueueView* view) BASALT_REQUIRES(view->mu) {
  const int64_t look_ms = SystemWallMillis();
  const bool full = look_ms - view->last_full_look_ms >= kFullLookEveryMs;
  // On from the last job row a look read, unless the low-water mark has passed it.
  if (!full && !view->after.empty() &&
      fl::DecodeJobQueuedAt(view->after).value_or(0) >= view->low_water_ms) {
    BASALT_ASSIGN_OR_RETURN(
        auto jobs,
        ReadJobs(posts, Scan().SetRowPrefix(fl::JobRowsPrefix()).WithStartRow(view->after, false)));
    if (!jobs.empty()) view->after = jobs.back().row();
    TakeFree(jobs, view);
    if (!view->seen.empty()) return Status::OK();
  }
  // From the low-water mark (or the queue's head), moving the mark up to the first job neither
  // finished nor the pool's.
  if (full) view->last_full_look_ms = look_ms;
  BASALT_ASSIGN_OR_RETURN(
      auto jobs, ReadJobs(posts, Scan()
                                     .SetRowPrefix(fl::JobRowsPrefix())
                                     .WithStartRow(fl::JobRowsFrom(full ? 0 : view->low_water_ms),
                                                   /*inclusive=*/true)));
  int64_t mark = jobs.size() < static_cast<size_t>(kLookRows)
                     ? look_ms - kLateJobMarginMs
                     : fl::DecodeJobQueuedAt(jobs.back().row()).value_or(0);
  for (const RowResult& job : jobs) {
    const std::string_view lease = LeaseOf(job);
    const std::string_view holder = Holder(lease);
    const bool pools = LeaseFree(lease) || holder.starts_with(view->pool_id);
    if (!pools) {
      mark = std::min(mark, fl::DecodeJobQueuedAt(job.row()).value_or(0));
      break;
    }
  }
  view->low_water_ms = full ? mark : std::max(view->low_water_ms, mark);
  if (!jobs.empty()) view->after = jobs.back().row();
  TakeFree(jobs, view);
  return Status::OK();
}

// Moves the next job of `view->seen` to `view->running` and into `*job`, looking at the queue
// first when `seen` is empty. False when there is none.
Result<bool> TakeJob(Table& posts, QueueView* view, RowResult* job) BASALT_EXCLUDES(view->mu) {
  util::MutexLock lock(view->mu);
  if (view->seen.empty()) BASALT_RETURN_IF_ERROR(Look(posts, view));
  if (view->seen.empty()) return false;
  *job = std::move(view->seen.front());
  view->seen.pop_front();
  view->running.insert(job->row());
  return true;
}

// RunOnce, stopping between steps once `*stop` is set. With `view`, takes a job the pool's looks
// read (claimed only when it has more than one follower page), else claims the first free job of
// the whole queue.
Result<bool> RunJob(FanoutJobs* jobs, const FanoutWorkerOptions& options,
                    std::string_view worker_id, int max_steps, FanoutStats* stats,
                    const std::atomic<bool>* stop, QueueView* view) {
  if (jobs == nullptr) {
    return Status::InvalidArgument("fan-out: the feed was not made by Feed::Open");
  }
  Table& posts = jobs->posts();
  const std::string family(fl::kJobFamily);
  RowResult job;
  // The lease value the job row holds as far as this worker knows, and whether it is this
  // worker's: a job taken from the pool's looks is claimed only before a write that is not its
  // end (a job of one follower page is delivered and ended in one write conditioned on the lease
  // it was read with).
  std::string lease;
  bool claimed = false;
  if (view != nullptr) {
    BASALT_ASSIGN_OR_RETURN(bool taken, TakeJob(posts, view, &job));
    if (!taken) return false;
    lease = std::string(LeaseOf(job));
  } else {
    BASALT_ASSIGN_OR_RETURN(auto jobs, ReadJobs(posts, Scan().SetRowPrefix(fl::JobRowsPrefix())));
    BASALT_ASSIGN_OR_RETURN(claimed, ClaimFirstFree(posts, jobs, worker_id, options, &job, &lease));
    if (!claimed) return false;
  }
  // The job leaves the pool's running set however this call ends.
  struct Release {
    QueueView* view;
    std::string row;
    ~Release() {
      if (view == nullptr) return;
      util::MutexLock lock(view->mu);
      view->running.erase(row);
    }
  } release{view, job.row()};
  // Claims the job before a write that does not end it; false when another worker has it.
  auto claim = [&]() -> Result<bool> {
    if (claimed) return true;
    std::string mine = LeaseValue(worker_id, options.lease_ms);
    BASALT_ASSIGN_OR_RETURN(claimed, SwapLease(posts, job.row(), lease, mine));
    if (claimed) lease = std::move(mine);
    return claimed;
  };

  const std::string job_row = job.row();
  const std::string author(job.Value(family, "a").value_or(""));
  const std::string post_id(job.Value(family, "p").value_or(""));
  std::string cursor(job.Value(family, "c").value_or(""));
  const char kind = job_row.back();
  // A job written with its post lives no longer than the post: each page's write, conditioned on
  // the job's lease, fails once DeletePost has deleted the job row. Any other job (written
  // without a cross-row atomic write, whose post may never have been written, or whose lease a
  // worker has replaced since) reads the post before each page.
  const bool post_lives_with_job = LeaseOf(job) == fl::kUnclaimedLeaseWithPost;
  BASALT_ASSIGN_OR_RETURN(fl::PostId id, fl::DecodePostId(post_id));
  const std::string entry = fl::TimelineKey(post_id, id.timestamp_ms);

  for (int step = 0; step < max_steps; ++step) {
    if (stop != nullptr && step > 0 && stop->load()) return true;
    bool done = false;
    if (kind == fl::kFanoutJob && !post_lives_with_job) {
      // A post deleted before its fan-out finished is not delivered any further.
      BASALT_ASSIGN_OR_RETURN(
          bool exists,
          posts.Exists(
              basalt::Get(fl::PostRow(post_id)).AddColumn(std::string(fl::kPostFamily), "t")));
      done = !exists;
    }
    if (!done) {
      BASALT_ASSIGN_OR_RETURN(UserPage page,
                              jobs->graph().Followers(author, options.chunk_size, cursor));
      if (kind == fl::kFanoutJob) {
        // Inactive readers are skipped: their next read rebuilds their inbox.
        int64_t skipped = 0;
        BASALT_ASSIGN_OR_RETURN(std::vector<std::string> active,
                                jobs->ActiveReaders(page.users, &skipped));
        // Without an atomic MutateRows a page is written before the lease is checked: the job
        // must then be claimed first, so that no two workers deliver it.
        if (!jobs->rows_atomic()) {
          BASALT_ASSIGN_OR_RETURN(bool mine, claim());
          if (!mine) return true;
        }
        // The page and the job's end (or its cursor and a renewed lease) in one write, nothing
        // written if the lease changed (the worker holding it now delivers the page). A job of
        // one page thus takes no lease; a longer one takes it with its first page.
        JobAdvance next{.end = page.cursor.empty(), .cursor = page.cursor};
        if (!next.end) next.lease = LeaseValue(worker_id, options.lease_ms);
        BASALT_ASSIGN_OR_RETURN(bool written,
                                jobs->DeliverJobPage(active, {entry}, job_row, lease, next));
        if (!written) return true;
        if (stats != nullptr) {
          stats->inbox_writes += static_cast<int64_t>(active.size());
          stats->skipped_inactive += skipped;
          if (next.end) ++stats->jobs_finished;
        }
        if (next.end) return true;
        lease = std::move(next.lease);
        claimed = true;
        cursor = std::move(page.cursor);
        continue;
      }
      BASALT_ASSIGN_OR_RETURN(bool mine, claim());
      if (!mine) return true;
      BASALT_RETURN_IF_ERROR(jobs->Retract(page.users, entry));
      if (stats != nullptr) stats->inbox_writes += static_cast<int64_t>(page.users.size());
      cursor = std::move(page.cursor);
      done = cursor.empty();
    }
    if (done) {
      BASALT_ASSIGN_OR_RETURN(bool ended, jobs->AdvanceJob(job_row, lease, {.end = true}));
      if (ended && stats != nullptr) ++stats->jobs_finished;
      return true;
    }
    // A retract job's progress and renewed lease, unless another worker took the job over.
    JobAdvance next{
        .end = false, .cursor = cursor, .lease = LeaseValue(worker_id, options.lease_ms)};
    BASALT_ASSIGN_OR_RETURN(bool kept, jobs->AdvanceJob(job_row, lease, next));
    if (!kept) return true;
    lease = std::move(next.lease);
  }
  return true;
}

}  // namespace

struct FanoutWorkerPool::State {
  State(Feed& f, FanoutWorkerOptions o)
      : feed(f), jobs(FanoutJobsOf(f)), options(std::move(o)), view("w" + RandomId() + "-") {}

  // Runs jobs as worker `index` until `stop` is set.
  void Loop(int index) BASALT_EXCLUDES(mu);

  Feed& feed;
  FanoutJobs* const jobs;  // feed's; null when feed was not made by Feed::Open
  const FanoutWorkerOptions options;
  QueueView view;
  std::atomic<bool> stop{false};
  util::Mutex mu;
  // Wakes a worker waiting out its poll interval (Stop).
  util::CondVar wake;
  // Wakes Drain after a worker looked for a job and found none it could claim.
  util::CondVar looked;
  std::vector<std::thread> threads BASALT_GUARDED_BY(mu);
  FanoutStats stats BASALT_GUARDED_BY(mu);
  // Times a worker looked for a job and found none it could claim: the job table is only counted
  // after such a look (counting it scans every job row).
  uint64_t empty_looks BASALT_GUARDED_BY(mu) = 0;
  Status last_error BASALT_GUARDED_BY(mu);
};

void FanoutWorkerPool::State::Loop(int index) {
  const std::string worker_id = view.pool_id + std::to_string(index);
  while (!stop) {
    FanoutStats step;
    Result<bool> ran = RunJob(jobs, options, worker_id, INT_MAX, &step, &stop, &view);
    util::MutexLock lock(mu);
    stats.jobs_finished += step.jobs_finished;
    stats.inbox_writes += step.inbox_writes;
    stats.skipped_inactive += step.skipped_inactive;
    if (!ran.ok()) last_error = ran.status();
    if (ran.ok() && *ran) continue;
    if (ran.ok()) {
      ++empty_looks;
      looked.NotifyAll();
    }
    const auto until =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(options.poll_interval_ms);
    while (!stop && wake.WaitUntil(mu, until)) {
    }
  }
}

FanoutWorkerPool::FanoutWorkerPool(Feed& feed, FanoutWorkerOptions options)
    : state_(std::make_unique<State>(feed, std::move(options))) {}

FanoutWorkerPool::~FanoutWorkerPool() {
  Stop();
}

void FanoutWorkerPool::Start() {
  State& s = *state_;
  util::MutexLock lock(s.mu);
  if (!s.threads.empty()) return;
  s.stop = false;
  for (int i = 0; i < std::max(1, s.options.threads); ++i) {
    s.threads.emplace_back([&s, i] { s.Loop(i); });
  }
}

void FanoutWorkerPool::Stop() {
  State& s = *state_;
  std::vector<std::thread> threads;
  {
    util::MutexLock lock(s.mu);
    s.stop = true;
    threads.swap(s.threads);
  }
  s.wake.NotifyAll();
  for (auto& t : threads) t.join();
}

Status FanoutWorkerPool::Drain(std::chrono::milliseconds timeout) {
  State& s = *state_;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  uint64_t looks_seen;
  {
    util::MutexLock lock(s.mu);
    looks_seen = s.empty_looks;
  }
  while (true) {
    BASALT_ASSIGN_OR_RETURN(int64_t pending, s.feed.PendingJobs());
    if (pending == 0) return Status::OK();
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      return Status::Busy("fan-out: " + std::to_string(pending) + " jobs left after the timeout");
    }
    // The jobs can only have run out once a worker has looked and found none to claim. Counting
    // them scans every job row (and the deleted ones until compaction drops them): polled every
    // poll_interval_ms, that took a quarter of a busy pool's CPU.
    const auto until = std::min(deadline, now + std::chrono::seconds(1));
    util::MutexLock lock(s.mu);
    while (s.empty_looks == looks_seen && s.looked.WaitUntil(s.mu, until)) {
    }
    looks_seen = s.empty_looks;
  }
}

FanoutStats FanoutWorkerPool::stats() const {
  util::MutexLock lock(state_->mu);
  return state_->stats;
}

Status FanoutWorkerPool::last_error() const {
  util::MutexLock lock(state_->mu);
  return state_->last_error;
}

Result<bool> FanoutWorkerPool::RunOnce(Feed& feed, const FanoutWorkerOptions& options,
                                       std::string_view worker_id, int max_steps,
                                       FanoutStats* stats) {
  return RunJob(FanoutJobsOf(feed), options, worker_id, max_steps, stats, nullptr, nullptr);
}

}  // namespace basalt::recipes
