// The one table of operations (shell/operations.h) drives both front ends: every entry is a verb
// of `basalt --help` and a command of the shell's `help` with the same summary, its command-line
// parameters are in `basalt VERB --help`, and a verb run through either front end leaves the store
// as the other sees it.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "shell/operations.h"
#include "support/shell_quote.h"
#include "support/test_store.h"

namespace basalt {
namespace {

using shell::Operation;
using shell::Operations;
using shell::Parameter;
using testing::ShellQuote;

// Runs `basalt ARGS` on the store in `dir`; its stdout (and stderr after it).
std::string Basalt(const std::string& dir, const std::string& args) {
  const std::string out = dir + "/out";
  const std::string cmd = "cd " + ShellQuote(dir) + " && " + ShellQuote(BASALT_BINARY) +
                          " --data " + ShellQuote(dir + "/data") + " " + args + " >" +
                          ShellQuote(out) + " 2>&1";
  int raw = std::system(cmd.c_str());
  EXPECT_TRUE(WIFEXITED(raw)) << cmd;
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs `script` through `basalt shell`.
std::string Shell(const std::string& dir, const std::string& script) {
  std::ofstream(dir + "/script.hb") << script;
  return Basalt(dir, "shell script.hb");
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Whether a line of `help` lists `verb` with `summary`, as CLI11 lays subcommands out.
bool ListsVerb(const std::string& help, std::string_view verb, std::string_view summary) {
  for (const std::string& line : Lines(help)) {
    const std::string head = "  " + std::string(verb) + " ";
    if (line.rfind(head, 0) != 0) continue;
    const size_t text = line.find_first_not_of(' ', head.size());
    if (text != std::string::npos && line.substr(text) == summary) return true;
  }
  return false;
}

std::string_view Parent(const Operation& op) {
  size_t space = op.cli_name.rfind(' ');
  return space == std::string_view::npos ? std::string_view() : op.cli_name.substr(0, space);
}

std::string_view Verb(const Operation& op) {
  size_t space = op.cli_name.rfind(' ');
  return space == std::string_view::npos ? op.cli_name : op.cli_name.substr(space + 1);
}

TEST(CommandTableTest, EveryEntryIsInBothHelpsWithTheSameSummary) {
  testing::TempDir dir;
  const std::string top = Basalt(dir.path(), "--help");
  std::string shell_script;
  for (const Operation& op : Operations()) {
    if (!op.shell_name.empty()) shell_script += "help '" + std::string(op.shell_name) + "'\n";
  }
  const std::string shell_help = Shell(dir.path(), shell_script);
  for (const Operation& op : Operations()) {
    ASSERT_FALSE(op.summary.empty());
    ASSERT_FALSE(op.shell_name.empty() && op.cli_name.empty());
    if (!op.shell_name.empty()) {
      EXPECT_NE(shell_help.find(std::string(op.shell_name) + ": " + std::string(op.summary) +
                                "\n\n" + std::string(op.shell_usage) + "\n"),
                std::string::npos)
          << op.shell_name << " in the shell's help:\n"
          << shell_help;
    }
    if (op.cli_name.empty()) continue;
    const std::string parent_help =
        Parent(op).empty() ? top : Basalt(dir.path(), std::string(Parent(op)) + " --help");
    EXPECT_TRUE(ListsVerb(parent_help, Verb(op), op.summary)) << op.cli_name << " in --help:\n"
                                                              << parent_help;
    const std::string verb_help = Basalt(dir.path(), std::string(op.cli_name) + " --help");
    EXPECT_EQ(Lines(verb_help).at(0), op.summary) << op.cli_name;
    for (const Parameter& p : op.parameters) {
      if (p.cli == Parameter::Cli::kNone) continue;
      EXPECT_NE(verb_help.find(std::string(p.name)), std::string::npos)
          << op.cli_name << " --help has no " << p.name << ":\n"
          << verb_help;
    }
  }
}

// The shell's output without its timing lines.
std::string Untimed(const std::string& text) {
  std::string out;
  for (const std::string& line : Lines(text)) {
    if (line.rfind("Took ", 0) != 0) out += line + "\n";
  }
  return out;
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(CommandTableTest, BothFrontEndsChangeTheSameStore) {
  testing::TempDir dir;
  auto cli = [&](const std::string& args) { return Basalt(dir.path(), args); };
  auto shell = [&](const std::string& script) { return Untimed(Shell(dir.path(), script)); };

  EXPECT_EQ(cli("create t f:versions=3 g"), "created table t\n");
  EXPECT_TRUE(Has(shell("describe 't'"), "{NAME => 'f', VERSIONS => '3'")) << shell("describe 't'");
  EXPECT_EQ(shell("put 't', 'r1', 'f:q', 'one', 10\n"
                  "put 't', 'r2', 'g:q', 'two', 20\n"
                  "incr 't', 'c', 'f:n', 2\n"),
            "COUNTER VALUE = 2\n");
  EXPECT_EQ(cli("incr t c f:n 5"), "COUNTER VALUE = 7\n");
  EXPECT_EQ(cli("put t r3 f:q three --ts 30"), "put 1 cell(s)\n");
  EXPECT_EQ(cli("count t"), "4 row(s)\n");
  EXPECT_EQ(shell("count 't'"), "4 row(s)\n");
  // LIMIT and --limit are one parameter: 0 is no limit in both.
  EXPECT_TRUE(Has(cli("scan t --limit 0"), "\n4 row(s)\n"));
  EXPECT_TRUE(Has(shell("scan 't', {LIMIT => 0}"), "\n4 row(s)\n"));
  EXPECT_TRUE(Has(cli("scan t --limit 1"), "\n1 row(s)\n"));
  EXPECT_TRUE(Has(shell("scan 't', {LIMIT => 1}"), "\n1 row(s)\n"));
  EXPECT_TRUE(Has(shell("get 't', 'r3'"), "timestamp=30, value=three")) << shell("get 't', 'r3'");
  EXPECT_TRUE(Has(cli("get t r1"), "timestamp=10, value=one")) << cli("get t r1");

  // delete is the shell's deleteall.
  EXPECT_EQ(cli("delete t r1"), "deleted\n");
  EXPECT_EQ(shell("deleteall 't', 'r2'"), "");
  EXPECT_EQ(cli("count t"), "2 row(s)\n");
  EXPECT_EQ(shell("count 't'"), "2 row(s)\n");

  // One reading of a family's options for both.
  EXPECT_EQ(shell("alter 't', NAME => 'f', VERSIONS => 5"), "");
  EXPECT_TRUE(Has(cli("describe t"), "{NAME => 'f', VERSIONS => '5'")) << cli("describe t");
  EXPECT_EQ(cli("alter t f:ttl=60 --drop-family g"), "altered table t\n");
  const std::string described = shell("describe 't'");
  EXPECT_TRUE(
      Has(described, "{NAME => 'f', VERSIONS => '5', MIN_VERSIONS => '0', TTL => '60 SECONDS'"))
      << described;
  EXPECT_FALSE(Has(described, "NAME => 'g'")) << described;

  // The command line's truncate keeps the split keys, as the shell's truncate_preserve.
  EXPECT_EQ(cli("truncate t"), "truncated table t\n");
  EXPECT_EQ(shell("count 't'"), "0 row(s)\n");
  EXPECT_EQ(shell("disable 't'"), "");
  EXPECT_EQ(cli("enable t"), "enabled table t\n");
  // The shell's drop wants the table disabled; the command line's disables it first.
  EXPECT_TRUE(Has(Shell(dir.path(), "drop 't'"), "is enabled. Disable it first"));
  EXPECT_EQ(cli("drop t"), "dropped table t\n");
  EXPECT_EQ(shell("list"), "TABLE\n0 row(s)\n");
  EXPECT_EQ(cli("list"), "TABLE\n0 row(s)\n");
  EXPECT_EQ(shell("create_namespace 'ns'"), "");
  EXPECT_EQ(cli("namespaces"), "NAMESPACE\ndefault\nhbase\nns\n3 row(s)\n");
  // The shell's pattern is the command line's --pattern.
  EXPECT_EQ(cli("namespaces --pattern 'n.*'"), "NAMESPACE\nns\n1 row(s)\n");
  EXPECT_EQ(shell("list_namespace 'n.*'"), "NAMESPACE\nns\n1 row(s)\n");
}

}  // namespace
}  // namespace basalt
