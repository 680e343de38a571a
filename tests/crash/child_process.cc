#include "child_process.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace basalt::crash {
namespace {

// The child's role, and its arguments one per line.
constexpr char kRoleEnv[] = "BASALT_CRASH_CHILD_ROLE";
constexpr char kArgsEnv[] = "BASALT_CRASH_CHILD_ARGS";

std::map<std::string, ChildMain>& Roles() {
  static std::map<std::string, ChildMain> roles;
  return roles;
}

std::vector<std::string> SplitLines(const char* text) {
  std::vector<std::string> lines;
  std::string line;
  for (const char* c = text; *c != '\0'; ++c) {
    if (*c == '\n') {
      lines.push_back(line);
      line.clear();
    } else {
      line += *c;
    }
  }
  return lines;
}

}  // namespace

bool RegisterChildRole(const char* role, ChildMain main) {
  Roles()[role] = main;
  return true;
}

pid_t SpawnChild(const std::string& role, const std::vector<std::string>& args) {
  std::string joined;
  for (const std::string& a : args) joined += a + "\n";
  const pid_t pid = fork();
  if (pid != 0) return pid;
  setenv(kRoleEnv, role.c_str(), 1);
  setenv(kArgsEnv, joined.c_str(), 1);
  const int null_fd = open("/dev/null", O_WRONLY);
  if (null_fd >= 0) dup2(null_fd, STDOUT_FILENO);
  execl("/proc/self/exe", "crash-test-child", static_cast<char*>(nullptr));
  _exit(9);
}

}  // namespace basalt::crash

int main(int argc, char** argv) {
  if (const char* role = std::getenv(basalt::crash::kRoleEnv)) {
    auto it = basalt::crash::Roles().find(role);
    if (it == basalt::crash::Roles().end()) {
      std::fprintf(stderr, "no crash-test child role '%s'\n", role);
      return 10;
    }
    const char* args = std::getenv(basalt::crash::kArgsEnv);
    it->second(basalt::crash::SplitLines(args != nullptr ? args : ""));
    _exit(11);  // a role never returns
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
