#include "basalt/recipes/fanout_worker.h"

#include <algorithm>
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
  const std::string worker_id = id_prefix_ + "-" + std::to_string(index);
  std::string scan_from;
  while (!stop_) {
    FanoutStats step;
    Result<bool> ran = RunJob(feed_, options_, worker_id, INT_MAX, &step, &stop_, &scan_from);
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
                                      const std::atomic<bool>* stop, std::string* scan_from) {
  Table& posts = *feed.posts_;
  const std::string family(fl::kJobFamily);
  // Look at a few jobs and claim the first whose lease is free. A job this worker already
  // holds (left by an earlier call) counts as free for it.
  RowResult job;
  std::string lease;
  bool claimed = false;
  const bool resume = scan_from != nullptr && !scan_from->empty();
  for (int pass = resume ? 0 : 1; pass < 2 && !claimed; ++pass) {
    // Oldest job first (post ids sort newest first): a backlog is delivered in the order it was
    // posted, so its entries land before the inboxes' bounds, where trims that stop at the bound
    // remove them, rather than past it, where only a whole trim does (Feed::kWholeTrimEvery).
    Scan scan =
        Scan().SetRowPrefix(fl::JobRowsPrefix()).SetReversed(true).AddFamily(family).SetLimit(64);
    if (pass == 0) scan.WithStartRow(*scan_from, /*inclusive=*/false);
    BASALT_ASSIGN_OR_RETURN(auto scanner, posts.GetScanner(scan));
    RowResult row;
    while (!claimed && scanner->Next(&row)) {
      // Every job row is written with a lease cell, so the claim is always an IfEquals, which
      // fails once another worker has finished and deleted the job (an IfNotExists would pass on
      // the deleted row and bring back a row holding only a lease).
      auto current = row.Value(family, "l");
      if (!current) continue;
      bool mine = current->substr(current->find('|') + 1) == worker_id;
      if (!mine && !LeaseFree(current)) continue;
      lease = LeaseValue(worker_id, options.lease_ms);
      BASALT_ASSIGN_OR_RETURN(
          claimed, posts.CheckAndMutate(CheckAndMutate(row.row())
                                            .IfEquals(family, "l", std::string(*current))
                                            .Then(basalt::Put(row.row()).Add(family, "l", lease))));
      if (claimed) job = row;
    }
    BASALT_RETURN_IF_ERROR(scanner->status());
  }
  if (!claimed) return false;
  if (scan_from != nullptr) *scan_from = job.row();

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
