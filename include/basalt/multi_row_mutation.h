// MultiRowMutation: mutations of several rows, in one or more tables of one store, applied all
// or none, when conditions on cells of those (or other) rows all hold. HBase's
// MultiRowMutationEndpoint.mutateRows with conditions (HBASE-25703), extended across the tables
// of one store. Run it with Connection::MutateRows.
//
//   MultiRowMutation m;
//   m.IfNotExists(follows, "alice#bob", "f", "u")
//       .Add(follows, Put("alice#bob").Add("f", "u", "bob"))
//       .Add(followers, Put("bob#alice").Add("f", "u", "alice"))
//       .Add(follows, Increment("alice").AddColumn("c", "n", 1));
//   Result<bool> applied = conn->MutateRows(m);   // false: a condition failed, nothing written
//
// Every row named by a condition or a mutation is locked (each row's usual lock, taken in one
// global order, so calls never deadlock with each other or with single-row writes); the
// conditions are then evaluated, each on the newest visible version of its cell, by the same rule
// as CheckAndMutate (check_and_mutate.h: an "absent" check passes on a missing or empty cell);
// when all hold, the mutations are applied in order, as one atomic write: a reader sees all of
// them or none. A mutation reads what earlier mutations of the call wrote (an Increment after a
// Put of its cell adds to the Put's value). Puts without a timestamp are written no earlier than
// any checked cell, so a write never hides behind a value it was conditioned on.
//
// Increment and Append results are not returned (return_results is ignored). Durability is the
// strongest asked for by any mutation (kUseDefault: its table's).

#ifndef BASALT_MULTI_ROW_MUTATION_H_
#define BASALT_MULTI_ROW_MUTATION_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "basalt/mutation.h"
#include "basalt/schema.h"
#include "basalt/types.h"

namespace basalt {

class MultiRowMutation {
 public:
  // A check of one cell: `expected OP stored`, as CheckAndMutate evaluates it.
  struct Condition {
    TableName table;
    std::string row;
    std::string family;
    std::string qualifier;
    CompareOp op = CompareOp::kEqual;
    std::optional<std::string> expected;  // nullopt: an "absent" check (see above)
    TimeRange time_range;                 // only versions in this range are considered
  };
  struct Item {
    TableName table;
    Mutation mutation;
  };

  // Passes when the cell is missing or empty (HBase ifNotExists).
  MultiRowMutation& IfNotExists(const TableName& table, std::string row, std::string family,
                                std::string qualifier) {
    return If({table,
               std::move(row),
               std::move(family),
               std::move(qualifier),
               CompareOp::kEqual,
               std::nullopt,
               {}});
  }
  // Passes when the cell holds a non-empty value.
  MultiRowMutation& IfExists(const TableName& table, std::string row, std::string family,
                             std::string qualifier) {
    return If({table,
               std::move(row),
               std::move(family),
               std::move(qualifier),
               CompareOp::kNotEqual,
               std::nullopt,
               {}});
  }
  MultiRowMutation& IfEquals(const TableName& table, std::string row, std::string family,
                             std::string qualifier, std::string value) {
    return If({table,
               std::move(row),
               std::move(family),
               std::move(qualifier),
               CompareOp::kEqual,
               std::move(value),
               {}});
  }
  MultiRowMutation& If(Condition condition) {
    conditions_.push_back(std::move(condition));
    return *this;
  }

  // Any mutation (Put, Delete, Increment, Append, RowMutations) of a row of `table`.
  MultiRowMutation& Add(const TableName& table, Mutation mutation) {
    items_.push_back({table, std::move(mutation)});
    return *this;
  }

  const std::vector<Condition>& conditions() const { return conditions_; }
  const std::vector<Item>& items() const { return items_; }

 private:
  std::vector<Condition> conditions_;
  std::vector<Item> items_;
};

}  // namespace basalt

#endif  // BASALT_MULTI_ROW_MUTATION_H_
