#include "recipes/fanout_job_queue.h"

#include <algorithm>
#include <memory>
#include <utility>
#include <variant>

#include "basalt/filter.h"
#include "basalt/multi_row_mutation.h"
#include "recipes/feed_layout.h"

namespace basalt::recipes {
namespace {

namespace fl = feed_layout;

}  // namespace

basalt::Put FanoutJobQueue::JobPut(const std::string& job_row, std::string_view author,
                                   std::string_view post_id, std::string_view lease) {
  const std::string family(fl::kJobFamily);
  return basalt::Put(job_row)
      .Add(family, "a", std::string(author))
      .Add(family, "p", std::string(post_id))
      .Add(family, "l", std::string(lease));
}

Result<bool> FanoutJobQueue::HandOver(const std::string& job_row, const std::string& poster_lease) {
  const std::string family(fl::kJobFamily);
  return feed_.posts.CheckAndMutate(
      CheckAndMutate(job_row)
          .IfEquals(family, "l", poster_lease)
          .Then(basalt::Put(job_row).Add(family, "l", std::string(fl::kUnclaimedLease))));
}

Result<Feed::Backlog> FanoutJobQueue::Backlog() {
  Feed::Backlog backlog;
  Scan scan = Scan()
                  .SetRowPrefix(fl::JobRowsPrefix())
                  .AddFamily(std::string(fl::kJobFamily))
                  .SetFilter(std::make_shared<KeyOnlyFilter>());
  BASALT_ASSIGN_OR_RETURN(auto scanner, feed_.posts.GetScanner(scan));
  RowResult row;
  while (scanner->Next(&row)) {
    int64_t written = 0;
    bool pending = false;
    for (const Cell& c : row.cells()) {
      written = std::max(written, c.timestamp);
      pending = pending || c.qualifier == "p";
    }
    if (!pending) continue;
    ++backlog.jobs;
    if (backlog.oldest_job_ms == 0 || written < backlog.oldest_job_ms) {
      backlog.oldest_job_ms = written;
    }
  }
  BASALT_RETURN_IF_ERROR(scanner->status());
  return backlog;
}

Result<std::vector<std::string>> FanoutJobQueue::ActiveReaders(
    const std::vector<std::string>& users, int64_t* skipped) {
  return activity_.ActiveReaders(users, skipped);
}

Result<bool> FanoutJobQueue::DeliverJobPage(const std::vector<std::string>& users,
                                            const std::vector<std::string>& entries,
                                            const std::string& job_row, const std::string& lease,
                                            const JobAdvance& next) {
  MultiRowMutation m;
  m.IfEquals(feed_.posts.name(), job_row, std::string(fl::kJobFamily), "l", lease);
  delivery_.AddTo(m, users, entries);
  std::visit(
      [&](auto&& action) { m.Add(feed_.posts.name(), std::forward<decltype(action)>(action)); },
      JobAdvanceAction(job_row, next));
  Result<bool> applied = atomic_.Apply(m);
  if (applied.status().IsNotSupported()) {
    BASALT_RETURN_IF_ERROR(delivery_.Deliver(users, entries));
    return AdvanceJob(job_row, lease, next);
  }
  if (!applied.ok() || !*applied) return applied;
  BASALT_RETURN_IF_ERROR(delivery_.Delivered(users, entries));
  return true;
}

CheckAndMutate::Action FanoutJobQueue::JobAdvanceAction(const std::string& job_row,
                                                        const JobAdvance& next) {
  const std::string job_family(fl::kJobFamily);
  // The job family only: a row delete writes a marker into every family of the table.
  if (next.end) return basalt::Delete(job_row).AddFamily(job_family);
  return basalt::Put(job_row).Add(job_family, "c", next.cursor).Add(job_family, "l", next.lease);
}

Result<bool> FanoutJobQueue::AdvanceJob(const std::string& job_row, const std::string& lease,
                                        const JobAdvance& next) {
  return feed_.posts.CheckAndMutate(CheckAndMutate(job_row)
                                        .IfEquals(std::string(fl::kJobFamily), "l", lease)
                                        .Then(JobAdvanceAction(job_row, next)));
}

Status FanoutJobQueue::Retract(const std::vector<std::string>& users, const std::string& entry) {
  return delivery_.Retract(users, entry);
}

}  // namespace basalt::recipes
