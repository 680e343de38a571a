#include "server_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <regex>
#include <thread>
#include <vector>

namespace basalt::crash {
namespace {

// Reads lines from `fd` until `pattern` matches one (its first group is returned) or EOF or
// the deadline.
Result<int> WaitForLine(int fd, const std::regex& pattern, std::string* seen,
                        std::chrono::steady_clock::time_point deadline) {
  std::string line;
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    char c;
    ssize_t n = read(fd, &c, 1);
    if (n <= 0) return Status::Aborted("the server exited before it was ready: " + *seen);
    if (c != '\n') {
      line.push_back(c);
      continue;
    }
    *seen += line + "\n";
    std::smatch m;
    if (std::regex_search(line, m, pattern)) return std::stoi(m[1].str());
    line.clear();
  }
  return Status::Busy("the server was not ready in time: " + *seen);
}

}  // namespace

ServerProcess::ServerProcess(std::string binary, std::string data_dir, std::string log_path,
                             std::vector<std::string> extra_args)
    : binary_(std::move(binary)),
      data_dir_(std::move(data_dir)),
      log_path_(std::move(log_path)),
      extra_args_(std::move(extra_args)) {}

ServerProcess::~ServerProcess() {
  if (running()) Kill().PermitUncheckedError();
}

std::string ServerProcess::target() const {
  return "thrift://127.0.0.1:" + std::to_string(thrift_port_) + "?timeout_ms=20000";
}

Status ServerProcess::Start() {
  if (running()) return Status::FailedPrecondition("the server is running");
  Status s;
  // After a SIGKILL the port can take a moment to be free again, and the data directory's lock
  // is released only once the process is reaped (done by Kill).
  for (int attempt = 0; attempt < 50; ++attempt) {
    s = StartOnce();
    if (s.ok()) return s;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return s;
}

Status ServerProcess::StartOnce() {
  int out[2];
  if (pipe(out) != 0) return Status::IOError("pipe failed");
  std::vector<std::string> args = {binary_,          "serve",
                                   "--data",         data_dir_,
                                   "--bind",         "127.0.0.1",
                                   "--port",         "0",
                                   "--thrift-port",  std::to_string(thrift_port_),
                                   "--thrift1-port", std::to_string(thrift1_port_),
                                   "--no-hbase-rpc"};
  args.insert(args.end(), extra_args_.begin(), extra_args_.end());
  pid_t pid = fork();
  if (pid < 0) return Status::IOError("fork failed");
  if (pid == 0) {
    dup2(out[1], STDOUT_FILENO);
    int log = open(log_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (log >= 0) dup2(log, STDERR_FILENO);
    close(out[0]);
    close(out[1]);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(binary_.c_str(), argv.data());
    _exit(127);
  }
  close(out[1]);
  pid_ = pid;
  std::string seen;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  Result<int> thrift =
      WaitForLine(out[0], std::regex("thrift2 on [0-9.]+:(\\d+)"), &seen, deadline);
  Result<int> thrift1 =
      thrift.ok() ? WaitForLine(out[0], std::regex("thrift1 on [0-9.]+:(\\d+)"), &seen, deadline)
                  : thrift.status();
  Result<int> http =
      thrift1.ok()
          ? WaitForLine(out[0], std::regex("listening on http://[0-9.]+:(\\d+)"), &seen, deadline)
          : thrift1.status();
  // Kept open until the process is reaped: the server may print more (e.g. on shutdown), and
  // a closed pipe would kill it with SIGPIPE.
  stdout_fd_ = out[0];
  if (!http.ok()) {
    Kill().PermitUncheckedError();
    return http.status();
  }
  thrift_port_ = *thrift;
  thrift1_port_ = *thrift1;
  return Status::OK();
}

Status ServerProcess::Wait(int expected_signal) {
  int status = 0;
  pid_t pid = pid_;
  pid_ = -1;
  pid_t reaped = waitpid(pid, &status, 0);
  if (stdout_fd_ >= 0) close(stdout_fd_);
  stdout_fd_ = -1;
  if (reaped != pid) return Status::Internal("waitpid failed");
  if (expected_signal != 0) {
    if (WIFSIGNALED(status) && WTERMSIG(status) == expected_signal) return Status::OK();
    if (WIFEXITED(status)) {
      return Status::Internal("the server had exited (status " +
                              std::to_string(WEXITSTATUS(status)) + ") before it was killed");
    }
    return Status::OK();
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return Status::OK();
  return Status::Internal("the server did not exit cleanly (wait status " + std::to_string(status) +
                          ")");
}

Status ServerProcess::Kill() {
  if (!running()) return Status::FailedPrecondition("the server is not running");
  kill(pid_, SIGKILL);
  return Wait(SIGKILL);
}

Status ServerProcess::Stop() {
  if (!running()) return Status::FailedPrecondition("the server is not running");
  kill(pid_, SIGTERM);
  return Wait(0);
}

}  // namespace basalt::crash
