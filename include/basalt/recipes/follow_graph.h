// FollowGraph: who follows whom (seed notes 003 and 004), on the public table API only, so it
// runs unchanged on every backend.
//
// Layouts (chosen when the graph is opened; both give the same answers):
//   kTall  as the `follow-graph` workload recommends: table <prefix>_follows with row
//   hash(follower) + hash(followed)
//          (8 bytes of MD5 each, fixed length; the followed user's name is in the cell), and the
//          reverse in <prefix>_followers; a check is one Get, an unfollow one conditional Delete;
//          lists are prefix scans paged with ReadPage. Lists come in hash order.
//   kWide  one row per user in <prefix>_users with families "follows" and "fans" (qualifier =
//          the other user), as that workload's first design. Lists come in name order.
// Exact following/follower counts are kept as counters beside the edges (docs/recipes.md has the
// bytes). The meta row "\0meta" of <prefix>_follows (tall; family "c") or <prefix>_users (wide;
// family "counts") holds qualifier "v" = the layouts' format version, decimal ("1"); Open refuses
// (FailedPrecondition) tables of a version it does not read. (Tall edge and counter rows are 16
// and 8 bytes, so the meta row is never one; in the wide layout a user of that name would only
// share the row, since "v" is no counter's qualifier.)
//
// Follow and unfollow are idempotent; self-follows and empty names are rejected with
// InvalidArgument, unknown users (when a user check is configured) with NotFound.
//
// Writes and counts: the follower's side is the record. On a backend with atomic multi-row
// writes (Connection::MutateRows: the embedded store), a Follow of a new edge is one call that,
// only while both edge cells are absent, writes both and adds 1 to both counters, atomically;
// an Unfollow of an edge whose two sides agree is the mirror call. Anything else (the edge
// already there or already gone, an edge half-written by a single-row call, or a backend
// without MutateRows, such as thrift://) goes the single-row way: the record is written first by
// Follow and deleted first by Unfollow, each with CheckAndMutate on the edge, and a counter moves
// only when that CheckAndMutate changed the edge; the reverse edge is then made to match the
// record the same way. Either way each counter is the number of edge cells on its side and both
// sides agree however calls race, on one backend or several sharing a store (two Follows of one
// edge count once; a Follow racing an Unfollow leaves both sides agreeing with the record). On
// the single-row way, a call that fails half-way (a backend error between the writes, a crash)
// leaves the reverse side or a count behind the record: the call returns the error, and
// Repair() brings them in line (repeating the Follow or Unfollow also fixes the reverse edge, not
// a lost count). The atomic call leaves nothing half-way.
//
// Thread safety: all methods may be called concurrently; counts stay exact.

#ifndef BASALT_RECIPES_FOLLOW_GRAPH_H_
#define BASALT_RECIPES_FOLLOW_GRAPH_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "basalt/connection.h"
#include "basalt/recipes/users.h"  // UserPage
#include "basalt/schema.h"
#include "basalt/status.h"

namespace basalt::recipes {

struct FollowGraphOptions {
  enum class Layout : uint8_t { kTall, kWide };
  Layout layout = Layout::kTall;
  // Tables are "<table_prefix>_..." in `name_space`; created on Open when missing.
  std::string name_space = "default";
  std::string table_prefix = "follow";
  // When set, Follow rejects users for which it returns false (NotFound).
  std::function<Result<bool>(std::string_view user)> user_exists;
  // kTall only: when > 1, both tables (keyed by MD5 hashes) are created pre-split into this
  // many regions at evenly spaced first bytes, as the `modelling` rules advise for clusters. Only
  // at creation: existing tables keep their regions. 0..256; InvalidArgument otherwise, and with
  // kWide (keyed by name, whose spread is unknown). Default: 0, one region (an embedded store
  // gains nothing from regions: each family is one RocksDB column family).
  int presplit_regions = 0;
  // Compression of every family of the graph's tables, given when Open creates them; existing
  // tables keep their own (Admin::ModifyFamily changes it). Default: LZ4 (docs/recipes.md).
  Compression compression = Compression::kLz4;
};

class FollowGraph {
 public:
  // Opens (creating the tables if needed) a graph on `conn`, which must outlive it.
  static Result<std::unique_ptr<FollowGraph>> Open(Connection& conn,
                                                   FollowGraphOptions options = {});
  virtual ~FollowGraph() = default;

  // Idempotent: following twice is one edge.
  virtual Status Follow(std::string_view follower, std::string_view followed) = 0;
  // Follows every (follower, followed) pair of `edges`, for imports. All pairs are checked first
  // (names, self-follows, user_exists): an invalid one fails the call before anything is
  // written. A pair given twice, or already followed, is one edge and counts once; each user's
  // counters move once per call, by the number of its new edges. With MutateRows (embedded) the
  // new edges and the counters are written in one atomic call, conditioned on each new edge being
  // absent on both sides (when one is not, a multi-Get per side finds which edges are new and the
  // call is tried again, at most 4 rounds in all, then edge by edge; edges found half-written go
  // the single-row way afterwards). That call holds every row it writes locked while it writes:
  // pass bounded batches (thousands of edges, not millions). Without MutateRows (thrift://) it is
  // Follow of each distinct pair in order, and an error stops it with the earlier pairs applied.
  virtual Status FollowMany(const std::vector<std::pair<std::string, std::string>>& edges) = 0;
  // Idempotent: unfollowing a non-edge changes nothing.
  virtual Status Unfollow(std::string_view follower, std::string_view followed) = 0;
  virtual Result<bool> IsFollowing(std::string_view follower, std::string_view followed) = 0;
  // IsFollowing of `follower` and each user of `followed`, in order, in one multi-Get (one call
  // on every backend). InvalidArgument, before anything is read, for a pair IsFollowing refuses.
  virtual Result<std::vector<bool>> IsFollowingEach(std::string_view follower,
                                                    const std::vector<std::string>& followed) = 0;

  // Users that `user` follows / that follow `user`, in a stable order, `page_size` at a time.
  virtual Result<UserPage> Following(std::string_view user, int32_t page_size,
                                     std::string_view cursor = {}) = 0;
  virtual Result<UserPage> Followers(std::string_view user, int32_t page_size,
                                     std::string_view cursor = {}) = 0;

  virtual Result<int64_t> FollowingCount(std::string_view user) = 0;
  virtual Result<int64_t> FollowerCount(std::string_view user) = 0;

  // Brings `user`'s edges in line with the record: a reverse edge (in the followed user's list
  // of followers) is added for each of user's follows, and each of user's followers whose
  // follow is gone is removed; the counts of `user` are recomputed from the lists, and the count
  // of each user whose reverse edge it fixed moves with it. Returns the reverse edges it fixed.
  // A reverse edge is keyed by the followed user, so after a failed Follow or Unfollow(a, b),
  // Repair(a) and Repair(b) together restore consistency (Repair(a) alone fixes a failed Follow,
  // Repair(b) alone a failed Unfollow). Counts are exact when no Follow or Unfollow of `user`
  // runs concurrently with the Repair.
  virtual Result<int64_t> Repair(std::string_view user) = 0;
};

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_FOLLOW_GRAPH_H_
