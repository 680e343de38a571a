#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "basalt/filter_language.h"
#include "util/bytes_format.h"

namespace basalt {
namespace {

using namespace std::string_literals;
using BC = ByteComparator;

template <class T, class... Args>
FilterPtr Make(Args&&... args) {
  return std::make_shared<T>(std::forward<Args>(args)...);
}

FilterPtr Prefix(std::string p) {
  return Make<PrefixFilter>(std::move(p));
}
FilterPtr Skip(FilterPtr f) {
  return Make<SkipFilter>(std::move(f));
}
FilterPtr While(FilterPtr f) {
  return Make<WhileMatchFilter>(std::move(f));
}
FilterPtr And(std::vector<FilterPtr> f) {
  return FilterList::And(std::move(f));
}
FilterPtr Or(std::vector<FilterPtr> f) {
  return FilterList::Or(std::move(f));
}

FilterPtr A() {
  return Prefix("a");
}
FilterPtr B() {
  return Prefix("b");
}
FilterPtr C() {
  return Prefix("c");
}

// Prints `f`, parses the text, and expects the same filter back.
void ExpectRoundTrip(const FilterPtr& f) {
  const std::string text = FilterToString(*f);
  Result<FilterPtr> back = ParseFilter(text);
  ASSERT_TRUE(back.ok()) << util::ToStringBinary(text) << ": " << back.status().ToString();
  EXPECT_TRUE(**back == *f) << util::ToStringBinary(text) << " read back as "
                            << util::ToStringBinary(FilterToString(**back));
}

// ---- Hand-written filters: the exact text, and the round trip ----

TEST(FilterPrinterTest, EveryFilterPrintsAsItsTerm) {
  using Key = FuzzyRowFilter::FuzzyKey;
  const std::vector<std::pair<FilterPtr, std::string>> cases = {
      {Make<KeyOnlyFilter>(), "KeyOnlyFilter()"},
      {Make<KeyOnlyFilter>(true), "KeyOnlyFilter(true)"},
      {Make<FirstKeyOnlyFilter>(), "FirstKeyOnlyFilter()"},
      {Prefix("user123|"), "PrefixFilter('user123|')"},
      {Make<ColumnPrefixFilter>(""), "ColumnPrefixFilter('')"},
      {Make<MultipleColumnPrefixFilter>(std::vector<std::string>{"b", "a", "b"}),
       "MultipleColumnPrefixFilter('a', 'b')"},
      {Make<MultipleColumnPrefixFilter>(std::vector<std::string>{}),
       "MultipleColumnPrefixFilter()"},
      {Make<ColumnCountGetFilter>(5), "ColumnCountGetFilter(5)"},
      {Make<PageFilter>(INT64_MAX), "PageFilter(9223372036854775807)"},
      {Make<ColumnPaginationFilter>(10, 0), "ColumnPaginationFilter(10, 0)"},
      {Make<InclusiveStopFilter>("z"), "InclusiveStopFilter('z')"},
      {Make<TimestampsFilter>(std::vector<int64_t>{3, 1}), "TimestampsFilter(1, 3)"},
      {Make<TimestampsFilter>(std::vector<int64_t>{}), "TimestampsFilter()"},
      {Make<RowFilter>(CompareOp::kLess, BC::Binary("r")), "RowFilter(<, 'binary:r')"},
      {Make<FamilyFilter>(CompareOp::kLessOrEqual, BC::BinaryPrefix("f")),
       "FamilyFilter(<=, 'binaryprefix:f')"},
      {Make<QualifierFilter>(CompareOp::kNotEqual, BC::RegexString("^q")),
       "QualifierFilter(!=, 'regexstring:^q')"},
      {Make<ValueFilter>(CompareOp::kEqual, BC::Substring("Err")),
       "ValueFilter(=, 'substring:Err')"},
      {Make<ValueFilter>(CompareOp::kGreaterOrEqual, BC::Long(INT64_MIN)),
       "ValueFilter(>=, 'long:-9223372036854775808')"},
      {Make<ValueFilter>(CompareOp::kGreater, BC::Long(0)), "ValueFilter(>, 'long:0')"},
      {Make<ColumnRangeFilter>("a", true, "", false), "ColumnRangeFilter('a', true, '', false)"},
      {Make<SingleColumnValueFilter>("d", "s", CompareOp::kEqual, BC::Binary("x")),
       "SingleColumnValueFilter('d', 's', =, 'binary:x')"},
      {Make<SingleColumnValueFilter>("d", "s", CompareOp::kEqual, BC::Binary("x"), true, true),
       "SingleColumnValueFilter('d', 's', =, 'binary:x', true, true)"},
      {Make<SingleColumnValueExcludeFilter>("d", "s", CompareOp::kEqual, BC::Binary("x"), false,
                                            false),
       "SingleColumnValueExcludeFilter('d', 's', =, 'binary:x', false, false)"},
      {Make<DependentColumnFilter>("f", "q"), "DependentColumnFilter('f', 'q')"},
      {Make<DependentColumnFilter>("f", "q", true), "DependentColumnFilter('f', 'q', true)"},
      {Make<DependentColumnFilter>("f", "q", false, CompareOp::kEqual, BC::Binary("v")),
       "DependentColumnFilter('f', 'q', false, =, 'binary:v')"},
      {Make<FuzzyRowFilter>(std::vector<Key>{{"ab", "\x01\x00"s}, {"c", "\x01"}}),
       "FuzzyRowFilter('ab', '\x01\x00', 'c', '\x01')"s},
  };
  for (const auto& [filter, text] : cases) {
    EXPECT_EQ(FilterToString(*filter), text);
    ExpectRoundTrip(filter);
  }
}

TEST(FilterPrinterTest, StringsKeepEveryByte) {
  const std::string nasty = "it's ')' , AND OR SKIP WHILE '' \0\xff\t\n\x01"s;
  EXPECT_EQ(FilterToString(*Prefix("it's")), "PrefixFilter('it''s')");
  EXPECT_EQ(FilterToString(*Prefix("'")), "PrefixFilter('''')");
  EXPECT_EQ(FilterToString(*Prefix("\0\xff"s)), "PrefixFilter('\0\xff')"s);
  ExpectRoundTrip(Prefix(nasty));
  ExpectRoundTrip(Make<ColumnRangeFilter>(nasty, false, nasty + "'", true));
  ExpectRoundTrip(Make<ValueFilter>(CompareOp::kEqual, BC::Binary(nasty)));
  ExpectRoundTrip(Make<ValueFilter>(CompareOp::kEqual, BC::Substring(nasty)));
  ExpectRoundTrip(Make<ValueFilter>(CompareOp::kEqual, BC::RegexString("it''s\\)\xff")));
  ExpectRoundTrip(Make<SingleColumnValueFilter>(nasty, nasty, CompareOp::kLess,
                                                BC::BinaryPrefix(nasty), true, false));
  ExpectRoundTrip(Make<FuzzyRowFilter>(
      std::vector<FuzzyRowFilter::FuzzyKey>{{"'\0'"s, "\x01\x00\x01"s}, {"", ""}}));
}

TEST(FilterPrinterTest, ListsPrintWithTheFewestParentheses) {
  EXPECT_EQ(FilterToString(*And({A(), B(), C()})),
            "PrefixFilter('a') AND PrefixFilter('b') AND PrefixFilter('c')");
  EXPECT_EQ(FilterToString(*Or({And({A(), B()}), C()})),
            "PrefixFilter('a') AND PrefixFilter('b') OR PrefixFilter('c')");
  EXPECT_EQ(FilterToString(*And({Or({A(), B()}), C()})),
            "(PrefixFilter('a') OR PrefixFilter('b')) AND PrefixFilter('c')");
  EXPECT_EQ(FilterToString(*And({And({A(), B()}), C()})),
            "(PrefixFilter('a') AND PrefixFilter('b')) AND PrefixFilter('c')");
  EXPECT_EQ(FilterToString(*Or({A(), Or({B(), C()})})),
            "PrefixFilter('a') OR (PrefixFilter('b') OR PrefixFilter('c'))");
  EXPECT_EQ(FilterToString(*Skip(And({A(), B()}))),
            "SKIP (PrefixFilter('a') AND PrefixFilter('b'))");
  EXPECT_EQ(FilterToString(*While(Or({A(), B()}))),
            "WHILE (PrefixFilter('a') OR PrefixFilter('b'))");
  EXPECT_EQ(FilterToString(*And({Skip(A()), While(Skip(B()))})),
            "SKIP PrefixFilter('a') AND WHILE SKIP PrefixFilter('b')");
  EXPECT_EQ(FilterToString(*Or({A(), Skip(Or({B(), And({A(), C()})}))})),
            "PrefixFilter('a') OR SKIP (PrefixFilter('b') OR PrefixFilter('a') AND "
            "PrefixFilter('c'))");
}

TEST(FilterPrinterTest, NestedListsOfBothOperatorsRoundTrip) {
  for (const FilterPtr& f :
       {And({A(), B()}), Or({A(), B(), C()}), Or({And({A(), B()}), C()}),
        And({Or({A(), B()}), Or({B(), C()})}), And({And({A(), B()}), And({B(), C()})}),
        Or({Or({A(), B()}), C()}), Or({A(), Or({B(), Or({C(), A()})})}),
        Skip(And({A(), Or({B(), C()})})), While(Skip(Or({A(), B()}))),
        And({Skip(Or({A(), B()})), While(And({B(), C()}))}),
        Or({Skip(A()), And({While(B()), Or({C(), Skip(Skip(A()))})})})}) {
    ExpectRoundTrip(f);
  }
}

// ---- Shapes the language cannot write ----

TEST(FilterPrinterTest, OneElementListPrintsAsItsElement) {
  EXPECT_EQ(FilterToString(*And({A()})), "PrefixFilter('a')");
  EXPECT_EQ(FilterToString(*Or({Or({And({A()})})})), "PrefixFilter('a')");
  // The element is parenthesised as the list would have been.
  EXPECT_EQ(FilterToString(*And({Or({And({Or({A(), B()})})}), C()})),
            "(PrefixFilter('a') OR PrefixFilter('b')) AND PrefixFilter('c')");
  EXPECT_EQ(FilterToString(*Skip(Or({And({A(), B()})}))),
            "SKIP (PrefixFilter('a') AND PrefixFilter('b'))");
  // Normalised: it reads back as the element, which keeps what the one-element list keeps.
  EXPECT_TRUE(**ParseFilter(FilterToString(*Or({And({A()}), B()}))) == *Or({A(), B()}));
  EXPECT_TRUE(**ParseFilter(FilterToString(*Skip(And({A()})))) == *Skip(A()));
}

TEST(FilterPrinterTest, DependentColumnFilterWithoutComparatorDropsItsOperator) {
  auto f = Make<DependentColumnFilter>("f", "q", true, CompareOp::kLess, std::nullopt);
  EXPECT_EQ(FilterToString(*f), "DependentColumnFilter('f', 'q', true)");
  // Normalised: without a comparator the operator is never used.
  EXPECT_TRUE(**ParseFilter(FilterToString(*f)) == DependentColumnFilter("f", "q", true));
}

// Prints `f`; ParseFilter must reject the text.
std::string Unparseable(const FilterPtr& f) {
  std::string text = FilterToString(*f);
  Result<FilterPtr> back = ParseFilter(text);
  EXPECT_FALSE(back.ok()) << util::ToStringBinary(text);
  if (!back.ok()) {
    EXPECT_TRUE(back.status().IsInvalidArgument());
  }
  return text;
}

TEST(FilterPrinterTest, EmptyListsAndNullChildrenPrintAsRejectedText) {
  EXPECT_EQ(Unparseable(And({})), "FilterList()");
  EXPECT_EQ(Unparseable(Or({A(), And({})})), "PrefixFilter('a') OR FilterList()");
  EXPECT_EQ(Unparseable(And({A(), nullptr})), "PrefixFilter('a') AND <null>");
  EXPECT_EQ(Unparseable(Skip(nullptr)), "SKIP <null>");
  EXPECT_EQ(Unparseable(While(Or({}))), "WHILE FilterList()");
  EXPECT_EQ(Unparseable(Or({nullptr})), "<null>");
}

TEST(FilterPrinterTest, ValuesTheParserRefusesPrintAsTheyAre) {
  using Key = FuzzyRowFilter::FuzzyKey;
  EXPECT_EQ(Unparseable(Make<RowFilter>(CompareOp::kNoOp, BC::Binary("x"))),
            "RowFilter(NO_OP, 'binary:x')");
  EXPECT_EQ(Unparseable(Make<SingleColumnValueFilter>("f", "q", CompareOp::kNoOp, BC::Binary(""))),
            "SingleColumnValueFilter('f', 'q', NO_OP, 'binary:')");
  EXPECT_EQ(
      Unparseable(Make<DependentColumnFilter>("f", "q", false, CompareOp::kNoOp, BC::Binary("v"))),
      "DependentColumnFilter('f', 'q', false, NO_OP, 'binary:v')");
  EXPECT_EQ(Unparseable(Make<ValueFilter>(CompareOp::kLess, BC::RegexString("a"))),
            "ValueFilter(<, 'regexstring:a')");
  EXPECT_EQ(Unparseable(Make<ValueFilter>(CompareOp::kGreater, BC::Substring("a"))),
            "ValueFilter(>, 'substring:a')");
  EXPECT_EQ(Unparseable(Make<ValueFilter>(CompareOp::kEqual, BC::RegexString("(a"))),
            "ValueFilter(=, 'regexstring:(a')");
  EXPECT_EQ(Unparseable(Make<PageFilter>(-1)), "PageFilter(-1)");
  EXPECT_EQ(Unparseable(Make<ColumnCountGetFilter>(-1)), "ColumnCountGetFilter(-1)");
  EXPECT_EQ(Unparseable(Make<ColumnPaginationFilter>(1, -2)), "ColumnPaginationFilter(1, -2)");
  EXPECT_EQ(Unparseable(Make<TimestampsFilter>(std::vector<int64_t>{-5, 1})),
            "TimestampsFilter(-5, 1)");
  EXPECT_EQ(Unparseable(Make<FuzzyRowFilter>(std::vector<Key>{})), "FuzzyRowFilter()");
  EXPECT_EQ(Unparseable(Make<FuzzyRowFilter>(std::vector<Key>{{"ab", "\x01"}})),
            "FuzzyRowFilter('ab', '\x01')");
  EXPECT_EQ(Unparseable(Make<FuzzyRowFilter>(std::vector<Key>{{"a", "\x02"}})),
            "FuzzyRowFilter('a', '\x02')");
}

TEST(FilterPrinterTest, DeepHandBuiltTreesPrintButAreRejected) {
  FilterPtr f = A();
  for (int i = 0; i <= kMaxFilterNesting; ++i) f = Skip(f);
  std::string text = Unparseable(f);
  EXPECT_EQ(text.rfind("SKIP SKIP ", 0), 0u);
}

// ---- Randomized round trip ----

// Random filter trees: `Parsable()` only of the shapes ParseFilter returns (lists of two or
// more non-null children, values the parser accepts), with random bytes in every string.
class RandomFilters {
 public:
  explicit RandomFilters(uint32_t seed) : rng_(seed) {}

  FilterPtr Parsable(int depth) {
    if (depth == 0 || Chance(2)) return Leaf();
    switch (Uniform(0, 3)) {
      case 0:
        return Skip(Parsable(depth - 1));
      case 1:
        return While(Parsable(depth - 1));
      default: {
        std::vector<FilterPtr> children;
        for (int n = Uniform(2, 4); n > 0; --n) children.push_back(Parsable(depth - 1));
        return Chance(2) ? And(std::move(children)) : Or(std::move(children));
      }
    }
  }

  // Also one-element lists and DependentColumnFilters with an unused operator, which print in a
  // normalised form; `normal` receives the filter that form reads back as.
  FilterPtr WithNormalisedShapes(int depth, FilterPtr* normal) {
    if (depth == 0 || Chance(3)) {
      if (Chance(4)) {
        auto op = static_cast<CompareOp>(Uniform(0, 5));
        auto f = Make<DependentColumnFilter>(Bytes(), Bytes(), Chance(2), op, std::nullopt);
        *normal = Make<DependentColumnFilter>(
            static_cast<const DependentColumnFilter&>(*f).family(),
            static_cast<const DependentColumnFilter&>(*f).qualifier(),
            static_cast<const DependentColumnFilter&>(*f).drop_dependent_column());
        return f;
      }
      *normal = Leaf();
      return *normal;
    }
    switch (Uniform(0, 3)) {
      case 0: {
        FilterPtr inner_normal;
        FilterPtr inner = WithNormalisedShapes(depth - 1, &inner_normal);
        if (Chance(2)) {
          *normal = Skip(inner_normal);
          return Skip(inner);
        }
        *normal = While(inner_normal);
        return While(inner);
      }
      case 1: {  // a one-element list: reads back as its element
        FilterPtr inner = WithNormalisedShapes(depth - 1, normal);
        return Chance(2) ? And({inner}) : Or({inner});
      }
      default: {
        std::vector<FilterPtr> children, normals;
        for (int n = Uniform(2, 4); n > 0; --n) {
          FilterPtr child_normal;
          children.push_back(WithNormalisedShapes(depth - 1, &child_normal));
          normals.push_back(child_normal);
        }
        const bool is_and = Chance(2);
        *normal = is_and ? And(std::move(normals)) : Or(std::move(normals));
        return is_and ? And(std::move(children)) : Or(std::move(children));
      }
    }
  }

 private:
  int Uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool Chance(int one_in) { return Uniform(1, one_in) == 1; }

  // 0-8 bytes, heavy on the bytes the language treats specially.
  std::string Bytes() {
    static const std::string kSpecial =
        "'(), \t:\0\xff\x01"
        "AND"s;
    std::string s;
    for (int n = Uniform(0, 8); n > 0; --n) {
      s.push_back(Chance(2) ? kSpecial[Uniform(0, static_cast<int>(kSpecial.size()) - 1)]
                            : static_cast<char>(Uniform(0, 255)));
    }
    return s;
  }

  int64_t Long() {
    switch (Uniform(0, 3)) {
      case 0:
        return 0;
      case 1:
        return INT64_MAX;
      default:
        return std::uniform_int_distribution<int64_t>(0, INT64_MAX)(rng_);
    }
  }

  int32_t Int() { return Chance(3) ? INT32_MAX : Uniform(0, 1000); }

  CompareOp Op() { return static_cast<CompareOp>(Uniform(0, 5)); }

  ByteComparator Comparator(CompareOp op) {
    static const std::vector<std::string> kPatterns = {
        "",      "a.*b",    "^it's$",      "[)(,']+", "x\\)y", "nul\0byte"s,
        "\\x00", "(?i)abc", "caf\xc3\xa9", "\xff+",   "a''b",  "(a|b)*c{2,3}"};
    const bool equality = op == CompareOp::kEqual || op == CompareOp::kNotEqual;
    switch (Uniform(0, equality ? 4 : 2)) {
      case 0:
        return BC::Binary(Bytes());
      case 1:
        return BC::BinaryPrefix(Bytes());
      case 2: {
        int64_t v = Long();
        return BC::Long(Chance(2) ? v : -v - (Chance(2) ? 1 : 0));
      }
      case 3:
        return BC::Substring(Bytes());
      default:
        return BC::RegexString(kPatterns[Uniform(0, static_cast<int>(kPatterns.size()) - 1)]);
    }
  }

  FilterPtr Leaf() {
    switch (Uniform(0, 18)) {
      case 0:
        return Make<KeyOnlyFilter>(Chance(2));
      case 1:
        return Make<FirstKeyOnlyFilter>();
      case 2:
        return Prefix(Bytes());
      case 3:
        return Make<ColumnPrefixFilter>(Bytes());
      case 4: {
        std::vector<std::string> prefixes;
        for (int n = Uniform(0, 4); n > 0; --n) prefixes.push_back(Bytes());
        return Make<MultipleColumnPrefixFilter>(std::move(prefixes));
      }
      case 5:
        return Make<ColumnCountGetFilter>(Int());
      case 6:
        return Make<PageFilter>(Long());
      case 7:
        return Make<ColumnPaginationFilter>(Int(), Int());
      case 8:
        return Make<InclusiveStopFilter>(Bytes());
      case 9: {
        std::vector<int64_t> timestamps;
        for (int n = Uniform(0, 4); n > 0; --n) timestamps.push_back(Long());
        return Make<TimestampsFilter>(std::move(timestamps));
      }
      case 10: {
        CompareOp op = Op();
        return Make<RowFilter>(op, Comparator(op));
      }
      case 11: {
        CompareOp op = Op();
        return Make<FamilyFilter>(op, Comparator(op));
      }
      case 12: {
        CompareOp op = Op();
        return Make<QualifierFilter>(op, Comparator(op));
      }
      case 13: {
        CompareOp op = Op();
        return Make<ValueFilter>(op, Comparator(op));
      }
      case 14:
        return Make<ColumnRangeFilter>(Bytes(), Chance(2), Bytes(), Chance(2));
      case 15: {
        CompareOp op = Op();
        if (Chance(2)) {
          return Make<SingleColumnValueFilter>(Bytes(), Bytes(), op, Comparator(op), Chance(2),
                                               Chance(2));
        }
        return Make<SingleColumnValueExcludeFilter>(Bytes(), Bytes(), op, Comparator(op), Chance(2),
                                                    Chance(2));
      }
      case 16: {
        if (Chance(2)) return Make<DependentColumnFilter>(Bytes(), Bytes(), Chance(2));
        CompareOp op = Op();
        return Make<DependentColumnFilter>(Bytes(), Bytes(), Chance(2), op, Comparator(op));
      }
      case 17: {
        std::vector<FuzzyRowFilter::FuzzyKey> keys;
        for (int n = Uniform(1, 3); n > 0; --n) {
          std::string pattern = Bytes();
          std::string mask;
          for (size_t i = 0; i < pattern.size(); ++i) mask.push_back(Chance(2) ? '\0' : '\1');
          keys.push_back({std::move(pattern), std::move(mask)});
        }
        return Make<FuzzyRowFilter>(std::move(keys));
      }
      default:
        return Make<InclusiveStopFilter>(Bytes());
    }
  }

  std::mt19937 rng_;
};

TEST(FilterPrinterTest, RandomParsableFiltersRoundTrip) {
  constexpr int kFilters = 4000;
  RandomFilters random(20261123);
  for (int i = 0; i < kFilters; ++i) {
    SCOPED_TRACE("filter " + std::to_string(i));
    FilterPtr f = random.Parsable(i % 6);
    ExpectRoundTrip(f);
    // Printing is a fixed point: the text of the parsed filter is the same text.
    Result<FilterPtr> back = ParseFilter(FilterToString(*f));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(FilterToString(**back), FilterToString(*f));
    if (HasFailure()) return;
  }
}

TEST(FilterPrinterTest, RandomHandBuiltFiltersReadBackInNormalForm) {
  constexpr int kFilters = 2000;
  RandomFilters random(7);
  for (int i = 0; i < kFilters; ++i) {
    SCOPED_TRACE("filter " + std::to_string(i));
    FilterPtr normal;
    FilterPtr f = random.WithNormalisedShapes(i % 6, &normal);
    const std::string text = FilterToString(*f);
    EXPECT_EQ(text, FilterToString(*normal));
    Result<FilterPtr> back = ParseFilter(text);
    ASSERT_TRUE(back.ok()) << util::ToStringBinary(text) << ": " << back.status().ToString();
    EXPECT_TRUE(**back == *normal) << util::ToStringBinary(text);
    if (HasFailure()) return;
  }
}

}  // namespace
}  // namespace basalt
