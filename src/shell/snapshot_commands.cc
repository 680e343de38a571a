// Snapshot commands, as HBase's shell: snapshot, list_snapshots, clone_snapshot,
// restore_snapshot, delete_snapshot (basalt/snapshot.h; an embedded store only: over Thrift2
// they fail with NotSupported, as the protocol has no snapshot calls).

#include <ctime>
#include <optional>
#include <regex>
#include <string>

#include "shell/arguments.h"
#include "shell/commands.h"
#include "shell/operations.h"

namespace basalt::shell {
namespace {

// As HBase's shell prints a snapshot's creation time (Ruby's Time#to_s), in UTC.
std::string FormatCreationTime(int64_t millis) {
  const std::time_t seconds = static_cast<std::time_t>(millis / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[64];
  std::strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S +0000", &tm);
  return buf;
}

// HBase's two columns, SNAPSHOT and TABLE + CREATION TIME, with what the snapshot costs on disk
// after the time.
Status ListSnapshots(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 0, 1, "list_snapshots"));
  BASALT_ASSIGN_OR_RETURN(std::optional<std::regex> pattern, NamePatternArg(args));
  BASALT_ASSIGN_OR_RETURN(auto snapshots, ctx.conn.admin().ListSnapshots());
  constexpr size_t kWidth = 30;
  auto pad = [](std::string s) {
    if (s.size() < kWidth) s.resize(kWidth, ' ');
    return s + " ";
  };
  ctx.out << pad("SNAPSHOT") << "TABLE + CREATION TIME\n";
  int64_t shown = 0;
  for (const SnapshotInfo& s : snapshots) {
    if (pattern && !std::regex_match(s.name, *pattern)) continue;
    ctx.out << " " << pad(s.name) << s.table.ToString() << " ("
            << FormatCreationTime(s.creation_time_ms) << "), shared " << s.shared_bytes
            << " bytes, exclusive " << s.exclusive_bytes << " bytes\n";
    ++shown;
  }
  ctx.out << shown << " row(s)\n";
  return Status::OK();
}

}  // namespace

std::vector<CommandSpec> SnapshotCommands() {
  return {
      ShellCommandFor(OperationNamed("snapshot")),
      {"list_snapshots", "snapshots",
       "list snapshots, optionally those matching a regular expression, with their disk cost",
       "list_snapshots\nlist_snapshots 'snap.*'", &ListSnapshots},
      ShellCommandFor(OperationNamed("clone_snapshot")),
      ShellCommandFor(OperationNamed("restore_snapshot")),
      ShellCommandFor(OperationNamed("delete_snapshot")),
  };
}

}  // namespace basalt::shell
