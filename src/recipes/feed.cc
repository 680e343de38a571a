#include "basalt/recipes/feed.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <queue>
#include <random>
#include <set>
#include <unordered_map>
#include <utility>

#include "basalt/admin.h"
#include "basalt/base64.h"
#include "basalt/check_and_mutate.h"
#include "basalt/filter.h"
#include "basalt/keys.h"
#include "basalt/multi_row_mutation.h"
#include "basalt/paging.h"
#include "recipes/fanout_jobs.h"
#include "recipes/feed_layout.h"
#include "recipes/recipe_format.h"
#include "recipes/table_setup.h"
#include "recipes/trim_hash.h"

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

// The author and the time come from the post id; the text is taken out of `row`, the rest of the
// row stays.
Result<PostView> TakePostView(RowResult& row, std::string_view post_id) {
  BASALT_ASSIGN_OR_RETURN(fl::PostId id, fl::DecodePostId(post_id));
  for (Cell& cell : row.mutable_cells()) {
    if (cell.family == fl::kPostFamily && cell.qualifier == "t") {
      return PostView{std::string(post_id), std::move(id.author), id.timestamp_ms,
                      std::move(cell.value)};
    }
  }
  return Status::Corruption("feed: post row without text");
}

// The home-timeline cursor: base64url of the phase ('i': in the inbox, 'p': pulled from the
// followees' timelines) + the timeline key of the last post returned. Cursors of earlier versions
// are base64url of BE64(posts returned so far, >= 1) + that key: their first byte is 0, and they
// go on in the inbox.
constexpr char kInboxPhase = 'i';
constexpr char kPulledPhase = 'p';
// A home read finds which marked authors the reader follows with one multi-Get of those edges
// while there are at most this many marks; past that, reading the whole following list is the
// cheaper way.
constexpr size_t kMostMarksCheckedByEdge = 64;

std::string EncodeHomeCursor(char phase, std::string_view last_key) {
  return Base64UrlEncode(std::string(1, phase) + std::string(last_key));
}

Status DecodeHomeCursor(std::string_view cursor, char* phase, std::string* last_key) {
  auto bytes = Base64UrlDecode(cursor);
  if (!bytes || bytes->empty()) return Status::InvalidArgument("feed: malformed home cursor");
  if ((*bytes)[0] == kInboxPhase || (*bytes)[0] == kPulledPhase) {
    *phase = (*bytes)[0];
    *last_key = bytes->substr(1);
  } else if (bytes->size() >= 8 && LongFromBytes(*bytes) >= 1) {
    *phase = kInboxPhase;
    *last_key = bytes->substr(8);
  } else {
    return Status::InvalidArgument("feed: malformed home cursor");
  }
  if (!fl::DecodeTimelineKey(*last_key, nullptr).ok()) {
    return Status::InvalidArgument("feed: malformed home cursor");
  }
  return Status::OK();
}

// A reader row's cells (feed_layout.h).
struct ReaderState {
  std::optional<int64_t> last_read;
  std::string bound = std::string(fl::kNoBound);
  std::string epoch;
  std::string stale;
  // The reader has unfollowed someone (Feed::Unfollow): their inbox may hold entries of an author
  // they no longer follow, delivered by a fan-out page that read the followers before.
  bool unfollowed = false;
};

ReaderState ParseReader(const RowResult& row) {
  ReaderState st;
  if (auto r = row.Value(fl::kInboxFamily, fl::kLastRead); r && r->size() == 8) {
    st.last_read = LongFromBytes(*r);
  }
  if (auto w = row.Value(fl::kInboxFamily, fl::kBound); w && !w->empty()) st.bound = *w;
  if (auto e = row.Value(fl::kInboxFamily, fl::kEpoch)) st.epoch = *e;
  if (auto s = row.Value(fl::kInboxFamily, fl::kStale)) st.stale = *s;
  st.unfollowed = row.Value(fl::kInboxFamily, fl::kUnfollowed).has_value();
  return st;
}

basalt::Get ReaderGet(std::string_view user) {
  return basalt::Get(fl::ReaderRow(user)).AddFamily(std::string(fl::kInboxFamily));
}

std::string Nonce() {
  std::random_device rd;
  return std::to_string(rd()) + "." + std::to_string(rd());
}

}  // namespace

// The Feed that Open makes; also the fan-out jobs its workers run (fanout_jobs.h).
class FeedImpl final : public Feed, public FanoutJobs {
 public:
  FeedImpl(Connection& conn, FollowGraph& graph, FeedOptions options, std::unique_ptr<Table> posts,
           std::unique_ptr<Table> inbox);

  Result<std::string> Post(std::string_view author, std::string_view text) override;
  Result<std::string> PostAt(std::string_view author, std::string_view text,
                             int64_t timestamp_ms) override;
  Result<PostView> GetPost(std::string_view post_id) override;
  Status DeletePost(std::string_view requester, std::string_view post_id) override;
  Result<PostPage> UserTimeline(std::string_view author, int32_t page_size,
                                std::string_view cursor) override;
  Result<PostPage> HomeTimeline(std::string_view user, int32_t page_size,
                                std::string_view cursor) override;
  Status Follow(std::string_view follower, std::string_view followed) override;
  Status Unfollow(std::string_view follower, std::string_view followed) override;
  Result<int64_t> PendingJobs() override;
  Result<Backlog> FanoutBacklog() override;
  const FeedOptions& options() const override { return options_; }
  FollowGraph& graph() override { return graph_; }

  // FanoutJobs.
  Table& posts() override { return *posts_; }
  bool rows_atomic() const override { return rows_atomic_; }
  Result<std::vector<std::string>> ActiveReaders(const std::vector<std::string>& users,
                                                 int64_t* skipped) override;
  Result<bool> DeliverJobPage(const std::vector<std::string>& users,
                              const std::vector<std::string>& entries, const std::string& job_row,
                              const std::string& lease, const JobAdvance& next) override;
  Result<bool> AdvanceJob(const std::string& job_row, const std::string& lease,
                          const JobAdvance& next) override;
  Status Retract(const std::vector<std::string>& users, const std::string& entry) override;

 private:
  // Writes `entries` (timeline keys, see feed_layout.h) into the inboxes of `users`, then
  // trims the inboxes whose turn it is to inbox_cap, moving their bounds up first.
  Status Deliver(const std::vector<std::string>& users, const std::vector<std::string>& entries);
  // The write that applies `next` to the job row.
  static CheckAndMutate::Action JobAdvanceAction(const std::string& job_row,
                                                 const JobAdvance& next);
  // The trims that delivering `entries` to `users` makes due (TrimDue).
  Status TrimDelivered(const std::vector<std::string>& users,
                       const std::vector<std::string>& entries);
  // How far a trim reads an inbox. Entries a trim removes are the oldest, so every earlier
  // trim's delete markers sort at or after the inbox's bound: kBelowBound reads only the entries
  // before it, and removes of those after it only the ones just delivered. kWhole reads past it
  // too, for entries delivered after a trim had moved the bound above them (home timelines never
  // read them) by deliveries that did not trim.
  enum class TrimPass : uint8_t { kNone, kBelowBound, kWhole };
  struct DueTrim {
    std::string user;
    TrimPass pass;
    const std::vector<std::string>* delivered;  // the entries just written; not owned
  };
  // Trims the inboxes of `due` to inbox_cap, moving their bounds up first.
  Status Trim(const std::vector<DueTrim>& due);
  // Whether delivering `entries` to `user` trims the inbox (FeedOptions::inbox_trim_every), and
  // how far: one trim in kWholeTrimEvery reads the whole inbox.
  TrimPass TrimDue(std::string_view user, const std::vector<std::string>& entries) const;
  static constexpr uint64_t kWholeTrimEvery = 16;
  struct FollowedAuthors {
    std::set<std::string> all;      // every author `user` follows
    std::vector<std::string> high;  // those that carry the high-follower mark
  };
  // Whom `user` follows: read by a home timeline page past the inbox, or when there are too
  // many marked authors to ask about each edge, and by rebuilds.
  Result<FollowedAuthors> Followed(std::string_view user);
  Result<bool> IsHighFollowerAuthor(std::string_view author);
  // Up to `limit` timeline keys after `position` (exclusive; empty: from the newest), newest
  // first, from the own timelines of `authors`: a k-way merge that reads each author's posts
  // lazily, a few at a time.
  Result<std::vector<std::string>> PullKeys(const std::vector<std::string>& authors,
                                            const std::string& position, int32_t limit);
  // Moves `user`'s inbox bound to `key` when that is before it (CheckAndMutate, so concurrent
  // moves keep the earliest). `reader` is the reader row as read, or null to read it.
  Status NarrowBound(std::string_view user, const std::string& key, const RowResult* reader);
  // Rebuilds `user`'s inbox from the timelines of the users they follow (not the high-follower
  // ones): the newest inbox_cap posts, and the bound after them. Returns false when a trim or a
  // follow raced it: the inbox is then not to be trusted until the next read rebuilds it again.
  Result<bool> RebuildInbox(std::string_view user);
  // After removing entries from the inboxes of `users` or moving their bounds, with `readers`
  // their reader rows read before: marks an inbox for a rebuild when a rebuild of it was running
  // then or started since, as that rebuild may have rewritten what was removed, or overwritten
  // the bound.
  Status MarkDirtyIfRebuilt(const std::vector<std::string>& users,
                            const std::vector<RowResult>& readers);
  // `author`'s follower count as of at most follower_count_refresh_ms ago.
  Result<int64_t> RecentFollowerCount(std::string_view author);
  // The authors that carry the high-follower mark, as of at most marks_refresh_ms ago.
  Result<std::shared_ptr<const std::set<std::string>>> MarkedAuthors();

  // Writes the post row, its job row and the author's inbox entry as one atomic
  // Connection::MutateRows; false (nothing written) when the backend has none.
  Result<bool> WritePostAtomically(const basalt::Put& post, const basalt::Put& job,
                                   const basalt::Put& own_entry);

  Connection& conn_;
  FollowGraph& graph_;
  FeedOptions options_;
  std::unique_ptr<Table> posts_;
  std::unique_ptr<Table> inbox_;
  std::atomic<uint32_t> sequence_;
  // False once Connection::MutateRows answered NotSupported (thrift://): DeliverJobPage is then
  // two writes, and a fan-out worker claims a job before its first page.
  std::atomic<bool> rows_atomic_{true};
  std::mutex marks_mu_;
  std::shared_ptr<const std::set<std::string>> marks_;  // guarded by marks_mu_; null: read again
  int64_t marks_read_ms_ = 0;                           // guarded by marks_mu_
  struct FollowerCountCopy {
    int64_t count;
    int64_t read_ms;
  };
  std::mutex counts_mu_;
  std::map<std::string, FollowerCountCopy, std::less<>> counts_;  // guarded by counts_mu_
  // ActiveReaders' copies: until when a reader is active for certain. A reader whose last read
  // was at T is active until T + inactive_after_ms whatever happens meanwhile (a read only
  // moves T on), so a copy needs no refresh before then.
  std::mutex active_mu_;
  std::unordered_map<std::string, int64_t> active_until_;  // guarded by active_mu_
};

FeedImpl::FeedImpl(Connection& conn, FollowGraph& graph, FeedOptions options,
                   std::unique_ptr<Table> posts, std::unique_ptr<Table> inbox)
    : conn_(conn),
      graph_(graph),
      options_(std::move(options)),
      posts_(std::move(posts)),
      inbox_(std::move(inbox)),
      sequence_(static_cast<uint32_t>(std::random_device{}())) {}

FanoutJobs* FanoutJobsOf(Feed& feed) {
  auto* impl = dynamic_cast<FeedImpl*>(&feed);
  return impl == nullptr ? nullptr : static_cast<FanoutJobs*>(impl);
}

Result<std::unique_ptr<Feed>> Feed::Open(Connection& conn, FollowGraph& graph,
                                         FeedOptions options) {
  if (options.inbox_cap < 1) return Status::InvalidArgument("feed: inbox_cap must be >= 1");
  if (options.inbox_trim_every < 1) {
    return Status::InvalidArgument("feed: inbox_trim_every must be >= 1");
  }
  if (options.backfill_posts < 0) return Status::InvalidArgument("feed: backfill_posts < 0");
  if (options.post_lease_ms < 0) return Status::InvalidArgument("feed: post_lease_ms < 0");
  if (options.follower_count_refresh_ms < 0) {
    return Status::InvalidArgument("feed: follower_count_refresh_ms < 0");
  }
  if (options.inactive_after_ms < 0) {
    return Status::InvalidArgument("feed: inactive_after_ms < 0");
  }
  TableName posts_name(options.name_space, options.table_prefix + "_posts");
  TableName inbox_name(options.name_space, options.table_prefix + "_inbox");
  BASALT_RETURN_IF_ERROR(EnsureTable(conn.admin(), posts_name,
                                     {std::string(fl::kPostFamily), std::string(fl::kJobFamily)},
                                     options.posts_compression));
  BASALT_RETURN_IF_ERROR(EnsureTable(conn.admin(), inbox_name, {std::string(fl::kInboxFamily)},
                                     options.inbox_compression));
  BASALT_ASSIGN_OR_RETURN(auto posts, conn.GetTable(posts_name));
  BASALT_ASSIGN_OR_RETURN(auto inbox, conn.GetTable(inbox_name));
  BASALT_RETURN_IF_ERROR(CheckRecipeFormat(*posts, fl::Format()));
  return std::unique_ptr<Feed>(
      new FeedImpl(conn, graph, std::move(options), std::move(posts), std::move(inbox)));
}

Result<std::string> FeedImpl::Post(std::string_view author, std::string_view text) {
  return PostAt(author, text, SystemWallMillis());
}

Result<std::string> FeedImpl::PostAt(std::string_view author, std::string_view text,
                                     int64_t timestamp_ms) {
  if (author.empty()) return Status::InvalidArgument("feed: empty author");
  if (timestamp_ms < 0) return Status::InvalidArgument("feed: negative post time");
  if (text.size() > options_.max_text_bytes) {
    return Status::InvalidArgument("feed: post text longer than " +
                                   std::to_string(options_.max_text_bytes) + " bytes");
  }
  // The copy of the marks, not the mark row: a mark newer than the copy only means that this
  // post is fanned out (when the count is back under the threshold) as well as merged at read
  // time, which the merge deduplicates; above the threshold the mark is written again below.
  BASALT_ASSIGN_OR_RETURN(auto marks, MarkedAuthors());
  bool high = marks->contains(std::string(author));
  if (!high) {
    BASALT_ASSIGN_OR_RETURN(int64_t followers, RecentFollowerCount(author));
    high = followers > options_.fanout_threshold;
  }
  fl::PostId id{std::string(author), timestamp_ms, sequence_.fetch_add(1)};
  std::string post_id = fl::EncodePostId(id);
  // The author's own inbox holds their posts too, so that a home page is one inbox read and
  // one hydration. It is written before the post row, or with it: an entry whose post row is
  // missing (a crash in between) is skipped by reads as a deleted post is.
  const std::string own_key = fl::TimelineKey(post_id, id.timestamp_ms);
  const basalt::Put own_entry =
      basalt::Put(fl::InboxRow(author)).Add(std::string(fl::kInboxFamily), own_key, "");
  basalt::Put post(fl::PostRow(post_id), id.timestamp_ms);
  post.Add(std::string(fl::kPostFamily), "t", std::string(text));
  // An own entry's turn to trim the inbox comes as a delivery's does.
  auto trim_own_inbox = [&]() -> Status {
    const std::vector<std::string> delivered = {own_key};
    const TrimPass pass = TrimDue(author, delivered);
    return pass == TrimPass::kNone ? Status::OK() : Trim({{std::string(author), pass, &delivered}});
  };
  if (high) {
    // The mark first: it is sticky and right on its own (the author is above the threshold).
    BASALT_RETURN_IF_ERROR(
        posts_->Put(basalt::Put(fl::MarkRow(author)).Add(std::string(fl::kPostFamily), "h", "1")));
    {
      std::lock_guard<std::mutex> lock(marks_mu_);
      if (marks_ != nullptr && !marks_->contains(std::string(author))) marks_ = nullptr;
    }
    BASALT_RETURN_IF_ERROR(inbox_->Put(own_entry));
    BASALT_RETURN_IF_ERROR(posts_->Put(post));
    BASALT_RETURN_IF_ERROR(trim_own_inbox());
    return post_id;
  }
  // Queued at the wall clock, not at the post's time (an import may post in the past): the
  // workers take the queue in order and do not read behind it (fanout_worker.h).
  const int64_t queued_ms = SystemWallMillis();
  const std::string job_row = fl::JobRow(queued_ms, post_id, fl::kFanoutJob);
  // p:o marks a post that was fanned out (only those need a retract job when deleted) and names
  // its job row, which DeletePost deletes.
  post.Add(std::string(fl::kPostFamily), "o", fl::FanoutQueuedMark(queued_ms));
  const std::string job_family(fl::kJobFamily);
  auto job = [&](std::string_view lease) {
    return basalt::Put(job_row)
        .Add(job_family, "a", std::string(author))
        .Add(job_family, "p", post_id)
        .Add(job_family, "l", std::string(lease));
  };
  // Where the store writes several rows atomically, the post and its job, handed to the workers
  // at once, are one write: no worker can see the job without the post, which its lease says.
  BASALT_ASSIGN_OR_RETURN(bool written,
                          WritePostAtomically(post, job(fl::kUnclaimedLeaseWithPost), own_entry));
  if (written) {
    BASALT_RETURN_IF_ERROR(trim_own_inbox());
    return post_id;
  }
  // Otherwise three single-row writes, correct without a cross-row atomic batch (HBase over
  // Thrift2) and whatever point a crash stops them at (docs/recipes.md, "Post without cross-row
  // atomicity"):
  //  1. the job row, under a lease held by this call, so no worker takes it while the post row
  //     is not written yet (a worker drops a job whose post is missing: never written, or
  //     deleted), and the author's own inbox entry;
  //  2. the post row;
  //  3. the job handed to the workers (lease "0|"). If this call's lease ran out meanwhile, a
  //     worker may have dropped the job before step 2: write it again (delivery is idempotent).
  // A crash after 1 leaves a job that is dropped once the lease expires (no post, none
  // acknowledged); after 2, a job that delivers the post once the lease expires.
  const std::string poster_lease =
      std::to_string(SystemWallMillis() + options_.post_lease_ms) + "|post";
  BASALT_RETURN_IF_ERROR(posts_->Put(job(poster_lease)));
  BASALT_RETURN_IF_ERROR(inbox_->Put(own_entry));
  BASALT_RETURN_IF_ERROR(posts_->Put(post));
  BASALT_ASSIGN_OR_RETURN(
      bool handed_over,
      posts_->CheckAndMutate(
          CheckAndMutate(job_row)
              .IfEquals(job_family, "l", poster_lease)
              .Then(basalt::Put(job_row).Add(job_family, "l", std::string(fl::kUnclaimedLease)))));
  if (!handed_over) BASALT_RETURN_IF_ERROR(posts_->Put(job(fl::kUnclaimedLease)));
  BASALT_RETURN_IF_ERROR(trim_own_inbox());
  return post_id;
}

Result<bool> FeedImpl::WritePostAtomically(const basalt::Put& post, const basalt::Put& job,
                                           const basalt::Put& own_entry) {
  MultiRowMutation m;
  m.Add(posts_->name(), post).Add(posts_->name(), job).Add(inbox_->name(), own_entry);
  // NotSupported is answered locally, without a call to the store.
  Result<bool> applied = conn_.MutateRows(m);
  if (applied.status().IsNotSupported()) {
    rows_atomic_ = false;
    return false;
  }
  return applied;  // no conditions: true once written
}

Result<PostView> FeedImpl::GetPost(std::string_view post_id) {
  if (!fl::DecodePostId(post_id).ok()) return Status::InvalidArgument("feed: not a post id");
  BASALT_ASSIGN_OR_RETURN(
      RowResult row,
      posts_->Get(basalt::Get(fl::PostRow(post_id)).AddFamily(std::string(fl::kPostFamily))));
  if (row.empty()) return Status::NotFound("feed: no such post");
  return TakePostView(row, post_id);
}

Status FeedImpl::DeletePost(std::string_view requester, std::string_view post_id) {
  if (!fl::DecodePostId(post_id).ok()) return Status::InvalidArgument("feed: not a post id");
  BASALT_ASSIGN_OR_RETURN(
      RowResult row,
      posts_->Get(basalt::Get(fl::PostRow(post_id)).AddFamily(std::string(fl::kPostFamily))));
  if (row.empty()) return Status::NotFound("feed: no such post");
  BASALT_ASSIGN_OR_RETURN(PostView post, TakePostView(row, post_id));
  if (post.author != requester) {
    return Status::FailedPrecondition("feed: only the author of a post may delete it");
  }
  std::vector<Mutation> batch;
  // The fan-out job first, if it may still run: its worker, trusting a job written with its
  // post, delivers pages only while the job row holds the lease it knows (DeliverJobPage).
  const std::optional<std::string_view> fanned_out = row.Value(fl::kPostFamily, "o");
  if (const auto queued_ms = fl::DecodeFanoutQueuedMark(fanned_out.value_or(""))) {
    batch.emplace_back(basalt::Delete(fl::JobRow(*queued_ms, post_id, fl::kFanoutJob))
                           .AddFamily(std::string(fl::kJobFamily)));
  }
  batch.emplace_back(basalt::Delete(fl::PostRow(post_id)));
  // The author's own entry after the post: if this stops in between, reads skip the entry.
  const basalt::Delete own_entry =
      basalt::Delete(fl::InboxRow(post.author))
          .AddColumns(std::string(fl::kInboxFamily), fl::TimelineKey(post_id, post.timestamp_ms));
  // A post that was never fanned out (its author was a high-follower author) is in no other
  // inbox.
  if (!fanned_out) {
    BASALT_RETURN_IF_ERROR(posts_->Batch(batch).status());
    return inbox_->Delete(own_entry);
  }
  batch.emplace_back(basalt::Put(fl::JobRow(SystemWallMillis(), post_id, fl::kRetractJob))
                         .Add(std::string(fl::kJobFamily), "a", post.author)
                         .Add(std::string(fl::kJobFamily), "p", std::string(post_id))
                         .Add(std::string(fl::kJobFamily), "l", std::string(fl::kUnclaimedLease)));
  BASALT_RETURN_IF_ERROR(posts_->Batch(batch).status());
  return inbox_->Delete(own_entry);
}

Result<PostPage> FeedImpl::UserTimeline(std::string_view author, int32_t page_size,
                                        std::string_view cursor) {
  Scan scan =
      Scan().SetRowPrefix(fl::AuthorPostsPrefix(author)).AddFamily(std::string(fl::kPostFamily));
  BASALT_ASSIGN_OR_RETURN(Page page, ReadPage(*posts_, scan, page_size, cursor));
  PostPage out;
  out.cursor = std::move(page.cursor);
  for (RowResult& row : page.rows) {
    std::string_view post_id = std::string_view(row.row()).substr(1);
    BASALT_ASSIGN_OR_RETURN(PostView view, TakePostView(row, post_id));
    out.posts.push_back(std::move(view));
  }
  return out;
}

Result<int64_t> FeedImpl::RecentFollowerCount(std::string_view author) {
  const int64_t now = SystemWallMillis();
  if (options_.follower_count_refresh_ms > 0) {
    std::lock_guard<std::mutex> lock(counts_mu_);
    auto it = counts_.find(author);
    if (it != counts_.end() && now - it->second.read_ms < options_.follower_count_refresh_ms) {
      return it->second.count;
    }
  }
  BASALT_ASSIGN_OR_RETURN(int64_t count, graph_.FollowerCount(author));
  if (options_.follower_count_refresh_ms > 0) {
    std::lock_guard<std::mutex> lock(counts_mu_);
    constexpr size_t kMostCopies = 65536;
    if (counts_.size() >= kMostCopies) counts_.clear();  // a bound, not an LRU: refills cheaply
    counts_.insert_or_assign(std::string(author), FollowerCountCopy{count, now});
  }
  return count;
}

Result<std::shared_ptr<const std::set<std::string>>> FeedImpl::MarkedAuthors() {
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

Result<bool> FeedImpl::IsHighFollowerAuthor(std::string_view author) {
  // Marks are sticky: one in the copy is there. One missing may be newer than the copy.
  BASALT_ASSIGN_OR_RETURN(auto marks, MarkedAuthors());
  if (marks->contains(std::string(author))) return true;
  return posts_->Exists(
      basalt::Get(fl::MarkRow(author)).AddColumn(std::string(fl::kPostFamily), "h"));
}

Result<FeedImpl::FollowedAuthors> FeedImpl::Followed(std::string_view user) {
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

Result<std::vector<std::string>> FeedImpl::PullKeys(const std::vector<std::string>& authors,
                                                    const std::string& position, int32_t limit) {
  std::vector<std::string> out;
  if (authors.empty() || limit < 1) return out;
  std::string position_id;
  fl::PostId at;
  if (!position.empty()) {
    BASALT_ASSIGN_OR_RETURN(at, fl::DecodeTimelineKey(position, &position_id));
  }
  const std::string at_author = position.empty() ? "" : KeyBuilder().AddBytes(at.author).Build();
  struct Source {
    std::string author;
    std::deque<std::string> keys;  // fetched, not merged yet; keys.front() is the head
    std::string last_row;          // the last row fetched
    bool more = true;              // the last fetch was full: there may be more rows
  };
  // Reads up to `n` keys of `src` from `start` on (a scan with an exact start row and a limit:
  // one call over Thrift2, with no scanner left open on the server).
  auto fetch = [&](Source& src, const std::string& start, bool inclusive, int32_t n) -> Status {
    Scan scan = Scan()
                    .SetRowPrefix(fl::AuthorPostsPrefix(src.author))
                    .AddColumn(std::string(fl::kPostFamily), "t")
                    .SetFilter(std::make_shared<KeyOnlyFilter>())
                    .SetLimit(n)
                    .SetCaching(n);
    if (!start.empty()) scan.WithStartRow(start, inclusive);
    BASALT_ASSIGN_OR_RETURN(auto scanner, posts_->GetScanner(scan));
    RowResult row;
    int32_t got = 0;
    while (scanner->Next(&row)) {
      std::string_view post_id = std::string_view(row.row()).substr(1);
      BASALT_ASSIGN_OR_RETURN(fl::PostId id, fl::DecodePostId(post_id));
      src.keys.push_back(fl::TimelineKey(post_id, id.timestamp_ms));
      src.last_row = row.row();
      ++got;
    }
    BASALT_RETURN_IF_ERROR(scanner->status());
    src.more = got >= n;
    return Status::OK();
  };
  // Each author is likely to give about limit / authors keys: read twice that at first, so that
  // a page over many followees does not read a page's worth from each.
  const int32_t share =
      static_cast<int32_t>(2 * int64_t{limit} / static_cast<int64_t>(authors.size()));
  const int32_t first = std::min(limit, std::max<int32_t>(2, share));
  std::vector<Source> sources(authors.size());
  auto later = [&](size_t a, size_t b) {
    return sources[a].keys.front() > sources[b].keys.front();
  };
  std::priority_queue<size_t, std::vector<size_t>, decltype(later)> heap(later);
  for (size_t i = 0; i < authors.size(); ++i) {
    Source& src = sources[i];
    src.author = authors[i];
    // The author's first post after the position, found by its row key: their posts of the
    // position's millisecond come after it when their post ids do (the author's name decides).
    std::string start;
    bool inclusive = true;
    if (!position.empty()) {
      const std::string author_key = KeyBuilder().AddBytes(src.author).Build();
      if (src.author == at.author) {
        start = fl::PostRow(position_id);
        inclusive = false;
      } else if (author_key > at_author) {
        start = fl::AuthorPostsFrom(src.author, at.timestamp_ms);
      } else if (at.timestamp_ms > 0) {
        start = fl::AuthorPostsFrom(src.author, at.timestamp_ms - 1);
      } else {
        continue;  // nothing older than time 0
      }
    }
    BASALT_RETURN_IF_ERROR(fetch(src, start, inclusive, first));
    if (!src.keys.empty()) heap.push(i);
  }
  while (!heap.empty() && static_cast<int32_t>(out.size()) < limit) {
    const size_t i = heap.top();
    heap.pop();
    Source& src = sources[i];
    // Two authors never share a key (the post id holds the author), so no duplicates here.
    out.push_back(std::move(src.keys.front()));
    src.keys.pop_front();
    if (src.keys.empty() && src.more) {
      const int32_t left = limit - static_cast<int32_t>(out.size());
      if (left > 0) BASALT_RETURN_IF_ERROR(fetch(src, src.last_row, false, left));
    }
    if (!src.keys.empty()) heap.push(i);
  }
  return out;
}

Status FeedImpl::NarrowBound(std::string_view user, const std::string& key,
                             const RowResult* reader) {
  const std::string family(fl::kInboxFamily);
  const std::string row = fl::ReaderRow(user);
  std::optional<RowResult> read;
  for (int round = 0; round < 16; ++round) {
    if (reader == nullptr) {
      BASALT_ASSIGN_OR_RETURN(read, inbox_->Get(ReaderGet(user)));
      reader = &*read;
    }
    auto current = reader->Value(family, fl::kBound);
    const std::string bound =
        current && !current->empty() ? std::string(*current) : std::string(fl::kNoBound);
    if (bound <= key) return Status::OK();
    CheckAndMutate cam(row);
    if (current) {
      cam.IfEquals(family, std::string(fl::kBound), std::string(*current));
    } else {
      cam.IfNotExists(family, std::string(fl::kBound));
    }
    cam.Then(basalt::Put(row).Add(family, std::string(fl::kBound), key));
    BASALT_ASSIGN_OR_RETURN(bool moved, inbox_->CheckAndMutate(cam));
    if (moved) return Status::OK();
    reader = nullptr;
  }
  return Status::Busy("feed: the inbox bound of " + std::string(user) + " kept changing");
}

Status FeedImpl::MarkDirtyIfRebuilt(const std::vector<std::string>& users,
                                    const std::vector<RowResult>& readers) {
  if (users.empty()) return Status::OK();
  std::vector<basalt::Get> gets;
  for (const auto& u : users) gets.push_back(ReaderGet(u));
  BASALT_ASSIGN_OR_RETURN(auto now, inbox_->Get(gets));
  std::vector<basalt::Put> marks;
  for (size_t i = 0; i < users.size(); ++i) {
    const ReaderState before = ParseReader(readers[i]);
    const ReaderState after = ParseReader(now[i]);
    if (before.stale.empty() && before.epoch == after.epoch) continue;
    marks.push_back(
        basalt::Put(fl::ReaderRow(users[i]))
            .Add(std::string(fl::kInboxFamily), std::string(fl::kStale), std::string(fl::kDirty)));
  }
  if (marks.empty()) return Status::OK();
  return inbox_->Put(marks);
}

Result<bool> FeedImpl::RebuildInbox(std::string_view user) {
  const std::string family(fl::kInboxFamily);
  const std::string row = fl::ReaderRow(user);
  const std::string nonce = Nonce();
  // Marked first, so that a crash part-way leaves an inbox the next read rebuilds again, and
  // active from now on, so that fan-out delivers what this rebuild's reads come too early for.
  BASALT_RETURN_IF_ERROR(
      inbox_->Put(basalt::Put(row)
                      .Add(family, std::string(fl::kLastRead), LongBytes(SystemWallMillis()))
                      .Add(family, std::string(fl::kEpoch), nonce)
                      .Add(family, std::string(fl::kStale), nonce)));
  // The followees are read after the mark: a Follow whose graph write comes later sees the
  // rebuild running and marks the inbox dirty (Follow).
  BASALT_ASSIGN_OR_RETURN(FollowedAuthors followed, Followed(user));
  const std::set<std::string> high(followed.high.begin(), followed.high.end());
  std::vector<std::string> authors;
  for (const auto& a : followed.all) {
    if (!high.contains(a)) authors.push_back(a);
  }
  // And the reader's own posts, which Post writes into this inbox too.
  if (!followed.all.contains(std::string(user))) authors.emplace_back(user);
  BASALT_ASSIGN_OR_RETURN(std::vector<std::string> keys,
                          PullKeys(authors, "", options_.inbox_cap + 1));
  const size_t kept = std::min(keys.size(), static_cast<size_t>(options_.inbox_cap));
  if (kept > 0) {
    basalt::Put put(fl::InboxRow(user));
    for (size_t i = 0; i < kept; ++i) put.Add(family, keys[i], "");
    BASALT_RETURN_IF_ERROR(inbox_->Put(put));
  }
  const std::string bound = keys.size() > kept ? keys[kept] : std::string(fl::kNoBound);
  return inbox_->CheckAndMutate(CheckAndMutate(row)
                                    .IfEquals(family, std::string(fl::kStale), nonce)
                                    .Then(basalt::Put(row)
                                              .Add(family, std::string(fl::kBound), bound)
                                              .Add(family, std::string(fl::kStale), "")));
}

Result<PostPage> FeedImpl::HomeTimeline(std::string_view user, int32_t page_size,
                                        std::string_view cursor) {
  if (page_size < 1) return Status::InvalidArgument("feed: page_size must be >= 1");
  char phase = kInboxPhase;
  std::string position;  // the timeline key of the last post returned; empty: the start
  if (!cursor.empty()) BASALT_RETURN_IF_ERROR(DecodeHomeCursor(cursor, &phase, &position));
  // Whom the reader follows, read only when a page needs the whole list: past the inbox, or to
  // find the followed marked authors among many marks. An inbox page does without it.
  std::optional<FollowedAuthors> followed;
  auto read_followed = [&]() -> Status {
    if (followed) return Status::OK();
    BASALT_ASSIGN_OR_RETURN(FollowedAuthors f, Followed(user));
    followed = std::move(f);
    return Status::OK();
  };
  // Merged at read time: the followed high-follower authors, whose posts are not fanned out.
  // The reader's own posts are in their inbox (Post), save those of a store older than that.
  std::vector<std::string> merged;
  BASALT_ASSIGN_OR_RETURN(auto marks, MarkedAuthors());
  if (!marks->empty()) {
    std::vector<std::string> others;
    for (const std::string& author : *marks) {
      if (author != user) others.push_back(author);
    }
    if (others.size() > kMostMarksCheckedByEdge) {
      BASALT_RETURN_IF_ERROR(read_followed());
      merged = followed->high;
    } else if (!others.empty()) {
      BASALT_ASSIGN_OR_RETURN(std::vector<bool> follows, graph_.IsFollowingEach(user, others));
      for (size_t i = 0; i < others.size(); ++i) {
        if (follows[i]) merged.push_back(std::move(others[i]));
      }
    }
  }
  std::erase(merged, user);
  std::set<std::string> merged_set(merged.begin(), merged.end());
  merged_set.emplace(user);  // followed or not, the reader's own posts are on their page
  // Past the inbox: every followee's own timeline, and the reader's.
  std::vector<std::string> pulled;
  // Whether an inbox author the reader may have unfollowed is still followed (asked once each).
  std::map<std::string, bool> still_followed;
  bool reader_unfollowed = false;

  const int64_t inactive_ms = options_.inactive_after_ms;
  PostPage out;
  std::string last_returned = position;
  bool checked_reader = false;
  bool more = true;
  while (more && static_cast<int32_t>(out.posts.size()) < page_size) {
    const int32_t want = page_size - static_cast<int32_t>(out.posts.size());
    const int32_t fetch = want + 1;
    std::vector<std::string> candidates;
    bool inbox_ends = false;  // the inbox region ends within these candidates
    if (phase == kInboxPhase) {
      // The reader row (activity, bound) and the inbox's next keys after `position`, in one call.
      basalt::Get get = basalt::Get(fl::InboxRow(user)).AddFamily(std::string(fl::kInboxFamily));
      get.SetMaxResultsPerColumnFamily(fetch);
      // No KeyOnlyFilter: entries hold empty values, and a first page without a filter is read
      // by the engine's shortest path (a column's first key, emitted as it is).
      if (!position.empty()) {
        get.SetFilter(std::make_shared<ColumnRangeFilter>(position, false, "", false));
      }
      // Moved in: an initializer list would copy both Gets, their column maps and the filter.
      std::vector<basalt::Get> reads;
      reads.reserve(2);
      reads.push_back(ReaderGet(user));
      reads.push_back(std::move(get));
      BASALT_ASSIGN_OR_RETURN(auto rows, inbox_->Get(reads));
      const ReaderState reader = ParseReader(rows[0]);
      reader_unfollowed = reader_unfollowed || reader.unfollowed;
      if (!checked_reader) {
        checked_reader = true;
        const int64_t now = SystemWallMillis();
        const bool idle =
            inactive_ms > 0 && reader.last_read && *reader.last_read < now - inactive_ms / 4 * 3;
        if (!reader.stale.empty() || idle) {
          BASALT_ASSIGN_OR_RETURN(bool rebuilt, RebuildInbox(user));
          // A rebuild that a trim raced leaves the inbox untrusted: this walk goes on pulled.
          if (!rebuilt) phase = kPulledPhase;
          continue;
        }
        if (inactive_ms > 0 && (!reader.last_read || *reader.last_read < now - inactive_ms / 8)) {
          BASALT_RETURN_IF_ERROR(inbox_->Put(
              basalt::Put(fl::ReaderRow(user))
                  .Add(std::string(fl::kInboxFamily), std::string(fl::kLastRead), LongBytes(now))));
        }
      }
      const std::string& bound = reader.bound;
      // The merge of the inbox's keys and the pulled ones, in order, each once. The inbox's come
      // in order (a row's columns), moved out of its row.
      std::vector<std::string>& keys = candidates;
      for (Cell& c : rows[1].mutable_cells()) {
        if (c.qualifier < bound) keys.push_back(std::move(c.qualifier));
      }
      BASALT_ASSIGN_OR_RETURN(std::vector<std::string> own, PullKeys(merged, position, fetch));
      if (!own.empty()) {
        for (auto& k : own) {
          if (k < bound) keys.push_back(std::move(k));
        }
        std::sort(keys.begin(), keys.end());
        keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
      }
      // Every source gave fewer than `fetch` keys before the bound exactly when the merge did.
      if (static_cast<int32_t>(candidates.size()) < fetch) {
        // Past here the inbox may lack posts (trimmed, skipped while the reader was inactive,
        // backfilled only in part): the walk goes on pulled. With no bound it holds them all.
        if (bound == fl::kNoBound) {
          more = false;
        } else {
          inbox_ends = true;
        }
      }
    } else {
      if (!followed) {
        BASALT_RETURN_IF_ERROR(read_followed());
        pulled.assign(followed->all.begin(), followed->all.end());
        if (!followed->all.contains(std::string(user))) pulled.emplace_back(user);
      }
      BASALT_ASSIGN_OR_RETURN(candidates, PullKeys(pulled, position, fetch));
      if (static_cast<int32_t>(candidates.size()) < fetch) more = false;
    }
    if (static_cast<int32_t>(candidates.size()) > want) candidates.resize(want);
    if (inbox_ends) phase = kPulledPhase;
    if (candidates.empty()) continue;

    // Hydrate with one read of the posts' texts; drop deleted posts and authors no longer
    // followed. The text alone: a fanned-out post's mark (p:o, before it) is read past, not
    // copied.
    std::vector<std::string> ids(candidates.size());
    std::vector<fl::PostId> decoded(candidates.size());
    std::vector<std::string> post_rows;
    post_rows.reserve(candidates.size());
    for (size_t i = 0; i < candidates.size(); ++i) {
      BASALT_ASSIGN_OR_RETURN(decoded[i], fl::DecodeTimelineKey(candidates[i], &ids[i]));
      post_rows.push_back(fl::PostRow(ids[i]));
    }
    BASALT_ASSIGN_OR_RETURN(std::vector<std::optional<std::string>> texts,
                            posts_->GetColumnValues(fl::kPostFamily, "t", post_rows));
    // Inbox entries come from fan-out to followers, backfills of follows and rebuilds from the
    // followees, so only a reader who has unfollowed someone can hold an entry of an author
    // they no longer follow; theirs are checked against the graph, one multi-Get a batch.
    if (reader_unfollowed && !followed) {
      std::vector<std::string> ask;
      for (size_t i = 0; i < candidates.size(); ++i) {
        const std::string& author = decoded[i].author;
        if (!texts[i] || merged_set.contains(author) || still_followed.contains(author) ||
            std::find(ask.begin(), ask.end(), author) != ask.end()) {
          continue;
        }
        ask.push_back(author);
      }
      if (!ask.empty()) {
        BASALT_ASSIGN_OR_RETURN(std::vector<bool> follows, graph_.IsFollowingEach(user, ask));
        for (size_t i = 0; i < ask.size(); ++i) still_followed[ask[i]] = follows[i];
      }
    }
    for (size_t i = 0; i < candidates.size(); ++i) {
      position = candidates[i];
      if (!texts[i]) continue;  // deleted; the retract job cleans the inboxes
      const std::string& author = decoded[i].author;
      const bool follows =
          merged_set.contains(author) || (followed ? followed->all.contains(author)
                                                   : !reader_unfollowed || still_followed[author]);
      if (!follows) continue;  // unfollowed; Unfollow cleans the inbox
      out.posts.push_back(PostView{std::move(ids[i]), std::move(decoded[i].author),
                                   decoded[i].timestamp_ms, std::move(*texts[i])});
      last_returned = candidates[i];
    }
  }
  if (more && !out.posts.empty()) out.cursor = EncodeHomeCursor(phase, last_returned);
  return out;
}

FeedImpl::TrimPass FeedImpl::TrimDue(std::string_view user,
                                     const std::vector<std::string>& entries) const {
  const auto every = static_cast<uint64_t>(options_.inbox_trim_every);
  TrimPass pass = TrimPass::kNone;
  for (const std::string& entry : entries) {
    const uint64_t h = TrimHash().AddBytes(user).EndField().AddBytes(entry).EndField().value();
    if (h % (every * kWholeTrimEvery) == 0) return TrimPass::kWhole;
    if (h % every == 0) pass = TrimPass::kBelowBound;
  }
  return pass;
}

namespace {

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

Status FeedImpl::Deliver(const std::vector<std::string>& users,
                         const std::vector<std::string>& entries) {
  if (users.empty() || entries.empty()) return Status::OK();
  BASALT_RETURN_IF_ERROR(inbox_->Batch(InboxPuts(users, entries)).status());
  return TrimDelivered(users, entries);
}

Result<bool> FeedImpl::DeliverJobPage(const std::vector<std::string>& users,
                                      const std::vector<std::string>& entries,
                                      const std::string& job_row, const std::string& lease,
                                      const JobAdvance& next) {
  MultiRowMutation m;
  m.IfEquals(posts_->name(), job_row, std::string(fl::kJobFamily), "l", lease);
  if (!entries.empty()) {
    for (Mutation& put : InboxPuts(users, entries)) m.Add(inbox_->name(), std::move(put));
  }
  std::visit([&](auto&& action) { m.Add(posts_->name(), std::move(action)); },
             JobAdvanceAction(job_row, next));
  // NotSupported is answered locally, without a call to the store.
  Result<bool> applied = conn_.MutateRows(m);
  if (applied.status().IsNotSupported()) {
    rows_atomic_ = false;
    BASALT_RETURN_IF_ERROR(Deliver(users, entries));
    return AdvanceJob(job_row, lease, next);
  }
  if (!applied.ok() || !*applied || users.empty() || entries.empty()) return applied;
  BASALT_RETURN_IF_ERROR(TrimDelivered(users, entries));
  return true;
}

CheckAndMutate::Action FeedImpl::JobAdvanceAction(const std::string& job_row,
                                                  const JobAdvance& next) {
  const std::string job_family(fl::kJobFamily);
  // The job family only: a row delete writes a marker into every family of the table.
  if (next.end) return basalt::Delete(job_row).AddFamily(job_family);
  return basalt::Put(job_row).Add(job_family, "c", next.cursor).Add(job_family, "l", next.lease);
}

Result<bool> FeedImpl::AdvanceJob(const std::string& job_row, const std::string& lease,
                                  const JobAdvance& next) {
  return posts_->CheckAndMutate(CheckAndMutate(job_row)
                                    .IfEquals(std::string(fl::kJobFamily), "l", lease)
                                    .Then(JobAdvanceAction(job_row, next)));
}

Status FeedImpl::TrimDelivered(const std::vector<std::string>& users,
                               const std::vector<std::string>& entries) {
  // Trim the inboxes whose turn it is (FeedOptions::inbox_trim_every).
  std::vector<DueTrim> due;
  for (const auto& u : users) {
    const TrimPass pass = TrimDue(u, entries);
    if (pass != TrimPass::kNone) due.push_back({u, pass, &entries});
  }
  return Trim(due);
}

Status FeedImpl::Trim(const std::vector<DueTrim>& due) {
  // The columns after the first inbox_cap (the oldest entries) are removed.
  if (due.empty()) return Status::OK();
  // The reader rows before the inboxes: MarkDirtyIfRebuilt compares against them, and the
  // bounds say where a kBelowBound read stops.
  std::vector<basalt::Get> reader_gets;
  for (const auto& d : due) reader_gets.push_back(ReaderGet(d.user));
  BASALT_ASSIGN_OR_RETURN(auto readers, inbox_->Get(reader_gets));
  std::vector<basalt::Get> gets;
  std::vector<std::string> bounds;  // empty: the read is not bounded
  for (size_t i = 0; i < due.size(); ++i) {
    basalt::Get get =
        basalt::Get(fl::InboxRow(due[i].user)).AddFamily(std::string(fl::kInboxFamily));
    get.SetRowOffsetPerColumnFamily(options_.inbox_cap);
    auto bound = readers[i].Value(fl::kInboxFamily, fl::kBound);
    // Entries have empty values: no KeyOnlyFilter, whose cells the engine would build only to
    // skip the first inbox_cap of them.
    if (due[i].pass == TrimPass::kBelowBound && bound && !bound->empty() &&
        *bound != fl::kNoBound) {
      // The read ends at the bound: a ColumnRangeFilter without a minimum is a ceiling the
      // engine stops walking the row at (filter_state.h).
      bounds.emplace_back(*bound);
      get.SetFilter(std::make_shared<ColumnRangeFilter>("", false, bounds.back(), false));
    } else {
      bounds.emplace_back();
    }
    gets.push_back(std::move(get));
  }
  BASALT_ASSIGN_OR_RETURN(auto rows, inbox_->Get(gets));
  std::vector<Mutation> trims;
  std::vector<std::string> trimmed;
  std::vector<RowResult> trimmed_readers;
  for (size_t i = 0; i < rows.size(); ++i) {
    basalt::Delete del(fl::InboxRow(due[i].user));
    // Entries just delivered at or past the bound, which the bounded read does not see.
    if (!bounds[i].empty()) {
      for (const std::string& e : *due[i].delivered) {
        if (e >= bounds[i]) del.AddColumns(std::string(fl::kInboxFamily), e);
      }
    }
    if (!rows[i].empty()) {
      // The bound moves up to the newest entry removed before it goes, so that the inbox never
      // claims an entry it lost: past the bound, home timelines read the followees' timelines.
      std::string first = rows[i].cells().front().qualifier;
      for (const Cell& c : rows[i].cells()) {
        first = std::min(first, c.qualifier);
        del.AddColumns(std::string(fl::kInboxFamily), c.qualifier);
      }
      BASALT_RETURN_IF_ERROR(NarrowBound(due[i].user, first, &readers[i]));
    }
    if (del.entries().empty()) continue;  // (an empty Delete removes the whole row)
    trims.emplace_back(std::move(del));
    trimmed.push_back(due[i].user);
    trimmed_readers.push_back(std::move(readers[i]));
  }
  if (trims.empty()) return Status::OK();
  BASALT_RETURN_IF_ERROR(inbox_->Batch(trims).status());
  return MarkDirtyIfRebuilt(trimmed, trimmed_readers);
}

Result<std::vector<std::string>> FeedImpl::ActiveReaders(const std::vector<std::string>& users,
                                                         int64_t* skipped) {
  if (options_.inactive_after_ms <= 0 || users.empty()) return users;
  const int64_t now = SystemWallMillis();
  // Fan-out pages meet the same readers again and again: read only those not known active.
  std::vector<bool> known(users.size(), false);
  std::vector<basalt::Get> gets;
  {
    std::lock_guard<std::mutex> lock(active_mu_);
    for (size_t i = 0; i < users.size(); ++i) {
      auto it = active_until_.find(users[i]);
      known[i] = it != active_until_.end() && now <= it->second;
      if (!known[i]) {
        gets.push_back(basalt::Get(fl::ReaderRow(users[i]))
                           .AddColumn(std::string(fl::kInboxFamily), std::string(fl::kLastRead)));
      }
    }
  }
  if (gets.empty()) return users;
  BASALT_ASSIGN_OR_RETURN(auto rows, inbox_->Get(gets));
  std::vector<std::string> active;
  std::lock_guard<std::mutex> lock(active_mu_);
  constexpr size_t kMostCopies = 65536;
  if (active_until_.size() + rows.size() > kMostCopies) active_until_.clear();  // a bound
  for (size_t i = 0, read = 0; i < users.size(); ++i) {
    if (!known[i]) {
      // No last read (a reader from before activity was tracked) counts as one now: if one is
      // written later, it is later than now.
      auto r = rows[read++].Value(fl::kInboxFamily, fl::kLastRead);
      const int64_t last = r && r->size() == 8 ? LongFromBytes(*r) : now;
      const int64_t until = last > INT64_MAX - options_.inactive_after_ms
                                ? INT64_MAX
                                : last + options_.inactive_after_ms;
      if (until < now) {
        ++*skipped;
        continue;
      }
      active_until_.insert_or_assign(users[i], until);
    }
    active.push_back(users[i]);
  }
  return active;
}

Status FeedImpl::Retract(const std::vector<std::string>& users, const std::string& entry) {
  if (users.empty()) return Status::OK();
  std::vector<Mutation> dels;
  for (const auto& u : users) {
    dels.emplace_back(
        basalt::Delete(fl::InboxRow(u)).AddColumns(std::string(fl::kInboxFamily), entry));
  }
  return inbox_->Batch(dels).status();
}

Status FeedImpl::Follow(std::string_view follower, std::string_view followed) {
  BASALT_RETURN_IF_ERROR(graph_.Follow(follower, followed));
  const std::string family(fl::kInboxFamily);
  if (options_.inactive_after_ms > 0) {
    // A reader who never read is active from their first follow on (FeedOptions).
    const std::string row = fl::ReaderRow(follower);
    BASALT_RETURN_IF_ERROR(
        inbox_
            ->CheckAndMutate(CheckAndMutate(row)
                                 .IfNotExists(family, std::string(fl::kLastRead))
                                 .Then(basalt::Put(row).Add(family, std::string(fl::kLastRead),
                                                            LongBytes(SystemWallMillis()))))
            .status());
  }
  BASALT_ASSIGN_OR_RETURN(bool high, IsHighFollowerAuthor(followed));
  if (high) return Status::OK();
  // Read after the graph write: a rebuild that missed this follow started before it, so it is
  // running now (or done, and the bound moved below comes after its).
  BASALT_ASSIGN_OR_RETURN(RowResult reader, inbox_->Get(ReaderGet(follower)));
  Scan scan = Scan()
                  .SetRowPrefix(fl::AuthorPostsPrefix(followed))
                  .AddColumn(std::string(fl::kPostFamily), "t")
                  .SetFilter(std::make_shared<KeyOnlyFilter>())
                  .SetLimit(options_.backfill_posts + 1);
  BASALT_ASSIGN_OR_RETURN(auto scanner, posts_->GetScanner(scan));
  std::vector<std::string> entries;
  RowResult row;
  while (scanner->Next(&row)) {
    std::string_view post_id = std::string_view(row.row()).substr(1);
    BASALT_ASSIGN_OR_RETURN(fl::PostId id, fl::DecodePostId(post_id));
    entries.push_back(fl::TimelineKey(post_id, id.timestamp_ms));
  }
  BASALT_RETURN_IF_ERROR(scanner->status());
  std::string beyond;  // the followed user's newest post not copied, if any
  if (entries.size() > static_cast<size_t>(options_.backfill_posts)) {
    beyond = std::move(entries.back());
    entries.pop_back();
  }
  BASALT_RETURN_IF_ERROR(Deliver({std::string(follower)}, entries));
  if (beyond.empty()) return Status::OK();
  // The inbox lacks the followed user's older posts: it holds everything only before this one.
  BASALT_RETURN_IF_ERROR(NarrowBound(follower, beyond, &reader));
  return MarkDirtyIfRebuilt({std::string(follower)}, {reader});
}

Status FeedImpl::Unfollow(std::string_view follower, std::string_view followed) {
  if (follower.empty() || followed.empty() || follower == followed) {
    return graph_.Unfollow(follower, followed);  // InvalidArgument, before anything is written
  }
  // Marked before the edge goes: a fan-out page that read the followers before this may still
  // deliver after the clean-up below, so from now on the follower's home reads check the
  // authors of their inbox entries against the graph (HomeTimeline).
  BASALT_RETURN_IF_ERROR(
      inbox_->Put(basalt::Put(fl::ReaderRow(follower))
                      .Add(std::string(fl::kInboxFamily), std::string(fl::kUnfollowed),
                           LongBytes(SystemWallMillis()))));
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

Result<int64_t> FeedImpl::PendingJobs() {
  BASALT_ASSIGN_OR_RETURN(Backlog backlog, FanoutBacklog());
  return backlog.jobs;
}

Result<Feed::Backlog> FeedImpl::FanoutBacklog() {
  Backlog backlog;
  Scan scan = Scan()
                  .SetRowPrefix(fl::JobRowsPrefix())
                  .AddFamily(std::string(fl::kJobFamily))
                  .SetFilter(std::make_shared<KeyOnlyFilter>());
  BASALT_ASSIGN_OR_RETURN(auto scanner, posts_->GetScanner(scan));
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
