#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "basalt/filter.h"
#include "filter/filter_state.h"

namespace basalt::filter {
namespace {

template <class T, class... Args>
FilterPtr Make(Args&&... args) {
  return std::make_shared<T>(std::forward<Args>(args)...);
}

FilterPtr Range(std::string min, std::string max, bool max_inclusive = false) {
  return Make<ColumnRangeFilter>(std::move(min), true, std::move(max), max_inclusive);
}

// The ceiling the compiled filter offers the read path, or "none".
std::string CeilingOf(const FilterPtr& f) {
  auto state = Compile(*f, /*reversed=*/false);
  EXPECT_TRUE(state.ok()) << state.status().ToString();
  if (!state.ok()) return "error";
  const QualifierCeiling* c = (*state)->Ceiling();
  if (c == nullptr) return "none";
  return c->qualifier + (c->inclusive ? "]" : ")") + (c->keeps_all_below ? " all" : "");
}

TEST(FilterCeilingTest, AColumnRangeWithAMaximumIsACeiling) {
  EXPECT_EQ(CeilingOf(Range("", "m")), "m) all");
  EXPECT_EQ(CeilingOf(Range("", "m", true)), "m] all");
  // A minimum: cells below the ceiling are still judged by the filter.
  EXPECT_EQ(CeilingOf(Range("c", "m")), "m)");
  // HBase: an empty maximum is no upper limit.
  EXPECT_EQ(CeilingOf(Range("c", "")), "none");
}

TEST(FilterCeilingTest, OtherFiltersHaveNone) {
  EXPECT_EQ(CeilingOf(Make<KeyOnlyFilter>()), "none");
  EXPECT_EQ(CeilingOf(Make<FirstKeyOnlyFilter>()), "none");
  EXPECT_EQ(CeilingOf(Make<WhileMatchFilter>(Range("", "m"))), "none");
  EXPECT_EQ(CeilingOf(Make<SkipFilter>(Range("", "m"))), "none");
}

TEST(FilterCeilingTest, AllOfAListTakesTheLowestWhenEveryOtherChildIsStateless) {
  EXPECT_EQ(CeilingOf(FilterList::And({Range("", "m"), Range("", "k", true)})), "k]");
  EXPECT_EQ(CeilingOf(FilterList::And({Range("", "k", true), Range("", "k")})), "k)");
  EXPECT_EQ(CeilingOf(FilterList::And({Make<KeyOnlyFilter>(), Range("", "m")})), "m)");
  // A child that counts what it is shown would miss the cells past the ceiling.
  EXPECT_EQ(CeilingOf(FilterList::And({Make<ColumnCountGetFilter>(3), Range("", "m")})), "none");
  EXPECT_EQ(CeilingOf(FilterList::And({Make<FirstKeyOnlyFilter>(), Range("", "m")})), "none");
  EXPECT_EQ(CeilingOf(FilterList::And({})), "none");
}

TEST(FilterCeilingTest, OneOfAListTakesTheHighestWhenEveryChildHasOne) {
  EXPECT_EQ(CeilingOf(FilterList::Or({Range("", "m"), Range("a", "k", true)})), "m)");
  EXPECT_EQ(CeilingOf(FilterList::Or({Range("", "k"), Range("", "k", true)})), "k]");
  EXPECT_EQ(CeilingOf(FilterList::Or({Range("", "m"), Make<KeyOnlyFilter>()})), "none");
  EXPECT_EQ(CeilingOf(FilterList::Or({Range("", "m")})), "m)");
}

}  // namespace
}  // namespace basalt::filter
