#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "basalt/filter_language.h"

namespace basalt {
namespace {

using namespace std::string_literals;

// Parses `text`, which must be valid.
FilterPtr Parse(std::string_view text) {
  Result<FilterPtr> f = ParseFilter(text);
  EXPECT_TRUE(f.ok()) << "'" << text << "': " << f.status().ToString();
  if (!f.ok()) return nullptr;
  EXPECT_NE(*f, nullptr);
  return *f;
}

// The InvalidArgument message for `text`, which must be invalid.
std::string Error(std::string_view text) {
  Result<FilterPtr> f = ParseFilter(text);
  if (f.ok()) {
    ADD_FAILURE() << "'" << text << "' parsed";
    return "";
  }
  EXPECT_TRUE(f.status().IsInvalidArgument()) << f.status().ToString();
  return f.status().message();
}

#define EXPECT_PARSES_TO(text, expected)                           \
  do {                                                             \
    FilterPtr parsed_ = Parse(text);                               \
    const FilterPtr& expected_ = (expected);                       \
    ASSERT_NE(parsed_, nullptr);                                   \
    EXPECT_TRUE(*parsed_ == *expected_) << "'" << (text) << "'\n"; \
  } while (0)

template <class T, class... Args>
FilterPtr Make(Args&&... args) {
  return std::make_shared<T>(std::forward<Args>(args)...);
}

FilterPtr Prefix(std::string p) {
  return Make<PrefixFilter>(std::move(p));
}
FilterPtr KeyOnly() {
  return Make<KeyOnlyFilter>();
}
FilterPtr Row(CompareOp op, ByteComparator c) {
  return Make<RowFilter>(op, std::move(c));
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

using BC = ByteComparator;

// ---- Every filter with each argument list it accepts ----

TEST(FilterParserTest, KeyOnlyFilterTakesNoArgumentOrABoolean) {
  EXPECT_PARSES_TO("KeyOnlyFilter()", Make<KeyOnlyFilter>(false));
  EXPECT_PARSES_TO("KeyOnlyFilter(true)", Make<KeyOnlyFilter>(true));
  EXPECT_PARSES_TO("KeyOnlyFilter(false)", Make<KeyOnlyFilter>(false));
}

TEST(FilterParserTest, FirstKeyOnlyFilterTakesNoArgument) {
  EXPECT_PARSES_TO("FirstKeyOnlyFilter()", Make<FirstKeyOnlyFilter>());
}

TEST(FilterParserTest, PrefixFiltersTakeOneString) {
  EXPECT_PARSES_TO("PrefixFilter('user123|')", Prefix("user123|"));
  EXPECT_PARSES_TO("PrefixFilter('')", Prefix(""));
  EXPECT_PARSES_TO("ColumnPrefixFilter('q')", Make<ColumnPrefixFilter>("q"));
  EXPECT_PARSES_TO("InclusiveStopFilter('row9')", Make<InclusiveStopFilter>("row9"));
}

TEST(FilterParserTest, MultipleColumnPrefixFilterTakesAnyNumberOfStrings) {
  EXPECT_PARSES_TO("MultipleColumnPrefixFilter()",
                   Make<MultipleColumnPrefixFilter>(std::vector<std::string>{}));
  EXPECT_PARSES_TO("MultipleColumnPrefixFilter('b')",
                   Make<MultipleColumnPrefixFilter>(std::vector<std::string>{"b"}));
  EXPECT_PARSES_TO("MultipleColumnPrefixFilter('b', 'a', 'c')",
                   Make<MultipleColumnPrefixFilter>(std::vector<std::string>{"a", "b", "c"}));
}

TEST(FilterParserTest, CountAndPageFiltersTakeNonNegativeIntegers) {
  EXPECT_PARSES_TO("ColumnCountGetFilter(5)", Make<ColumnCountGetFilter>(5));
  EXPECT_PARSES_TO("ColumnCountGetFilter(0)", Make<ColumnCountGetFilter>(0));
  EXPECT_PARSES_TO("ColumnCountGetFilter(2147483647)", Make<ColumnCountGetFilter>(2147483647));
  EXPECT_PARSES_TO("PageFilter(10)", Make<PageFilter>(10));
  EXPECT_PARSES_TO("PageFilter(0)", Make<PageFilter>(0));
  EXPECT_PARSES_TO("PageFilter(9223372036854775807)", Make<PageFilter>(INT64_MAX));
  EXPECT_PARSES_TO("ColumnPaginationFilter(10, 0)", Make<ColumnPaginationFilter>(10, 0));
  EXPECT_PARSES_TO("ColumnPaginationFilter(0, 2147483647)",
                   Make<ColumnPaginationFilter>(0, 2147483647));
}

TEST(FilterParserTest, TimestampsFilterTakesZeroOrMoreLongs) {
  EXPECT_PARSES_TO("TimestampsFilter()", Make<TimestampsFilter>(std::vector<int64_t>{}));
  EXPECT_PARSES_TO("TimestampsFilter(5)", Make<TimestampsFilter>(std::vector<int64_t>{5}));
  EXPECT_PARSES_TO("TimestampsFilter(9, 0, 9223372036854775807, 9)",
                   Make<TimestampsFilter>(std::vector<int64_t>{0, 9, INT64_MAX}));
}

TEST(FilterParserTest, CompareFiltersTakeAnOperatorAndAComparator) {
  EXPECT_PARSES_TO("RowFilter(>=, 'binary:2024-01')",
                   Row(CompareOp::kGreaterOrEqual, BC::Binary("2024-01")));
  EXPECT_PARSES_TO("FamilyFilter(=, 'binaryprefix:f')",
                   Make<FamilyFilter>(CompareOp::kEqual, BC::BinaryPrefix("f")));
  EXPECT_PARSES_TO("QualifierFilter(!=, 'regexstring:^a.*z$')",
                   Make<QualifierFilter>(CompareOp::kNotEqual, BC::RegexString("^a.*z$")));
  EXPECT_PARSES_TO("ValueFilter(=, 'substring:error')",
                   Make<ValueFilter>(CompareOp::kEqual, BC::Substring("error")));
  EXPECT_PARSES_TO("ValueFilter(<, 'long:-42')",
                   Make<ValueFilter>(CompareOp::kLess, BC::Long(-42)));
}

TEST(FilterParserTest, EveryCompareOperatorSymbol) {
  const std::vector<std::pair<std::string, CompareOp>> ops = {
      {"<", CompareOp::kLess},      {"<=", CompareOp::kLessOrEqual},    {"=", CompareOp::kEqual},
      {"!=", CompareOp::kNotEqual}, {">=", CompareOp::kGreaterOrEqual}, {">", CompareOp::kGreater}};
  for (const auto& [symbol, op] : ops) {
    EXPECT_PARSES_TO("RowFilter(" + symbol + ", 'binary:x')", Row(op, BC::Binary("x")));
  }
}

TEST(FilterParserTest, ColumnRangeFilterTakesTwoBoundsAndTwoBooleans) {
  EXPECT_PARSES_TO("ColumnRangeFilter('a', true, 'm', false)",
                   Make<ColumnRangeFilter>("a", true, "m", false));
  EXPECT_PARSES_TO("ColumnRangeFilter('', false, '', true)",
                   Make<ColumnRangeFilter>("", false, "", true));
}

TEST(FilterParserTest, DependentColumnFilterTakesTwoThreeOrFiveArguments) {
  EXPECT_PARSES_TO("DependentColumnFilter('f', 'q')", Make<DependentColumnFilter>("f", "q"));
  EXPECT_PARSES_TO("DependentColumnFilter('f', 'q', true)",
                   Make<DependentColumnFilter>("f", "q", true));
  EXPECT_PARSES_TO("DependentColumnFilter('f', 'q', false)",
                   Make<DependentColumnFilter>("f", "q", false));
  EXPECT_PARSES_TO(
      "DependentColumnFilter('f', 'q', true, <=, 'binary:5')",
      Make<DependentColumnFilter>("f", "q", true, CompareOp::kLessOrEqual, BC::Binary("5")));
}

TEST(FilterParserTest, SingleColumnValueFiltersTakeFourOrSixArguments) {
  EXPECT_PARSES_TO("SingleColumnValueFilter('d', 'status', =, 'binary:active')",
                   Make<SingleColumnValueFilter>("d", "status", CompareOp::kEqual,
                                                 BC::Binary("active"), false, true));
  EXPECT_PARSES_TO("SingleColumnValueFilter('d', 'status', =, 'binary:active', true, false)",
                   Make<SingleColumnValueFilter>("d", "status", CompareOp::kEqual,
                                                 BC::Binary("active"), true, false));
  EXPECT_PARSES_TO(
      "SingleColumnValueExcludeFilter('d', 's', >, 'long:7')",
      Make<SingleColumnValueExcludeFilter>("d", "s", CompareOp::kGreater, BC::Long(7)));
  EXPECT_PARSES_TO("SingleColumnValueExcludeFilter('d', 's', !=, 'substring:x', false, false)",
                   Make<SingleColumnValueExcludeFilter>("d", "s", CompareOp::kNotEqual,
                                                        BC::Substring("x"), false, false));
}

TEST(FilterParserTest, FuzzyRowFilterTakesPatternMaskPairs) {
  using Key = FuzzyRowFilter::FuzzyKey;
  EXPECT_PARSES_TO("FuzzyRowFilter('ab', '\x01\x00')"s,
                   Make<FuzzyRowFilter>(std::vector<Key>{{"ab", std::string("\x01\x00", 2)}}));
  EXPECT_PARSES_TO("FuzzyRowFilter('a', '\x01', '', '')",
                   Make<FuzzyRowFilter>(std::vector<Key>{{"a", "\x01"}, {"", ""}}));
}

// ---- The examples of the reference (§3.3) ----

TEST(FilterParserTest, ReferenceExamples) {
  EXPECT_PARSES_TO("PrefixFilter('user123|') AND KeyOnlyFilter()",
                   And({Prefix("user123|"), KeyOnly()}));
  EXPECT_PARSES_TO(
      "(RowFilter(>=, 'binary:2024-01') AND RowFilter(<, 'binary:2024-02')) OR "
      "ValueFilter(=, 'substring:error')",
      Or({And({Row(CompareOp::kGreaterOrEqual, BC::Binary("2024-01")),
               Row(CompareOp::kLess, BC::Binary("2024-02"))}),
          Make<ValueFilter>(CompareOp::kEqual, BC::Substring("error"))}));
  EXPECT_PARSES_TO("SingleColumnValueFilter('d', 'status', =, 'binary:active', true, true)",
                   Make<SingleColumnValueFilter>("d", "status", CompareOp::kEqual,
                                                 BC::Binary("active"), true, true));
  EXPECT_PARSES_TO("SKIP ValueFilter(!=, 'binary:0')",
                   Skip(Make<ValueFilter>(CompareOp::kNotEqual, BC::Binary("0"))));
  EXPECT_PARSES_TO(
      "ColumnRangeFilter('a', true, 'm', false) AND ColumnPaginationFilter(10, 0)",
      And({Make<ColumnRangeFilter>("a", true, "m", false), Make<ColumnPaginationFilter>(10, 0)}));
}

// ---- Operators, precedence, flattening ----

FilterPtr A() {
  return Prefix("a");
}
FilterPtr B() {
  return Prefix("b");
}
FilterPtr C() {
  return Prefix("c");
}
FilterPtr D() {
  return Prefix("d");
}

TEST(FilterParserTest, AndBindsTighterThanOr) {
  EXPECT_PARSES_TO("PrefixFilter('a') AND PrefixFilter('b') OR PrefixFilter('c')",
                   Or({And({A(), B()}), C()}));
  EXPECT_PARSES_TO("PrefixFilter('a') OR PrefixFilter('b') AND PrefixFilter('c')",
                   Or({A(), And({B(), C()})}));
  EXPECT_PARSES_TO(
      "PrefixFilter('a') OR PrefixFilter('b') AND PrefixFilter('c') OR PrefixFilter('d')",
      Or({A(), And({B(), C()}), D()}));
}

TEST(FilterParserTest, SkipAndWhileBindTighterThanAnd) {
  EXPECT_PARSES_TO("PrefixFilter('a') AND SKIP PrefixFilter('b') OR PrefixFilter('c')",
                   Or({And({A(), Skip(B())}), C()}));
  EXPECT_PARSES_TO("WHILE PrefixFilter('a') AND PrefixFilter('b')", And({While(A()), B()}));
  EXPECT_PARSES_TO("SKIP WHILE SKIP PrefixFilter('a')", Skip(While(Skip(A()))));
  EXPECT_PARSES_TO("SKIP (PrefixFilter('a') OR PrefixFilter('b'))", Skip(Or({A(), B()})));
  EXPECT_PARSES_TO("WHILE(PrefixFilter('a'))", While(A()));
}

TEST(FilterParserTest, ChainsOfOneOperatorFlattenIntoOneList) {
  EXPECT_PARSES_TO(
      "PrefixFilter('a') AND PrefixFilter('b') AND PrefixFilter('c') AND "
      "PrefixFilter('d')",
      And({A(), B(), C(), D()}));
  EXPECT_PARSES_TO("PrefixFilter('a') OR PrefixFilter('b') OR PrefixFilter('c')",
                   Or({A(), B(), C()}));
}

TEST(FilterParserTest, ParenthesesKeepAListNested) {
  EXPECT_PARSES_TO("(PrefixFilter('a') AND PrefixFilter('b')) AND PrefixFilter('c')",
                   And({And({A(), B()}), C()}));
  EXPECT_PARSES_TO("PrefixFilter('a') AND (PrefixFilter('b') AND PrefixFilter('c'))",
                   And({A(), And({B(), C()})}));
  EXPECT_PARSES_TO("PrefixFilter('a') AND (PrefixFilter('b') OR PrefixFilter('c'))",
                   And({A(), Or({B(), C()})}));
}

TEST(FilterParserTest, RedundantParenthesesChangeNothing) {
  EXPECT_PARSES_TO("((PrefixFilter('a')))", A());
  EXPECT_PARSES_TO("(PrefixFilter('a')) AND (PrefixFilter('b'))", And({A(), B()}));
  EXPECT_PARSES_TO("((PrefixFilter('a') AND PrefixFilter('b')))", And({A(), B()}));
}

TEST(FilterParserTest, KeywordsNeedNoSpaceNextToParentheses) {
  EXPECT_PARSES_TO("(PrefixFilter('a'))AND(PrefixFilter('b'))OR(PrefixFilter('c'))",
                   Or({And({A(), B()}), C()}));
  EXPECT_PARSES_TO("PrefixFilter('a')AND PrefixFilter('b')", And({A(), B()}));
  EXPECT_PARSES_TO("SKIP(PrefixFilter('a'))", Skip(A()));
}

// ---- Lexical rules ----

TEST(FilterParserTest, WhitespaceBetweenTokensIsIgnored) {
  EXPECT_PARSES_TO(" \t PrefixFilter \t ( \t 'a' \t ) \t AND\tKeyOnlyFilter ( true ) ",
                   And({A(), Make<KeyOnlyFilter>(true)}));
  EXPECT_PARSES_TO("ColumnRangeFilter('a',true,'m',false)",
                   Make<ColumnRangeFilter>("a", true, "m", false));
}

TEST(FilterParserTest, QuotedStringsHoldAnyByte) {
  EXPECT_PARSES_TO("PrefixFilter('it''s')", Prefix("it's"));
  EXPECT_PARSES_TO("PrefixFilter('''')", Prefix("'"));
  EXPECT_PARSES_TO("PrefixFilter('''''')", Prefix("''"));
  EXPECT_PARSES_TO("PrefixFilter('a), b(')", Prefix("a), b("));
  EXPECT_PARSES_TO("PrefixFilter(' AND x OR SKIP ')", Prefix(" AND x OR SKIP "));
  EXPECT_PARSES_TO(std::string("PrefixFilter('\0\xff\n\t')", 20),
                   Prefix(std::string("\0\xff\n\t", 4)));
  EXPECT_PARSES_TO("ValueFilter(=, 'binary:a:b''c')",
                   Make<ValueFilter>(CompareOp::kEqual, BC::Binary("a:b'c")));
}

TEST(FilterParserTest, BooleansIgnoreCase) {
  EXPECT_PARSES_TO("KeyOnlyFilter(TRUE)", Make<KeyOnlyFilter>(true));
  EXPECT_PARSES_TO("KeyOnlyFilter(tRuE)", Make<KeyOnlyFilter>(true));
  EXPECT_PARSES_TO("ColumnRangeFilter('a', False, 'b', FALSE)",
                   Make<ColumnRangeFilter>("a", false, "b", false));
}

TEST(FilterParserTest, IntegersMayHaveLeadingZerosAndMinusZero) {
  EXPECT_PARSES_TO("PageFilter(007)", Make<PageFilter>(7));
  EXPECT_PARSES_TO("PageFilter(-0)", Make<PageFilter>(0));
}

TEST(FilterParserTest, ComparatorSplitsAtTheFirstColon) {
  EXPECT_PARSES_TO("RowFilter(=, 'binary:')", Row(CompareOp::kEqual, BC::Binary("")));
  EXPECT_PARSES_TO("RowFilter(=, 'binary::')", Row(CompareOp::kEqual, BC::Binary(":")));
  EXPECT_PARSES_TO("RowFilter(=, 'regexstring:a:b')",
                   Row(CompareOp::kEqual, BC::RegexString("a:b")));
  EXPECT_PARSES_TO("RowFilter(=, 'long:9223372036854775807')",
                   Row(CompareOp::kEqual, BC::Long(INT64_MAX)));
  EXPECT_PARSES_TO("RowFilter(=, 'long:-9223372036854775808')",
                   Row(CompareOp::kEqual, BC::Long(INT64_MIN)));
}

TEST(FilterParserTest, RegexPatternsAreCheckedButAnyEncodingWorks) {
  EXPECT_PARSES_TO("RowFilter(=, 'regexstring:')", Row(CompareOp::kEqual, BC::RegexString("")));
  EXPECT_PARSES_TO("RowFilter(=, 'regexstring:\xff+')",
                   Row(CompareOp::kEqual, BC::RegexString("\xff+")));
  EXPECT_PARSES_TO("RowFilter(=, 'regexstring:(?i)caf\xc3\xa9')",
                   Row(CompareOp::kEqual, BC::RegexString("(?i)caf\xc3\xa9")));
  EXPECT_PARSES_TO(std::string("RowFilter(=, 'regexstring:a\0b')", 31),
                   Row(CompareOp::kEqual, BC::RegexString(std::string("a\0b", 3))));
}

// ---- Errors: each class, with its message and position ----

TEST(FilterParserTest, EmptyOrBlankInputIsAnError) {
  EXPECT_EQ(Error(""),
            "filter syntax error at position 0: expected a filter, SKIP, WHILE or '(', found end "
            "of filter");
  EXPECT_EQ(Error("   "),
            "filter syntax error at position 3: expected a filter, SKIP, WHILE or '(', found end "
            "of filter");
}

TEST(FilterParserTest, UnknownFilterNamesItsPosition) {
  EXPECT_EQ(Error("Foo()"), "unknown filter 'Foo' at position 0");
  EXPECT_EQ(Error("KeyOnlyFilter() AND Foo('x')"), "unknown filter 'Foo' at position 20");
  EXPECT_EQ(Error("prefixfilter('a')"),
            "unknown filter 'prefixfilter' at position 0 (filter names are case-sensitive: "
            "PrefixFilter)");
  EXPECT_EQ(Error("KeyOnlyFilter() and KeyOnlyFilter()"),
            "filter syntax error at position 16: expected AND, OR or the end of the filter, "
            "found 'and' (the keywords AND, OR, SKIP and WHILE are upper case)");
  EXPECT_EQ(Error("skip KeyOnlyFilter()"),
            "unknown filter 'skip' at position 0 (the keywords AND, OR, SKIP and WHILE are upper "
            "case)");
  EXPECT_EQ(Error(std::string("Bad\0Name()", 10)), "unknown filter 'Bad\\x00Name' at position 0");
}

TEST(FilterParserTest, NamesOutsideTheLanguageSayHowToWriteThem) {
  EXPECT_EQ(Error("FilterList()"),
            "'FilterList' at position 0 is not written as a filter: combine filters with AND and "
            "OR (an empty FilterList has no form in the language)");
  EXPECT_EQ(Error("SkipFilter(KeyOnlyFilter())"),
            "'SkipFilter' at position 0 is not written as a filter: write SKIP before the filter "
            "it wraps");
  EXPECT_EQ(Error("WhileMatchFilter(KeyOnlyFilter())"),
            "'WhileMatchFilter' at position 0 is not written as a filter: write WHILE before the "
            "filter it wraps");
  EXPECT_EQ(Error("ColumnValueFilter('f', 'q', =, 'binary:x')"),
            "filter 'ColumnValueFilter' at position 0 is not supported by basalt");
}

TEST(FilterParserTest, MismatchedParenthesesNameTheUnmatchedOne) {
  EXPECT_EQ(Error("(KeyOnlyFilter()"), "mismatched parenthesis at position 0: '(' is never closed");
  EXPECT_EQ(Error("KeyOnlyFilter() AND ((KeyOnlyFilter() OR KeyOnlyFilter())"),
            "mismatched parenthesis at position 20: '(' is never closed");
  EXPECT_EQ(Error("KeyOnlyFilter())"),
            "mismatched parenthesis at position 15: ')' has no matching '('");
  EXPECT_EQ(Error("(KeyOnlyFilter())) AND KeyOnlyFilter()"),
            "mismatched parenthesis at position 17: ')' has no matching '('");
}

TEST(FilterParserTest, SyntaxErrorsSayWhatWasExpected) {
  EXPECT_EQ(Error("ColumnRangeFilter('a', true 'm', false)"),
            "filter syntax error at position 28: expected ',' or ')' after argument 2 of "
            "ColumnRangeFilter, found a quoted string");
  EXPECT_EQ(Error("PrefixFilter('a'"),
            "filter syntax error at position 16: expected ',' or ')' after argument 1 of "
            "PrefixFilter, found end of filter");
  EXPECT_EQ(Error("PageFilter(,5)"),
            "filter syntax error at position 11: expected argument 1 of PageFilter, found ','");
  EXPECT_EQ(Error("PageFilter(5,)"),
            "filter syntax error at position 13: expected argument 2 of PageFilter, found ')'");
  EXPECT_EQ(Error("PageFilter(5(1))"),
            "filter syntax error at position 12: expected ',' or ')' after argument 1 of "
            "PageFilter, found '('");
  EXPECT_EQ(Error("KeyOnlyFilter"),
            "filter syntax error at position 13: expected '(' after KeyOnlyFilter, found end of "
            "filter");
  EXPECT_EQ(Error("PrefixFilter 'a'"),
            "filter syntax error at position 13: expected '(' after PrefixFilter, found a quoted "
            "string");
  EXPECT_EQ(Error("KeyOnlyFilter() AND"),
            "filter syntax error at position 19: expected a filter, SKIP, WHILE or '(', found end "
            "of filter");
  EXPECT_EQ(Error("AND KeyOnlyFilter()"),
            "filter syntax error at position 0: expected a filter, SKIP, WHILE or '(', found AND");
  EXPECT_EQ(Error("KeyOnlyFilter() AND OR KeyOnlyFilter()"),
            "filter syntax error at position 20: expected a filter, SKIP, WHILE or '(', found OR");
  EXPECT_EQ(Error("KeyOnlyFilter() KeyOnlyFilter()"),
            "filter syntax error at position 16: expected AND, OR or the end of the filter, found "
            "'KeyOnlyFilter'");
  EXPECT_EQ(Error("KeyOnlyFilter() SKIP KeyOnlyFilter()"),
            "filter syntax error at position 16: expected AND, OR or the end of the filter, found "
            "SKIP");
  EXPECT_EQ(Error("(KeyOnlyFilter() KeyOnlyFilter())"),
            "filter syntax error at position 17: expected AND, OR or ')', found 'KeyOnlyFilter'");
  EXPECT_EQ(Error("()"),
            "filter syntax error at position 1: expected a filter, SKIP, WHILE or '(', found ')'");
  EXPECT_EQ(Error("SKIP"),
            "filter syntax error at position 4: expected a filter, SKIP, WHILE or '(', found end "
            "of filter");
  EXPECT_EQ(Error("'PrefixFilter'('a')"),
            "filter syntax error at position 0: expected a filter, SKIP, WHILE or '(', found a "
            "quoted string");
  EXPECT_EQ(Error("KeyOnlyFilter()\nAND KeyOnlyFilter()"),
            "filter syntax error at position 15: expected AND, OR or the end of the filter, found "
            "'\\x0AAND'");
}

TEST(FilterParserTest, UnclosedStringIsASyntaxError) {
  EXPECT_EQ(Error("PrefixFilter('it''s)"),
            "filter syntax error at position 13: quoted string is never closed (a quote inside a "
            "string is written '')");
}

TEST(FilterParserTest, WrongArgumentCountsShowTheUsage) {
  EXPECT_EQ(Error("PageFilter()"),
            "wrong number of arguments for PageFilter at position 0: got 0 arguments, expected "
            "PageFilter(page_size)");
  EXPECT_EQ(Error("KeyOnlyFilter(true, true)"),
            "wrong number of arguments for KeyOnlyFilter at position 0: got 2 arguments, expected "
            "KeyOnlyFilter() or KeyOnlyFilter(length_as_value)");
  EXPECT_EQ(Error("FirstKeyOnlyFilter(1)"),
            "wrong number of arguments for FirstKeyOnlyFilter at position 0: got 1 argument, "
            "expected FirstKeyOnlyFilter()");
  EXPECT_EQ(Error("KeyOnlyFilter() OR SingleColumnValueFilter('f', 'q', =, 'binary:x', true)"),
            "wrong number of arguments for SingleColumnValueFilter at position 19: got 5 "
            "arguments, expected SingleColumnValueFilter('family', 'qualifier', op, "
            "'comparator'[, filter_if_missing, latest_version_only])");
  EXPECT_EQ(Error("DependentColumnFilter('f', 'q', true, =)"),
            "wrong number of arguments for DependentColumnFilter at position 0: got 4 arguments, "
            "expected DependentColumnFilter('family', 'qualifier'[, drop_dependent_column[, op, "
            "'comparator']])");
  EXPECT_EQ(Error("FuzzyRowFilter()"),
            "wrong number of arguments for FuzzyRowFilter at position 0: got 0 arguments, "
            "expected FuzzyRowFilter('pattern', 'mask'[, 'pattern', 'mask']...)");
  EXPECT_EQ(Error("FuzzyRowFilter('a', '\x01', 'b')"),
            "wrong number of arguments for FuzzyRowFilter at position 0: got 3 arguments, "
            "expected FuzzyRowFilter('pattern', 'mask'[, 'pattern', 'mask']...)");
  for (std::string_view text :
       {"PrefixFilter()", "PrefixFilter('a', 'b')", "ColumnPrefixFilter()",
        "InclusiveStopFilter('a', 'b')", "ColumnCountGetFilter()", "ColumnPaginationFilter(1)",
        "ColumnRangeFilter('a', true, 'b')", "RowFilter(=)", "FamilyFilter(=, 'binary:a', 1)",
        "QualifierFilter()", "ValueFilter(=, 'binary:a', =, 'binary:b')",
        "DependentColumnFilter('f')", "DependentColumnFilter('f', 'q', true, =, 'binary:a', 1)",
        "SingleColumnValueFilter('f', 'q', =)",
        "SingleColumnValueExcludeFilter('f', 'q', =, 'binary:a', true, true, true)"}) {
    EXPECT_EQ(Error(text).rfind("wrong number of arguments for ", 0), 0u) << text;
  }
}

TEST(FilterParserTest, ArgumentsOfTheWrongTypeNameTheArgument) {
  EXPECT_EQ(Error("PrefixFilter(abc)"),
            "invalid argument 1 of PrefixFilter at position 13: expected a quoted string, found "
            "'abc'");
  EXPECT_EQ(Error("PageFilter('5')"),
            "invalid argument 1 of PageFilter at position 11: expected an integer, found a "
            "quoted string");
  EXPECT_EQ(Error("ColumnRangeFilter('a', yes, 'b', true)"),
            "invalid argument 2 of ColumnRangeFilter at position 23: expected true or false, "
            "found 'yes'");
  EXPECT_EQ(Error("KeyOnlyFilter('true')"),
            "invalid argument 1 of KeyOnlyFilter at position 14: expected true or false, found a "
            "quoted string");
  EXPECT_EQ(Error("RowFilter(==, 'binary:a')"),
            "invalid argument 1 of RowFilter at position 10: expected a compare operator (<, <=, "
            "=, !=, >=, >), found '=='");
  EXPECT_EQ(Error("RowFilter(EQUAL, 'binary:a')"),
            "invalid argument 1 of RowFilter at position 10: expected a compare operator (<, <=, "
            "=, !=, >=, >), found 'EQUAL'");
  EXPECT_EQ(Error("RowFilter(=, binary:a)"),
            "invalid argument 2 of RowFilter at position 13: expected a comparator 'type:value' "
            "(type binary, binaryprefix, regexstring, substring or long), found 'binary:a'");
  EXPECT_EQ(Error("PrefixFilter(AND)"),
            "invalid argument 1 of PrefixFilter at position 13: expected a quoted string, found "
            "'AND'");
}

TEST(FilterParserTest, IntegersAreRangeChecked) {
  EXPECT_EQ(Error("PageFilter(-1)"),
            "invalid argument 1 of PageFilter at position 11: must be at least 0, found -1");
  EXPECT_EQ(Error("PageFilter(9223372036854775808)"),
            "invalid argument 1 of PageFilter at position 11: integer out of range: "
            "9223372036854775808");
  EXPECT_EQ(Error("ColumnCountGetFilter(2147483648)"),
            "invalid argument 1 of ColumnCountGetFilter at position 21: must be between 0 and "
            "2147483647, found 2147483648");
  EXPECT_EQ(Error("ColumnCountGetFilter(-1)"),
            "invalid argument 1 of ColumnCountGetFilter at position 21: must be between 0 and "
            "2147483647, found -1");
  EXPECT_EQ(Error("ColumnPaginationFilter(1, -1)"),
            "invalid argument 2 of ColumnPaginationFilter at position 26: must be between 0 and "
            "2147483647, found -1");
  EXPECT_EQ(Error("TimestampsFilter(1, 2, -3)"),
            "invalid argument 3 of TimestampsFilter at position 23: must be at least 0, found -3");
  for (std::string_view bad : {"+5", "-", "5a", "0x10", "1.5", "1e3", "--1", "five"}) {
    EXPECT_EQ(Error("PageFilter(" + std::string(bad) + ")"),
              "invalid argument 1 of PageFilter at position 11: expected an integer, found '" +
                  std::string(bad) + "'");
  }
}

TEST(FilterParserTest, ComparatorsAreChecked) {
  EXPECT_EQ(Error("RowFilter(=, 'binary')"),
            "invalid argument 2 of RowFilter at position 13: expected a comparator 'type:value' "
            "(type binary, binaryprefix, regexstring, substring or long), found 'binary'");
  EXPECT_EQ(Error("RowFilter(=, 'BINARY:x')"),
            "invalid argument 2 of RowFilter at position 13: unknown comparator type 'BINARY' "
            "(binary, binaryprefix, regexstring, substring or long)");
  EXPECT_EQ(Error("RowFilter(=, 'bit:x')"),
            "invalid argument 2 of RowFilter at position 13: unknown comparator type 'bit' "
            "(binary, binaryprefix, regexstring, substring or long)");
  EXPECT_EQ(Error("ValueFilter(<, 'long:12x')"),
            "invalid argument 2 of ValueFilter at position 15: a long comparator takes a decimal "
            "64-bit integer, found '12x'");
  EXPECT_EQ(Error("ValueFilter(<, 'long: 12')"),
            "invalid argument 2 of ValueFilter at position 15: a long comparator takes a decimal "
            "64-bit integer, found ' 12'");
  EXPECT_EQ(Error("ValueFilter(<, 'long:9223372036854775808')"),
            "invalid argument 2 of ValueFilter at position 15: a long comparator takes a decimal "
            "64-bit integer, found '9223372036854775808'");
  EXPECT_EQ(Error("ValueFilter(<, 'long:')"),
            "invalid argument 2 of ValueFilter at position 15: a long comparator takes a decimal "
            "64-bit integer, found ''");
}

TEST(FilterParserTest, RegexAndSubstringComparatorsNeedEqualOrNotEqual) {
  EXPECT_EQ(Error("RowFilter(<, 'regexstring:a')"),
            "invalid argument 2 of RowFilter at position 13: a regexstring comparator works only "
            "with = and !=, not <");
  EXPECT_EQ(Error("SingleColumnValueFilter('f', 'q', >=, 'substring:a')"),
            "invalid argument 4 of SingleColumnValueFilter at position 38: a substring comparator "
            "works only with = and !=, not >=");
  EXPECT_EQ(Error("DependentColumnFilter('f', 'q', true, >, 'substring:a')"),
            "invalid argument 5 of DependentColumnFilter at position 41: a substring comparator "
            "works only with = and !=, not >");
}

TEST(FilterParserTest, InvalidRegexIsRejectedAtParseTime) {
  EXPECT_EQ(Error("ValueFilter(=, 'regexstring:(abc')"),
            "invalid argument 2 of ValueFilter at position 15: invalid regular expression: "
            "missing ): (abc");
  EXPECT_EQ(
      Error("ValueFilter(=, 'regexstring:a{1001}')")
          .rfind("invalid argument 2 of ValueFilter at position 15: invalid regular expression: ",
                 0),
      0u);
}

TEST(FilterParserTest, MultipleColumnPrefixesMustBeDistinct) {
  EXPECT_EQ(Error("MultipleColumnPrefixFilter('a', 'b', 'a')"),
            "invalid argument 3 of MultipleColumnPrefixFilter at position 37: prefix 'a' is given "
            "twice");
}

TEST(FilterParserTest, FuzzyMasksAreChecked) {
  EXPECT_EQ(Error("FuzzyRowFilter('abc', '\x01\x01')"),
            "invalid argument 2 of FuzzyRowFilter at position 22: mask has 2 bytes, its pattern "
            "3; they must be equally long");
  EXPECT_EQ(Error("FuzzyRowFilter('ab', '\x01\x01', 'ab', '\x01\x02')"),
            "invalid argument 4 of FuzzyRowFilter at position 33: mask byte 1 is '\\x02'; mask "
            "bytes are \\x00 (fixed) or \\x01 (any)");
  EXPECT_EQ(Error("FuzzyRowFilter('ab', 'x\x01')"),
            "invalid argument 2 of FuzzyRowFilter at position 21: mask byte 0 is 'x'; mask bytes "
            "are \\x00 (fixed) or \\x01 (any)");
  EXPECT_EQ(Error("FuzzyRowFilter(ab, '\x01')"),
            "invalid argument 1 of FuzzyRowFilter at position 15: expected a quoted string, found "
            "'ab'");
}

TEST(FilterParserTest, NestingIsLimited) {
  std::string ok =
      std::string(kMaxFilterNesting, '(') + "KeyOnlyFilter()" + std::string(kMaxFilterNesting, ')');
  EXPECT_PARSES_TO(ok, KeyOnly());
  std::string deep = "(" + ok + ")";
  EXPECT_EQ(Error(deep),
            "filter nested too deeply at position 100: at most 100 levels of "
            "parentheses, SKIP and WHILE");
  std::string skips;
  for (int i = 0; i < kMaxFilterNesting; ++i) skips += "SKIP ";
  FilterPtr expected = KeyOnly();
  for (int i = 0; i < kMaxFilterNesting; ++i) expected = Skip(expected);
  EXPECT_PARSES_TO(skips + "KeyOnlyFilter()", expected);
  EXPECT_EQ(Error(skips + "WHILE KeyOnlyFilter()"),
            "filter nested too deeply at position 500: at most 100 levels of parentheses, SKIP "
            "and WHILE");
  EXPECT_EQ(Error("SKIP " + std::string(kMaxFilterNesting, '('))
                .rfind("filter nested too deeply at position 104", 0),
            0u);
}

TEST(FilterParserTest, VeryDeepInputFailsWithoutExhaustingTheStack) {
  EXPECT_EQ(Error(std::string(1'000'000, '(')).rfind("filter nested too deeply", 0), 0u);
  std::string skips;
  for (int i = 0; i < 200'000; ++i) skips += "SKIP ";
  EXPECT_EQ(Error(skips).rfind("filter nested too deeply", 0), 0u);
}

TEST(FilterParserTest, LongChainsAreFine) {
  std::string text = "KeyOnlyFilter()";
  for (int i = 0; i < 20'000; ++i) text += " OR KeyOnlyFilter()";
  FilterPtr f = Parse(text);
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->type(), Filter::Type::kFilterList);
  EXPECT_EQ(static_cast<const FilterList&>(*f).filters().size(), 20'001u);
}

TEST(FilterParserTest, HugeArgumentListsAreNotQuadratic) {
  constexpr int kArgs = 100'000;
  std::string prefixes = "MultipleColumnPrefixFilter(";
  std::string timestamps = "TimestampsFilter(";
  for (int i = 0; i < kArgs; ++i) {
    prefixes += (i == 0 ? "'" : ", '") + std::to_string(i) + "'";
    timestamps += (i == 0 ? "" : ", ") + std::to_string(kArgs - i);
  }
  FilterPtr p = Parse(prefixes + ")");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(static_cast<const MultipleColumnPrefixFilter&>(*p).prefixes().size(), size_t{kArgs});
  FilterPtr t = Parse(timestamps + ")");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(static_cast<const TimestampsFilter&>(*t).timestamps().size(), size_t{kArgs});
}

TEST(FilterParserTest, InputLengthIsLimited) {
  std::string at_limit = "PrefixFilter('')";
  at_limit.insert(14, kMaxFilterStringLength - at_limit.size(), 'x');
  ASSERT_EQ(at_limit.size(), kMaxFilterStringLength);
  EXPECT_PARSES_TO(at_limit, Prefix(std::string(kMaxFilterStringLength - 16, 'x')));
  EXPECT_EQ(Error(at_limit + " "), "filter string too long: 1048577 bytes, at most 1048576");
}

TEST(FilterParserTest, ParsedListsHaveAtLeastTwoChildren) {
  // No parse result holds a list of fewer than two filters, whatever the parentheses.
  for (std::string_view text : {"(KeyOnlyFilter())", "((KeyOnlyFilter())) AND (KeyOnlyFilter())",
                                "SKIP (KeyOnlyFilter())"}) {
    FilterPtr f = Parse(text);
    ASSERT_NE(f, nullptr);
    std::vector<const Filter*> stack{f.get()};
    while (!stack.empty()) {
      const Filter* g = stack.back();
      stack.pop_back();
      if (g->type() == Filter::Type::kFilterList) {
        const auto& list = static_cast<const FilterList&>(*g);
        EXPECT_GE(list.filters().size(), 2u) << text;
        for (const auto& c : list.filters()) stack.push_back(c.get());
      } else if (g->type() == Filter::Type::kSkip) {
        stack.push_back(static_cast<const SkipFilter&>(*g).filter().get());
      }
    }
  }
}

}  // namespace
}  // namespace basalt
