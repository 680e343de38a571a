// CheckAndMutate: compare one cell of a row and, when the check passes, apply a Put, a Delete or
// RowMutations to that row, all atomically under the row lock (HBase checkAndMutate).
//
//   table->CheckAndMutate(CheckAndMutate("alice").IfNotExists("info", "pw").Then(put));
//
// The check reads the newest visible version of family:qualifier (within the time range, if
// set) and evaluates `expected OP stored` with unsigned bytewise comparison, which is HBase's
// rule: kLess passes when the EXPECTED value is less than the stored one (the reverse of how
// filters read).
//
// With no expected value ("absent" checks, HBase's null value):
//   - kEqual passes when the cell is missing or its value is empty (HBase ifNotExists);
//   - kNotEqual passes when the cell exists with a non-empty value;
//   - other operators behave like kEqual.
// With an expected value, a missing cell fails every operator.

#ifndef BASALT_CHECK_AND_MUTATE_H_
#define BASALT_CHECK_AND_MUTATE_H_

#include <optional>
#include <string>
#include <variant>

#include "basalt/mutation.h"
#include "basalt/types.h"

namespace basalt {

class CheckAndMutate {
 public:
  using Action = std::variant<Put, Delete, RowMutations>;

  explicit CheckAndMutate(std::string row) : row_(std::move(row)) {}

  CheckAndMutate& IfNotExists(std::string family, std::string qualifier) {
    return IfMatches(std::move(family), std::move(qualifier), CompareOp::kEqual, std::nullopt);
  }
  CheckAndMutate& IfEquals(std::string family, std::string qualifier, std::string value) {
    return IfMatches(std::move(family), std::move(qualifier), CompareOp::kEqual, std::move(value));
  }
  CheckAndMutate& IfMatches(std::string family, std::string qualifier, CompareOp op,
                            std::optional<std::string> expected) {
    family_ = std::move(family);
    qualifier_ = std::move(qualifier);
    op_ = op;
    expected_ = std::move(expected);
    return *this;
  }
  // Only versions in `range` are considered for the check.
  CheckAndMutate& SetTimeRange(TimeRange range) {
    time_range_ = range;
    return *this;
  }
  CheckAndMutate& Then(Action action) {
    action_ = std::move(action);
    return *this;
  }

  const std::string& row() const { return row_; }
  const std::string& family() const { return family_; }
  const std::string& qualifier() const { return qualifier_; }
  CompareOp op() const { return op_; }
  const std::optional<std::string>& expected() const { return expected_; }
  const TimeRange& time_range() const { return time_range_; }
  const std::optional<Action>& action() const { return action_; }

 private:
  std::string row_;
  std::string family_;
  std::string qualifier_;
  CompareOp op_ = CompareOp::kEqual;
  std::optional<std::string> expected_;
  TimeRange time_range_;
  std::optional<Action> action_;
};

// Evaluates the check rule above: `stored` is the current value, nullopt when the cell is
// missing. Exposed so every backend shares one definition.
bool CheckPasses(CompareOp op, const std::optional<std::string>& expected,
                 const std::optional<std::string_view>& stored);

}  // namespace basalt

#endif  // BASALT_CHECK_AND_MUTATE_H_
