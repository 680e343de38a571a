// Runs the scripts in tests/cli/*.test against the real `basalt` binary, one process per
// command, each script on a fresh data directory.
//
// Script format:
//   # comment                    ignored (also blank lines)
//   $ ARGS...                    runs `basalt --data DIR ARGS...`; words split on spaces,
//                                'single' or "double" quotes group words, backslashes are kept
//                                (so \x00 reaches basalt as HBase's escape)
//   any other line               expected stdout, line by line; {*} matches any text
//   ! TEXT                       expected stderr line (same matching)
//   ? N                          expected exit status (default 0)
//   > NAME                       a file NAME in the command's working directory (the script's
//                                own), written before the next command runs; its content is
//   | TEXT                       the `| ` lines after it, each ending with a newline (a bare
//                                `|` is an empty line), bytes as written (tabs included)
// Every output line of a command must be expected, in order.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/shell_quote.h"
#include "support/test_store.h"

namespace basalt {
namespace {

using testing::ShellQuote;

struct ScriptFile {
  std::string name;
  std::string content;
};

struct Step {
  int line = 0;
  std::string args;               // as written after "$ "
  std::vector<ScriptFile> files;  // written before the command runs
  std::vector<std::string> stdout_lines;
  std::vector<std::string> stderr_lines;
  int status = 0;
};

std::vector<std::string> SplitWords(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (char c : text) {
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else {
        word += c;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == ' ') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

std::vector<std::string> ReadLines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

bool LineMatches(const std::string& pattern, const std::string& actual) {
  if (pattern.find("{*}") == std::string::npos) return pattern == actual;
  std::string re;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern.compare(i, 3, "{*}") == 0) {
      re += ".*";
      i += 2;
    } else if (std::string("\\^$.|?*+()[]{}").find(pattern[i]) != std::string::npos) {
      re += '\\';
      re += pattern[i];
    } else {
      re += pattern[i];
    }
  }
  return std::regex_match(actual, std::regex(re));
}

void ExpectLines(const std::vector<std::string>& expected, const std::vector<std::string>& actual,
                 const std::string& stream, const Step& step) {
  bool same = expected.size() == actual.size();
  for (size_t i = 0; same && i < expected.size(); ++i) same = LineMatches(expected[i], actual[i]);
  if (same) return;
  std::ostringstream msg;
  msg << "line " << step.line << ": $ " << step.args << "\n" << stream << " expected:\n";
  for (const auto& l : expected) msg << "  | " << l << "\n";
  msg << stream << " actual:\n";
  for (const auto& l : actual) msg << "  | " << l << "\n";
  ADD_FAILURE() << msg.str();
}

std::vector<Step> ParseScript(const std::string& path) {
  std::vector<Step> steps;
  std::vector<ScriptFile> files;  // for the next command
  int n = 0;
  for (const auto& line : ReadLines(path)) {
    ++n;
    if (line.rfind("$ ", 0) == 0) {
      steps.push_back({n, line.substr(2), std::move(files), {}, {}, 0});
      files.clear();
      continue;
    }
    if (line.rfind("> ", 0) == 0) {
      files.push_back({line.substr(2), ""});
      continue;
    }
    if (line == "|" || line.rfind("| ", 0) == 0) {
      if (files.empty()) {
        ADD_FAILURE() << path << ":" << n << ": file content before `> NAME`";
        continue;
      }
      files.back().content += (line == "|" ? "" : line.substr(2)) + "\n";
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    if (steps.empty()) {
      ADD_FAILURE() << path << ":" << n << ": output before the first command";
      continue;
    }
    if (line.rfind("! ", 0) == 0) {
      steps.back().stderr_lines.push_back(line.substr(2));
    } else if (line.rfind("? ", 0) == 0) {
      steps.back().status = std::stoi(line.substr(2));
    } else {
      steps.back().stdout_lines.push_back(line);
    }
  }
  return steps;
}

std::vector<std::string> Scripts() {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(BASALT_CLI_TEST_DIR)) {
    if (e.path().extension() == ".test") names.push_back(e.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

class CliScriptTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CliScriptTest, OutputMatchesTheScript) {
  testing::TempDir dir;
  const std::string script = std::string(BASALT_CLI_TEST_DIR) + "/" + GetParam() + ".test";
  const std::string out_file = dir.path() + "/stdout";
  const std::string err_file = dir.path() + "/stderr";
  for (const Step& step : ParseScript(script)) {
    for (const ScriptFile& f : step.files) {
      std::ofstream(dir.path() + "/" + f.name, std::ios::binary) << f.content;
    }
    std::string cmd = "cd " + ShellQuote(dir.path()) + " && " + ShellQuote(BASALT_BINARY) +
                      " --data " + ShellQuote(dir.path() + "/data");
    for (const auto& w : SplitWords(step.args)) cmd += " " + ShellQuote(w);
    cmd += " >" + ShellQuote(out_file) + " 2>" + ShellQuote(err_file);
    int raw = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(raw)) << "line " << step.line << ": basalt did not exit normally";
    EXPECT_EQ(WEXITSTATUS(raw), step.status) << "line " << step.line << ": $ " << step.args;
    ExpectLines(step.stdout_lines, ReadLines(out_file), "stdout", step);
    ExpectLines(step.stderr_lines, ReadLines(err_file), "stderr", step);
  }
}

INSTANTIATE_TEST_SUITE_P(Scripts, CliScriptTest, ::testing::ValuesIn(Scripts()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace basalt
