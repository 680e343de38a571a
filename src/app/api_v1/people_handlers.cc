// /api/v1 finding people: user search by name prefix and suggestions of whom to follow (docs/
// api-v1.md, "Finding people").

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "app/api_v1/api_response.h"
#include "app/api_v1/api_v1_service.h"
#include "app/api_v1/validation.h"

namespace basalt::app::api_v1 {

using nlohmann::json;

namespace {

// How far a suggestion request reads: the caller's followees (all of them up to this many), and
// of each of the first kSuggestionSources of them, one page of their followees.
constexpr int32_t kMaxFolloweesRead = 1000;
constexpr int32_t kSuggestionSources = 50;
constexpr int32_t kSourcePage = 100;

}  // namespace

Result<server::http::Response> ApiV1Service::SearchUsers(const Ctx& ctx) {
  BASALT_ASSIGN_OR_RETURN(int32_t limit, PageLimit(ctx));
  BASALT_ASSIGN_OR_RETURN(std::string cursor, PageCursor(ctx));
  // Names are lower case (users.h); a person may type capitals.
  std::string prefix = ctx.Query("prefix").value_or("");
  std::transform(prefix.begin(), prefix.end(), prefix.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  BASALT_ASSIGN_OR_RETURN(recipes::UserPage page, app_.users().FindUsers(prefix, limit, cursor));
  return JsonResponse(ctx.request, HttpStatus::ok,
                      json{{"items", page.users}, {"next_cursor", EncodeCursor(page.cursor)}});
}

Result<std::vector<std::string>> ApiV1Service::PopularUsers() {
  const int64_t now = NowMs();
  {
    util::MutexLock lock(popular_mu_);
    if (popular_read_ms_ != 0 && now - popular_read_ms_ < kPopularCacheMs) return popular_;
  }
  // Follower counts of up to kPopularScan accounts, in name order: enough for a small server;
  // a large one would keep a ranking of its own.
  std::vector<std::pair<int64_t, std::string>> ranked;
  std::string cursor;
  do {
    BASALT_ASSIGN_OR_RETURN(recipes::UserPage page, app_.users().FindUsers("", 500, cursor));
    for (std::string& user : page.users) {
      BASALT_ASSIGN_OR_RETURN(int64_t followers, app_.graph().FollowerCount(user));
      if (followers > 0) ranked.emplace_back(-followers, std::move(user));
    }
    cursor = std::move(page.cursor);
  } while (!cursor.empty() && ranked.size() < kPopularScan);
  std::sort(ranked.begin(), ranked.end());
  std::vector<std::string> popular;
  for (size_t i = 0; i < ranked.size() && i < kPopularKept; ++i) {
    popular.push_back(std::move(ranked[i].second));
  }
  util::MutexLock lock(popular_mu_);
  popular_ = popular;
  popular_read_ms_ = now;
  return popular;
}

Result<server::http::Response> ApiV1Service::Suggestions(const Ctx& ctx, const Caller& caller) {
  BASALT_ASSIGN_OR_RETURN(int32_t limit, PageLimit(ctx));
  // Whom the caller follows already.
  std::vector<std::string> followees;
  std::string cursor;
  do {
    BASALT_ASSIGN_OR_RETURN(recipes::UserPage page,
                            app_.graph().Following(caller.user, kMaxPageLimit, cursor));
    followees.insert(followees.end(), page.users.begin(), page.users.end());
    cursor = std::move(page.cursor);
  } while (!cursor.empty() && static_cast<int32_t>(followees.size()) < kMaxFolloweesRead);
  std::set<std::string> excluded(followees.begin(), followees.end());
  excluded.insert(caller.user);

  // People followed by people the caller follows, by how many of them follow each.
  std::map<std::string, int64_t> score;
  for (size_t i = 0; i < followees.size() && i < kSuggestionSources; ++i) {
    BASALT_ASSIGN_OR_RETURN(recipes::UserPage page,
                            app_.graph().Following(followees[i], kSourcePage, ""));
    for (const std::string& user : page.users) {
      if (!excluded.count(user)) ++score[user];
    }
  }
  std::vector<std::pair<int64_t, std::string>> ranked;
  for (auto& [user, n] : score) ranked.emplace_back(-n, user);
  std::sort(ranked.begin(), ranked.end());
  json items = json::array();
  for (const auto& [negative, user] : ranked) {
    if (static_cast<int32_t>(items.size()) >= limit) break;
    items.push_back({{"user", user}, {"followed_by_followees", -negative}});
    excluded.insert(user);
  }
  // Then the most followed accounts: what a new account, following nobody, gets.
  if (static_cast<int32_t>(items.size()) < limit) {
    BASALT_ASSIGN_OR_RETURN(std::vector<std::string> popular, PopularUsers());
    for (const std::string& user : popular) {
      if (static_cast<int32_t>(items.size()) >= limit) break;
      if (excluded.count(user)) continue;
      items.push_back({{"user", user}, {"followed_by_followees", 0}});
      excluded.insert(user);
    }
  }
  return JsonResponse(ctx.request, HttpStatus::ok, json{{"items", items}});
}

}  // namespace basalt::app::api_v1
