#include "recipes/inbox_delivery.h"

#include <utility>

#include "recipes/feed_layout.h"

namespace basalt::recipes {
namespace {

namespace fl = feed_layout;

std::vector<Mutation> InboxPuts(const std::vector<std::string>& users,
                                const std::vector<std::string>& entries) {
  std::vector<Mutation> puts;
  puts.reserve(users.size());
  for (const auto& u : users) {
    basalt::Put put(fl::InboxRow(u));
    for (const auto& e : entries) put.Add(std::string(fl::kInboxFamily), e, "");
    puts.emplace_back(std::move(put));
  }
  return puts;
}

}  // namespace

Status InboxDelivery::Deliver(const std::vector<std::string>& users,
                              const std::vector<std::string>& entries) {
  if (users.empty() || entries.empty()) return Status::OK();
  BASALT_RETURN_IF_ERROR(feed_.inbox.Batch(InboxPuts(users, entries)).status());
  return maintenance_.TrimDelivered(users, entries);
}

void InboxDelivery::AddTo(MultiRowMutation& m, const std::vector<std::string>& users,
                          const std::vector<std::string>& entries) const {
  if (entries.empty()) return;
  for (Mutation& put : InboxPuts(users, entries)) m.Add(feed_.inbox.name(), std::move(put));
}

Status InboxDelivery::Delivered(const std::vector<std::string>& users,
                                const std::vector<std::string>& entries) {
  if (users.empty() || entries.empty()) return Status::OK();
  return maintenance_.TrimDelivered(users, entries);
}

Status InboxDelivery::Retract(const std::vector<std::string>& users, const std::string& entry) {
  if (users.empty()) return Status::OK();
  std::vector<Mutation> dels;
  for (const auto& u : users) {
    dels.emplace_back(
        basalt::Delete(fl::InboxRow(u)).AddColumns(std::string(fl::kInboxFamily), entry));
  }
  return feed_.inbox.Batch(dels).status();
}

}  // namespace basalt::recipes
