#include "shell/parser.h"

#include <gtest/gtest.h>

#include <random>

namespace basalt::shell {
namespace {

std::vector<Command> Parse(std::string_view text) {
  auto commands = ParseCommands(text);
  EXPECT_TRUE(commands.ok()) << text << ": " << commands.status().ToString();
  return commands.ok() ? *commands : std::vector<Command>{};
}

Command ParseOne(std::string_view text) {
  auto commands = Parse(text);
  EXPECT_EQ(commands.size(), 1u) << text;
  return commands.empty() ? Command{} : commands[0];
}

std::string ParseError(std::string_view text, size_t* offset = nullptr) {
  auto commands = ParseCommands(text, offset);
  EXPECT_FALSE(commands.ok()) << text;
  return commands.ok() ? "" : commands.status().message();
}

TEST(ShellParserTest, VerbAndStringArguments) {
  Command c = ParseOne("put 't1', 'r1', 'f:q', 'value'");
  EXPECT_EQ(c.verb, "put");
  ASSERT_EQ(c.args.size(), 4u);
  EXPECT_EQ(c.args[0].kind, Value::Kind::kString);
  EXPECT_EQ(c.args[0].text, "t1");
  EXPECT_EQ(c.args[2].text, "f:q");
  EXPECT_EQ(c.args[3].text, "value");
  EXPECT_EQ(c.args[1].position, 10u);
}

TEST(ShellParserTest, VerbWithoutArguments) {
  Command c = ParseOne("list");
  EXPECT_EQ(c.verb, "list");
  EXPECT_TRUE(c.args.empty());
}

TEST(ShellParserTest, DoubleQuotesDecodeRubyEscapes) {
  Command c = ParseOne(R"(put "\x00\xff\x7", "a\tb\n\\\"", "\101\u00e9\e\s")");
  ASSERT_EQ(c.args.size(), 3u);
  EXPECT_EQ(c.args[0].text, std::string("\x00\xff\x07", 3));
  EXPECT_EQ(c.args[1].text, "a\tb\n\\\"");
  EXPECT_EQ(c.args[2].text, "A\xc3\xa9\x1b ");
}

TEST(ShellParserTest, SingleQuotesAreLiteralExceptBackslashAndQuote) {
  Command c = ParseOne(R"(get 'a\x00b', 'it\'s', 'back\\slash')");
  ASSERT_EQ(c.args.size(), 3u);
  EXPECT_EQ(c.args[0].text, "a\\x00b");
  EXPECT_EQ(c.args[1].text, "it's");
  EXPECT_EQ(c.args[2].text, "back\\slash");
}

TEST(ShellParserTest, NumbersBooleansNilAndConstants) {
  Command c = ParseOne("x 42, -7, 1_000, true, false, nil, VERSIONS");
  ASSERT_EQ(c.args.size(), 7u);
  EXPECT_EQ(c.args[0].integer, 42);
  EXPECT_EQ(c.args[1].integer, -7);
  EXPECT_EQ(c.args[2].integer, 1000);
  EXPECT_EQ(c.args[3].kind, Value::Kind::kBoolean);
  EXPECT_TRUE(c.args[3].boolean);
  EXPECT_FALSE(c.args[4].boolean);
  EXPECT_EQ(c.args[5].kind, Value::Kind::kNil);
  EXPECT_EQ(c.args[6].kind, Value::Kind::kConstant);
  EXPECT_EQ(c.args[6].text, "VERSIONS");
}

TEST(ShellParserTest, IntegerLimits) {
  EXPECT_EQ(ParseOne("x 9223372036854775807").args[0].integer, INT64_MAX);
  EXPECT_EQ(ParseOne("x -9223372036854775808").args[0].integer, INT64_MIN);
  EXPECT_NE(ParseError("x 9223372036854775808").find("out of range"), std::string::npos);
  EXPECT_NE(ParseError("x 1.5").find("only integers"), std::string::npos);
}

TEST(ShellParserTest, HashesAndArraysNest) {
  Command c = ParseOne("scan 't', {COLUMNS => ['f:a', 'g'], LIMIT => 10, 'k' => {A => [1]},}");
  ASSERT_EQ(c.args.size(), 2u);
  const Value& h = c.args[1];
  ASSERT_TRUE(h.is_hash());
  ASSERT_EQ(h.entries.size(), 3u);
  EXPECT_EQ(h.entries[0].key.text, "COLUMNS");
  ASSERT_TRUE(h.entries[0].value.is_array());
  EXPECT_EQ(h.entries[0].value.items[1].text, "g");
  EXPECT_EQ(h.entries[1].value.integer, 10);
  EXPECT_EQ(h.entries[2].key.kind, Value::Kind::kString);
  EXPECT_EQ(h.entries[2].value.entries[0].value.items[0].integer, 1);
}

TEST(ShellParserTest, TrailingPairsFormOneHash) {
  Command c = ParseOne("alter 't1', NAME => 'f1', VERSIONS => 5");
  ASSERT_EQ(c.args.size(), 2u);
  ASSERT_TRUE(c.args[1].is_hash());
  ASSERT_EQ(c.args[1].entries.size(), 2u);
  EXPECT_EQ(c.args[1].entries[1].key.text, "VERSIONS");
  EXPECT_EQ(c.args[1].entries[1].value.integer, 5);
  EXPECT_NE(ParseError("alter 't1', NAME => 'f1', 'x'").find("cannot follow"), std::string::npos);
}

TEST(ShellParserTest, SeparatorsCommentsAndParentheses) {
  auto commands = Parse("create_namespace 'ns'; list_namespace  # a comment\n\nget('t', 'r')\n");
  ASSERT_EQ(commands.size(), 3u);
  EXPECT_EQ(commands[0].verb, "create_namespace");
  EXPECT_EQ(commands[1].verb, "list_namespace");
  EXPECT_TRUE(commands[1].args.empty());
  EXPECT_EQ(commands[2].verb, "get");
  EXPECT_EQ(commands[2].args.size(), 2u);
  EXPECT_TRUE(Parse("  # only a comment").empty());
  EXPECT_TRUE(Parse("").empty());
  EXPECT_EQ(Parse("put 't', 'a#b', 'f:q', 'v' # c")[0].args[1].text, "a#b");
}

TEST(ShellParserTest, CommandsContinueAcrossLinesInsideBracketsOrAfterComma) {
  std::string text = "scan 't', {\n  LIMIT => 1,\n  REVERSED => true\n}";
  EXPECT_TRUE(NeedsMoreInput("scan 't', {"));
  EXPECT_TRUE(NeedsMoreInput("scan 't', {\n  LIMIT => 1,"));
  EXPECT_TRUE(NeedsMoreInput("put 't',"));
  EXPECT_TRUE(NeedsMoreInput("alter 't', NAME =>"));
  EXPECT_TRUE(NeedsMoreInput("get('t'"));
  EXPECT_FALSE(NeedsMoreInput(text));
  EXPECT_FALSE(NeedsMoreInput("list"));
  EXPECT_FALSE(NeedsMoreInput("put 't', 'unterminated"));  // an error, not a continuation
  Command c = ParseOne(text);
  ASSERT_EQ(c.args.size(), 2u);
  EXPECT_EQ(c.args[1].entries.size(), 2u);
  EXPECT_EQ(ParseOne("put 't',\n 'r', 'f:q',\n 'v'").args.size(), 4u);
}

TEST(ShellParserTest, ErrorsNameTheColumnAndOffset) {
  size_t offset = 0;
  std::string msg = ParseError("put 't1', 'r1' 'f:q'", &offset);
  EXPECT_EQ(offset, 15u);
  EXPECT_EQ(msg,
            "syntax error at column 16: expected ',' or the end of the command, found string "
            "'f:q'");
  msg = ParseError("list\nget 't', 'r", &offset);
  EXPECT_EQ(offset, 14u);
  EXPECT_NE(msg.find("column 10: unterminated string"), std::string::npos) << msg;
  EXPECT_NE(ParseError("get t1, 'r'").find("unknown name 't1' (quote strings: 't1'"),
            std::string::npos);
  EXPECT_NE(ParseError("scan 't', {LIMIT 5}").find("expected '=>'"), std::string::npos);
  EXPECT_NE(ParseError("scan 't', {LIMIT => 5").find("found end of input"), std::string::npos);
  EXPECT_NE(ParseError("scan 't', [1 2]").find("expected ',' or ']'"), std::string::npos);
  EXPECT_NE(ParseError("put 't' @").find("unexpected character '@'"), std::string::npos);
  EXPECT_NE(ParseError(R"(put "\xZZ")").find("invalid hex escape"), std::string::npos);
  EXPECT_NE(ParseError("'t1'").find("expected a command name"), std::string::npos);
  EXPECT_NE(ParseError("scan 't', {FILTER => org.apache.hadoop.hbase.filter.KeyOnlyFilter.new()}")
                .find("filter language"),
            std::string::npos);
}

TEST(ShellParserTest, NeverCrashesOnArbitraryBytes) {
  // Every prefix of a tricky input either parses or reports an error.
  const std::string input =
      "scan 't', {FILTER => \"ValueFilter(=, 'binary:\\x00')\", COLUMNS => ['f:q'], "
      "TIMERANGE => [1, 2]}; get('t', \"\\u00e9\\777\", {A => nil})";
  for (size_t n = 0; n <= input.size(); ++n) {
    auto r = ParseCommands(input.substr(0, n));
    NeedsMoreInput(input.substr(0, n));
    if (!r.ok()) {
      EXPECT_TRUE(r.status().IsInvalidArgument());
    }
  }
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<char>(i));
  EXPECT_FALSE(ParseCommands(bytes).ok());
}

TEST(ShellParserTest, RandomInputEitherParsesOrFailsCleanly) {
  // Fragments of the syntax glued at random (fixed seed, so a failure replays).
  const std::vector<std::string> pieces = {
      "scan", "get",    " ",     ",", "=>", "{",  "}",  "[", "]", "(",     ")",   ";",   "\n",  "#",
      "'a'",  "\"\\x0", "\"b\"", "'", "\"", "\\", "12", "-", "_", "LIMIT", "nil", "x.y", "\xff"};
  std::mt19937 rng(20261123);
  for (int i = 0; i < 5000; ++i) {
    std::string text;
    int n = static_cast<int>(rng() % 12);
    for (int j = 0; j < n; ++j) text += pieces[rng() % pieces.size()];
    size_t offset = 0;
    auto r = ParseCommands(text, &offset);
    NeedsMoreInput(text);
    if (!r.ok()) {
      EXPECT_TRUE(r.status().IsInvalidArgument()) << text;
      EXPECT_LE(offset, text.size()) << text;
    }
  }
}

}  // namespace
}  // namespace basalt::shell
