#include "basalt/recipes/feed.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <set>
#include <utility>

#include "basalt/admin.h"
#include "basalt/base64.h"
#include "basalt/check_and_mutate.h"
#include "basalt/filter.h"
#include "basalt/keys.h"
#include "basalt/paging.h"
#include "recipes/feed_layout.h"
#include "recipes/table_setup.h"

namespace basalt::recipes {
namespace {

namespace fl = feed_layout;

// HBase's Bytes.toBytes(long): eight bytes, big-endian two's complement, which is what the key
// codec writes for a uint64 field.
std::string LongBytes(int64_t v) {
  return KeyBuilder().AddUint64(static_cast<uint64_t>(v)).Build();
}

// The long of the first eight bytes of `b`. REQUIRES: b.size() >= 8.
int64_t LongFromBytes(std::string_view b) {
  uint64_t v = 0;
  KeyParser(b).ReadUint64(&v).PermitUncheckedError();  // eight bytes are there
  return static_cast<int64_t>(v);
}

Result<PostView> ToPostView(const RowResult& row, std::string_view post_id) {
  auto author = row.Value(fl::kPostFamily, "a");
  auto text = row.Value(fl::kPostFamily, "t");
  auto ts = row.Value(fl::kPostFamily, "s");
  if (!author || !text || !ts || ts->size() != 8) {
    return Status::Corruption("feed: post row without author, text or time");
  }
  return PostView{std::string(post_id), std::string(*author), LongFromBytes(*ts),
                  std::string(*text)};
}

// The home-timeline cursor: base64url of BE64(posts returned so far) + the timeline key of the
// last post returned.
std::string EncodeHomeCursor(int64_t returned, std::string_view last_key) {
  return Base64UrlEncode(LongBytes(returned) + std::string(last_key));
}

Status DecodeHomeCursor(std::string_view cursor, int64_t* returned, std::string* last_key) {
  auto bytes = Base64UrlDecode(cursor);
  if (!bytes || bytes->size() < 8) return Status::InvalidArgument("feed: malformed home cursor");
  *returned = LongFromBytes(*bytes);
  *last_key = bytes->substr(8);
  if (*returned < 1 || !fl::DecodeTimelineKey(*last_key, nullptr).ok()) {
    return Status::InvalidArgument("feed: malformed home cursor");
  }
  return Status::OK();
}

}  // namespace

Feed::Feed(FollowGraph& graph, FeedOptions options, std::unique_ptr<Table> posts,
           std::unique_ptr<Table> inbox)
    : graph_(graph),
      options_(std::move(options)),
      posts_(std::move(posts)),
      inbox_(std::move(inbox)),
      sequence_(static_cast<uint32_t>(std::random_device{}())) {}

Feed::~Feed() = default;

Result<std::unique_ptr<Feed>> Feed::Open(Connection& conn, FollowGraph& graph,
                                         FeedOptions options) {
  if (options.inbox_cap < 1) return Status::InvalidArgument("feed: inbox_cap must be >= 1");
  if (options.inbox_trim_every < 1) {
    return Status::InvalidArgument("feed: inbox_trim_every must be >= 1");
  }
  if (options.backfill_posts < 0) return Status::InvalidArgument("feed: backfill_posts < 0");
  if (options.post_lease_ms < 0) return Status::InvalidArgument("feed: post_lease_ms < 0");
  TableName posts_name(options.name_space, options.table_prefix + "_posts");
  TableName inbox_name(options.name_space, options.table_prefix + "_inbox");
  BASALT_RETURN_IF_ERROR(EnsureTable(conn.admin(), posts_name,
                                     {std::string(fl::kPostFamily), std::string(fl::kJobFamily)}));
  BASALT_RETURN_IF_ERROR(EnsureTable(conn.admin(), inbox_name, {std::string(fl::kInboxFamily)}));
  BASALT_ASSIGN_OR_RETURN(auto posts, conn.GetTable(posts_name));
  BASALT_ASSIGN_OR_RETURN(auto inbox, conn.GetTable(inbox_name));
  return std::unique_ptr<Feed>(
      new Feed(graph, std::move(options), std::move(posts), std::move(inbox)));
}

Result<std::string> Feed::Post(std::string_view author, std::string_view text) {
  return PostAt(author, text, SystemWallMillis());
}

Result<std::string> Feed::PostAt(std::string_view author, std::string_view text,
                                 int64_t timestamp_ms) {
  if (author.empty()) return Status::InvalidArgument("feed: empty author");
  if (timestamp_ms < 0) return Status::InvalidArgument("feed: negative post time");
  if (text.size() > options_.max_text_bytes) {
    return Status::InvalidArgument("feed: post text longer than " +
                                   std::to_string(options_.max_text_bytes) + " bytes");
  }
  BASALT_ASSIGN_OR_RETURN(bool high, IsHighFollowerAuthor(author));
  if (!high) {
    BASALT_ASSIGN_OR_RETURN(int64_t followers, graph_.FollowerCount(author));
    high = followers > options_.fanout_threshold;
  }
  fl::PostId id{std::string(author), timestamp_ms, sequence_.fetch_add(1)};
  std::string post_id = fl::EncodePostId(id);
  basalt::Put post(fl::PostRow(post_id), id.timestamp_ms);
  post.Add(std::string(fl::kPostFamily), "a", std::string(author))
      .Add(std::string(fl::kPostFamily), "t", std::string(text))
      .Add(std::string(fl::kPostFamily), "s", LongBytes(id.timestamp_ms));
  if (high) {
    // The mark first: it is sticky and right on its own (the author is above the threshold).
    BASALT_RETURN_IF_ERROR(
        posts_->Put(basalt::Put(fl::MarkRow(author)).Add(std::string(fl::kPostFamily), "h", "1")));
    {
      std::lock_guard<std::mutex> lock(marks_mu_);
      if (marks_ != nullptr && !marks_->contains(std::string(author))) marks_ = nullptr;
    }
    BASALT_RETURN_IF_ERROR(posts_->Put(post));
    return post_id;
  }
  // p:o marks a post that was fanned out: only those need a retract job when deleted.
  post.Add(std::string(fl::kPostFamily), "o", "1");
  // Three single-row writes, correct without a cross-row atomic batch (HBase over Thrift2) and
  // whatever point a crash stops them at (docs/recipes.md, "Post without cross-row atomicity"):
  //  1. the job row, under a lease held by this call, so no worker takes it while the post row
  //     is not written yet (a worker drops a job whose post is missing: never written, or
  //     deleted);
  //  2. the post row;
  //  3. the job handed to the workers (lease "0|"). If this call's lease ran out meanwhile, a
  //     worker may have dropped the job before step 2: write it again (delivery is idempotent).
  // A crash after 1 leaves a job that is dropped once the lease expires (no post, none
  // acknowledged); after 2, a job that delivers the post once the lease expires.
  const std::string job_row = fl::JobRow(post_id, fl::kFanoutJob);
  const std::string job_family(fl::kJobFamily);
  const std::string poster_lease =
      std::to_string(SystemWallMillis() + options_.post_lease_ms) + "|post";
  auto job = [&](std::string_view lease) {
    return basalt::Put(job_row)
        .Add(job_family, "a", std::string(author))
        .Add(job_family, "p", post_id)
        .Add(job_family, "l", std::string(lease));
  };
  BASALT_RETURN_IF_ERROR(posts_->Put(job(poster_lease)));
  BASALT_RETURN_IF_ERROR(posts_->Put(post));
  BASALT_ASSIGN_OR_RETURN(
      bool handed_over,
      posts_->CheckAndMutate(
          CheckAndMutate(job_row)
              .IfEquals(job_family, "l", poster_lease)
              .Then(basalt::Put(job_row).Add(job_family, "l", std::string(fl::kUnclaimedLease)))));
  if (!handed_over) BASALT_RETURN_IF_ERROR(posts_->Put(job(fl::kUnclaimedLease)));
  return post_id;
}

Result<PostView> Feed::GetPost(std::string_view post_id) {
  if (!fl::DecodePostId(post_id).ok()) return Status::InvalidArgument("feed: not a post id");
  BASALT_ASSIGN_OR_RETURN(
      RowResult row,
      posts_->Get(basalt::Get(fl::PostRow(post_id)).AddFamily(std::string(fl::kPostFamily))));
  if (row.empty()) return Status::NotFound("feed: no such post");
  return ToPostView(row, post_id);
}

Status Feed::DeletePost(std::string_view requester, std::string_view post_id) {
  if (!fl::DecodePostId(post_id).ok()) return Status::InvalidArgument("feed: not a post id");
  BASALT_ASSIGN_OR_RETURN(
      RowResult row,
      posts_->Get(basalt::Get(fl::PostRow(post_id)).AddFamily(std::string(fl::kPostFamily))));
  if (row.empty()) return Status::NotFound("feed: no such post");
  BASALT_ASSIGN_OR_RETURN(PostView post, ToPostView(row, post_id));
  if (post.author != requester) {
    return Status::FailedPrecondition("feed: only the author of a post may delete it");
  }
  std::vector<Mutation> batch;
  batch.emplace_back(basalt::Delete(fl::PostRow(post_id)));
  // A post that was never fanned out (its author was a high-follower author) is in no inbox.
  if (!row.Value(fl::kPostFamily, "o")) return posts_->Batch(batch).status();
  batch.emplace_back(basalt::Put(fl::JobRow(post_id, fl::kRetractJob))
                         .Add(std::string(fl::kJobFamily), "a", post.author)
                         .Add(std::string(fl::kJobFamily), "p", std::string(post_id))
                         .Add(std::string(fl::kJobFamily), "l", std::string(fl::kUnclaimedLease)));
  return posts_->Batch(batch).status();
}

Result<PostPage> Feed::UserTimeline(std::string_view author, int32_t page_size,
                                    std::string_view cursor) {
  Scan scan =
      Scan().SetRowPrefix(fl::AuthorPostsPrefix(author)).AddFamily(std::string(fl::kPostFamily));
  BASALT_ASSIGN_OR_RETURN(Page page, ReadPage(*posts_, scan, page_size, cursor));
  PostPage out;
  out.cursor = std::move(page.cursor);
  for (const RowResult& row : page.rows) {
    std::string_view post_id = std::string_view(row.row()).substr(1);
    BASALT_ASSIGN_OR_RETURN(PostView view, ToPostView(row, post_id));
    out.posts.push_back(std::move(view));
  }
  return out;
}

Result<std::shared_ptr<const std::set<std::string>>> Feed::MarkedAuthors() {
  const int64_t now = SystemWallMillis();
  {
    std::lock_guard<std::mutex> lock(marks_mu_);
    if (marks_ != nullptr && now - marks_read_ms_ < options_.marks_refresh_ms) return marks_;
  }
  auto marks = std::make_shared<std::set<std::string>>();
  Scan scan = Scan()
                  .SetRowPrefix(fl::MarkRowsPrefix())
                  .AddColumn(std::string(fl::kPostFamily), "h")
                  .SetFilter(std::make_shared<KeyOnlyFilter>())
                  .SetCaching(1000);
  BASALT_ASSIGN_OR_RETURN(auto scanner, posts_->GetScanner(scan));
  RowResult row;
  while (scanner->Next(&row)) {
    BASALT_ASSIGN_OR_RETURN(std::string author, fl::DecodeMarkRow(row.row()));
    marks->insert(std::move(author));
  }
  BASALT_RETURN_IF_ERROR(scanner->status());
  std::lock_guard<std::mutex> lock(marks_mu_);
  marks_ = marks;
  marks_read_ms_ = now;
  return std::shared_ptr<const std::set<std::string>>(std::move(marks));
}

Result<bool> Feed::IsHighFollowerAuthor(std::string_view author) {
  // Marks are sticky: one in the copy is there. One missing may be newer than the copy.
  BASALT_ASSIGN_OR_RETURN(auto marks, MarkedAuthors());
  if (marks->contains(std::string(author))) return true;
  return posts_->Exists(
      basalt::Get(fl::MarkRow(author)).AddColumn(std::string(fl::kPostFamily), "h"));
}

Result<Feed::FollowedAuthors> Feed::Followed(std::string_view user) {
  FollowedAuthors out;
  std::string cursor;
  do {
    BASALT_ASSIGN_OR_RETURN(UserPage page, graph_.Following(user, 500, cursor));
    for (auto& u : page.users) out.all.insert(std::move(u));
    cursor = std::move(page.cursor);
  } while (!cursor.empty());
  if (out.all.empty()) return out;
  BASALT_ASSIGN_OR_RETURN(auto marks, MarkedAuthors());
  // Walk the smaller set, look up in the larger.
  if (marks->size() < out.all.size()) {
    for (const auto& author : *marks) {
      if (out.all.contains(author)) out.high.push_back(author);
    }
  } else {
    for (const auto& author : out.all) {
      if (marks->contains(author)) out.high.push_back(author);
    }
  }
  return out;
}

Result<PostPage> Feed::HomeTimeline(std::string_view user, int32_t page_size,
                                    std::string_view cursor) {
  if (page_size < 1) return Status::InvalidArgument("feed: page_size must be >= 1");
  int64_t returned = 0;
  std::string position;  // the timeline key of the last post returned; empty: the start
  if (!cursor.empty()) BASALT_RETURN_IF_ERROR(DecodeHomeCursor(cursor, &returned, &position));
  // Merged at read time: the followed high-follower authors and the reader's own posts, so
  // that a post is on its author's home timeline at once, whether or not it is fanned out.
  BASALT_ASSIGN_OR_RETURN(FollowedAuthors followed, Followed(user));
  std::vector<std::string>& merged = followed.high;
  if (std::find(merged.begin(), merged.end(), user) == merged.end()) {
    merged.emplace_back(user);
  }
  const std::set<std::string> merged_set(merged.begin(), merged.end());

  PostPage out;
  std::string last_returned = position;
  bool more = true;
  while (more && static_cast<int32_t>(out.posts.size()) < page_size &&
         returned + static_cast<int64_t>(out.posts.size()) < options_.inbox_cap) {
    const int32_t want = page_size - static_cast<int32_t>(out.posts.size());
    const int32_t fetch = want + 1;
    // Candidates after `position`: the inbox's and each merged author's.
    std::set<std::string> keys;
    basalt::Get get = basalt::Get(fl::InboxRow(user)).AddFamily(std::string(fl::kInboxFamily));
    get.SetMaxResultsPerColumnFamily(fetch);
    FilterPtr range = position.empty()
                          ? nullptr
                          : std::make_shared<ColumnRangeFilter>(position, false, "", false);
    get.SetFilter(range ? FilterPtr(FilterList::And({range, std::make_shared<KeyOnlyFilter>()}))
                        : FilterPtr(std::make_shared<KeyOnlyFilter>()));
    BASALT_ASSIGN_OR_RETURN(RowResult inbox_row, inbox_->Get(get));
    for (const Cell& c : inbox_row.cells()) keys.insert(c.qualifier);
    for (const std::string& author : merged) {
      Scan scan = Scan()
                      .SetRowPrefix(fl::AuthorPostsPrefix(author))
                      .AddColumn(std::string(fl::kPostFamily), "s");
      if (!position.empty()) {
        BASALT_ASSIGN_OR_RETURN(fl::PostId at, fl::DecodeTimelineKey(position, nullptr));
        scan.WithStartRow(fl::AuthorPostsFrom(author, at.timestamp_ms));
      }
      BASALT_ASSIGN_OR_RETURN(auto scanner, posts_->GetScanner(scan));
      RowResult row;
      int32_t taken = 0;
      while (taken < fetch && scanner->Next(&row)) {
        std::string_view post_id = std::string_view(row.row()).substr(1);
        BASALT_ASSIGN_OR_RETURN(fl::PostId id, fl::DecodePostId(post_id));
        std::string key = fl::TimelineKey(post_id, id.timestamp_ms);
        if (!position.empty() && key <= position) continue;
        keys.insert(std::move(key));
        ++taken;
      }
      BASALT_RETURN_IF_ERROR(scanner->status());
    }
    // Every source gave fewer than `fetch` keys after `position` exactly when the merge did.
    std::vector<std::string> candidates(keys.begin(), keys.end());
    if (static_cast<int32_t>(candidates.size()) < fetch) more = false;
    if (static_cast<int32_t>(candidates.size()) > want) candidates.resize(want);
    if (candidates.empty()) break;

    // Hydrate with one multi-Get; drop deleted posts and authors no longer followed.
    std::vector<std::string> ids(candidates.size());
    std::vector<fl::PostId> decoded(candidates.size());
    std::vector<basalt::Get> gets;
    for (size_t i = 0; i < candidates.size(); ++i) {
      BASALT_ASSIGN_OR_RETURN(decoded[i], fl::DecodeTimelineKey(candidates[i], &ids[i]));
      gets.push_back(basalt::Get(fl::PostRow(ids[i])).AddFamily(std::string(fl::kPostFamily)));
    }
    BASALT_ASSIGN_OR_RETURN(auto rows, posts_->Get(gets));
    for (size_t i = 0; i < candidates.size(); ++i) {
      position = candidates[i];
      if (rows[i].empty()) continue;  // deleted; the retract job cleans the inboxes
      const std::string& author = decoded[i].author;
      if (!merged_set.contains(author) && !followed.all.contains(author)) {
        continue;  // unfollowed; Unfollow cleans the inbox
      }
      BASALT_ASSIGN_OR_RETURN(PostView view, ToPostView(rows[i], ids[i]));
      out.posts.push_back(std::move(view));
      last_returned = candidates[i];
      if (returned + static_cast<int64_t>(out.posts.size()) >= options_.inbox_cap) break;
    }
  }
  returned += static_cast<int64_t>(out.posts.size());
  if (more && returned < options_.inbox_cap && !out.posts.empty()) {
    out.cursor = EncodeHomeCursor(returned, last_returned);
  }
  return out;
}

bool Feed::TrimDue(std::string_view user, const std::vector<std::string>& entries) const {
  if (options_.inbox_trim_every <= 1) return true;
  for (const std::string& entry : entries) {
    // FNV-1a over the inbox and the entry: stable across processes and retries.
    uint64_t h = 1469598103934665603ull;
    for (std::string_view part : {user, std::string_view(entry)}) {
      for (unsigned char c : part) h = (h ^ c) * 1099511628211ull;
      h = (h ^ 0xff) * 1099511628211ull;
    }
    if (h % static_cast<uint64_t>(options_.inbox_trim_every) == 0) return true;
  }
  return false;
}

Status Feed::Deliver(const std::vector<std::string>& users,
                     const std::vector<std::string>& entries) {
  if (users.empty() || entries.empty()) return Status::OK();
  std::vector<Mutation> puts;
  for (const auto& u : users) {
    basalt::Put put(fl::InboxRow(u));
    for (const auto& e : entries) put.Add(std::string(fl::kInboxFamily), e, "");
    puts.emplace_back(std::move(put));
  }
  BASALT_RETURN_IF_ERROR(inbox_->Batch(puts).status());
  // Trim the inboxes whose turn it is (FeedOptions::inbox_trim_every): the columns after the
  // first inbox_cap (the oldest entries) are removed.
  std::vector<std::string> due;
  for (const auto& u : users) {
    if (TrimDue(u, entries)) due.push_back(u);
  }
  if (due.empty()) return Status::OK();
  std::vector<basalt::Get> gets;
  for (const auto& u : due) {
    basalt::Get get = basalt::Get(fl::InboxRow(u)).AddFamily(std::string(fl::kInboxFamily));
    get.SetRowOffsetPerColumnFamily(options_.inbox_cap);
    get.SetFilter(std::make_shared<KeyOnlyFilter>());
    gets.push_back(std::move(get));
  }
  BASALT_ASSIGN_OR_RETURN(auto rows, inbox_->Get(gets));
  std::vector<Mutation> trims;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].empty()) continue;
    basalt::Delete del(fl::InboxRow(due[i]));
    for (const Cell& c : rows[i].cells())
      del.AddColumns(std::string(fl::kInboxFamily), c.qualifier);
    trims.emplace_back(std::move(del));
  }
  if (trims.empty()) return Status::OK();
  return inbox_->Batch(trims).status();
}

Status Feed::Retract(const std::vector<std::string>& users, const std::string& entry) {
  if (users.empty()) return Status::OK();
  std::vector<Mutation> dels;
  for (const auto& u : users) {
    dels.emplace_back(
        basalt::Delete(fl::InboxRow(u)).AddColumns(std::string(fl::kInboxFamily), entry));
  }
  return inbox_->Batch(dels).status();
}

Status Feed::Follow(std::string_view follower, std::string_view followed) {
  BASALT_RETURN_IF_ERROR(graph_.Follow(follower, followed));
  BASALT_ASSIGN_OR_RETURN(bool high, IsHighFollowerAuthor(followed));
  if (high || options_.backfill_posts == 0) return Status::OK();
  Scan scan = Scan()
                  .SetRowPrefix(fl::AuthorPostsPrefix(followed))
                  .AddColumn(std::string(fl::kPostFamily), "s")
                  .SetLimit(options_.backfill_posts);
  BASALT_ASSIGN_OR_RETURN(auto scanner, posts_->GetScanner(scan));
  std::vector<std::string> entries;
  RowResult row;
  while (scanner->Next(&row)) {
    std::string_view post_id = std::string_view(row.row()).substr(1);
    BASALT_ASSIGN_OR_RETURN(fl::PostId id, fl::DecodePostId(post_id));
    entries.push_back(fl::TimelineKey(post_id, id.timestamp_ms));
  }
  BASALT_RETURN_IF_ERROR(scanner->status());
  return Deliver({std::string(follower)}, entries);
}

Status Feed::Unfollow(std::string_view follower, std::string_view followed) {
  BASALT_RETURN_IF_ERROR(graph_.Unfollow(follower, followed));
  basalt::Get get = basalt::Get(fl::InboxRow(follower)).AddFamily(std::string(fl::kInboxFamily));
  get.SetFilter(std::make_shared<KeyOnlyFilter>());
  BASALT_ASSIGN_OR_RETURN(RowResult row, inbox_->Get(get));
  basalt::Delete del(fl::InboxRow(follower));
  bool any = false;
  for (const Cell& c : row.cells()) {
    auto id = fl::DecodeTimelineKey(c.qualifier, nullptr);
    if (id.ok() && id->author == followed) {
      del.AddColumns(std::string(fl::kInboxFamily), c.qualifier);
      any = true;
    }
  }
  if (!any) return Status::OK();
  return inbox_->Delete(del);
}

Result<int64_t> Feed::PendingJobs() {
  BASALT_ASSIGN_OR_RETURN(Backlog backlog, FanoutBacklog());
  return backlog.jobs;
}

Result<Feed::Backlog> Feed::FanoutBacklog() {
  Scan scan = Scan()
                  .SetRowPrefix(fl::JobRowsPrefix())
                  .AddFamily(std::string(fl::kJobFamily))
                  .SetFilter(std::make_shared<KeyOnlyFilter>());
  BASALT_ASSIGN_OR_RETURN(auto scanner, posts_->GetScanner(scan));
  Backlog backlog;
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

}  // namespace basalt::recipes
