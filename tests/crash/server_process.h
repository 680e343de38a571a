// A `basalt serve` child process for the crash tests (and the Thrift1 tests, which play a
// client's calls against a real server): started on a data directory, killed with SIGKILL,
// restarted on the same directory and Thrift ports.

#ifndef BASALT_TESTS_CRASH_SERVER_PROCESS_H_
#define BASALT_TESTS_CRASH_SERVER_PROCESS_H_

#include <sys/types.h>

#include <string>
#include <vector>

#include "basalt/status.h"

namespace basalt::crash {

class ServerProcess {
 public:
  // `binary` is the basalt executable; the server's stderr is appended to `log_path`;
  // `extra_args` are added to `serve`'s (say --thrift1-framed).
  ServerProcess(std::string binary, std::string data_dir, std::string log_path,
                std::vector<std::string> extra_args = {});
  // Kills the server if it is running.
  ~ServerProcess();

  // Starts `basalt serve --data DIR --port 0 --thrift-port P --thrift1-port P1`, P and P1 being
  // the ports of the previous start (0 the first time: the server picks them), and waits for its
  // ready lines. Retries for a while when a port is not free yet.
  Status Start();
  // SIGKILL, then waits for the process to be gone.
  Status Kill();
  // SIGTERM (a clean shutdown), then waits; Internal unless it exits with status 0.
  Status Stop();

  bool running() const { return pid_ > 0; }
  int thrift_port() const { return thrift_port_; }
  int thrift1_port() const { return thrift1_port_; }
  // "thrift://127.0.0.1:PORT?timeout_ms=..." for Connection::Open.
  std::string target() const;

 private:
  Status StartOnce();
  Status Wait(int expected_signal);

  const std::string binary_;
  const std::string data_dir_;
  const std::string log_path_;
  const std::vector<std::string> extra_args_;
  pid_t pid_ = -1;
  int stdout_fd_ = -1;  // the read end of the server's stdout
  int thrift_port_ = 0;
  int thrift1_port_ = 0;
};

}  // namespace basalt::crash

#endif  // BASALT_TESTS_CRASH_SERVER_PROCESS_H_
