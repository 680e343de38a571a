#include "shell/repl.h"

// clang-format off
#include <cstdio>  // libedit's readline.h needs FILE first
#include <editline/readline.h>
// clang-format on
#include <fcntl.h>
#include <langinfo.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <clocale>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <vector>

#include "basalt/connection.h"
#include "shell/parser.h"
#include "shell/session.h"

namespace basalt::shell {
namespace {

constexpr int kHistoryLines = 1000;

// Set by SIGINT (Ctrl-C) in an interactive session: it cancels the line being typed, or stops
// the running command. Lock-free, so the handler may store to it.
std::atomic<bool> interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);

// A pipe the SIGINT handler writes a byte to, so that ReadKey wakes up: a Ctrl-C that came
// while libedit was busy with earlier keys, not blocked in a read, used to wait for the next key.
int interrupt_pipe[2] = {-1, -1};

void OnInterrupt(int /*signo*/) {
  interrupted.store(true);
  const int saved_errno = errno;
  if (interrupt_pipe[1] >= 0) {
    [[maybe_unused]] ssize_t n = write(interrupt_pipe[1], "i", 1);
  }
  errno = saved_errno;
}

void DrainInterruptPipe() {
  char buf[64];
  while (read(interrupt_pipe[0], buf, sizeof(buf)) > 0) {
  }
}

// One byte of terminal input; false at end of input, on an error, or once Ctrl-C was pressed.
bool ReadByte(int fd, unsigned char* byte) {
  while (!interrupted.load()) {
    pollfd fds[2] = {{fd, POLLIN, 0}, {interrupt_pipe[0], POLLIN, 0}};
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if ((fds[1].revents & POLLIN) != 0) {
      DrainInterruptPipe();
      continue;
    }
    if (fds[0].revents == 0) continue;
    ssize_t n = read(fd, byte, 1);
    if (n == 1) return true;
    if (n < 0 && errno == EINTR) continue;
    return false;
  }
  return false;
}

// libedit's key reader (rl_getc_function): a character decoded from UTF-8, or EOF, which makes
// readline return, when input ends or Ctrl-C is pressed. A byte that does not start a UTF-8
// sequence is passed on as it is.
int ReadKey(FILE* in) {
  const int fd = fileno(in);
  unsigned char lead;
  if (!ReadByte(fd, &lead)) return EOF;
  int extra = lead < 0x80             ? 0
              : (lead & 0xE0) == 0xC0 ? 1
              : (lead & 0xF0) == 0xE0 ? 2
              : (lead & 0xF8) == 0xF0 ? 3
                                      : -1;
  if (extra <= 0) return lead;
  int code_point = lead & (0x3F >> extra);
  for (int i = 0; i < extra; ++i) {
    unsigned char next;
    if (!ReadByte(fd, &next)) return EOF;
    if ((next & 0xC0) != 0x80) return 0xFFFD;  // a broken sequence: the replacement character
    code_point = (code_point << 6) | (next & 0x3F);
  }
  return code_point;
}

// libedit's completion callbacks take no context; the interactive loop sets these.
std::vector<std::string>* completion_names = nullptr;
Connection* completion_connection = nullptr;
std::vector<std::string> completion_candidates;

char* NextCandidate(const char* text, int state) {
  static size_t index = 0;
  if (state == 0) index = 0;
  const std::string prefix(text);
  while (index < completion_candidates.size()) {
    const std::string& name = completion_candidates[index++];
    if (name.compare(0, prefix.size(), prefix) == 0) return strdup(name.c_str());
  }
  return nullptr;
}

// The first word completes to a command name; a word after a quote to a table name (the quote
// is a word break, so `scan 'us<Tab>` completes `us`).
char** Complete(const char* text, int start, int /*end*/) {
  completion_candidates.clear();
  if (start == 0) {
    if (completion_names != nullptr) completion_candidates = *completion_names;
    rl_completion_append_character = ' ';
  } else if (start > 0 && completion_connection != nullptr &&
             (rl_line_buffer[start - 1] == '\'' || rl_line_buffer[start - 1] == '"')) {
    auto tables = completion_connection->admin().ListTables();
    if (tables.ok()) {
      for (const auto& t : *tables) completion_candidates.push_back(t.ToString());
    }
    rl_completion_append_character = rl_line_buffer[start - 1];  // close the quote
  } else {
    return nullptr;
  }
  return rl_completion_matches(text, NextCandidate);
}

std::string HistoryPath() {
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0') return "";
  return std::string(home) + "/.basalt_history";
}

std::string Prompt(int statement, bool continuation) {
  char buf[40];
  std::snprintf(buf, sizeof(buf), "basalt:%03d:%d%s ", statement, continuation ? 1 : 0,
                continuation ? "*" : ">");
  return buf;
}

// Reads statements from `in` (no prompts); returns the number of failed commands.
int RunStream(Session& session, std::istream& in) {
  std::string pending, line;
  while (std::getline(in, line)) {
    pending += line;
    if (NeedsMoreInput(pending)) {
      pending += '\n';
      continue;
    }
    Session::Next next = session.Run(pending);
    pending.clear();
    if (next == Session::Next::kExit) return session.failures();
  }
  if (!pending.empty()) session.Run(pending);  // its syntax error says what is missing
  return session.failures();
}

void RunInteractive(Session& session, Connection& conn) {
  std::vector<std::string> names = session.CommandNames();
  completion_names = &names;
  completion_connection = &conn;
  // libedit decodes keys in the locale's character set; in the "C" locale a process starts
  // in, every non-ASCII key was dropped. Shell input is UTF-8, whatever the locale says.
  if (std::setlocale(LC_CTYPE, "") == nullptr || std::strcmp(nl_langinfo(CODESET), "UTF-8") != 0) {
    std::setlocale(LC_CTYPE, "C.UTF-8");
  }
  rl_readline_name = "basalt";
  if (pipe2(interrupt_pipe, O_NONBLOCK | O_CLOEXEC) == 0) rl_getc_function = ReadKey;
  rl_attempted_completion_function = Complete;
  using_history();
  stifle_history(kHistoryLines);
  const std::string history = HistoryPath();
  if (!history.empty()) read_history(history.c_str());  // a missing file is a first session

  // No SA_RESTART: a Ctrl-C at the prompt makes readline return, so the line can be dropped.
  struct sigaction action = {};
  action.sa_handler = OnInterrupt;
  sigemptyset(&action.sa_mask);
  struct sigaction previous = {};
  sigaction(SIGINT, &action, &previous);
  session.set_interrupt_flag(&interrupted);

  std::cout << "basalt shell on " << conn.target()
            << "; type 'help' for the commands, 'exit' to leave, Ctrl-C cancels.\n";
  int statement = 1;
  std::string pending;
  while (true) {
    DrainInterruptPipe();  // a Ctrl-C already acted on (interrupted is clear here)
    std::unique_ptr<char, decltype(&std::free)> line(
        readline(Prompt(statement, !pending.empty()).c_str()), &std::free);
    if (interrupted.exchange(false)) {  // Ctrl-C: drop what was typed, prompt again
      pending.clear();
      std::cout << "\n";
      continue;
    }
    if (!line) {  // Ctrl-D
      std::cout << "\n";
      break;
    }
    std::string text(line.get());
    if (!text.empty()) add_history(text.c_str());
    pending += text;
    if (NeedsMoreInput(pending)) {
      pending += '\n';
      continue;
    }
    interrupted.store(false);
    Session::Next next = session.Run(pending);
    // A Ctrl-C during the command stopped it: it must not also cancel the next line typed.
    interrupted.store(false);
    pending.clear();
    ++statement;
    if (next == Session::Next::kExit) break;
  }
  if (!history.empty()) write_history(history.c_str());
  completion_names = nullptr;
  completion_connection = nullptr;
  session.set_interrupt_flag(nullptr);
  sigaction(SIGINT, &previous, nullptr);
  if (interrupt_pipe[0] >= 0) {
    rl_getc_function = nullptr;
    close(interrupt_pipe[0]);
    close(interrupt_pipe[1]);
    interrupt_pipe[0] = interrupt_pipe[1] = -1;
  }
}

}  // namespace

int RunShell(const std::string& target, const std::string& script_path) {
  Result<std::unique_ptr<Connection>> conn = Connection::Open(target);
  if (!conn.ok()) {
    std::cerr << "ERROR: " << conn.status().ToString() << "\n";
    return 1;
  }
  Session session(**conn, std::cout, std::cerr);
  int failures = 0;
  if (!script_path.empty()) {
    std::ifstream in(script_path);
    if (!in) {
      std::cerr << "ERROR: cannot read " << script_path << "\n";
      return 1;
    }
    failures = RunStream(session, in);
  } else if (isatty(STDIN_FILENO) != 0) {
    RunInteractive(session, **conn);
  } else {
    failures = RunStream(session, std::cin);
  }
  std::cout.flush();
  Status closed = (*conn)->Close();
  if (!closed.ok()) {
    std::cerr << "ERROR: closing the store: " << closed.ToString() << "\n";
    return 1;
  }
  return failures > 0 ? 1 : 0;
}

}  // namespace basalt::shell
