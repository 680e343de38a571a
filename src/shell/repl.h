// `basalt shell`: the read-eval-print loop around a Session.
//
// With a terminal on stdin it reads lines with libedit (line editing, Tab completes command
// names and, after a quote, table names; history kept in ~/.basalt_history; Ctrl-C cancels the
// line or stops the running command). Otherwise (a pipe, a file, or a script path) it
// reads the input without prompts or history. Either way a command may span lines while a
// bracket is open or a line ends in ',' or '=>'.

#ifndef BASALT_SHELL_REPL_H_
#define BASALT_SHELL_REPL_H_

#include <string>

namespace basalt::shell {

// Opens `target` (as Connection::Open) and runs the shell on the file `script_path`, or on
// stdin when it is empty. Returns the process exit status: 0, or 1 when the store could not
// be opened or, reading a script or a non-terminal stdin, when any command failed (the shell
// still runs every command, as HBase's does). An interactive session exits 0.
int RunShell(const std::string& target, const std::string& script_path);

}  // namespace basalt::shell

#endif  // BASALT_SHELL_REPL_H_
