// Crash tests that kill a process in the middle of its work run that work in a child: this test
// binary started again (fork, then exec of /proc/self/exe), not a bare fork. A forked child of a
// process that has opened a store inherits RocksDB's thread pools without their threads, so its
// flushes would wait forever; a new image starts them afresh.
//
// A test file names its child's entry point once, at namespace scope:
//
//   const bool kRegistered = RegisterChildRole("backup-loop", &BackupLoopMain);
//
// and starts it with SpawnChild("backup-loop", {args...}) or RunUntilKilled. The binary's main
// (child_process.cc, linked instead of gtest_main) runs the role its environment names, with the
// arguments given, instead of the tests.

#ifndef BASALT_TESTS_CRASH_CHILD_PROCESS_H_
#define BASALT_TESTS_CRASH_CHILD_PROCESS_H_

#include <sys/types.h>

#include <string>
#include <vector>

namespace basalt::crash {

// A child's work; it never returns (the child ends with _exit or is killed).
using ChildMain = void (*)(const std::vector<std::string>& args);

// Makes `main` the entry point of the child role `role`. Returns true, for a namespace-scope
// initializer.
bool RegisterChildRole(const char* role, ChildMain main);

// Starts the child `role` with `args` (file descriptors to share must not be close-on-exec);
// its standard output goes to /dev/null. Returns its pid, or -1 when fork fails.
pid_t SpawnChild(const std::string& role, const std::vector<std::string>& args);

// Runs the child `role` with `args` and, last, the write end of a pipe (its descriptor number),
// and kills it with SIGKILL `run_ms` after the first bytes it writes there (so that a slow start
// on a loaded machine still leaves it time to work), or after 30 s without any. Returns every byte
// it wrote before it died; a child that ended by itself fails the test.
std::string RunUntilKilled(const std::string& role, std::vector<std::string> args, int run_ms);

}  // namespace basalt::crash

#endif  // BASALT_TESTS_CRASH_CHILD_PROCESS_H_
