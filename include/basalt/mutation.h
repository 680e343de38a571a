// Mutations of one row: Put, Delete, Increment, Append, and RowMutations (several of them applied
// atomically). Each is a plain value built by the caller and handed to Table; nothing is written
// until Table applies it. Every mutation of one row is atomic: readers see all of it or none.

#ifndef BASALT_MUTATION_H_
#define BASALT_MUTATION_H_

#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "basalt/types.h"

namespace basalt {

// What a cell's family, qualifier or value may be given as: anything a std::string is built
// from (std::string, string_view, a literal).
template <class T>
concept StringArg = std::constructible_from<std::string, T>;

// Writes cells to one row. A cell without a timestamp (kLatestTimestamp) gets the store's clock
// when the Put is applied; every cell of one Put then gets the same time.
class Put {
 public:
  struct Entry {
    // Builds each string from its argument: a cell added from literals or borrowed strings is
    // constructed once, in place, instead of into a temporary that is then moved.
    template <class F, class Q, class V>
    Entry(F&& family, Q&& qualifier, int64_t timestamp, V&& value)
        : family(std::forward<F>(family)),
          qualifier(std::forward<Q>(qualifier)),
          timestamp(timestamp),
          value(std::forward<V>(value)) {}

    std::string family;
    std::string qualifier;
    int64_t timestamp;  // kLatestTimestamp: use the Put's timestamp
    std::string value;
  };

  // `timestamp` is the default for cells added without one.
  explicit Put(std::string row, int64_t timestamp = kLatestTimestamp)
      : row_(std::move(row)), timestamp_(timestamp) {}

  // Family, qualifier and value may be anything a std::string is made from (a std::string,
  // moved or copied, a string_view, a literal).
  //
  // The builders come in pairs: on a temporary (`Put(row).Add(...)`) they return it as an
  // rvalue, so handing the result to a container or Table moves it instead of copying every
  // cell value.
  template <StringArg F, StringArg Q, StringArg V>
  Put& Add(F&& family, Q&& qualifier, V&& value) & {
    AddEntry(std::forward<F>(family), std::forward<Q>(qualifier), kLatestTimestamp,
             std::forward<V>(value));
    return *this;
  }
  template <StringArg F, StringArg Q, StringArg V>
  Put&& Add(F&& family, Q&& qualifier, V&& value) && {
    return std::move(
        Add(std::forward<F>(family), std::forward<Q>(qualifier), std::forward<V>(value)));
  }
  template <StringArg F, StringArg Q, StringArg V>
  Put& Add(F&& family, Q&& qualifier, int64_t timestamp, V&& value) & {
    AddEntry(std::forward<F>(family), std::forward<Q>(qualifier), timestamp,
             std::forward<V>(value));
    return *this;
  }
  template <StringArg F, StringArg Q, StringArg V>
  Put&& Add(F&& family, Q&& qualifier, int64_t timestamp, V&& value) && {
    return std::move(Add(std::forward<F>(family), std::forward<Q>(qualifier), timestamp,
                         std::forward<V>(value)));
  }
  Put& SetDurability(Durability d) & {
    durability_ = d;
    return *this;
  }
  Put&& SetDurability(Durability d) && { return std::move(SetDurability(d)); }

  const std::string& row() const { return row_; }
  int64_t timestamp() const { return timestamp_; }
  // The cells in the order they were added.
  std::span<const Entry> entries() const {
    if (!more_.empty()) return more_;
    if (first_.has_value()) return {&*first_, 1};
    return {};
  }
  Durability durability() const { return durability_; }

 private:
  // Most Puts write one cell: it is kept inline, and only a second cell moves the cells to a
  // vector (a batch of single-cell Puts then allocates nothing per row for its cell list).
  // The cell is built in place from the arguments: a batch of small Puts spends a measurable
  // part of its time moving strings.
  template <class F, class Q, class V>
  void AddEntry(F&& family, Q&& qualifier, int64_t timestamp, V&& value) {
    if (!first_.has_value() && more_.empty()) {
      first_.emplace(std::forward<F>(family), std::forward<Q>(qualifier), timestamp,
                     std::forward<V>(value));
      return;
    }
    if (first_.has_value()) {
      more_.reserve(4);
      more_.push_back(std::move(*first_));
      first_.reset();
    }
    more_.emplace_back(std::forward<F>(family), std::forward<Q>(qualifier), timestamp,
                       std::forward<V>(value));
  }

  std::string row_;
  int64_t timestamp_;
  std::optional<Entry> first_;  // the only cell, while there is one
  std::vector<Entry> more_;     // every cell, once there are two or more
  Durability durability_ = Durability::kUseDefault;
};

// Deletes from one row by writing delete markers (HBase tombstones). With nothing added, the
// whole row is deleted (every family, versions at or before the Delete's timestamp).
//
// A marker hides the cells written BEFORE it that it covers; a Put written after a Delete is
// visible even if its timestamp is older (HBase's NEW_VERSION_BEHAVIOR; see
// docs/data-model.md).
class Delete {
 public:
  struct Entry {
    CellType type;  // kDelete, kDeleteColumn, kDeleteFamily or kDeleteFamilyVersion
    std::string family;
    std::string qualifier;  // empty for the family kinds
    int64_t timestamp;      // kLatestTimestamp: see each Add method
  };

  // `timestamp` bounds a whole-row delete and is the default for entries added without one.
  explicit Delete(std::string row, int64_t timestamp = kLatestTimestamp)
      : row_(std::move(row)), timestamp_(timestamp) {}

  // Every column of `family` with versions at or before `timestamp` (default: now).
  Delete& AddFamily(std::string family, int64_t timestamp = kLatestTimestamp) {
    entries_.push_back({CellType::kDeleteFamily, std::move(family), {}, timestamp});
    return *this;
  }
  // Every column of `family` at exactly `timestamp`.
  Delete& AddFamilyVersion(std::string family, int64_t timestamp) {
    entries_.push_back({CellType::kDeleteFamilyVersion, std::move(family), {}, timestamp});
    return *this;
  }
  // All versions of family:qualifier at or before `timestamp` (default: now).
  Delete& AddColumns(std::string family, std::string qualifier,
                     int64_t timestamp = kLatestTimestamp) {
    entries_.push_back(
        {CellType::kDeleteColumn, std::move(family), std::move(qualifier), timestamp});
    return *this;
  }
  // One version of family:qualifier: the one at `timestamp`, or with the default the newest
  // visible one when the Delete is applied.
  Delete& AddColumn(std::string family, std::string qualifier,
                    int64_t timestamp = kLatestTimestamp) {
    entries_.push_back({CellType::kDelete, std::move(family), std::move(qualifier), timestamp});
    return *this;
  }
  Delete& SetDurability(Durability d) {
    durability_ = d;
    return *this;
  }

  const std::string& row() const { return row_; }
  int64_t timestamp() const { return timestamp_; }
  const std::vector<Entry>& entries() const { return entries_; }
  Durability durability() const { return durability_; }

 private:
  std::string row_;
  int64_t timestamp_;
  std::vector<Entry> entries_;
  Durability durability_ = Durability::kUseDefault;
};

// Adds to 8-byte big-endian signed counters (HBase's format; Java Bytes.toLong). A missing cell
// counts as 0. A cell of another length fails the whole Increment with InvalidArgument.
// Arithmetic wraps on overflow, as Java's long does.
class Increment {
 public:
  struct Entry {
    std::string family;
    std::string qualifier;
    int64_t amount;
  };

  explicit Increment(std::string row) : row_(std::move(row)) {}

  Increment& AddColumn(std::string family, std::string qualifier, int64_t amount) {
    entries_.push_back({std::move(family), std::move(qualifier), amount});
    return *this;
  }
  // Only cells in `range` count as the current value.
  Increment& SetTimeRange(TimeRange range) {
    time_range_ = range;
    return *this;
  }
  // With false, Table::Increment returns an empty RowResult. Default: true.
  Increment& SetReturnResults(bool r) {
    return_results_ = r;
    return *this;
  }
  Increment& SetDurability(Durability d) {
    durability_ = d;
    return *this;
  }

  const std::string& row() const { return row_; }
  const std::vector<Entry>& entries() const { return entries_; }
  const TimeRange& time_range() const { return time_range_; }
  bool return_results() const { return return_results_; }
  Durability durability() const { return durability_; }

 private:
  std::string row_;
  std::vector<Entry> entries_;
  TimeRange time_range_;
  bool return_results_ = true;
  Durability durability_ = Durability::kUseDefault;
};

// Appends bytes to the newest value of columns (or writes them when the cell is missing).
class Append {
 public:
  struct Entry {
    std::string family;
    std::string qualifier;
    std::string value;
  };

  explicit Append(std::string row) : row_(std::move(row)) {}

  Append& Add(std::string family, std::string qualifier, std::string value) {
    entries_.push_back({std::move(family), std::move(qualifier), std::move(value)});
    return *this;
  }
  Append& SetReturnResults(bool r) {
    return_results_ = r;
    return *this;
  }
  Append& SetDurability(Durability d) {
    durability_ = d;
    return *this;
  }

  const std::string& row() const { return row_; }
  const std::vector<Entry>& entries() const { return entries_; }
  bool return_results() const { return return_results_; }
  Durability durability() const { return durability_; }

 private:
  std::string row_;
  std::vector<Entry> entries_;
  bool return_results_ = true;
  Durability durability_ = Durability::kUseDefault;
};

// Puts and Deletes on one row, applied in order and atomically (HBase's mutateRow). Every
// mutation must name the same row as the RowMutations.
class RowMutations {
 public:
  using Item = std::variant<Put, Delete>;

  explicit RowMutations(std::string row) : row_(std::move(row)) {}

  RowMutations& Add(Put put) {
    items_.emplace_back(std::move(put));
    return *this;
  }
  RowMutations& Add(Delete del) {
    items_.emplace_back(std::move(del));
    return *this;
  }

  const std::string& row() const { return row_; }
  const std::vector<Item>& items() const { return items_; }

 private:
  std::string row_;
  std::vector<Item> items_;
};

// One element of Table::Batch.
using Mutation = std::variant<Put, Delete, Increment, Append, RowMutations>;

// The row a mutation writes to.
const std::string& MutationRow(const Mutation& m);

}  // namespace basalt

#endif  // BASALT_MUTATION_H_
