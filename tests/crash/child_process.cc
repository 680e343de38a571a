#include "child_process.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
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

std::string RunUntilKilled(const std::string& role, std::vector<std::string> args, int run_ms) {
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  args.push_back(std::to_string(fds[1]));
  const pid_t pid = SpawnChild(role, args);
  EXPECT_GT(pid, 0);
  close(fds[1]);
  std::string written;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  bool killed = false;
  char buf[4096];
  while (true) {
    if (!killed && std::chrono::steady_clock::now() >= deadline) {
      kill(pid, SIGKILL);
      killed = true;
    }
    pollfd p{fds[0], POLLIN, 0};
    if (poll(&p, 1, 5) <= 0) continue;
    const ssize_t n = read(fds[0], buf, sizeof(buf));
    if (n == 0) break;  // the child is gone and everything it wrote has been read
    if (n < 0) continue;
    if (written.empty()) {
      deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(run_ms);
    }
    written.append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
      << "the child '" << role << "' stopped by itself (status " << status
      << ") before it was killed";
  return written;
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
