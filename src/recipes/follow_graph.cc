// FollowGraph on the public table API. One engine (GraphImpl) drives both layouts through a
// small Layout interface that says where an edge cell and a counter cell live.
//
// Invariant: each counter is the number of edge cells on its side, and the reverse side agrees
// with the record (the follower's side) once no call is in flight. Two kinds of write keep it:
//
//  - The atomic way (a backend with Connection::MutateRows): one call moves an edge whose two
//    sides agree, both cells and both counters together, conditioned on both cells being in the
//    expected state. It never creates a disagreement, so it never needs a repair.
//  - The single-row way (any backend; and whenever the atomic call's condition fails, since the
//    edge is then already there, already gone, or half-written by a call of this kind): every
//    change of an edge cell goes through CheckAndMutate (put if absent, delete if present), and a
//    counter moves only when that CheckAndMutate changed the cell. So two Follows of one edge
//    create one cell and count once. The reverse side is then made to match the record by
//    SyncReverse, which re-reads the record after writing and goes round again when a
//    concurrent call changed it meanwhile; a Follow racing an Unfollow therefore leaves both
//    sides agreeing with whichever won the record.
//
// While a single-row call has the two sides disagreeing, an atomic call's conditions fail on
// that edge and it takes the single-row way too, so the two kinds mix safely (thrift:// clients
// and the embedded store's own users share one store).

#include "basalt/recipes/follow_graph.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <optional>
#include <utility>

#include "basalt/key_spread.h"
#include "basalt/keys.h"
#include "basalt/paging.h"
#include "recipes/recipe_format.h"
#include "recipes/table_setup.h"

namespace basalt::recipes {
namespace {

// The version of the layouts in follow_graph.h, in the meta row of the _follows table (tall) or
// the _users table (wide) (recipe_format.h); bump it with any change of either. Never reuse a
// number.
constexpr int kFollowGraphFormatVersion = 1;
constexpr int kOldestReadableFollowGraphFormatVersion = 1;

// Bytes of MD5 per user in tall keys (the `follow-graph` workload hashes each user to a fixed
// width).
constexpr size_t kUserHashBytes = 8;
// Rounds SyncReverse tries before giving up on an edge that keeps changing under it.
constexpr int kMaxSyncRounds = 16;
// Page size used internally when Repair walks a list.
constexpr int32_t kRepairPageSize = 256;
// Rounds FollowMany's atomic call is tried before the remaining edges go one by one: the first
// assumes every edge is new, each later one reads which are and fails only when a concurrent
// call changed one of them meanwhile.
constexpr int kMaxFollowManyRounds = 4;

enum class Side : uint8_t {
  kFollowing,  // the record: edges follower -> followed, kept under the follower
  kFollowers,  // the reverse: edges kept under the followed user
};

// Where a cell lives.
struct CellAddress {
  std::string row;
  std::string family;
  std::string qualifier;
};

// The cells of one edge: the record, the reverse edge, and the two counters that count them.
struct EdgeCells {
  CellAddress record;
  CellAddress reverse;
  CellAddress following_counter;  // the follower's
  CellAddress follower_counter;   // the followed user's
};

class Layout {
 public:
  virtual ~Layout() = default;
  virtual Table& table(Side side) = 0;
  // The edge cell of `owner`'s list on `side` that names `other`; its value is `other`.
  virtual Result<CellAddress> Edge(Side side, std::string_view owner, std::string_view other) = 0;
  // The counter of `owner`'s list on `side`.
  virtual Result<CellAddress> Counter(Side side, std::string_view owner) = 0;
  virtual Result<UserPage> List(Side side, std::string_view owner, int32_t page_size,
                                std::string_view cursor) = 0;

  // All four cells of the edge follower -> followed.
  virtual Result<EdgeCells> Cells(std::string_view follower, std::string_view followed) {
    EdgeCells cells;
    BASALT_ASSIGN_OR_RETURN(cells.record, Edge(Side::kFollowing, follower, followed));
    BASALT_ASSIGN_OR_RETURN(cells.reverse, Edge(Side::kFollowers, followed, follower));
    BASALT_ASSIGN_OR_RETURN(cells.following_counter, Counter(Side::kFollowing, follower));
    BASALT_ASSIGN_OR_RETURN(cells.follower_counter, Counter(Side::kFollowers, followed));
    return cells;
  }
};

Result<std::string> UserHash(std::string_view user) {
  return HashPrefix(user, kUserHashBytes, HashKind::kMd5);
}

// Tall: row MD5(owner)[0..8) + MD5(other)[0..8), family "f", qualifier "u" = other's name;
// counter row MD5(owner)[0..8), family "c", qualifier "n". One table per side.
class TallLayout : public Layout {
 public:
  TallLayout(std::unique_ptr<Table> following, std::unique_ptr<Table> followers)
      : following_(std::move(following)), followers_(std::move(followers)) {}

  Table& table(Side side) override { return side == Side::kFollowing ? *following_ : *followers_; }

  Result<CellAddress> Edge(Side, std::string_view owner, std::string_view other) override {
    BASALT_ASSIGN_OR_RETURN(std::string owner_hash, UserHash(owner));
    BASALT_ASSIGN_OR_RETURN(std::string other_hash, UserHash(other));
    return CellAddress{KeyBuilder().AddFixedBytes(owner_hash).AddFixedBytes(other_hash).Build(),
                       kEdgeFamily, kEdgeQualifier};
  }

  Result<CellAddress> Counter(Side, std::string_view owner) override {
    BASALT_ASSIGN_OR_RETURN(std::string owner_hash, UserHash(owner));
    return CellAddress{KeyBuilder().AddFixedBytes(owner_hash).Build(), kCounterFamily,
                       kCounterQualifier};
  }

  // Each user hashed once, not once per cell (three times): MD5 was 5 % of an atomic Follow.
  Result<EdgeCells> Cells(std::string_view follower, std::string_view followed) override {
    BASALT_ASSIGN_OR_RETURN(std::string a, UserHash(follower));
    BASALT_ASSIGN_OR_RETURN(std::string b, UserHash(followed));
    auto cell = [](std::string row, const char* family, const char* qualifier) {
      return CellAddress{std::move(row), family, qualifier};
    };
    return EdgeCells{
        cell(KeyBuilder().AddFixedBytes(a).AddFixedBytes(b).Build(), kEdgeFamily, kEdgeQualifier),
        cell(KeyBuilder().AddFixedBytes(b).AddFixedBytes(a).Build(), kEdgeFamily, kEdgeQualifier),
        cell(KeyBuilder().AddFixedBytes(a).Build(), kCounterFamily, kCounterQualifier),
        cell(KeyBuilder().AddFixedBytes(b).Build(), kCounterFamily, kCounterQualifier)};
  }

  Result<UserPage> List(Side side, std::string_view owner, int32_t page_size,
                        std::string_view cursor) override {
    BASALT_ASSIGN_OR_RETURN(std::string owner_hash, UserHash(owner));
    // The counter row is the bare prefix; it has no cell in the edge family, so the scan skips
    // it. The edge family holds the one column "u": reading the family whole, not naming the
    // column, lets the scanner take each edge row from its only key.
    Scan scan;
    scan.SetRowPrefix(KeyBuilder().AddFixedBytes(owner_hash).Build()).AddFamily(kEdgeFamily);
    BASALT_ASSIGN_OR_RETURN(Page page, ReadPage(table(side), scan, page_size, cursor));
    UserPage out;
    for (const RowResult& row : page.rows) {
      auto name = row.Value(kEdgeFamily, kEdgeQualifier);
      if (name.has_value()) out.users.emplace_back(*name);
    }
    out.cursor = std::move(page.cursor);
    return out;
  }

  static constexpr const char* kEdgeFamily = "f";
  static constexpr const char* kEdgeQualifier = "u";
  static constexpr const char* kCounterFamily = "c";
  static constexpr const char* kCounterQualifier = "n";

 private:
  std::unique_ptr<Table> following_;
  std::unique_ptr<Table> followers_;
};

// Wide: one row per user (the user's name), families "follows" and "fans" with qualifier = value
// = the other user's name, and family "counts" with qualifiers "following" and "followers".
class WideLayout : public Layout {
 public:
  explicit WideLayout(std::unique_ptr<Table> users) : users_(std::move(users)) {}

  Table& table(Side) override { return *users_; }

  Result<CellAddress> Edge(Side side, std::string_view owner, std::string_view other) override {
    return CellAddress{std::string(owner), Family(side), std::string(other)};
  }

  Result<CellAddress> Counter(Side side, std::string_view owner) override {
    return CellAddress{std::string(owner), kCountsFamily,
                       side == Side::kFollowing ? "following" : "followers"};
  }

  Result<UserPage> List(Side side, std::string_view owner, int32_t page_size,
                        std::string_view cursor) override {
    Get get{std::string(owner)};
    get.AddFamily(Family(side));
    BASALT_ASSIGN_OR_RETURN(ColumnPage page, ReadColumnPage(*users_, get, page_size, cursor));
    UserPage out;
    for (const Cell& cell : page.row.cells()) out.users.push_back(cell.qualifier);
    out.cursor = std::move(page.cursor);
    return out;
  }

  static constexpr const char* kFollowsFamily = "follows";
  static constexpr const char* kFansFamily = "fans";
  static constexpr const char* kCountsFamily = "counts";

 private:
  static std::string Family(Side side) {
    return side == Side::kFollowing ? kFollowsFamily : kFansFamily;
  }

  std::unique_ptr<Table> users_;
};

Result<bool> CellExists(Table& table, const CellAddress& cell) {
  Get get(cell.row);
  get.AddColumn(cell.family, cell.qualifier);
  return table.Exists(get);
}

// Makes the cell present (with `value`) or absent; true when this call changed it.
Result<bool> SetEdgeCell(Table& table, const CellAddress& cell, bool present,
                         const std::string& value) {
  CheckAndMutate cam(cell.row);
  if (present) {
    cam.IfNotExists(cell.family, cell.qualifier)
        .Then(Put(cell.row).Add(cell.family, cell.qualifier, value));
  } else {
    // kNotEqual with no expected value: passes when the cell holds a non-empty value, which
    // every edge cell does (it names a user).
    cam.IfMatches(cell.family, cell.qualifier, CompareOp::kNotEqual, std::nullopt)
        .Then(Delete(cell.row).AddColumns(cell.family, cell.qualifier));
  }
  return table.CheckAndMutate(cam);
}

Status AddToCounter(Table& table, const CellAddress& cell, int64_t delta) {
  Increment inc(cell.row);
  inc.AddColumn(cell.family, cell.qualifier, delta).SetReturnResults(false);
  return table.Increment(inc).status();
}

Result<int64_t> ReadCounter(Table& table, const CellAddress& cell) {
  Get get(cell.row);
  get.AddColumn(cell.family, cell.qualifier);
  BASALT_ASSIGN_OR_RETURN(RowResult row, table.Get(get));
  auto value = row.Value(cell.family, cell.qualifier);
  if (!value.has_value()) return int64_t{0};
  return DecodeCounter(*value);
}

Status CheckUserName(std::string_view user) {
  if (user.empty()) return Status::InvalidArgument("user name is empty");
  return Status::OK();
}

class GraphImpl : public FollowGraph {
 public:
  GraphImpl(Connection& conn, std::unique_ptr<Layout> layout, FollowGraphOptions options)
      : conn_(conn),
        layout_(std::move(layout)),
        options_(std::move(options)),
        record_table_(layout_->table(Side::kFollowing).name()),
        reverse_table_(layout_->table(Side::kFollowers).name()) {}

  Status Follow(std::string_view follower, std::string_view followed) override {
    BASALT_RETURN_IF_ERROR(CheckPair(follower, followed));
    BASALT_RETURN_IF_ERROR(CheckExists(follower));
    BASALT_RETURN_IF_ERROR(CheckExists(followed));
    return SetEdge(follower, followed, /*present=*/true);
  }

  Status FollowMany(const std::vector<std::pair<std::string, std::string>>& edges) override {
    for (const auto& [follower, followed] : edges) {
      BASALT_RETURN_IF_ERROR(CheckPair(follower, followed));
    }
    // Distinct pairs, and each user checked once.
    std::vector<std::pair<std::string_view, std::string_view>> distinct(edges.begin(), edges.end());
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    if (options_.user_exists) {
      std::vector<std::string_view> users;
      users.reserve(distinct.size() * 2);
      for (const auto& [follower, followed] : distinct) {
        users.push_back(follower);
        users.push_back(followed);
      }
      std::sort(users.begin(), users.end());
      users.erase(std::unique(users.begin(), users.end()), users.end());
      for (std::string_view user : users) BASALT_RETURN_IF_ERROR(CheckExists(user));
    }
    if (distinct.empty()) return Status::OK();
    BASALT_ASSIGN_OR_RETURN(distinct, FollowManyAtomically(std::move(distinct)));
    // What is left: everything without MutateRows; with it, the edges found half-written.
    for (const auto& [follower, followed] : distinct) {
      BASALT_RETURN_IF_ERROR(SetEdge(follower, followed, /*present=*/true));
    }
    return Status::OK();
  }

  Status Unfollow(std::string_view follower, std::string_view followed) override {
    BASALT_RETURN_IF_ERROR(CheckPair(follower, followed));
    return SetEdge(follower, followed, /*present=*/false);
  }

  Result<bool> IsFollowing(std::string_view follower, std::string_view followed) override {
    BASALT_RETURN_IF_ERROR(CheckPair(follower, followed));
    BASALT_ASSIGN_OR_RETURN(CellAddress edge, layout_->Edge(Side::kFollowing, follower, followed));
    Get get(edge.row);
    get.AddColumn(edge.family, edge.qualifier);
    BASALT_ASSIGN_OR_RETURN(RowResult row, layout_->table(Side::kFollowing).Get(get));
    auto name = row.Value(edge.family, edge.qualifier);
    return name.has_value() && *name == followed;
  }

  Result<std::vector<bool>> IsFollowingEach(std::string_view follower,
                                            const std::vector<std::string>& followed) override {
    std::vector<Get> gets;
    std::vector<CellAddress> edges;
    gets.reserve(followed.size());
    edges.reserve(followed.size());
    for (const std::string& other : followed) {
      BASALT_RETURN_IF_ERROR(CheckPair(follower, other));
      BASALT_ASSIGN_OR_RETURN(CellAddress edge, layout_->Edge(Side::kFollowing, follower, other));
      gets.push_back(Get(edge.row).AddColumn(edge.family, edge.qualifier));
      edges.push_back(std::move(edge));
    }
    std::vector<bool> out(followed.size(), false);
    if (gets.empty()) return out;
    BASALT_ASSIGN_OR_RETURN(auto rows, layout_->table(Side::kFollowing).Get(gets));
    for (size_t i = 0; i < rows.size(); ++i) {
      auto name = rows[i].Value(edges[i].family, edges[i].qualifier);
      out[i] = name.has_value() && *name == followed[i];
    }
    return out;
  }

  Result<UserPage> Following(std::string_view user, int32_t page_size,
                             std::string_view cursor) override {
    BASALT_RETURN_IF_ERROR(CheckUserName(user));
    return layout_->List(Side::kFollowing, user, page_size, cursor);
  }

  Result<UserPage> Followers(std::string_view user, int32_t page_size,
                             std::string_view cursor) override {
    BASALT_RETURN_IF_ERROR(CheckUserName(user));
    return layout_->List(Side::kFollowers, user, page_size, cursor);
  }

  Result<int64_t> FollowingCount(std::string_view user) override {
    return Count(Side::kFollowing, user);
  }

  Result<int64_t> FollowerCount(std::string_view user) override {
    return Count(Side::kFollowers, user);
  }

  Result<int64_t> Repair(std::string_view user) override {
    BASALT_RETURN_IF_ERROR(CheckUserName(user));
    int64_t fixed = 0;
    BASALT_ASSIGN_OR_RETURN(std::vector<std::string> following, ListAll(Side::kFollowing, user));
    for (const std::string& followed : following) {
      BASALT_ASSIGN_OR_RETURN(bool changed, SyncReverse(user, followed));
      if (changed) ++fixed;
    }
    BASALT_ASSIGN_OR_RETURN(std::vector<std::string> followers, ListAll(Side::kFollowers, user));
    for (const std::string& follower : followers) {
      BASALT_ASSIGN_OR_RETURN(bool changed, SyncReverse(follower, user));
      if (changed) ++fixed;
    }
    BASALT_ASSIGN_OR_RETURN(following, ListAll(Side::kFollowing, user));
    BASALT_ASSIGN_OR_RETURN(followers, ListAll(Side::kFollowers, user));
    BASALT_RETURN_IF_ERROR(ResetCounter(Side::kFollowing, user, following.size()));
    BASALT_RETURN_IF_ERROR(ResetCounter(Side::kFollowers, user, followers.size()));
    return fixed;
  }

 private:
  Status CheckPair(std::string_view follower, std::string_view followed) {
    BASALT_RETURN_IF_ERROR(CheckUserName(follower));
    BASALT_RETURN_IF_ERROR(CheckUserName(followed));
    if (follower == followed) return Status::InvalidArgument("a user cannot follow themself");
    return Status::OK();
  }

  Status CheckExists(std::string_view user) {
    if (!options_.user_exists) return Status::OK();
    BASALT_ASSIGN_OR_RETURN(bool exists, options_.user_exists(user));
    if (!exists) return Status::NotFound("no user '" + std::string(user) + "'");
    return Status::OK();
  }

  // Makes the edge follower -> followed present or absent on both sides, atomically when the
  // backend can and the two sides agree, the single-row way otherwise.
  Status SetEdge(std::string_view follower, std::string_view followed, bool present) {
    BASALT_ASSIGN_OR_RETURN(bool moved, MoveEdgeAtomically(follower, followed, present));
    if (moved) return Status::OK();
    BASALT_RETURN_IF_ERROR(SetRecord(follower, followed, present));
    return SyncReverse(follower, followed).status();
  }

  // Adds to `m` the conditions that both cells of the edge are absent (present: both hold) and
  // the writes that flip them.
  void AddEdgeFlip(MultiRowMutation* m, const EdgeCells& cells, std::string_view follower,
                   std::string_view followed, bool present) {
    const CellAddress& rec = cells.record;
    const CellAddress& rev = cells.reverse;
    if (present) {
      // An "absent" check passes on an empty cell too; edge cells are never empty (they name a
      // user).
      m->IfNotExists(record_table_, rec.row, rec.family, rec.qualifier)
          .IfNotExists(reverse_table_, rev.row, rev.family, rev.qualifier)
          .Add(record_table_, Put(rec.row).Add(rec.family, rec.qualifier, followed))
          .Add(reverse_table_, Put(rev.row).Add(rev.family, rev.qualifier, follower));
    } else {
      m->IfExists(record_table_, rec.row, rec.family, rec.qualifier)
          .IfExists(reverse_table_, rev.row, rev.family, rev.qualifier)
          .Add(record_table_, Delete(rec.row).AddColumns(rec.family, rec.qualifier))
          .Add(reverse_table_, Delete(rev.row).AddColumns(rev.family, rev.qualifier));
    }
  }

  static Increment CounterIncrement(const CellAddress& counter, int64_t delta) {
    Increment inc(counter.row);
    inc.AddColumn(counter.family, counter.qualifier, delta).SetReturnResults(false);
    return inc;
  }

  // Calls MutateRows; false when the backend has none (remembered, so it is asked once).
  Result<bool> MutateRows(const MultiRowMutation& m) {
    Result<bool> applied = conn_.MutateRows(m);
    if (applied.status().IsNotSupported()) {
      no_mutate_rows_.store(true, std::memory_order_relaxed);
      return false;
    }
    return applied;
  }

  // The atomic way: one MutateRows that flips the edge and moves both counters, if both sides
  // are in the state opposite to `present`. False when it did not apply (the edge was not in
  // that state, or the backend has no MutateRows); nothing was written then.
  Result<bool> MoveEdgeAtomically(std::string_view follower, std::string_view followed,
                                  bool present) {
    if (no_mutate_rows_.load(std::memory_order_relaxed)) return false;
    BASALT_ASSIGN_OR_RETURN(EdgeCells cells, layout_->Cells(follower, followed));
    const int64_t delta = present ? 1 : -1;
    MultiRowMutation m;
    AddEdgeFlip(&m, cells, follower, followed, present);
    m.Add(record_table_, CounterIncrement(cells.following_counter, delta))
        .Add(reverse_table_, CounterIncrement(cells.follower_counter, delta));
    return MutateRows(m);
  }

  // FollowMany's atomic way: writes the (distinct) edges missing on both sides, with each user's
  // counters moved once, in one MutateRows conditioned on those edges still being missing.
  // Returns the edges left for the single-row way: all of them without MutateRows, the
  // half-written ones with it, and all of them if every round lost a race.
  using EdgeList = std::vector<std::pair<std::string_view, std::string_view>>;
  Result<EdgeList> FollowManyAtomically(EdgeList edges) {
    if (no_mutate_rows_.load(std::memory_order_relaxed)) return edges;
    std::vector<EdgeCells> cells;
    cells.reserve(edges.size());
    for (const auto& [follower, followed] : edges) {
      BASALT_ASSIGN_OR_RETURN(EdgeCells c, layout_->Cells(follower, followed));
      cells.push_back(std::move(c));
    }
    // The first round assumes every edge is new (an import's usual case) and reads nothing: its
    // conditions say whether that holds. Later rounds read first.
    std::vector<bool> records(edges.size(), false), reverses(edges.size(), false);
    for (int round = 0; round < kMaxFollowManyRounds; ++round) {
      if (round > 0) {
        BASALT_ASSIGN_OR_RETURN(records, ExistAll(Side::kFollowing, cells, &EdgeCells::record));
        BASALT_ASSIGN_OR_RETURN(reverses, ExistAll(Side::kFollowers, cells, &EdgeCells::reverse));
      }
      MultiRowMutation m;
      EdgeList half_written;
      // Counter rows by cell, so each counter moves once per call.
      std::map<std::pair<std::string, std::string>, std::pair<const CellAddress*, int64_t>>
          following_deltas, follower_deltas;
      for (size_t i = 0; i < edges.size(); ++i) {
        if (records[i] && reverses[i]) continue;  // already followed
        if (records[i] || reverses[i]) {
          half_written.push_back(edges[i]);
          continue;
        }
        AddEdgeFlip(&m, cells[i], edges[i].first, edges[i].second, /*present=*/true);
        for (auto [deltas, counter] : {std::pair{&following_deltas, &cells[i].following_counter},
                                       std::pair{&follower_deltas, &cells[i].follower_counter}}) {
          auto& slot = (*deltas)[{counter->row, counter->qualifier}];
          slot.first = counter;
          ++slot.second;
        }
      }
      if (m.items().empty()) return half_written;
      for (const auto& [key, slot] : following_deltas) {
        m.Add(record_table_, CounterIncrement(*slot.first, slot.second));
      }
      for (const auto& [key, slot] : follower_deltas) {
        m.Add(reverse_table_, CounterIncrement(*slot.first, slot.second));
      }
      BASALT_ASSIGN_OR_RETURN(bool applied, MutateRows(m));
      if (applied) return half_written;
      if (no_mutate_rows_.load(std::memory_order_relaxed)) return edges;
      // An edge assumed missing exists (or a concurrent call changed one since the reads): read
      // again.
    }
    return edges;
  }

  // Whether each edge's cell `which` exists on `side`: one multi-Get.
  Result<std::vector<bool>> ExistAll(Side side, const std::vector<EdgeCells>& cells,
                                     CellAddress EdgeCells::*which) {
    std::vector<Get> gets;
    gets.reserve(cells.size());
    for (const EdgeCells& c : cells) {
      const CellAddress& cell = c.*which;
      gets.emplace_back(cell.row).AddColumn(cell.family, cell.qualifier);
    }
    BASALT_ASSIGN_OR_RETURN(std::vector<RowResult> rows, layout_->table(side).Get(gets));
    if (rows.size() != cells.size()) return Status::Internal("multi-Get returned a wrong count");
    std::vector<bool> exist(cells.size());
    for (size_t i = 0; i < cells.size(); ++i) {
      const CellAddress& cell = cells[i].*which;
      exist[i] = rows[i].Value(cell.family, cell.qualifier).has_value();
    }
    return exist;
  }

  // Writes the follower's side; moves the follower's counter when the edge changed.
  Status SetRecord(std::string_view follower, std::string_view followed, bool present) {
    BASALT_ASSIGN_OR_RETURN(CellAddress edge, layout_->Edge(Side::kFollowing, follower, followed));
    Table& table = layout_->table(Side::kFollowing);
    BASALT_ASSIGN_OR_RETURN(bool changed, SetEdgeCell(table, edge, present, std::string(followed)));
    if (!changed) return Status::OK();
    BASALT_ASSIGN_OR_RETURN(CellAddress counter, layout_->Counter(Side::kFollowing, follower));
    return AddToCounter(table, counter, present ? 1 : -1);
  }

  // Makes the reverse edge (in followed's followers) match the record; true when it changed.
  Result<bool> SyncReverse(std::string_view follower, std::string_view followed) {
    BASALT_ASSIGN_OR_RETURN(CellAddress record,
                            layout_->Edge(Side::kFollowing, follower, followed));
    BASALT_ASSIGN_OR_RETURN(CellAddress reverse,
                            layout_->Edge(Side::kFollowers, followed, follower));
    BASALT_ASSIGN_OR_RETURN(CellAddress counter, layout_->Counter(Side::kFollowers, followed));
    Table& record_table = layout_->table(Side::kFollowing);
    Table& reverse_table = layout_->table(Side::kFollowers);
    bool changed_any = false;
    BASALT_ASSIGN_OR_RETURN(bool present, CellExists(record_table, record));
    for (int round = 0; round < kMaxSyncRounds; ++round) {
      BASALT_ASSIGN_OR_RETURN(bool changed,
                              SetEdgeCell(reverse_table, reverse, present, std::string(follower)));
      if (!changed) return changed_any;
      changed_any = true;
      BASALT_RETURN_IF_ERROR(AddToCounter(reverse_table, counter, present ? 1 : -1));
      // A concurrent call may have flipped the record after we read it and synced the reverse
      // before our write landed: read the record again and go round if so.
      BASALT_ASSIGN_OR_RETURN(bool now, CellExists(record_table, record));
      if (now == present) return changed_any;
      present = now;
    }
    return Status::Busy("the edge " + std::string(follower) + " -> " + std::string(followed) +
                        " kept changing; Repair() brings its reverse side in line");
  }

  Result<int64_t> Count(Side side, std::string_view user) {
    BASALT_RETURN_IF_ERROR(CheckUserName(user));
    BASALT_ASSIGN_OR_RETURN(CellAddress counter, layout_->Counter(side, user));
    return ReadCounter(layout_->table(side), counter);
  }

  Result<std::vector<std::string>> ListAll(Side side, std::string_view user) {
    std::vector<std::string> all;
    std::string cursor;
    do {
      BASALT_ASSIGN_OR_RETURN(UserPage page, layout_->List(side, user, kRepairPageSize, cursor));
      for (std::string& name : page.users) all.push_back(std::move(name));
      cursor = std::move(page.cursor);
    } while (!cursor.empty());
    return all;
  }

  Status ResetCounter(Side side, std::string_view user, size_t value) {
    BASALT_ASSIGN_OR_RETURN(CellAddress counter, layout_->Counter(side, user));
    Table& table = layout_->table(side);
    BASALT_ASSIGN_OR_RETURN(int64_t current, ReadCounter(table, counter));
    if (current == static_cast<int64_t>(value)) return Status::OK();
    return table.Put(Put(counter.row).Add(counter.family, counter.qualifier, EncodeCounter(value)));
  }

  Connection& conn_;
  std::unique_ptr<Layout> layout_;
  FollowGraphOptions options_;
  const TableName record_table_;
  const TableName reverse_table_;
  // Set once MutateRows said NotSupported: every write then goes the single-row way.
  std::atomic<bool> no_mutate_rows_{false};
};

}  // namespace

Result<std::unique_ptr<FollowGraph>> FollowGraph::Open(Connection& conn,
                                                       FollowGraphOptions options) {
  if (options.table_prefix.empty()) {
    return Status::InvalidArgument("FollowGraphOptions::table_prefix is empty");
  }
  BASALT_ASSIGN_OR_RETURN(auto splits, EvenFirstByteSplits(options.presplit_regions, 256,
                                                           "FollowGraphOptions::presplit_regions"));
  if (!splits.empty() && options.layout != FollowGraphOptions::Layout::kTall) {
    return Status::InvalidArgument(
        "FollowGraphOptions::presplit_regions needs the tall layout (wide rows are keyed by "
        "name)");
  }
  Admin& admin = conn.admin();
  BASALT_RETURN_IF_ERROR(EnsureNamespace(admin, options.name_space));
  auto name = [&](const char* suffix) {
    return TableName(options.name_space, options.table_prefix + suffix);
  };
  std::unique_ptr<Layout> layout;
  if (options.layout == FollowGraphOptions::Layout::kTall) {
    const std::vector<std::string> families = {TallLayout::kEdgeFamily, TallLayout::kCounterFamily};
    BASALT_RETURN_IF_ERROR(
        EnsureTable(admin, name("_follows"), families, options.compression, splits));
    BASALT_RETURN_IF_ERROR(
        EnsureTable(admin, name("_followers"), families, options.compression, splits));
    BASALT_ASSIGN_OR_RETURN(auto following, conn.GetTable(name("_follows")));
    BASALT_ASSIGN_OR_RETURN(auto followers, conn.GetTable(name("_followers")));
    BASALT_RETURN_IF_ERROR(CheckRecipeFormat(
        *following, RecipeFormat{"follow graph", kFollowGraphFormatVersion,
                                 kOldestReadableFollowGraphFormatVersion,
                                 std::string(kRecipeMetaRow), TallLayout::kCounterFamily}));
    layout = std::make_unique<TallLayout>(std::move(following), std::move(followers));
  } else {
    BASALT_RETURN_IF_ERROR(EnsureTable(
        admin, name("_users"),
        {WideLayout::kFollowsFamily, WideLayout::kFansFamily, WideLayout::kCountsFamily},
        options.compression));
    BASALT_ASSIGN_OR_RETURN(auto users, conn.GetTable(name("_users")));
    BASALT_RETURN_IF_ERROR(CheckRecipeFormat(
        *users, RecipeFormat{"follow graph", kFollowGraphFormatVersion,
                             kOldestReadableFollowGraphFormatVersion, std::string(kRecipeMetaRow),
                             WideLayout::kCountsFamily}));
    layout = std::make_unique<WideLayout>(std::move(users));
  }
  return std::unique_ptr<FollowGraph>(new GraphImpl(conn, std::move(layout), std::move(options)));
}

}  // namespace basalt::recipes
