#include "filter/filter_lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace basalt::filter {
namespace {

using Kind = Token::Kind;

std::vector<Token> Tokens(std::string_view text) {
  Lexer lexer(text);
  std::vector<Token> tokens;
  while (true) {
    Result<Token> t = lexer.Next();
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    if (!t.ok()) break;
    tokens.push_back(*t);
    if (t->kind == Kind::kEnd) break;
  }
  return tokens;
}

TEST(FilterLexerTest, SplitsWordsAtWhitespaceParenthesesCommasAndQuotes) {
  auto tokens = Tokens("Name ( <=,\t-12)'x'true");
  ASSERT_EQ(tokens.size(), 9u);
  EXPECT_EQ(tokens[0].kind, Kind::kWord);
  EXPECT_EQ(tokens[0].text, "Name");
  EXPECT_EQ(tokens[1].kind, Kind::kLeftParen);
  EXPECT_EQ(tokens[1].position, 5u);
  EXPECT_EQ(tokens[2].text, "<=");
  EXPECT_EQ(tokens[2].position, 7u);
  EXPECT_EQ(tokens[3].kind, Kind::kComma);
  EXPECT_EQ(tokens[4].text, "-12");
  EXPECT_EQ(tokens[4].position, 11u);
  EXPECT_EQ(tokens[5].kind, Kind::kRightParen);
  EXPECT_EQ(tokens[6].kind, Kind::kString);
  EXPECT_EQ(tokens[6].text, "x");
  EXPECT_EQ(tokens[7].kind, Kind::kWord);
  EXPECT_EQ(tokens[7].text, "true");
  EXPECT_EQ(tokens[8].kind, Kind::kEnd);
  EXPECT_EQ(tokens[8].position, 22u);
}

TEST(FilterLexerTest, KeywordsAreExactUpperCaseWords) {
  auto tokens = Tokens("AND OR SKIP WHILE and ANDX (AND)");
  EXPECT_EQ(tokens[0].kind, Kind::kAnd);
  EXPECT_EQ(tokens[1].kind, Kind::kOr);
  EXPECT_EQ(tokens[2].kind, Kind::kSkip);
  EXPECT_EQ(tokens[3].kind, Kind::kWhile);
  EXPECT_EQ(tokens[4].kind, Kind::kWord);
  EXPECT_EQ(tokens[5].kind, Kind::kWord);
  EXPECT_EQ(tokens[7].kind, Kind::kAnd);
}

TEST(FilterLexerTest, QuotedStringsHoldAnyByteAndDoubledQuotes) {
  const std::string text("'it''s' ''  '),( \0\xff' ''''", 25);
  auto tokens = Tokens(text);
  ASSERT_EQ(tokens.size(), 5u);
  EXPECT_EQ(tokens[0].text, "it's");
  EXPECT_EQ(tokens[1].text, "");
  EXPECT_EQ(tokens[1].position, 8u);
  EXPECT_EQ(tokens[2].text, std::string("),( \0\xff", 6));
  EXPECT_EQ(tokens[3].text, "'");
  EXPECT_EQ(tokens[4].kind, Kind::kEnd);
}

TEST(FilterLexerTest, UnclosedStringIsAnErrorAtItsOpeningQuote) {
  for (std::string_view text : {"x 'abc", "x 'abc''", "x '"}) {
    Lexer lexer(text);
    ASSERT_TRUE(lexer.Next().ok());
    Result<Token> t = lexer.Next();
    ASSERT_FALSE(t.ok()) << text;
    EXPECT_EQ(t.status().message(),
              "filter syntax error at position 2: quoted string is never closed (a quote inside "
              "a string is written '')");
  }
}

TEST(FilterLexerTest, AppendQuotedIsReadBackByTheLexer) {
  for (const std::string& bytes : {std::string(""), std::string("'"), std::string("a''b"),
                                   std::string("\0)\xff,'", 5), std::string(" AND ")}) {
    std::string quoted;
    AppendQuoted(bytes, &quoted);
    auto tokens = Tokens(quoted);
    ASSERT_EQ(tokens.size(), 2u);
    EXPECT_EQ(tokens[0].kind, Kind::kString);
    EXPECT_EQ(tokens[0].text, bytes);
  }
}

TEST(FilterLexerTest, ExcerptIsPrintableAndShort) {
  EXPECT_EQ(Excerpt(std::string("a\0\xff", 3)), "a\\x00\\xFF");
  EXPECT_EQ(Excerpt(std::string(100, 'x')), std::string(40, 'x') + "...");
}

}  // namespace
}  // namespace basalt::filter
