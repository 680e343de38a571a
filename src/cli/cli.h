// The `basalt` command line: subcommands over the public API.

#ifndef BASALT_CLI_CLI_H_
#define BASALT_CLI_CLI_H_

namespace basalt::cli {

// Runs the command line; returns the process exit status.
int Main(int argc, char** argv);

}  // namespace basalt::cli

#endif  // BASALT_CLI_CLI_H_
