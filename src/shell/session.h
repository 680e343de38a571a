// A shell session: parses input (parser.h), runs each command (commands.h) on one Connection,
// and prints results, timings and errors. It knows nothing of terminals, so it is driven the
// same way by the interactive loop, by scripts on stdin and by tests.
//
// After each successful command it prints "Took S.SSSS seconds". A failed command prints
// "ERROR: <what>" and a hint on the error stream; the session goes on with the next command.

#ifndef BASALT_SHELL_SESSION_H_
#define BASALT_SHELL_SESSION_H_

#include <atomic>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/connection.h"
#include "shell/commands.h"

namespace basalt::shell {

class Session {
 public:
  // `conn` must outlive the session. Results go to `out`, errors to `err` (which may be the same
  // stream; `out` is flushed before an error is written so the two interleave in order).
  Session(Connection& conn, std::ostream& out, std::ostream& err);

  enum class Next { kContinue, kExit };

  // Runs every command in `text` (one line, or several joined while NeedsMoreInput). Returns
  // kExit after an `exit` (commands after it are not run).
  Next Run(std::string_view text);

  // A flag that, once set, stops the running command (Aborted) and the rest of the input given
  // to Run. The caller clears it. Must outlive the session; may be null (the default).
  void set_interrupt_flag(std::atomic<bool>* flag) { interrupted_ = flag; }

  // Every command name, for completion.
  std::vector<std::string> CommandNames() const;

  // How many commands failed so far (syntax errors count as one each).
  int failures() const { return failures_; }

 private:
  void RunHelp(const std::vector<Value>& args);
  void ReportError(const Status& status, std::string_view hint);
  void ReportSyntaxError(std::string_view text, size_t offset, const Status& status);
  const CommandSpec* Find(std::string_view name) const;
  std::string Suggest(std::string_view name) const;

  Connection& conn_;
  std::ostream& out_;
  std::ostream& err_;
  std::vector<CommandSpec> commands_;
  int failures_ = 0;
  std::atomic<bool>* interrupted_ = nullptr;
};

}  // namespace basalt::shell

#endif  // BASALT_SHELL_SESSION_H_
