// A word quoted for /bin/sh, for tests that run a command line through system().

#ifndef BASALT_TESTS_SUPPORT_SHELL_QUOTE_H_
#define BASALT_TESTS_SUPPORT_SHELL_QUOTE_H_

#include <string>

namespace basalt::testing {

// `s` in single quotes, each quote in it closed, escaped and reopened.
inline std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

}  // namespace basalt::testing

#endif  // BASALT_TESTS_SUPPORT_SHELL_QUOTE_H_
