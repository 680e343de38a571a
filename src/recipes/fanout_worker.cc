#include "basalt/recipes/fanout_worker.h"

#include <algorithm>
#include <optional>
#include <random>
#include <utility>

#include "basalt/check_and_mutate.h"
#include "basalt/filter.h"
#include "recipes/feed_layout.h"

namespace basalt::recipes {
namespace {

namespace fl = feed_layout;

// The lease cell's value: "<expiry ms>|<worker id>".
std::string LeaseValue(std::string_view worker_id, int64_t lease_ms) {
  return std::to_string(SystemWallMillis() + lease_ms) + "|" + std::string(worker_id);
}

// True when `lease` (a lease value, or nullopt) no longer holds anyone's claim.
bool LeaseFree(const std::optional<std::string_view>& lease) {
  if (!lease || lease->empty()) return true;
  size_t bar = lease->find('|');
  if (bar == std::string_view::npos) return true;  // unreadable: treat as expired
  int64_t expiry = 0;
  for (char c : lease->substr(0, bar)) {
    if (c < '0' || c > '9') return true;
    expiry = expiry * 10 + (c - '0');
  }
  return expiry < SystemWallMillis();
}

// Live job rows a look reads at most.
constexpr int kLookRows = 64;

// What a look at a range of job rows found.
struct Look {
  bool claimed = false;
  RowResult job;      // the claimed job
  std::string lease;  // the claim's lease value
  int64_t rows = 0;   // live job rows read
  std::string last_row;
  // When the first job row read that is neither finished nor held by the looking pool was
  // queued; queue rows only.
  std::optional<int64_t> first_pinned_ms;
};

// Reads the job rows of `scan` (at most kLookRows) and claims the first whose lease is free. A
// job `worker_id` already holds (left by an earlier call) counts as free for it.
Result<Look> LookAndClaim(Table& posts, Scan scan, std::string_view worker_id,
                          std::string_view pool_id, const FanoutWorkerOptions& options) {
  const std::string family(fl::kJobFamily);
  BASALT_ASSIGN_OR_RETURN(auto scanner,
                          posts.GetScanner(scan.AddFamily(family).SetLimit(kLookRows)));
  Look look;
  RowResult row;
  while (scanner->Next(&row)) {
    // Every job row is written with a lease cell, so the claim is always an IfEquals, which
    // fails once another worker has finished and deleted the job (an IfNotExists would pass on
    // the deleted row and bring back a row holding only a lease).
    auto current = row.Value(family, "l");
    if (!current) continue;
    ++look.rows;
    look.last_row = row.row();
    const std::string_view holder = current->substr(current->find('|') + 1);
    const bool mine = holder == worker_id;
    if (mine || LeaseFree(current)) {
      look.lease = LeaseValue(worker_id, options.lease_ms);
      BASALT_ASSIGN_OR_RETURN(
          look.claimed,
          posts.CheckAndMutate(CheckAndMutate(row.row())
                                   .IfEquals(family, "l", std::string(*current))
                                   .Then(basalt::Put(row.row()).Add(family, "l", look.lease))));
      if (look.claimed) {
        look.job = std::move(row);
        break;
      }
    }
    // Held by the pool: it is finished or its worker resumes it. Held by anyone else (another
    // process's pool, or a Post still writing its post row): it must be looked at again.
    const bool pools = !pool_id.empty() && holder.substr(0, pool_id.size()) == pool_id;
    if (!pools && !look.first_pinned_ms) {
      auto queued = fl::DecodeJobQueuedAt(row.row());
      if (queued.ok()) look.first_pinned_ms = *queued;
    }
  }
  BASALT_RETURN_IF_ERROR(scanner->status());
  return look;
}

std::string RandomId() {
  std::random_device rd;
  return std::to_string(rd()) + std::to_string(rd());
}

}  // namespace

FanoutWorkerPool::FanoutWorkerPool(Feed& feed, FanoutWorkerOptions options)
    : feed_(feed), options_(std::move(options)), id_prefix_("w" + RandomId()) {}

FanoutWorkerPool::~FanoutWorkerPool() {
  Stop();
}

void FanoutWorkerPool::Start() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!threads_.empty()) return;
  stop_ = false;
  for (int i = 0; i < std::max(1, options_.threads); ++i) {
    threads_.emplace_back([this, i] { Loop(i); });
  }
}

void FanoutWorkerPool::Stop() {
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
    threads.swap(threads_);
  }
  cv_.notify_all();
  for (auto& t : threads) t.join();
}

Status FanoutWorkerPool::Drain(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  uint64_t looks_seen;
  {
    std::lock_guard<std::mutex> lock(mu_);
    looks_seen = empty_looks_;
  }
  while (true) {
    BASALT_ASSIGN_OR_RETURN(int64_t pending, feed_.PendingJobs());
    if (pending == 0) return Status::OK();
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      return Status::Busy("fan-out: " + std::to_string(pending) + " jobs left after the timeout");
    }
    // The jobs can only have run out once a worker has looked and found none to claim. Counting
    // them scans every job row (and the deleted ones until compaction drops them): polled every
    // poll_interval_ms, that took a quarter of a busy pool's CPU.
    std::unique_lock<std::mutex> lock(mu_);
    looked_.wait_until(lock, std::min(deadline, now + std::chrono::seconds(1)),
                       [&] { return empty_looks_ != looks_seen; });
    looks_seen = empty_looks_;
  }
}

FanoutStats FanoutWorkerPool::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

Status FanoutWorkerPool::last_error() const {
  std::lock_guard<std::mutex> lock(mu_);
  return last_error_;
}

void FanoutWorkerPool::Loop(int index) {
  Looker looker{.pool_id = id_prefix_ + "-", .marks = &marks_};
  const std::string worker_id = looker.pool_id + std::to_string(index);
  while (!stop_) {
    FanoutStats step;
    Result<bool> ran = RunJob(feed_, options_, worker_id, INT_MAX, &step, &stop_, &looker);
    if (!ran.ok() && !looker.after.empty()) {
      // The job this worker held when it failed keeps its lease: the mark must not pass it.
      const int64_t queued = fl::DecodeJobQueuedAt(looker.after).value_or(0);
      int64_t current = marks_.low_water_ms.load();
      while (current > queued && !marks_.low_water_ms.compare_exchange_weak(current, queued)) {
      }
      looker.after.clear();
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      stats_.jobs_finished += step.jobs_finished;
      stats_.inbox_writes += step.inbox_writes;
      stats_.skipped_inactive += step.skipped_inactive;
      if (!ran.ok()) last_error_ = ran.status();
    }
    if (ran.ok() && *ran) continue;
    std::unique_lock<std::mutex> lock(mu_);
    if (ran.ok()) {
      ++empty_looks_;
      looked_.notify_all();
    }
    cv_.wait_for(lock, std::chrono::milliseconds(options_.poll_interval_ms),
                 [this] { return stop_.load(); });
  }
}

Result<bool> FanoutWorkerPool::RunOnce(Feed& feed, const FanoutWorkerOptions& options,
                                       std::string_view worker_id, int max_steps,
                                       FanoutStats* stats) {
  return RunJob(feed, options, worker_id, max_steps, stats, nullptr, nullptr);
}

Result<bool> FanoutWorkerPool::RunJob(Feed& feed, const FanoutWorkerOptions& options,
                                      std::string_view worker_id, int max_steps, FanoutStats* stats,
                                      const std::atomic<bool>* stop, Looker* looker) {
  Table& posts = *feed.posts_;
  const std::string family(fl::kJobFamily);
  QueueMarks* marks = looker != nullptr ? looker->marks : nullptr;
  const std::string_view pool_id = looker != nullptr ? std::string_view(looker->pool_id) : "";
  const int64_t look_ms = SystemWallMillis();
  Look look;
  // Jobs of the layout before the queue, oldest first within an author, until none are left.
  if (marks == nullptr || marks->old_jobs_left.load()) {
    BASALT_ASSIGN_OR_RETURN(
        look, LookAndClaim(posts, Scan().SetRowPrefix(fl::OldJobRowsPrefix()).SetReversed(true),
                           worker_id, pool_id, options));
    if (!look.claimed && look.rows == 0 && marks != nullptr) marks->old_jobs_left = false;
  }
  if (!look.claimed && marks == nullptr) {
    BASALT_ASSIGN_OR_RETURN(look, LookAndClaim(posts, Scan().SetRowPrefix(fl::JobRowsPrefix()),
                                               worker_id, pool_id, options));
  }
  if (!look.claimed && marks != nullptr) {
    const bool full = look_ms - marks->last_full_look_ms.load() >= kFullLookEveryMs;
    const int64_t low_water = full ? 0 : marks->low_water_ms.load();
    // On from the job claimed last, unless the low-water mark has passed it.
    if (!full && !looker->after.empty() &&
        fl::DecodeJobQueuedAt(looker->after).value_or(0) >= low_water) {
      BASALT_ASSIGN_OR_RETURN(look,
                              LookAndClaim(posts,
                                           Scan()
                                               .SetRowPrefix(fl::JobRowsPrefix())
                                               .WithStartRow(looker->after, /*inclusive=*/false),
                                           worker_id, pool_id, options));
    }
    if (!look.claimed) {
      if (full) marks->last_full_look_ms = look_ms;
      BASALT_ASSIGN_OR_RETURN(
          look, LookAndClaim(posts,
                             Scan()
                                 .SetRowPrefix(fl::JobRowsPrefix())
                                 .WithStartRow(fl::JobRowsFrom(low_water), /*inclusive=*/true),
                             worker_id, pool_id, options));
      // How far this look proved every job finished or held by the pool.
      int64_t mark = look.claimed            ? fl::DecodeJobQueuedAt(look.job.row()).value_or(0)
                     : look.rows < kLookRows ? look_ms - kLateJobMarginMs
                                             : fl::DecodeJobQueuedAt(look.last_row).value_or(0);
      if (look.first_pinned_ms) mark = std::min(mark, *look.first_pinned_ms);
      if (full) {
        marks->low_water_ms = mark;
      } else {
        int64_t current = marks->low_water_ms.load();
        while (current < mark && !marks->low_water_ms.compare_exchange_weak(current, mark)) {
        }
      }
    }
    if (look.claimed) looker->after = look.job.row();
  }
  if (!look.claimed) return false;
  RowResult job = std::move(look.job);
  std::string lease = std::move(look.lease);

  const std::string job_row = job.row();
  const std::string author(job.Value(family, "a").value_or(""));
  const std::string post_id(job.Value(family, "p").value_or(""));
  std::string cursor(job.Value(family, "c").value_or(""));
  const char kind = job_row.back();
  BASALT_ASSIGN_OR_RETURN(fl::PostId id, fl::DecodePostId(post_id));
  const std::string entry = fl::TimelineKey(post_id, id.timestamp_ms);

  for (int step = 0; step < max_steps; ++step) {
    if (stop != nullptr && step > 0 && stop->load()) return true;
    bool done = false;
    if (kind == fl::kFanoutJob) {
      // A post deleted before its fan-out finished is not delivered any further.
      BASALT_ASSIGN_OR_RETURN(
          bool exists,
          posts.Exists(
              basalt::Get(fl::PostRow(post_id)).AddColumn(std::string(fl::kPostFamily), "t")));
      done = !exists;
    }
    if (!done) {
      BASALT_ASSIGN_OR_RETURN(UserPage page,
                              feed.graph_.Followers(author, options.chunk_size, cursor));
      int64_t written = static_cast<int64_t>(page.users.size());
      if (kind == fl::kFanoutJob) {
        // Inactive readers are skipped: their next read rebuilds their inbox.
        int64_t skipped = 0;
        BASALT_ASSIGN_OR_RETURN(std::vector<std::string> active,
                                feed.ActiveReaders(page.users, &skipped));
        if (page.cursor.empty()) {
          // The last page and the job's end in one write: nothing is written if the lease was
          // lost (the worker holding it now delivers the page).
          BASALT_ASSIGN_OR_RETURN(bool ended,
                                  feed.DeliverAndEndJob(active, {entry}, job_row, lease));
          if (ended && stats != nullptr) {
            stats->inbox_writes += static_cast<int64_t>(active.size());
            stats->skipped_inactive += skipped;
            ++stats->jobs_finished;
          }
          return true;
        }
        BASALT_RETURN_IF_ERROR(feed.Deliver(active, {entry}));
        written = static_cast<int64_t>(active.size());
        if (stats != nullptr) stats->skipped_inactive += skipped;
      } else {
        BASALT_RETURN_IF_ERROR(feed.Retract(page.users, entry));
      }
      if (stats != nullptr) stats->inbox_writes += written;
      cursor = std::move(page.cursor);
      done = cursor.empty();
    }
    if (done) {
      BASALT_ASSIGN_OR_RETURN(
          bool deleted,
          posts.CheckAndMutate(
              CheckAndMutate(job_row).IfEquals(family, "l", lease).Then(basalt::Delete(job_row))));
      if (deleted && stats != nullptr) ++stats->jobs_finished;
      return true;
    }
    // Record the progress and renew the lease, unless another worker took the job over.
    std::string renewed = LeaseValue(worker_id, options.lease_ms);
    BASALT_ASSIGN_OR_RETURN(
        bool kept,
        posts.CheckAndMutate(
            CheckAndMutate(job_row)
                .IfEquals(family, "l", lease)
                .Then(basalt::Put(job_row).Add(family, "c", cursor).Add(family, "l", renewed))));
    if (!kept) return true;
    lease = std::move(renewed);
  }
  return true;
}

}  // namespace basalt::recipes
